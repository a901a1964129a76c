"""Units of random-game simulation that run anywhere (`hunters.scale`): each one's result is fixed by
its arguments, and merging results in unit order gives the totals of one sequential run.

- `random_games_unit`: games first..first+count-1 of `hunters simulate --games`, each driven from Python
  by `random_game(seed + i)`, with points by kind.
- `blocks_unit`: blocks of `SimulateGames`, block b being `random_games(cls, 256, seed + b)`.

`random_games` plays n games in the game's core where it can (`Simulates`), in Python otherwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import hunters
from hunters.capabilities import Simulates, SimulationResult
from hunters.game_base import GameBase
from hunters.info import check_seed

__all__ = [
    "BLOCK",
    "SimulationResult",
    "Tally",
    "block_sizes",
    "blocks_unit",
    "merge_results",
    "random_game",
    "random_games",
    "random_games_unit",
]

BLOCK = 256  # games per block of SimulateGames: block b is random_games(BLOCK, seed + b)


def random_games(cls: type[GameBase[Any, Any]], n: int, players: int = 2, seed: int = 0) -> SimulationResult:
    """n complete games between uniformly random players; the same arguments give the same result.
    The game's core plays them where it can (`Simulates`); otherwise they are driven from Python."""
    if issubclass(cls, Simulates):
        return cls.random_games(n, players=players, seed=seed)
    if type(n) is not int or n < 0:
        raise ValueError("n must be a non-negative int")
    cls.INFO.check_players(players)
    check_seed(seed, optional=False)
    rng = random.Random(seed)
    decisions, totals, wins = 0, [0] * players, [0] * players
    for _ in range(n):
        game = cls.new(players=players, seed=rng.getrandbits(64))
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
            decisions += 1
        for p, s in enumerate(game.scores):
            totals[p] += s
        for w in game.winners:
            wins[w] += 1
    return SimulationResult(n, players, decisions, totals, wins)


def random_game(cls: type[GameBase[Any, Any]], players: int, seed: int) -> GameBase[Any, Any]:
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
    parts = [random_games(cls, n, players=players, seed=(seed + first + k) % 2**64) for k, n in enumerate(sizes)]
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
