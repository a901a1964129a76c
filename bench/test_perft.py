"""pytest-benchmark suite: perft in the cores (bulk counting at the last ply, one core, no GIL),
from three documented positions per game. `python -m pytest bench/test_perft.py --benchmark-enable`;
nodes/s = the asserted leaf count / the mean time.

Positions: H&G, 2 players, seed 1: the start (depth 3: 54,604 leaves), decision 20 and decision 40 of
the seeded random line below (depth 3); Jäger, 2 players, seed 1: the start (depth 2: 438,103
leaves), turn 5 and turn 10 of the seeded random line (depth 2)."""

import random

import pytest

from hunters.carcassonne import Game as HG
from hunters.jaeger import Game as JS


def advanced(game, plies):
    rng = random.Random(1)
    for _ in range(plies):
        game.play(rng.choice(list(game.legal_moves())))
    return game


POSITIONS = [
    ("hg-start", lambda: HG.new(players=2, seed=1), 3),
    ("hg-20", lambda: advanced(HG.new(players=2, seed=1), 20), 3),
    ("hg-40", lambda: advanced(HG.new(players=2, seed=1), 40), 3),
    ("js-start", lambda: JS.new(players=2, seed=1), 2),
    ("js-10", lambda: advanced(JS.new(players=2, seed=1), 10), 2),
    ("js-5", lambda: advanced(JS.new(players=2, seed=1), 5), 2),
]


@pytest.mark.benchmark(group="perft")
@pytest.mark.parametrize(("name", "make", "depth"), POSITIONS, ids=[p[0] for p in POSITIONS])
def test_perft(benchmark, name, make, depth):
    game = make()
    leaves = benchmark(game.perft, depth)
    assert leaves == game.perft(depth) > 0
    benchmark.extra_info["leaves"] = leaves
