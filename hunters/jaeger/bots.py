"""What the built-in bots know of jaeger_sammler beyond the rules: the greedy bot's evaluation."""

from __future__ import annotations

from typing import Any

from .game import Game
from .tiles import STAYING

__all__ = ["value"]


def value(before: Game, after: Game, seat: int, move: Any) -> float:
    """One ply: points gained plus weapons gained, less half a point per character that left the
    board while takeable tiles remain.

    Read from the cores' collection tuples (weapons held at 2, characters on the board at 5: what
    `Game.collection(seat).weapons` and `Game.characters_on_board[seat]` return) without building
    `Collection` objects: the greedy bot calls this once per legal move."""
    b, a = before.core.collection(seat), after.core.collection(seat)
    v = float(after.core.scores()[seat] - before.core.scores()[seat])
    v += float(a[2] - b[2])
    left = b[5] - a[5]
    if left > 0 and any(t is not None and t not in STAYING for t in after.tiles):
        v -= 0.5 * left
    return v
