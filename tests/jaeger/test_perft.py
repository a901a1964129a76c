"""Perft (docs/jaeger-engine-contract.md#perft): the core's count against the generic Python perft
and against naive enumeration over the reference oracle, from seeded layouts, in summer, across the
season's end (both modes: the game's own winter deal, and branching over every tile dealt) and in
winter."""

import random

import pytest

from hunters.jaeger import Game, Move
from hunters.perft import python_perft
from tests.jaeger.test_crosscheck import as_tuple, ref_for
from tests.reference.perft import ref_perft


def ref_count(game: Game, depth: int) -> int:
    ref = ref_for(game)
    for move in game.moves:
        ref.play(as_tuple(move))
    return ref_perft(ref, depth, lambda r: r.clone(), lambda r: r.over)


def line(seed: int, players: int = 2) -> list[Game]:
    """Every position of one seeded random game."""
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    out = [game.clone()]
    while not game.is_over:
        game.play(rng.choice(list(game.legal_moves())))
        out.append(game.clone())
    return out


def test_known_counts_of_a_seeded_layout():
    game = Game.new(players=2, seed=1)
    assert [game.perft(d) for d in range(4)] == [1, 697, 438103, 237237352]


@pytest.mark.parametrize("seed", range(3))
def test_core_agrees_with_generic_and_reference(seed):
    positions = line(seed, 2 + seed % 3)
    winter = next(i for i, g in enumerate(positions) if g.season != positions[0].season)
    for game in (positions[winter // 2], positions[winter - 1], positions[winter], positions[-2]):
        assert game.perft(1) == python_perft(game, 1) == ref_count(game, 1)
    last = positions[winter - 1]  # one turn may end the summer: depth 2 crosses the winter deal
    assert last.perft(2) == python_perft(last, 2)
    cold = positions[winter]  # no chance is left in winter: both modes count alike
    assert cold.perft(2, chance=True) == cold.perft(2) == python_perft(cold, 2)


def test_divide_and_the_end():
    game = Game.new(players=3, seed=2)
    rows = game.perft(2, divide=True)
    assert [m for m, _ in rows] == list(game.legal_moves())
    assert sum(n for _, n in rows) == game.perft(2)
    assert isinstance(rows[0][0], Move)
    end = line(4)[-1]
    assert [end.perft(0), end.perft(1), end.perft(2, chance=True)] == [1, 0, 0]
