"""pytest-benchmark suite of Jäger und Sammler's learning batch (#14): steps/s of 256 games stepped
together in the core, observations and masks included. Run with
`python -m pytest bench/test_learn_jaeger.py --benchmark-enable`.

Each benchmark call plays STEPS batch steps (STEPS * GAMES game steps); `extra_info["steps_per_s"]`
is the median's rate. Two figures: with the random legal code of each game picked from the mask by
numpy (as a user would: exactly uniform, from the mask's nonzero entries), and the core's step alone
(the same recorded codes replayed after a reset, so the games are the same), with 1 and 2 OpenMP
threads. On a shared machine run the 2-thread case with OMP_WAIT_POLICY=passive: libgomp's default
spinning at the loop's barrier, competing with other processes for the cores, makes it several
times slower than 1 thread.
"""

import numpy as np
import pytest

from hunters.jaeger import Game
from hunters.jaeger.learn import JaegerLearnBatch

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


def _rate(benchmark) -> None:
    benchmark.extra_info["steps_per_s"] = STEPS * GAMES / benchmark.stats.stats.median


@pytest.mark.benchmark(group="learn-jaeger")
def test_learn_jaeger_batch_with_numpy_choice(benchmark):
    batch = Game.learn_batch(GAMES, 2, seed=1)
    rng = np.random.default_rng(0)

    def run():
        for _ in range(STEPS):
            batch.step(random_codes(batch.mask, rng))

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    _rate(benchmark)


@pytest.mark.benchmark(group="learn-jaeger")
@pytest.mark.parametrize("threads", [1, 2])
def test_learn_jaeger_batch_core_step(benchmark, threads):
    batch = JaegerLearnBatch(GAMES, 2, seed=1, threads=threads)
    rng = np.random.default_rng(0)
    codes = []
    for _ in range(STEPS):
        codes.append(random_codes(batch.mask, rng))
        batch.step(codes[-1])

    def run():
        for a in codes:
            batch.step(a)

    benchmark.pedantic(run, setup=lambda: batch.reset(1), rounds=5, iterations=1, warmup_rounds=1)
    _rate(benchmark)
    assert batch.player.shape == (GAMES,)
