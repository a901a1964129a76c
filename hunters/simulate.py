"""Units of random-game simulation that run anywhere (`hunters.scale`): each one's result is fixed by
its arguments, and merging results in unit order gives the totals of one sequential run.

- `random_games_unit`: games first..first+count-1 of `hunters simulate --games`, each driven from Python
  by `random_game(seed + i)`, with points by kind.
- `blocks_unit`: blocks of `SimulateGames`, block b being the core's `random_games(256, seed + b)`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import hunters
from hunters.game_base import GameBase, SimulationResult

__all__ = ["BLOCK", "Tally", "block_sizes", "blocks_unit", "merge_results", "random_game", "random_games_unit"]

BLOCK = 256  # games per block of SimulateGames: block b is random_games(BLOCK, seed + b)


def random_game(cls: type[GameBase], players: int, seed: int) -> GameBase:
    """One game between uniformly random players, moves drawn by `random.Random(seed)`."""
    rng = random.Random(seed)
    game = cls.new(players=players, seed=seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


@dataclass
class Tally:
    """Totals of some Python-driven random games; `add` merges another tally after this one."""

    games: int
    players: int
    moves: int = 0
    wins: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    kinds: dict[str, list[int]] = field(default_factory=dict)
    """Points by kind per seat, kinds in the order they first appeared."""

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.moves += other.moves
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.totals = [a + b for a, b in zip(self.totals, other.totals, strict=True)]
        for kind, pts in other.kinds.items():
            acc = self.kinds.setdefault(kind, [0] * self.players)
            for p, v in enumerate(pts):
                acc[p] += v


def random_games_unit(game_id: str, players: int, seed: int, first: int, count: int) -> Tally:
    """Games first..first+count-1 of a run from `seed` (game i: `random_game(seed + i)`), tallied."""
    cls = hunters.games.get(game_id)
    tally = Tally(0, players, wins=[0] * players, totals=[0] * players)
    for i in range(first, first + count):
        game = random_game(cls, players, seed + i)
        tally.games += 1
        tally.moves += game.moves_played
        for w in game.winners:
            tally.wins[w] += 1
        for p, s in enumerate(game.scores):
            tally.totals[p] += s
        for kind, pts in game.points_by_kind().items():
            acc = tally.kinds.setdefault(kind, [0] * players)
            for p, v in enumerate(pts):
                acc[p] += v
    return tally


def block_sizes(total: int) -> list[int]:
    """Games in each block of a `SimulateGames` run of `total` games (the last one may be short)."""
    return [min(BLOCK, total - done) for done in range(0, total, BLOCK)]


def blocks_unit(game_id: str, players: int, seed: int, total: int, first: int, count: int) -> SimulationResult:
    """Blocks first..first+count-1 of a `SimulateGames` run of `total` games from `seed`, summed."""
    cls = hunters.games.get(game_id)
    sizes = block_sizes(total)[first : first + count]
    parts = [cls.random_games(n, players=players, seed=(seed + first + k) % 2**64) for k, n in enumerate(sizes)]
    return merge_results(players, parts)


def merge_results(players: int, parts: list[SimulationResult]) -> SimulationResult:
    """The sum of simulation results (integers: the order does not change it)."""
    return SimulationResult(
        sum(r.games for r in parts),
        players,
        sum(r.decisions for r in parts),
        [sum(r.total_scores[p] for r in parts) for p in range(players)],
        [sum(r.wins[p] for r in parts) for p in range(players)],
    )
