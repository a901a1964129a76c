"""pytest-benchmark suite of Jäger und Sammler's learning batch (#14): steps/s of 256 games stepped
together in the core, observations and masks included. Run with
`python -m pytest bench/test_learn_jaeger.py --benchmark-enable`.

Each benchmark call plays STEPS batch steps (STEPS * GAMES game steps). `extra_info["steps_per_s"]`
is the median's wall-clock rate, `extra_info["cpu_steps_per_s"]` the rate in process CPU time (the
fastest call; on a shared machine the wall clock also counts other processes). Two figures: with
the random legal code of each game picked from the mask by numpy (as a user would: exactly
uniform, from the mask's nonzero entries), and the core's step alone (the same recorded codes
replayed after a reset, so the games are the same).
"""

import time

import numpy as np
import pytest

from hunters.jaeger import Game

GAMES = 256
STEPS = 50


def random_codes(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal code per row of the mask (every row has one): the legal entries
    in one pass (flatnonzero), then the k-th of each row with k uniform below its count."""
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // mask.shape[1], minlength=len(mask))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    pick = starts + (rng.random(len(mask)) * counts).astype(np.int64)
    return flat[pick] % mask.shape[1]


class CpuTimed:
    """f with the fastest process CPU time of its calls kept (the machine may be shared: wall time
    then counts other processes' turns too)."""

    def __init__(self, f):
        self.f, self.best = f, float("inf")

    def __call__(self):
        t = time.process_time()
        self.f()
        self.best = min(self.best, time.process_time() - t)


def _rate(benchmark, timed: CpuTimed) -> None:
    if benchmark.stats is None:  # --benchmark-disable (the default addopts): ran once, nothing timed
        return
    benchmark.extra_info["steps_per_s"] = STEPS * GAMES / benchmark.stats.stats.median
    benchmark.extra_info["cpu_steps_per_s"] = STEPS * GAMES / timed.best


@pytest.mark.benchmark(group="learn-jaeger")
def test_learn_jaeger_batch_with_numpy_choice(benchmark):
    batch = Game.learn_batch(GAMES, 2, seed=1)
    rng = np.random.default_rng(0)

    def run():
        for _ in range(STEPS):
            batch.step(random_codes(batch.mask, rng))

    timed = CpuTimed(run)
    benchmark.pedantic(timed, rounds=5, iterations=1, warmup_rounds=1)
    _rate(benchmark, timed)


@pytest.mark.benchmark(group="learn-jaeger")
def test_learn_jaeger_batch_core_step(benchmark):
    batch = Game.learn_batch(GAMES, 2, seed=1)
    rng = np.random.default_rng(0)
    codes = []
    for _ in range(STEPS):
        codes.append(random_codes(batch.mask, rng))
        batch.step(codes[-1])

    def run():
        for a in codes:
            batch.step(a)

    timed = CpuTimed(run)
    benchmark.pedantic(timed, setup=lambda: batch.reset(1), rounds=5, iterations=1, warmup_rounds=1)
    _rate(benchmark, timed)
    assert batch.player.shape == (GAMES,)
