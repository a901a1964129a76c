"""What the built-in bots know of jaeger_sammler beyond the rules: the greedy bot's evaluation."""

from __future__ import annotations

from typing import Any

from .game import Game
from .tiles import STAYING

__all__ = ["value"]


def value(before: Game, after: Game, seat: int, move: Any) -> float:
    """One ply: points gained plus weapons gained, less half a point per character that left the
    board while takeable tiles remain."""
    v = float(after.scores[seat] - before.scores[seat])
    v += after.collection(seat).weapons - before.collection(seat).weapons
    left = before.characters_on_board[seat] - after.characters_on_board[seat]
    if left > 0 and any(t is not None and t not in STAYING for t in after.tiles):
        v -= 0.5 * left
    return v
