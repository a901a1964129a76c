"""The moments a live match changes: a version applied, the match closed (over, abandoned,
deleted), and the counts they keep. Whatever acts on a closing (bot seats stop) subscribes with
`on_close`; the watchers are shown every applied version. Nothing here decides a move: the committer
and the catch-up apply what the store holds."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from .cache import MatchCache
from .live import Built, LiveMatch
from .watchers import Watchers

log = logging.getLogger("hunters.service")


class Lifecycle:
    """Applies stored versions to live matches and closes them, keeping the count of active matches
    (`open_count`, meaningful when this server is the store's only writer) and the operator's counts
    (`counts`: (event, game id) -> how many)."""

    def __init__(self, cache: MatchCache, watching: Watchers):
        self.cache = cache
        self.watching = watching
        self.open_count = 0
        # "moves" stored, matches "created", "over", "abandoned", "deleted" (read by metrics when scraped)
        self.counts: Counter[tuple[str, str]] = Counter()
        self.closing = False  # the server is shutting down
        self._on_close: list[Callable[[LiveMatch], None]] = []

    def on_close(self, handler: Callable[[LiveMatch], None]) -> None:
        """Call `handler(live)` whenever a match closes (over, abandoned, deleted)."""
        self._on_close.append(handler)

    def applied(self, live: LiveMatch, seat: int, move: Any, after: Any, events: list[Any], state: Any) -> None:
        """A stored move into memory: the match moves on, its watchers are shown the version. `state`:
        the new version's whole MatchState when the move's reply built it (else None)."""
        live.game = after
        live.built = Built(after, state) if state is not None else None
        live.moves.append(move)
        live.seats.append(seat)
        if after.is_over:
            self.open_count -= 1
            self._closed(live)
            self.cache.keep(live)
            log.info("match over", extra={"match_id": live.match_id, "version": live.version, "winners": after.winners})
        live.last_events = events
        self.watching.committed(live, seat, move, events)
        live.publish()

    def abandoned(self, live: LiveMatch) -> None:
        """`live` was abandoned (here or by another replica); the caller counts it off `open_count`."""
        self._closed(live)
        live.abandoned = True
        self.cache.keep(live)
        live.publish()

    def forget(self, live: LiveMatch) -> None:
        """`live` was deleted (here or by another replica): out of memory, its watchers told."""
        if live.deleted:
            return
        if live.is_open:
            self.open_count -= 1
        self._closed(live)
        live.deleted = True
        self.cache.drop(live.match_id)
        live.publish()

    def _closed(self, live: LiveMatch) -> None:
        for handler in self._on_close:
            handler(live)
