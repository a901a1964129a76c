"""What the built-in bots know of carcassonne_hg beyond the rules: the greedy bot's evaluation."""

from __future__ import annotations

from typing import Any

from .game import Game
from .tiles import ZONE_TYPES

__all__ = ["value"]


def value(before: Game, after: Game, seat: int, move: Any) -> float:
    """One ply: points gained minus the most another seat gained, plus a little for a piece placed
    (a hut 2, a meeple in a forest or river 2, on a meadow 1; 1 less for the last meeple)."""
    gains = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
    others = max((g for p, g in enumerate(gains) if p != seat), default=0)
    v = float(gains[seat] - others)
    occ = move.occupant
    if occ is not None and any(z == occ.zone and s == seat for z, s, _ in after.occupants):
        if occ.kind == "hut":
            v += 2.0
        else:
            v += 1.0 if ZONE_TYPES.get(occ.zone) == "meadow" else 2.0
            if after.meeples[seat] == 0:
                v -= 1.0
    return v
