"""How bad a move was, in words a person reads: the bands of a review, by what the move cost in
expected points a game (the estimated final margin of the best move minus that of the move played).

A game's strategy may give its own thresholds (``REVIEW_BANDS``: points for ``inaccuracy``,
``mistake`` and ``blunder``, chosen from measured costs: docs/review.md); otherwise they are
multiples of its reward scale (`SCALE`, the points of a clear advantage).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from hunters.game_base import JSON

__all__ = ["BANDS", "FALLBACK", "Thresholds"]

BANDS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The bands, best first: ``best`` is the move the search chooses; ``good`` costs less than an
inaccuracy (or nothing: the search values it at least as well)."""

FALLBACK = {"inaccuracy": 0.2, "mistake": 0.4, "blunder": 0.6}
"""Thresholds in units of the strategy's SCALE for a game whose strategy names none (the ratios of
H&G's measured thresholds to its SCALE of 20 points)."""


@dataclass(frozen=True)
class Thresholds:
    """The cost, in points a game, from which a move is an inaccuracy, a mistake, a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("thresholds must be 0 < inaccuracy <= mistake <= blunder")

    @classmethod
    def of(cls, strat: Any) -> Thresholds:
        """The thresholds of a game's search strategy: its REVIEW_BANDS, else FALLBACK × SCALE."""
        found = getattr(strat, "REVIEW_BANDS", None)
        if found is None:
            scale = float(strat.SCALE)
            found = {k: v * scale for k, v in FALLBACK.items()}
        return cls(float(found["inaccuracy"]), float(found["mistake"]), float(found["blunder"]))

    def band(self, cost: float, best: bool = False) -> str:
        """The band of a move that cost `cost` points (`best`: the search's own choice)."""
        if best:
            return "best"
        if cost >= self.blunder:
            return "blunder"
        if cost >= self.mistake:
            return "mistake"
        if cost >= self.inaccuracy:
            return "inaccuracy"
        return "good"

    def to_json(self) -> JSON:
        return asdict(self)
