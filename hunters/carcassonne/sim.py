"""Random games: played wholly inside the core (fast), or driven from Python move by move."""
from __future__ import annotations

import random
from dataclasses import dataclass

from hunters._core import carcassonne as _core

from .game import Game


@dataclass(frozen=True)
class SimulationResult:
    games: int
    players: int
    decisions: int
    total_scores: list[int]
    wins: list[int]

    @property
    def mean_scores(self) -> list[float]:
        return [s / self.games for s in self.total_scores] if self.games else []


def random_games(n: int, players: int = 2, seed: int = 0) -> SimulationResult:
    """Play n complete random games inside the core, without returning to Python per move.
    Decks and moves come from the core's own seeded RNG: the same seed gives the same games."""
    if type(n) is not int or n < 0:
        raise ValueError("n must be a non-negative int")
    if type(players) is not int or not 2 <= players <= 5:
        raise ValueError("players must be an int from 2 to 5")
    games, decisions, totals, wins = _core.random_games(n, players, seed)
    return SimulationResult(games, players, decisions, totals, wins)


def play_random_game(players: int = 2, seed: int = 0) -> Game:
    """One complete game from Python, a uniformly random legal move at every decision."""
    rng = random.Random(seed)
    game = Game.new(players=players, seed=seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game
