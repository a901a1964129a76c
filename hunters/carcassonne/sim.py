"""Random games: played wholly inside the core (fast), or driven from Python move by move."""

from __future__ import annotations

import random

from hunters.capabilities import SimulationResult

from .game import Game

__all__ = ["SimulationResult", "play_random_game", "random_games"]


def random_games(n: int, players: int = 2, seed: int = 0) -> SimulationResult:
    """Play n complete random games inside the core (`Game.random_games`)."""
    return Game.random_games(n, players=players, seed=seed)


def play_random_game(players: int = 2, seed: int = 0) -> Game:
    """One complete game from Python, a uniformly random legal move at every decision."""
    rng = random.Random(seed)
    game = Game.new(players=players, seed=seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game
