"""What the match engine shows an operator: a snapshot of its counts, and the timings it reports.

The match engine fills a `MatchStats` when asked and reports timings to a `Timings`; metrics.py reads
the one and implements the other, so neither module imports the other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class MatchStats:
    """The match engine's counts at one moment (plain values: safe to read from another thread)."""

    open_by_game: Mapping[str, int]  # unfinished matches in memory, by game id
    active: int | None  # matches counted against `limit` (None: a shared store counts them)
    limit: int  # --max-matches
    counts: Mapping[tuple[str, str], int]  # (event, game id) -> how many: moves, created, over, abandoned, deleted
    watchers: int  # open watch streams
    bot_seats: int  # bot seats of the unfinished matches in memory
    bots_thinking: int  # bot seats thinking, or waiting for a thread to think on
    lost_races: int  # moves whose version another replica took first
    heard: Mapping[str, int]  # changes heard from a shared store, by kind


class Timings(Protocol):
    """Where the match engine reports how long its work took."""

    def committed(self, seconds: float) -> None:
        """A move was stored durably in `seconds`."""

    def commit_failed(self, reason: str) -> None:
        """A move was not stored, for `reason`."""

    def thought(self, game: str, seconds: float) -> None:
        """A bot seat of `game` thought for `seconds`."""

    def caught_up(self, seconds: float) -> None:
        """A replica held another replica's move `seconds` after it heard of it."""
