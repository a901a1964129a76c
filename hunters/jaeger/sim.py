"""Random games: played wholly inside the core (fast), or driven from Python move by move."""
from __future__ import annotations

import random
from dataclasses import dataclass

from hunters._core import jaeger as _core

from .game import Game
from .options import WINTER_START, validate_options
from .tiles import code_of, deck


@dataclass(frozen=True)
class SimulationResult:
    games: int
    players: int
    turns: int
    total_scores: list[int]
    wins: list[int]

    @property
    def decisions(self) -> int:
        """Moves played (= turns; the name the service shares with carcassonne_hg)."""
        return self.turns

    @property
    def mean_scores(self) -> list[float]:
        return [s / self.games for s in self.total_scores] if self.games else []


POLICIES = ("uniform", "stay")
STAY_PATIENCE: int = int(_core.STAY_PATIENCE)  # the core's value (one source of truth)
"""Policy "stay" draws uniformly once this many turns in a row took no tile (without the stall
limit, a season could otherwise last for ever: characters walking between camps, paths and caves)."""


def random_games(n: int, players: int = 2, seed: int = 0, policy: str = "uniform", **options) -> SimulationResult:
    """Play n complete random games inside the core, without returning to Python per move.

    Game g starts as Game.new(players, seed=d_g, **options) where d_g is the g-th splitmix64 output
    from `seed`; each turn is a uniformly random legal first step (among those that can be completed),
    then a uniformly random legal second step. Policy "stay" draws a step that leaves the board only
    when no other step is legal (games then last longer and seasons end by reachability or the stall
    limit, as in real play), or after STAY_PATIENCE idle turns in a row. The same arguments give the
    same games."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}")
    if type(n) is not int or n < 0:
        raise ValueError("n must be a non-negative int")
    if type(players) is not int or not 2 <= players <= _core.LIMITS["players"]:
        raise ValueError(f"players must be an int from 2 to {_core.LIMITS['players']}")
    if type(seed) is not int or not 0 <= seed < 2**64:
        raise ValueError("seed must be an int from 0 to 2**64 - 1")
    board, o = validate_options(options)
    summer = [code_of(t) for t in deck("summer", tuple(o["mammoths_summer"]))]
    winter = [code_of(t) for t in deck("winter", tuple(o["mammoths_winter"]))]
    games, turns, totals, wins = _core.random_games(
        n, players, seed, board.core, summer, winter, o["stall_rounds"], o["straight_jumps"],
        WINTER_START[o["winter_start"]], o["ties"] == "shared", policy == "stay")
    return SimulationResult(games, players, turns, totals, wins)


def stays(move) -> bool:
    """True when no step of the move leaves the board."""
    return move.first.dst is not None and (move.second is None or move.second.dst is not None)


def play_random_game(players: int = 2, seed: int = 0, policy: str = "uniform", **options) -> Game:
    """One complete game from Python: a uniformly random legal move (whole turn) at every turn; with
    policy "stay", uniformly among the moves that leave no character off the board when there are any
    (until STAY_PATIENCE turns in a row took no tile)."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}")
    rng = random.Random(seed)
    game = Game.new(players=players, seed=seed, **options)
    while not game.is_over:
        moves = game.legal_moves()
        if policy == "stay" and game.idle_turns < STAY_PATIENCE:
            kept = [m for m in moves if stays(m)]
            moves = kept or moves
        game.play(rng.choice(moves))
    return game


def selfcheck_games(n: int, players: int = 2, seed: int = 0, policy: str = "uniform", probes: int = 10,
                    **options) -> dict:
    """Play n random games inside the core (as random_games does) checking at every turn: tiles
    conserved (laid = taken + removed + on board), characters and occupancy, supply packs, weapons,
    scores never decreasing, the player to move has a character, every listed turn is accepted by
    the validator, `probes` random turns near the player's characters are accepted exactly when
    listed, and the drawn turn is listed. Returns counts and violations by name (all 0 when sound)."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}")
    board, o = validate_options(options)
    summer = [code_of(t) for t in deck("summer", tuple(o["mammoths_summer"]))]
    winter = [code_of(t) for t in deck("winter", tuple(o["mammoths_winter"]))]
    games, turns, checked, probed, violations = _core.selfcheck_games(
        n, players, seed, board.core, summer, winter, o["stall_rounds"], o["straight_jumps"],
        WINTER_START[o["winter_start"]], policy == "stay", probes)
    return {"games": games, "turns": turns, "listed_checked": checked, "probes": probed, "violations": violations}
