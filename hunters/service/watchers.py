"""Watch streams: a match's encoded versions from any version on, then each new one as it is committed.

Live watchers share one encoding per version and form (`LiveMatch.recent`, `recent_brief`: the whole
state, or its summary for streams opened `changes_only`); the current version is encoded from the
match itself; a watcher further behind replays the moves on its own copy of the game (`Replay`) on
the reads thread, a short chunk at a time: the first chunks are small and grow (to `CHUNK_MESSAGES`)
as the watcher reads them, and the next one is built while one is sent only once the watcher has
read a whole chunk. A long history stalls nobody else, and a watcher that does not read costs a few
messages, not a chunk ahead of what it could take."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc

from hunters.v1 import matches_pb2

from .errors import ServiceError
from .live import EventEncoder, LiveMatch, Notice
from .reads import Reads

CHUNK_MESSAGES = 64  # historical messages built ahead for one watcher, at most
FIRST_CHUNK = 4  # ... in its first chunk; each chunk it reads whole doubles the next one
CHUNK_BYTES = 64 * 1024  # ... and their bytes (about: the last one may pass it)
CHUNK_SECONDS = 0.005  # one job of the reads thread (replaying, encoding) stops after about this long
REPLAYS_PER_HOST = 2  # watchers of one host replaying history at once; its others wait their turn


class HostSlots:
    """At most `per_host` holders at once per host key; the others wait (on the loop, costing
    nothing) in the order they came. A watcher holds a slot while it replays history: the client
    sets how much it buffers (its flow-control window), so without a bound one host's unread
    streams from version 0 would keep the reads thread and the event loop busy for everyone."""

    def __init__(self, per_host: int):
        self.per_host = per_host
        self._held: dict[str, int] = {}
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}

    async def acquire(self, host: str) -> None:
        if self._held.get(host, 0) < self.per_host and not self._waiting.get(host):
            self._held[host] = self._held.get(host, 0) + 1
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(host, deque()).append(woken)
        try:
            await woken  # the slot was handed over with the wake-up
        except asyncio.CancelledError:
            if woken.done() and not woken.cancelled():
                self.release(host)
            else:
                self._waiting[host].remove(woken)
                if not self._waiting[host]:
                    del self._waiting[host]
            raise

    def release(self, host: str) -> None:
        queue = self._waiting.get(host)
        while queue:
            woken = queue.popleft()
            if not queue:
                del self._waiting[host]
            if not woken.done():
                woken.set_result(None)  # the slot passes to it
                return
        left = self._held.get(host, 0) - 1
        if left > 0:
            self._held[host] = left
        else:
            self._held.pop(host, None)


class Replay:
    """One watcher's own copy of the game, replayed on the reads thread to encode the versions no
    one else holds (the `build` jobs of one stream run one after the other, never at once)."""

    def __init__(self, live: LiveMatch, encode: EventEncoder, brief: bool):
        self.live = live
        self.encode = encode
        self.brief = brief
        self.cursor: Any = None
        self.events: list[Any] = []

    def build(self, version: int, last: int, most: int = CHUNK_MESSAGES) -> list[bytes]:
        """The encoded versions from `version` on, up to `last`, at most `most` and as many as one
        chunk holds (none when the time ran out replaying the moves before `version`: ask again)."""
        live = self.live
        stop = time.monotonic() + CHUNK_SECONDS
        # `moves_played`, not `len(cursor.moves)`: that decodes every move so far, which made a
        # watch from version 0 quadratic in the length of the match
        if self.cursor is None or self.cursor.moves_played > version:
            self.cursor = live.adapter.from_record(dict(live.record, moves=[]))
            self.events = list(self.cursor.events)
        cursor = self.cursor
        out: list[bytes] = []
        size = 0
        while version <= last and len(out) < most and size < CHUNK_BYTES:
            while cursor.moves_played < version:
                self.events = cursor.play(live.moves[cursor.moves_played])
                if time.monotonic() > stop:
                    return out
            move = live.moves[version - 1] if version else None
            seat = live.seats[version - 1] if version else -1
            state = live.adapter.summary(cursor, version) if self.brief else None
            out.append(self.encode(live, version, cursor, seat, move, self.events, state))
            size += len(out[-1])
            version += 1
            if time.monotonic() > stop:
                break
        return out


class Watchers:
    """Serves watch streams and counts the open ones (`count`, server-wide)."""

    def __init__(self, encode: EventEncoder, reads: Reads):
        self.encode = encode
        self.reads = reads
        self.count = 0
        self.replaying = HostSlots(REPLAYS_PER_HOST)

    def committed(self, live: LiveMatch, seat: int, move: Any, events: list[Any]) -> None:
        """Version `live.version` was committed: encoded once for every watcher of it, if any, in
        each form its watchers read."""
        version, game = live.version, live.game
        if live.watchers > live.brief_watchers:
            live.remember(version, self.encode(live, version, game, seat, move, events, live.whole_state()))
        if live.brief_watchers:
            live.remember(version, self.encode(live, version, game, seat, move, events, live.summary()), brief=True)

    async def stream(
        self,
        live: LiveMatch,
        from_version: int,
        closing: Callable[[], bool],
        brief: bool = False,
        host: str | None = None,
    ) -> AsyncIterator[bytes]:
        """Encoded watch events of `live` from `from_version` on (version 0 is the set-up), then live
        ones, until the match is over, abandoned or deleted; a server shutting down (`closing()`)
        ends a waiting stream with UNAVAILABLE / SHUTTING_DOWN and the version to resume from.
        `brief`: each event's state is its summary (no game view). While it replays history the
        stream holds one of its `host`'s replay slots (None: no bound, for a seat's own stream)."""
        version = from_version
        replay: Replay | None = None
        built: deque[bytes] = deque()  # versions `version` on, built on the reads thread
        ahead: tuple[int, asyncio.Future[list[bytes]]] | None = None  # the next chunk: its first version
        told = 0  # bot failures announced on this stream
        most = FIRST_CHUNK  # the next chunk's messages: doubled each time the watcher read one whole
        pending = 0  # messages of the last chunk not yet sent
        recent = live.recent_brief if brief else live.recent
        live.watchers += 1
        live.brief_watchers += brief
        self.count += 1
        try:
            while not live.deleted:
                if version > live.version:
                    if replay is not None:  # caught up: the history replayed, its slot goes back
                        if host is not None:
                            self.replaying.release(host)
                        replay = None
                    if not live.is_open:
                        return
                    if told < len(live.failures):  # caught up: what failed since, as one notice
                        notice = self.encode(live, live.version, live.game, -1, None, [], self._state(live, brief))
                        failures = matches_pb2.WatchMatchResponse(bot_failures=live.failures[told:])
                        yield Notice(notice + failures.SerializeToString())
                        told = len(live.failures)
                        continue
                    if closing():
                        raise ServiceError(
                            grpc.StatusCode.UNAVAILABLE,
                            "SHUTTING_DOWN",
                            "the server is shutting down: watch again, from the next version, elsewhere",
                            match_id=live.match_id,
                            next_version=version,
                        )
                    await live.changed.wait()
                    continue
                data: bytes | None
                if built:
                    data = built.popleft()
                    pending -= 1
                    if pending == 0:  # the watcher read a whole chunk: the next may be larger
                        most = min(CHUNK_MESSAGES, most * 2)
                else:
                    data = recent.get(version)
                if data is None and version == live.version and live.last_events is not None:
                    data = self._current(live, brief)
                if data is None:
                    if replay is None:
                        if host is not None:
                            await self.replaying.acquire(host)
                        replay = Replay(live, self.encode, brief)
                    if ahead is None or ahead[0] != version:
                        ahead = (
                            version,
                            asyncio.ensure_future(self.reads.run(replay.build, version, live.version, most)),
                        )
                    chunk = await ahead[1]
                    built.extend(chunk)
                    pending = len(chunk)
                    ahead = None
                    # the next chunk is built while this one is sent, once the watcher has shown it reads
                    if most > FIRST_CHUNK and version + len(chunk) <= live.version:
                        start = version + len(chunk)
                        ahead = start, asyncio.ensure_future(self.reads.run(replay.build, start, live.version, most))
                    continue
                yield data
                version += 1
                if version > live.version and live.game.is_over:
                    return
        finally:
            if ahead is not None:
                ahead[1].cancel()
            if replay is not None and host is not None:
                self.replaying.release(host)
            live.watchers -= 1
            live.brief_watchers -= brief
            self.count -= 1

    @staticmethod
    def _state(live: LiveMatch, brief: bool) -> Any:
        return live.summary() if brief else live.whole_state()

    def _current(self, live: LiveMatch, brief: bool) -> bytes:
        """The encoded current version, from the match itself (no replay), kept for the watchers
        that follow."""
        version = live.version
        move = live.moves[version - 1] if version else None
        seat = live.seats[version - 1] if version else -1
        events = list(live.last_events or [])
        data = self.encode(live, version, live.game, seat, move, events, self._state(live, brief))
        live.remember(version, data, brief)
        return data
