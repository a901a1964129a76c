"""pytest-benchmark suites for jaeger_sammler. Run with
`python -m pytest bench/test_jaeger_bench.py --benchmark-enable` (or `python bench/report.py`).

Figures per call: CORE_GAMES games per call for the in-core loops; one game per call otherwise.
Two random policies (hunters.jaeger.sim): "uniform" (every legal step alike: characters leave early,
games are short) and "stay" (leave only when nothing else is legal: seasons end by reachability or
the stall limit, games are about ten times longer, closer to real play).
"""

import random

import pytest

from bench.common import Cycle
from hunters.jaeger import Game, random_games
from hunters.jaeger.sim import play_random_game, stays
from tests.reference.jaeger_ref import RefGame

CORE_GAMES = 200
MIDSUMMER_SEEDS = range(20)
MIDSUMMER_TURN = 40  # ("stay" policy, 2 players: about half of summer's 88 tiles taken)


def midsummer_positions():
    """Seeded 2-player games advanced to turn 40 by the "stay" random policy."""
    out = []
    for seed in MIDSUMMER_SEEDS:
        rng = random.Random(seed)
        g = Game.new(players=2, seed=seed)
        for _ in range(MIDSUMMER_TURN):
            moves = [m for m in g.legal_moves() if stays(m)] or list(g.legal_moves())
            g.play(rng.choice(moves))
        assert g.season == "summer"
        out.append(g)
    return out


def reference_game(seed: int):
    """A complete uniform-random game played by the reference oracle alone."""
    g = Game.new(players=2, seed=seed)
    rec = g.to_record()
    ref = RefGame(2, rec["summer"], rec["winter"])
    rng = random.Random(seed)
    while not ref.over:
        ref.play(rng.choice(sorted(ref.legal_moves(), key=repr)))
    return ref


@pytest.mark.benchmark(group="jaeger-games")
def test_jaeger_core_random_games(benchmark):
    seeds = iter(range(10**9))
    res = benchmark(lambda: random_games(CORE_GAMES, players=2, seed=next(seeds)))
    assert res.games == CORE_GAMES


@pytest.mark.benchmark(group="jaeger-games")
def test_jaeger_core_random_games_stay(benchmark):
    seeds = iter(range(10**9))
    res = benchmark(lambda: random_games(CORE_GAMES, players=2, seed=next(seeds), policy="stay"))
    assert res.games == CORE_GAMES and res.decisions > CORE_GAMES * 150


@pytest.mark.benchmark(group="jaeger-games")
def test_jaeger_python_driven_random_game(benchmark):
    seeds = iter(range(10**9))
    g = benchmark(lambda: play_random_game(players=2, seed=next(seeds)))
    assert g.is_over


@pytest.mark.benchmark(group="jaeger-games")
def test_jaeger_python_driven_random_game_stay(benchmark):
    seeds = iter(range(10**9))
    g = benchmark.pedantic(
        lambda: play_random_game(players=2, seed=next(seeds), policy="stay"), rounds=20, iterations=1
    )
    assert g.is_over


@pytest.mark.benchmark(group="jaeger-games")
def test_jaeger_reference_random_game(benchmark):
    seeds = iter(range(10**9))
    g = benchmark.pedantic(lambda: reference_game(next(seeds)), rounds=5, iterations=1)
    assert g.over


@pytest.mark.benchmark(group="jaeger-legal-moves")
def test_jaeger_core_legal_moves_midsummer(benchmark):
    """The core's full legal-turn generation (every first and second step)."""
    positions = midsummer_positions()
    n = benchmark(Cycle([g.core for g in positions], lambda c: c.count_legal()))
    assert n > 0


@pytest.mark.benchmark(group="jaeger-legal-moves")
def test_jaeger_api_legal_moves_midsummer(benchmark):
    """Game.legal_moves(): the core generation plus the Python sequence of codes."""
    positions = midsummer_positions()
    moves = benchmark(Cycle(positions, lambda g: g.legal_moves()))
    assert len(moves) > 0


@pytest.mark.benchmark(group="jaeger-legal-moves")
def test_jaeger_api_legal_moves_materialised_midsummer(benchmark):
    """list(Game.legal_moves()): every Move object built (memoised per game configuration)."""
    positions = midsummer_positions()
    moves = benchmark(Cycle(positions, lambda g: list(g.legal_moves())))
    assert len(moves) > 0


@pytest.mark.benchmark(group="jaeger-clone")
def test_jaeger_clone(benchmark):
    g = midsummer_positions()[0]
    c = benchmark(g.clone)
    assert c.to_record() == g.to_record()
