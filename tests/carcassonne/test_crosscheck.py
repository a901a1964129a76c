"""The fast core against the independent flood-fill reference (tests/reference/): on seeded random
games for 2-5 players both must give the same tiles, seats, legal-move lists, score events, scores
and supplies at every decision."""

import random

import pytest

from hunters.carcassonne import Game, Move, Occupant
from tests.reference.carcassonne_ref import RefGame

CI_GAMES = 200
SLOW_GAMES = 2000


def as_tuple(m: Move) -> tuple:
    occ = m.occupant
    return (m.x, m.y, m.rotation, occ and occ.kind, occ and occ.zone, m.retake)


def as_move(t: tuple) -> Move:
    x, y, rot, kind, zone, retake = t
    return Move(x, y, rot, None if kind is None else Occupant(kind, zone), retake)


def cross_check(seed: int, players: int) -> None:
    game = Game.new(players=players, seed=seed)
    ref = RefGame(players, list(game.record_decks[0]), list(game.record_decks[1]))
    rng = random.Random(seed)
    step = 0
    while True:
        where = f"seed {seed}, {players} players, decision {step}"
        assert game.is_over == ref.is_over, where
        assert game.tile == ref.tile, where
        assert game.player == ref.player, where
        assert game.extra_turn == ref.is_extra, where
        assert [tuple(e) for e in game.events] == ref.events, where
        assert game.scores == ref.scores, where
        assert game.meeples == ref.meeples and game.huts == ref.huts, where
        assert game.discards == ref.discards, where
        if game.is_over:
            break
        core_moves = [as_tuple(m) for m in game.legal_moves()]
        assert len(core_moves) == len(set(core_moves)), where
        assert set(core_moves) == ref.legal_moves(), where
        move = rng.choice(core_moves)
        game.play(as_move(move))
        ref.play(move)
        step += 1


@pytest.mark.parametrize("seed", range(CI_GAMES))
def test_core_agrees_with_reference(seed):
    cross_check(seed, players=2 + seed % 4)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(CI_GAMES, CI_GAMES + SLOW_GAMES))
def test_core_agrees_with_reference_long(seed):
    cross_check(seed, players=2 + seed % 4)
