"""Replica and worker catch-up: a cached match brought up to the store when another server (a
replica on PostgreSQL, a worker on the same SQLite file) stored moves, abandoned or deleted it.

The store tells of each change (`on_change`); a match whose lock is held catches up once the lock is
released (`locked`); one found behind at a commit (VersionConflict) catches up at once, under the
lock its caller holds."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator

from .cache import MatchCache
from .lifecycle import Lifecycle
from .live import LiveMatch
from .stats import Timings
from .store_base import Change, MatchStore, StoreUnavailable

log = logging.getLogger("hunters.service")


class CatchUp:
    """Keeps the cached matches of a shared store up to date with it."""

    def __init__(self, store: MatchStore, cache: MatchCache, lifecycle: Lifecycle):
        self.store = store
        self.cache = cache
        self.lifecycle = lifecycle
        self.heard_changes: Counter[str] = Counter()  # changes heard from a shared store, by kind
        self.metrics: Timings | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # catch-ups under way (held against collection)

    async def listen(self) -> None:
        """Start hearing the other servers' changes (a shared store)."""
        self.store.follows = self.follows
        await self.store.listen(self.on_change, self.resync)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    @contextlib.asynccontextmanager
    async def locked(self, live: LiveMatch) -> AsyncIterator[None]:
        """Hold the match's lock; changes heard meanwhile are caught up with once it is released."""
        async with live.lock:
            try:
                yield
            finally:
                if live.heard > live.version and not live.deleted:
                    self.schedule(live)

    async def catch_up(self, live: LiveMatch) -> None:
        """Bring `live` (its lock held) up to the store: the moves stored since its version, and
        whether it was abandoned or deleted meanwhile."""
        if live.deleted:
            return
        found = await self.store.moves_from(live.match_id, live.version)
        if found is None:
            self.lifecycle.forget(live)
            return
        moves, abandoned = found
        for seat, data in moves:
            move = live.adapter.Game.move_from_json(data)
            after = live.game.clone()
            events = after.play(move)
            self.lifecycle.applied(live, seat, move, after, events, None)
        if live.heard_at and live.version >= live.heard:
            if self.metrics is not None:
                self.metrics.caught_up(time.monotonic() - live.heard_at)
            live.heard_at = 0.0
        if abandoned and not live.abandoned:
            if live.is_open:
                self.lifecycle.open_count -= 1
            self.lifecycle.abandoned(live)

    def schedule(self, live: LiveMatch) -> None:
        """Catch `live` up in a task of its own, under its lock, retrying while the store is away."""

        async def run() -> None:
            delay = 0.05
            while not self.lifecycle.closing:
                try:
                    async with self.locked(live):
                        await self.catch_up(live)
                    return
                except StoreUnavailable as exc:  # the database is away: try again, ever more slowly
                    log.warning(
                        "catching up: database unavailable", extra={"match_id": live.match_id, "error": str(exc)}
                    )
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, 2.0)
                except Exception:
                    log.exception("catching up failed", extra={"match_id": live.match_id})
                    return

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def follows(self, match_id: str) -> bool:
        """Whether the match is in memory (the store's question, from its own thread: no LRU update).
        A match loaded later catches up after loading (`MatchManager.get`), so moves left out
        meanwhile are not lost."""
        return self.cache.holds(match_id)

    def heard(self) -> Counter[str]:
        """The changes heard from a shared store, by kind, the moves it left out included."""
        heard = Counter(self.heard_changes)
        if self.store.moves_passed_over:
            heard["move"] += self.store.moves_passed_over
        return heard

    async def on_change(self, change: Change) -> None:
        """A change heard from the store (this replica's own ones included): matches not in memory
        are read fresh when asked for; a cached one catches up unless it knows the change already."""
        self.heard_changes["deleted" if change.deleted else "abandoned" if change.abandoned else "move"] += 1
        live = self.cache.get(change.match_id)
        if live is None or live.deleted:
            return
        if change.deleted:
            self.lifecycle.forget(live)
        elif change.abandoned:
            if not live.abandoned:
                self.schedule(live)
        elif change.version > live.version:
            live.heard = max(live.heard, change.version)
            live.heard_at = live.heard_at or time.monotonic()
            if not live.lock.locked():  # else once the lock is released (locked)
                self.schedule(live)

    async def resync(self) -> None:
        """Changes may have been missed (the store's listening connection was down): every open
        match in memory catches up, closed ones are read again when asked for."""
        self.cache.forget_closed()
        for live in self.cache.open_matches():
            self.schedule(live)
