"""Benchmarks of the bots (issue 11). Fast ones run with the other suites; the strength and arena
runs take minutes and are marked `slow` (deselected unless `--slow`):

    python -m pytest bench/test_bots_bench.py --benchmark-enable -q            # playout rates
    python bench/bots_report.py                                              # everything, docs/performance.md table

Figures: MCTS playouts per second at decision 40 (core playouts from a determinized position, one
core), full IS-MCTS iterations per second, win rates of mcts(1000) against random and greedy
(2-player, seats alternated, the same deals on both seats), seconds per mcts(1000)-vs-mcts(1000)
game, and the speed-up of `--jobs 2` over `--jobs 1`.
"""

import os
import random
import time

import pytest

from bench.common import Cycle
from bench.test_carcassonne_bench import midgame_positions
from hunters.bots.arena import run_arena
from hunters.jaeger import Game as Jaeger

PLAYOUTS = 2000
ITERATIONS = 1000
STRENGTH_GAMES = int(os.environ.get("HUNTERS_BENCH_STRENGTH_GAMES", "200"))
JAEGER_STRENGTH_GAMES = int(os.environ.get("HUNTERS_BENCH_JAEGER_GAMES", "40"))


def jaeger_positions():
    """Seeded 2-player games after 10 turns of random play (mid-summer)."""
    out = []
    for seed in range(20):
        rng = random.Random(seed)
        g = Jaeger.new(players=2, seed=seed)
        for _ in range(10):
            moves = g.legal_moves()
            stay = [m for m in moves if all(d is not None for _, d in m.steps)] or list(moves)
            g.play(rng.choice(stay))
        assert not g.is_over
        out.append(g.observed_by(g.player))
    return out


def _observed(games):
    return [g.observed_by(g.player) for g in games]


@pytest.mark.benchmark(group="bots")
def test_hg_mcts_playouts_at_decision_40(benchmark):
    seeds = iter(range(10**9))
    positions = _observed(midgame_positions())
    res = benchmark(Cycle(positions, lambda g: g.core.playouts(PLAYOUTS, next(seeds), True)))
    assert sum(res[1]) >= PLAYOUTS


@pytest.mark.benchmark(group="bots")
def test_hg_mcts_iterations_at_decision_40(benchmark):
    seeds = iter(range(10**9))
    positions = _observed(midgame_positions())
    res = benchmark(Cycle(positions, lambda g: g.core.mcts(ITERATIONS, 0.0, 0.25, 1.0, 20.0, next(seeds))))
    assert res[0] == ITERATIONS


@pytest.mark.benchmark(group="bots")
def test_jaeger_mcts_playouts_mid_summer(benchmark):
    seeds = iter(range(10**9))
    res = benchmark(Cycle(jaeger_positions(), lambda g: g.core.playouts(PLAYOUTS // 4, next(seeds), True)))
    assert sum(res[1]) >= PLAYOUTS // 4


@pytest.mark.benchmark(group="bots")
def test_jaeger_mcts_iterations_mid_summer(benchmark):
    seeds = iter(range(10**9))
    res = benchmark(Cycle(jaeger_positions(), lambda g: g.core.mcts(ITERATIONS, 0.0, 0.25, 1.0, 10.0, next(seeds))))
    assert res[0] == ITERATIONS


def _strength(benchmark, game, opponent, games):
    specs = [f"mcts:iterations={ITERATIONS}", opponent]
    result = benchmark.pedantic(lambda: run_arena(game, 2, specs, games, jobs=2, seed=1000), rounds=1, iterations=1)
    mcts, other = result.stats()
    benchmark.extra_info.update(
        win_rate=mcts.win_rate,
        win_rate_low=mcts.win_rate_low,
        win_rate_high=mcts.win_rate_high,
        games=len(result.results),
        mean_score=mcts.mean_score,
        opponent_mean_score=other.mean_score,
        seconds_per_move=mcts.seconds_per_move,
    )
    print("\n" + result.table())
    return mcts


@pytest.mark.slow
@pytest.mark.benchmark(group="strength")
def test_hg_mcts_vs_random(benchmark):
    assert _strength(benchmark, "carcassonne_hg", "random", STRENGTH_GAMES).win_rate >= 0.95


@pytest.mark.slow
@pytest.mark.benchmark(group="strength")
def test_hg_mcts_vs_greedy(benchmark):
    assert _strength(benchmark, "carcassonne_hg", "greedy", STRENGTH_GAMES).win_rate >= 0.65


@pytest.mark.slow
@pytest.mark.benchmark(group="strength")
def test_jaeger_mcts_vs_random(benchmark):
    _strength(benchmark, "jaeger_sammler", "random", JAEGER_STRENGTH_GAMES)


@pytest.mark.slow
@pytest.mark.benchmark(group="strength")
def test_jaeger_mcts_vs_greedy(benchmark):
    _strength(benchmark, "jaeger_sammler", "greedy", JAEGER_STRENGTH_GAMES)


@pytest.mark.slow
@pytest.mark.benchmark(group="arena")
def test_hg_mcts_vs_mcts_game_seconds(benchmark):
    specs = [f"mcts:iterations={ITERATIONS}", f"mcts:iterations={ITERATIONS},seed=1"]
    seeds = iter(range(10**9))
    result = benchmark.pedantic(
        lambda: run_arena("carcassonne_hg", 2, specs, 1, seed=next(seeds)), rounds=3, iterations=1
    )
    assert len(result.results) == 1


@pytest.mark.slow
@pytest.mark.benchmark(group="arena")
def test_arena_jobs_speedup(benchmark):
    specs = ["mcts:iterations=300", "greedy"]

    def run():
        t = time.perf_counter()
        one = run_arena("carcassonne_hg", 2, specs, 8, jobs=1, seed=5)
        t1 = time.perf_counter() - t
        t = time.perf_counter()
        two = run_arena("carcassonne_hg", 2, specs, 8, jobs=2, seed=5)
        t2 = time.perf_counter() - t
        assert [r.scores for r in one.results] == [r.scores for r in two.results]
        return t1 / t2

    speedup = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["speedup"] = speedup
    print(f"\n--jobs 2 / --jobs 1 speed-up: {speedup:.2f}x")
