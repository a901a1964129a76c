"""Expiry: a match with no move for the server's idle limit is abandoned (closed for moves, still
readable). Every replica sweeps; the database abandons each match once and tells the others."""

from __future__ import annotations

import logging
import time

from .cache import MatchCache
from .lifecycle import Lifecycle
from .store_base import MatchStore

log = logging.getLogger("hunters.service")


class Expiry:
    """Abandons the matches idle for longer than `idle_seconds` (None: never)."""

    def __init__(self, store: MatchStore, cache: MatchCache, lifecycle: Lifecycle, idle_seconds: float | None):
        self.store = store
        self.cache = cache
        self.lifecycle = lifecycle
        self.idle_seconds = idle_seconds

    async def expire(self, now: float | None = None) -> list[str]:
        """Abandon every open match idle for longer than `idle_seconds`; their watchers are told.

        A bot's move is not a person's activity: a match every seat of which is a bot is abandoned
        `idle_seconds` after its creation, unless it ended before."""
        if not self.idle_seconds:
            return []
        before = (time.time() if now is None else now) - self.idle_seconds
        ids = await self.store.abandon_idle(before)
        for candidate in self.cache.open_matches():
            stale = candidate.is_open and candidate.created_at < before and candidate.all_bots
            if stale and candidate.match_id not in ids and await self.store.abandon(candidate.match_id):
                ids.append(candidate.match_id)
        self.lifecycle.open_count -= len(ids)
        for match_id in ids:
            live = self.cache.open_match(match_id)
            if live is not None:
                self.lifecycle.abandoned(live)
                log.info("match abandoned", extra={"match_id": match_id, "version": live.version})
                self.lifecycle.counts["abandoned", live.adapter.game_id] += 1
        return ids
