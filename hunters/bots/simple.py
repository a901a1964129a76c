"""Baseline bots: `random` (a uniform legal move) and `greedy` (the best immediate gain)."""

from __future__ import annotations

import random
from typing import Any

from hunters.game_base import GameBase

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

    Each legal move is played on a copy of the observed game and valued by what changed:

    - Hunters & Gatherers: own points gained − the most points any other seat gained by the move;
      plus a piece left standing on the tile: a meeple on a forest or river +2 (they score when
      closed), on a meadow +1 (scores at the end only), a hut +2 (fish at the end); −1 more when it
      was the last meeple in supply (a seat without meeples cannot score new features).
    - Jäger und Sammler: own points gained (food, goods, mammoths; the seat knows its own face-down
      tiles) + 1 per weapon gained (it pays for a mammoth later) − 0.5 per character that leaves
      the board while takeable tiles remain.
    - Any other game: own points gained − the most points any other seat gained.
    """

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed

    @property
    def spec(self) -> str:
        return f"greedy:seed={self.seed}"

    def choose(self, obs: Observation) -> Any:
        game = obs.game()
        rng = random.Random(decision_seed(self.seed, obs))
        value = _VALUES.get(obs.game_id, _score_value)
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
        return best[rng.randrange(len(best))]


def _carcassonne_value(before: GameBase, after: GameBase, seat: int, move: Any) -> float:
    gains = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
    others = max((g for p, g in enumerate(gains) if p != seat), default=0)
    v = float(gains[seat] - others)
    occ = move.occupant
    if occ is not None and any(z == occ.zone and s == seat for z, s, _ in after.occupants):  # type: ignore[attr-defined]
        if occ.kind == "hut":
            v += 2.0
        else:
            kind = _zone_types().get(occ.zone)
            v += 1.0 if kind == "meadow" else 2.0
            if after.meeples[seat] == 0:  # type: ignore[attr-defined]
                v -= 1.0
    return v


def _jaeger_value(before: GameBase, after: GameBase, seat: int, move: Any) -> float:
    v = float(after.scores[seat] - before.scores[seat])
    v += after.collection(seat).weapons - before.collection(seat).weapons  # type: ignore[attr-defined]
    left = before.characters_on_board[seat] - after.characters_on_board[seat]  # type: ignore[attr-defined]
    if left > 0 and any(t is not None and t not in _staying() for t in after.tiles):  # type: ignore[attr-defined]
        v -= 0.5 * left
    return float(v)


def _zone_types() -> dict[int, str]:
    from hunters.carcassonne.tiles import ZONE_TYPES

    return ZONE_TYPES


def _staying() -> tuple[str, ...]:
    from hunters.jaeger.tiles import STAYING

    return tuple(STAYING)


def _score_value(before: GameBase, after: GameBase, seat: int, move: Any) -> float:
    """Any other game: own points gained − the most points another seat gained."""
    gains = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
    return float(gains[seat] - max((g for p, g in enumerate(gains) if p != seat), default=0))


_VALUES = {"carcassonne_hg": _carcassonne_value, "jaeger_sammler": _jaeger_value}
