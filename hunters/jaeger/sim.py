"""Random games: played wholly inside the core (fast), or driven from Python move by move."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hunters.capabilities import SimulationResult

from . import _core
from .game import POLICIES, Game
from .moves import Move

__all__ = ["POLICIES", "STAY_PATIENCE", "SimulationResult", "play_random_game", "random_games", "stays"]

STAY_PATIENCE: int = int(_core.STAY_PATIENCE)  # the core's value (one source of truth)
"""Policy "stay" draws uniformly once this many turns in a row took no tile (without the stall
limit, a season could otherwise last for ever: characters walking between camps, paths and caves)."""


def random_games(n: int, players: int = 2, seed: int = 0, policy: str = "uniform", **options: Any) -> SimulationResult:
    """Play n complete random games inside the core (`Game.random_games`; decisions = turns)."""
    return Game.random_games(n, players=players, seed=seed, policy=policy, **options)


def stays(move: Move) -> bool:
    """True when no step of the move leaves the board."""
    return move.first.dst is not None and (move.second is None or move.second.dst is not None)


def play_random_game(players: int = 2, seed: int = 0, policy: str = "uniform", **options: Any) -> Game:
    """One complete game from Python: a uniformly random legal move (whole turn) at every turn; with
    policy "stay", uniformly among the moves that leave no character off the board when there are any
    (until STAY_PATIENCE turns in a row took no tile)."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}")
    rng = random.Random(seed)
    game = Game.new(players=players, seed=seed, **options)
    while not game.is_over:
        moves: Sequence[Move] = game.legal_moves()  # lazy: only the chosen move is decoded
        if policy == "stay" and game.idle_turns < STAY_PATIENCE:
            moves = [m for m in moves if stays(m)] or moves
        game.play(rng.choice(moves))
    return game
