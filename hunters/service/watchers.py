"""Watch streams: a match's encoded versions from any version on, then each new one as it is committed.

Live watchers share one encoding per version (`LiveMatch.recent`); the current version is encoded
from the match itself; a watcher further behind replays the moves on its own copy of the game, and
hands the event loop back every `REPLAY_CHUNK` moves so that a long history stalls nobody else."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc

from hunters.v1 import matches_pb2

from .errors import ServiceError
from .live import EventEncoder, LiveMatch, Notice

REPLAY_CHUNK = 256  # moves replayed between two turns of the event loop


class Watchers:
    """Serves watch streams and counts the open ones (`count`, server-wide)."""

    def __init__(self, encode: EventEncoder):
        self.encode = encode
        self.count = 0

    def committed(self, live: LiveMatch, seat: int, move: Any, events: list[Any], state: Any) -> None:
        """Version `live.version` was committed: encoded once for every watcher of it, if any."""
        if live.watchers:
            live.remember(live.version, self.encode(live, live.version, live.game, seat, move, events, state))

    async def stream(self, live: LiveMatch, from_version: int, closing: Callable[[], bool]) -> AsyncIterator[bytes]:
        """Encoded watch events of `live` from `from_version` on (version 0 is the set-up), then live
        ones, until the match is over, abandoned or deleted; a server shutting down (`closing()`)
        ends a waiting stream with UNAVAILABLE / SHUTTING_DOWN and the version to resume from."""
        version = from_version
        cursor: Any = None
        cursor_events: list[Any] = []
        told = 0  # bot failures announced on this stream
        live.watchers += 1
        self.count += 1
        try:
            while not live.deleted:
                if version > live.version:
                    if not live.is_open:
                        return
                    if told < len(live.failures):  # caught up: what failed since, as one notice
                        notice = self.encode(live, live.version, live.game, -1, None, [], None)
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
                data = live.recent.get(version)
                if data is None and version == live.version and live.last_events is not None:
                    data = self._current(live)
                if data is None:
                    # `moves_played`, not `len(cursor.moves)`: that decodes every move so far, which
                    # made a watch from version 0 quadratic in the length of the match
                    if cursor is None or cursor.moves_played > version:
                        cursor = live.adapter.from_record(dict(live.record, moves=[]))
                        cursor_events = list(cursor.events)
                    while cursor.moves_played < version:
                        cursor_events = cursor.play(live.moves[cursor.moves_played])
                        if cursor.moves_played % REPLAY_CHUNK == 0:
                            await asyncio.sleep(0)
                    move = live.moves[version - 1] if version else None
                    seat = live.seats[version - 1] if version else -1
                    data = self.encode(live, version, cursor, seat, move, cursor_events, None)
                yield data
                version += 1
                if version > live.version and live.game.is_over:
                    return
        finally:
            live.watchers -= 1
            self.count -= 1

    def _current(self, live: LiveMatch) -> bytes:
        """The encoded current version, from the match itself (no replay)."""
        version = live.version
        move = live.moves[version - 1] if version else None
        seat = live.seats[version - 1] if version else -1
        return self.encode(live, version, live.game, seat, move, list(live.last_events or []), live.state)
