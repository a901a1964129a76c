"""Baseline bots: `random` (a uniform legal move) and `greedy` (the best immediate gain)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hunters import games
from hunters.capabilities import CoreSearch
from hunters.game_base import AnyGame

from .base import Bot, Observation, decision_seed

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot(Bot):
    """A uniformly random legal move (seeded: deterministic per seed and observation)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed

    @property
    def spec(self) -> str:
        return f"random:seed={self.seed}"

    def choose(self, obs: Observation) -> Any:
        moves = obs.legal_moves()
        return moves[random.Random(decision_seed(self.seed, obs)).randrange(len(moves))]


class GreedyBot(Bot):
    """The move with the best immediate value for its seat; ties broken at random (seeded).

    Each legal move is played on a copy of the observed game and valued by what changed, with the
    evaluation the game's plugin gives (`GamePlugin.value`: e.g. a piece left standing counts in
    Hunters & Gatherers, a weapon gained in Jäger und Sammler); a game without one values a move by
    its own points gained − the most points any other seat gained. A registered game whose core
    offers the same choice (`CoreSearch.greedy_best`) is played through it: same moves, core speed.
    """

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed

    @property
    def spec(self) -> str:
        return f"greedy:seed={self.seed}"

    def choose(self, obs: Observation) -> Any:
        rng = random.Random(decision_seed(self.seed, obs))
        best = self._fast(obs)  # (a sequence that builds only the move read)
        if best is None:
            best = self.best_moves_python(obs)
        return best[rng.randrange(len(best))]

    def best_moves(self, obs: Observation) -> list[Any]:
        """The moves of best value, in legal-move order (the bot draws one of them): from the
        game's fast path (`CoreSearch.greedy_best`, its core's twin of the plugin `value`) when it
        has one, else `best_moves_python`."""
        fast = self._fast(obs)
        return self.best_moves_python(obs) if fast is None else list(fast)

    @staticmethod
    def _fast(obs: Observation) -> Sequence[Any] | None:
        """`CoreSearch.greedy_best` of a registered game (whose plugin `value` it is the twin of)."""
        game = obs.observed()
        return game.greedy_best() if obs.game_id in games and isinstance(game, CoreSearch) else None

    @staticmethod
    def best_moves_python(obs: Observation) -> list[Any]:
        """The definition: every legal move played on a copy and valued in Python by the plugin's
        `value` (or `_score_value`); a value within 1e-9 of the best so far ties."""
        game = obs.game()
        plugin = games.plugin(obs.game_id) if obs.game_id in games else None  # unregistered games play too
        value = (plugin.evaluate if plugin is not None else None) or _score_value
        best: list[Any] = []
        best_v = float("-inf")
        for move in game.legal_moves():
            after = game.clone()
            after.play(move)
            v = value(game, after, obs.seat, move)
            if v > best_v + 1e-9:
                best_v, best = v, [move]
            elif v > best_v - 1e-9:
                best.append(move)
        return best


def _score_value(before: AnyGame, after: AnyGame, seat: int, move: Any) -> float:
    """Any other game: own points gained − the most points another seat gained."""
    gains = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
    return float(gains[seat] - max((g for p, g in enumerate(gains) if p != seat), default=0))
