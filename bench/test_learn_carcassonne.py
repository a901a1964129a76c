"""pytest-benchmark suites of H&G's learning surface (#14): the batch of 256 games stepped in the
core (mask + observations of every game refilled each step), and one game's step + observe.

Run with `python -m pytest bench/test_learn_carcassonne.py --benchmark-enable`; steps/s is
GAMES / mean of one call (add `--benchmark-timer=time.process_time` for CPU time on a busy
machine). The actions are random legal codes: picked from the mask with numpy, as a user would
(`pick` scans the whole mask, GAMES x 87,552 bytes, which costs more than the step itself), or
from the batch's legal-code lists (`Batch.random_actions`); the step alone is measured with the
pick outside the timing (pedantic setup).
"""

import numpy as np
import pytest

from hunters.carcassonne import Game
from hunters.carcassonne.learn import ACTIONS

GAMES = 256
ROUNDS = 400
"""Steps timed per benchmark: about five whole games per slot (the slots start together, so a
shorter run would over-weight the cheap opening moves). Read the mean: it is steps/s over whole games."""


def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal code per row of a [games, ACTIONS] mask (vectorised; the bool view
    makes flatnonzero ~10x faster than on uint8)."""
    flat = np.flatnonzero(mask.view(np.bool_))
    rows = flat // ACTIONS
    counts = np.bincount(rows, minlength=mask.shape[0])
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    chosen = flat[starts + (rng.random(mask.shape[0]) * counts).astype(np.int64)]
    return chosen - np.arange(mask.shape[0]) * ACTIONS


@pytest.mark.benchmark(group="learn")
def test_batch_step_with_numpy_pick(benchmark):
    batch = Game.learn_batch(GAMES, players=2, seed=0)
    rng = np.random.default_rng(0)
    benchmark.pedantic(lambda: batch.step(pick(batch.mask, rng)), rounds=ROUNDS, iterations=1)
    assert batch.mask.any(axis=1).all()


@pytest.mark.benchmark(group="learn")
def test_batch_step_core_only(benchmark):
    batch = Game.learn_batch(GAMES, players=2, seed=0)
    rng = np.random.default_rng(0)
    benchmark.pedantic(batch.step, setup=lambda: ((pick_listed(batch, rng),), {}), rounds=ROUNDS)
    assert batch.mask.any(axis=1).all()


def pick_listed(batch, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal code per game from the batch's legal-code lists (no mask scan)."""
    return batch.random_actions(rng)


@pytest.mark.benchmark(group="learn")
def test_batch_step_with_listed_pick(benchmark):
    batch = Game.learn_batch(GAMES, players=2, seed=0)
    rng = np.random.default_rng(0)
    benchmark.pedantic(lambda: batch.step(pick_listed(batch, rng)), rounds=ROUNDS, iterations=1)
    assert (batch.legal_count > 0).all()


@pytest.mark.benchmark(group="learn")
def test_numpy_pick_alone(benchmark):
    batch = Game.learn_batch(GAMES, players=2, seed=0)
    rng = np.random.default_rng(0)
    actions = benchmark(lambda: pick(batch.mask, rng))
    assert all(batch.mask[i, a] for i, a in enumerate(actions))


@pytest.mark.benchmark(group="learn")
def test_single_game_step_and_observe(benchmark):
    """What an AEC env does per step: a legal code (from compact.legal()), compact.play, observe, mask."""
    state = {"g": Game.new(2, seed=0), "seed": 0}
    rng = np.random.default_rng(0)
    out = state["g"].observe(0)
    mask = state["g"].compact.mask()

    def step():
        g = state["g"]
        if g.is_over:
            state["seed"] += 1
            g = state["g"] = Game.new(2, seed=state["seed"])
        codes = g.compact.legal()
        g.compact.play(codes[int(rng.integers(len(codes)))])
        if not g.is_over:
            g.observe(g.player, out=out)
            g.compact.mask(out=mask)

    benchmark(step)
