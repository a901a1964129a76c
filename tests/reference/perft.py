"""Perft by naive enumeration over a reference oracle's own legal moves (the engine contracts'
definition, nothing more): every legal move is played on a copy, and the last ply is the length of the oracle's list."""

from collections.abc import Callable
from typing import Any


def ref_perft(game: Any, depth: int, clone: Callable[[Any], Any], over: Callable[[Any], bool]) -> int:
    """Leaves `depth` decisions below `game` (a line that ends earlier counts nothing)."""
    if over(game):
        return 1 if depth == 0 else 0
    if depth == 0:
        return 1
    if depth == 1:
        return len(game.legal_moves())
    total = 0
    for move in sorted(game.legal_moves(), key=repr):
        child = clone(game)
        child.play(move)
        total += ref_perft(child, depth - 1, clone, over)
    return total
