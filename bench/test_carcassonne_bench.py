"""pytest-benchmark suites for carcassonne_hg. Run with `python bench/report.py` (prints the table of
docs/performance.md) or `python -m pytest bench --benchmark-enable`.

Figures per call: CORE_GAMES games per call for the in-core loop; one game per call otherwise.
"""

import random

import pytest

from bench.common import Cycle
from hunters.carcassonne import Game, random_games
from hunters.carcassonne.sim import play_random_game
from tests.reference.carcassonne_ref import random_game as reference_game

CORE_GAMES = 200
MIDGAME_SEEDS = range(20)
MIDGAME_TURN = 40


def midgame_positions():
    """Seeded games advanced to decision 40 by random play."""
    out = []
    for seed in MIDGAME_SEEDS:
        rng = random.Random(seed)
        g = Game.new(players=2, seed=seed)
        for _ in range(MIDGAME_TURN):
            g.play(rng.choice(g.legal_moves()))
        out.append(g)
    return out


@pytest.mark.benchmark(group="games")
def test_core_random_games(benchmark):
    seeds = iter(range(10**9))
    res = benchmark(lambda: random_games(CORE_GAMES, players=2, seed=next(seeds)))
    assert res.games == CORE_GAMES


@pytest.mark.benchmark(group="games")
def test_python_driven_random_game(benchmark):
    seeds = iter(range(10**9))
    g = benchmark(lambda: play_random_game(players=2, seed=next(seeds)))
    assert g.is_over


@pytest.mark.benchmark(group="games")
def test_reference_random_game(benchmark):
    seeds = iter(range(10**9))
    g = benchmark.pedantic(lambda: reference_game(2, next(seeds)), rounds=5, iterations=1)
    assert g.is_over


@pytest.mark.benchmark(group="legal-moves")
def test_core_legal_moves_midgame(benchmark):
    """The core's full legal-move generation (every placement, occupant and retake)."""
    positions = midgame_positions()
    n = benchmark(Cycle([g.core for g in positions], lambda c: c.count_legal()))
    assert n > 0


@pytest.mark.benchmark(group="legal-moves")
def test_api_legal_moves_midgame(benchmark):
    """Game.legal_moves(): the core generation plus the Python sequence of codes."""
    positions = midgame_positions()
    moves = benchmark(Cycle(positions, lambda g: g.legal_moves()))
    assert len(moves) > 0


@pytest.mark.benchmark(group="legal-moves")
def test_api_legal_moves_materialised_midgame(benchmark):
    """list(Game.legal_moves()): every Move object built."""
    positions = midgame_positions()
    moves = benchmark(Cycle(positions, lambda g: list(g.legal_moves())))
    assert len(moves) > 0


@pytest.mark.benchmark(group="clone")
def test_clone(benchmark):
    g = midgame_positions()[0]
    c = benchmark(g.clone)
    assert c.to_record() == g.to_record()
