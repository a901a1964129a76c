"""Perft: the leaves of the game tree a number of decisions below a position (the engine contracts'
"Perft"), for any game. `perft` asks the game's core where it counts (`CountsPerft`) and counts in
Python otherwise (`python_perft`, the yardstick of the cores' own counts); `PerftLimit` bounds a
count by positions expanded and by a stop byte another thread may set."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from hunters.capabilities import CountsPerft, ExplicitChance
from hunters.errors import PerftStopped
from hunters.game_base import GameBase

__all__ = ["PerftLimit", "chance_root", "check_depth", "perft", "perft_children", "python_perft"]

Game = GameBase[Any, Any]


def perft(game: Game, depth: int, divide: bool = False, chance: bool = False, limit: PerftLimit | None = None) -> Any:
    """Leaves of the game tree `depth` decisions below this position: one node per decision; a line
    that ends before `depth` counts nothing. `chance`: every pending random draw is a chance node
    whose children are each of its outcomes and take no depth (`chance_view`), so the count does not
    depend on the draw order. `divide`: a list of (root child, leaves below it), a move at a
    decision, an outcome at a chance node. `limit`: a stop byte and a bound on the positions
    expanded (PerftStopped past them). The game's core counts where it can (`CountsPerft`)."""
    if isinstance(game, CountsPerft):
        return game.perft(depth, divide=divide, chance=chance, limit=limit)
    return python_perft(game, depth, divide=divide, chance=chance, limit=limit)


def chance_root(game: Game, chance: bool) -> Game:
    """What a count starts from: a copy, whose later random draws are chance nodes in chance mode
    (ValueError for a game that cannot branch over its chance)."""
    if not chance:
        return game.clone()
    if isinstance(game, ExplicitChance):
        root: Game = game.chance_view()
        return root
    if game.INFO.chance == "deterministic":
        return game.clone()
    raise ValueError(f"{game.INFO.id} cannot branch over its chance")


def _outcomes(game: Game) -> list[tuple[int, float]]:
    return game.chance_outcomes() if isinstance(game, ExplicitChance) else []


def _apply(game: Game, outcome: int) -> None:
    assert isinstance(game, ExplicitChance)
    game.apply_chance(outcome)


class PerftLimit:
    """Bounds of a perft (`perft`'s `limit`): `stop`, a byte another thread sets to 1 to stop
    the count at once (read by the cores without the GIL), and `nodes`, the most positions (nodes whose
    moves are listed; bulk-counted leaves are not expanded) the counts made under it may still expand
    together (None: no bound). `used` adds up what they expanded. A count past either bound raises
    PerftStopped."""

    __slots__ = ("nodes", "stop", "used")

    def __init__(self, nodes: int | None = None, stop: bytearray | None = None):
        self.nodes = nodes
        self.stop = stop if stop is not None else bytearray(1)
        self.used = 0

    def run(self, count: Callable[[int], tuple[int | None, int]]) -> int:
        """`count(most nodes, -1: any)` -> (leaves or None when it stopped, nodes expanded), charged."""
        leaves, used = count(-1 if self.nodes is None else self.nodes - self.used)
        self.used += used
        if leaves is None:
            self.raise_stopped()
        assert leaves is not None
        return leaves

    def step(self) -> None:
        """One position expanded by a count in Python (PerftStopped past a bound)."""
        self.used += 1
        if self.stop[0] or (self.nodes is not None and self.used > self.nodes):
            self.raise_stopped()

    def raise_stopped(self) -> None:
        raise PerftStopped("STOPPED" if self.stop[0] else "NODE_LIMIT", self.used)


def check_depth(depth: Any) -> int:
    """`depth` if it is a perft depth (an int from 0 to 64), else ValueError."""
    if type(depth) is not int or not 0 <= depth <= 64:
        raise ValueError("depth must be an integer from 0 to 64")
    return depth


def perft_children(game: Game, depth: int, chance: bool = False) -> list[tuple[Any, Game, int]]:
    """The rows of a divide before they are counted: (root child's key, its position, the depth
    left below it) for every legal move (an outcome, where a chance node is pending at the root
    in chance mode), in `legal_moves()` / `chance_outcomes()` order. `perft(game, depth, divide=True)`
    is each position's `perft(position, depth left)`; a caller that counts them one by one (the oracle's
    streamed divide) gets the same rows."""
    check_depth(depth)
    root = chance_root(game, chance)
    if depth == 0 or root.is_over:
        return []
    rows: list[tuple[Any, Game, int]] = []
    if root.player == -1:
        for outcome, _ in _outcomes(root):
            child = root.clone()
            _apply(child, outcome)
            rows.append((outcome, child, depth))
        return rows
    for move in root.legal_moves():
        child = root.clone()
        child.play(move)
        rows.append((move, child, depth - 1))
    return rows


def python_perft(
    game: Game, depth: int, *, divide: bool = False, chance: bool = False, limit: PerftLimit | None = None
) -> Any:
    """`perft` by naive enumeration (legal_moves, clone, play; chance_outcomes and
    apply_chance at chance nodes): what every game gets, and the yardstick of the cores' own."""
    check_depth(depth)
    root = chance_root(game, chance)
    step = limit.step if limit is not None else None

    def children(g: Game) -> Iterator[tuple[Any, Game]]:
        if g.player == -1:
            for outcome, _ in _outcomes(g):
                c = g.clone()
                _apply(c, outcome)
                yield outcome, c
            return
        for move in g.legal_moves():
            c = g.clone()
            c.play(move)
            yield move, c

    def count(g: Game, d: int) -> int:
        if g.is_over:
            return 1 if d == 0 else 0
        if d == 0:
            return 1
        if step is not None:
            step()
        if g.player == -1:
            return sum(count(c, d) for _, c in children(g))
        if d == 1:
            return len(g.legal_moves())
        return sum(count(c, d - 1) for _, c in children(g))

    if not divide:
        return count(root, depth)
    if depth == 0 or root.is_over:
        return []
    pending = root.player == -1
    return [(key, count(c, depth if pending else depth - 1)) for key, c in children(root)]
