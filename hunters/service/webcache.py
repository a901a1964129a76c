"""What the viewer keeps between requests, bounded in bytes: each match's history (its log of moves
with their score events, and a copy of the game every so many moves to replay an earlier state
from) and the rendered states (public view and picture). One least-recently-used cache holds both,
so a long match costs its real size, not one slot of a count.

Sizes are estimates of the memory an entry holds: Python objects by `sys.getsizeof`, followed into
containers (a log entry is counted when it is appended), and a game by `sys.getsizeof(game)` (the
games count their compiled state there).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from hunters import pictures

from .live import LiveMatch
from .reads import ByteLRU

CACHE_BYTES = 256 * 1024 * 1024  # the histories and rendered states kept, in estimated bytes
CHECKPOINT = 256  # a copy of the game kept every this many moves, so that ?at=N replays at most that many
MAX_CHECKPOINTS = 128  # per match; past it every other one goes and the spacing doubles
EXTEND_SECONDS = 0.005  # one job of extending a history off the loop (a job of the reads thread)


def deep_size(value: Any) -> int:
    """The bytes `value` holds, its containers (dict, list, tuple) followed: JSON-like data. Not
    counted: what is shared rather than held, the keys of objects (field names, the same strings
    in every entry) and small ints (cached by Python)."""
    if type(value) is int and -5 <= value <= 256:
        return 0
    size = sys.getsizeof(value)
    if isinstance(value, dict):
        for v in value.values():
            size += deep_size(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            size += deep_size(v)
    return size


def jsonable(value: Any) -> Any:
    """Events are named tuples: as objects; tuples as lists."""
    if hasattr(value, "_asdict"):
        return {k: jsonable(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    return value


@dataclass
class History:
    """A match replayed move by move once, for the per-move score events of its log, with a copy of
    the game every `spacing` moves (`checkpoints`: version -> game) to replay an earlier state from.
    `nbytes`: the estimate of all it holds."""

    game: Any
    setup: list[Any]
    setup_text: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: dict[int, Any] = field(default_factory=dict)
    spacing: int = CHECKPOINT
    entry_bytes: int = 0

    @property
    def nbytes(self) -> int:
        held = sys.getsizeof(self.entries) + sys.getsizeof(self.checkpoints) + self.entry_bytes
        copies = sum(sys.getsizeof(g) for g in self.checkpoints.values())
        return held + copies + sys.getsizeof(self.game) + deep_size(self.setup) + sys.getsizeof(self.setup_text)

    def append(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        self.entry_bytes += deep_size(entry)

    def keep(self, version: int) -> None:
        if version % self.spacing:
            return
        # a new dict, not an added key: the event loop may be reading the old one meanwhile
        self.checkpoints = {**self.checkpoints, version: self.game.clone()}
        if len(self.checkpoints) > MAX_CHECKPOINTS:
            self.spacing *= 2
            self.checkpoints = {v: g for v, g in self.checkpoints.items() if v % self.spacing == 0}

    def replay(self, version: int) -> tuple[Any, int]:
        """A copy of the nearest checkpoint at or before `version`, and its version."""
        start = max((v for v in self.checkpoints if v <= version), default=None)
        if start is None:
            raise LookupError(version)
        return self.checkpoints[start].clone(), start


class ViewerCache:
    """The viewer's histories (by match) and rendered states (by match and version) in one
    `ByteLRU` of `budget` bytes."""

    def __init__(self, budget: int = CACHE_BYTES, seat_name: Callable[[int], str] = str):
        self.entries: ByteLRU[tuple[Any, ...], Any] = ByteLRU(budget)  # histories and rendered states
        self.seat_name = seat_name  # how events name a seat

    def shown(self, live: LiveMatch, history: History, version: int) -> dict[str, Any]:
        """The public view and the picture (SVG, "" for a game without pictures) after `version`."""
        key = ("state", live.match_id, version)
        shown: dict[str, Any] | None = self.entries.get(key)
        if shown is None:
            game = live.game if version == live.version else self.game_at(live, history, version)
            try:
                picture = pictures.svg(game)
            except ValueError:  # a game without pictures: the page shows the rest
                picture = ""
            shown = {"view": game.view(), "svg": picture}
            self.entries.put(key, shown, deep_size(shown))
        return shown

    def game_at(self, live: LiveMatch, history: History, version: int) -> Any:
        """A copy of the game after `version` moves: from the nearest checkpoint at or before it."""
        game, start = history.replay(version)
        for move in live.moves[start:version]:
            game.play(move)
        return game

    def history(self, live: LiveMatch) -> History:
        """Each move with its seat and score events, replayed once and extended as the match moves."""
        history = self._history(live)
        self._extend(history, live, live.version, None)
        self.entries.put(("history", live.match_id), history, history.nbytes)
        return history

    async def history_off_loop(self, live: LiveMatch, run: Callable[..., Awaitable[Any]]) -> History:
        """`history`, extended by `run` (the reads thread) a few milliseconds at a time, so that a
        long match's first page never holds the event loop."""
        history = self._history(live)
        end = live.version
        while len(history.entries) < end:
            await run(self._extend, history, live, end, EXTEND_SECONDS)
        self.entries.put(("history", live.match_id), history, history.nbytes)
        return history

    def _history(self, live: LiveMatch) -> History:
        history: History | None = self.entries.get(("history", live.match_id))
        if history is None or len(history.entries) > live.version:
            game = live.adapter.from_record(dict(live.record, moves=[]))
            history = History(game, jsonable(game.events), live.adapter.describe_events(game.events, self.seat_name))
            history.keep(0)
        return history

    def _extend(self, history: History, live: LiveMatch, end: int, seconds: float | None) -> None:
        """Play `live`'s moves into `history` up to `end` (for at most `seconds`, when given)."""
        stop = None if seconds is None else time.monotonic() + seconds
        while len(history.entries) < end and (stop is None or time.monotonic() < stop):
            i = len(history.entries)
            move = live.moves[i]
            events = history.game.play(move)
            history.append(
                {
                    "version": i + 1,
                    "seat": live.seats[i],
                    "move": move.to_json(),
                    "events": jsonable(events),
                    "text": live.adapter.describe_move(move),
                    "events_text": live.adapter.describe_events(events, self.seat_name),
                }
            )
            history.keep(i + 1)
