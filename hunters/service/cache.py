"""The matches in memory: every unfinished one, and the finished ones most recently used.

An unfinished match stays held, since it must remain the one object its players, watchers and bot
seats share; a finished or abandoned one is kept in a bounded least-recently-used cache and read
again from the store when it has fallen out."""

from __future__ import annotations

from collections import OrderedDict

from .live import LiveMatch


class MatchCache:
    """Open matches by id, and up to `size` closed ones (least recently used first out)."""

    def __init__(self, size: int):
        self.size = size
        self._open: dict[str, LiveMatch] = {}
        self._closed: OrderedDict[str, LiveMatch] = OrderedDict()

    def keep(self, live: LiveMatch) -> None:
        """Hold `live`: among the open matches while it is open, else as the most recent closed one."""
        if live.is_open:
            self._open[live.match_id] = live
            return
        self._open.pop(live.match_id, None)
        self._closed[live.match_id] = live
        self._closed.move_to_end(live.match_id)
        while len(self._closed) > self.size:
            self._closed.popitem(last=False)

    def get(self, match_id: str) -> LiveMatch | None:
        """The match if it is in memory (a closed one becomes the most recently used)."""
        live = self._open.get(match_id)
        if live is not None:
            return live
        live = self._closed.get(match_id)
        if live is not None:
            self._closed.move_to_end(match_id)
        return live

    def open_match(self, match_id: str) -> LiveMatch | None:
        """The match if it is open and in memory."""
        return self._open.get(match_id)

    def holds(self, match_id: str) -> bool:
        """Whether the match is in memory (safe from another thread: no LRU update)."""
        return match_id in self._open or match_id in self._closed

    def drop(self, match_id: str) -> None:
        """Forget the match (deleted)."""
        self._open.pop(match_id, None)
        self._closed.pop(match_id, None)

    def open_matches(self) -> list[LiveMatch]:
        """The open matches (a copy: safe to read from another thread)."""
        return list(self._open.values())

    def forget_closed(self) -> None:
        """Drop every closed match: they are read fresh from the store when next asked for."""
        self._closed.clear()
