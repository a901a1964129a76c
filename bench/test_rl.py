"""pytest-benchmark suites for `hunters.rl` (issue 14's speed targets). Needs ``hunters-engine[rl]``.

    python -m pytest bench/test_rl.py --benchmark-enable -q

Each benchmark stores its rate as ``extra_info["steps_per_second"]`` (pytest-benchmark's own times
are per round):

- PettingZoo AEC, step + observe (``env.last()``, a copy of the observation and mask) with a random
  legal code picked from the mask, as a user loop does: target >= 10,000 steps/s for H&G; also with
  the env's own buffers (``copy_observations=False``).
- Gymnasium vector env over the core batch, 256 games: ``env.step`` alone (codes recorded from an
  earlier run of the same seeds, so the figure is the env's: step + observations + masks), target
  >= 200,000 steps/s; and with the random legal codes picked by numpy from the [256, actions] mask
  on every step (what a user without a policy pays), and with `HuntersVectorEnv.sample_legal` (the
  batch's lists of legal codes where it keeps them).

- Gymnasium single-agent env against each built-in bot (``random``, ``greedy``, ``mcts`` with 100
  iterations and at its default), the learner's codes from ``sample_legal``: the bots' thinking
  included (target: ``greedy`` >= 2,000).

A random legal code from a mask: ``mask.view(np.bool_).nonzero()[0]`` (10× faster than
``np.flatnonzero`` on int8 masks of this size with numpy 2.4).
"""

from __future__ import annotations

import time

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import hunters
from hunters.rl import aec_env, gym_env, vector_env

AEC_STEPS = 5_000
VECTOR_GAMES = 256
VECTOR_STEPS = 200


def learn_games() -> list[str]:
    ids = []
    for game_id in hunters.games.ids():
        try:
            hunters.games.get(game_id).new(players=2, seed=0).learn_layout()
        except NotImplementedError:
            continue
        ids.append(game_id)
    return ids


def pick_rows(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal code per row of a [games, actions] mask."""
    rows, cols = mask.view(np.bool_).nonzero()
    counts = np.bincount(rows, minlength=mask.shape[0])
    starts = np.cumsum(counts) - counts
    return cols[starts + (rng.random(mask.shape[0]) * counts).astype(np.int64)]


def aec_run(game_id: str, copy: bool, steps: int) -> float:
    """Steps per second of an AEC loop (last, pick, step) over `steps` decisions."""
    env = aec_env(game_id, players=2, copy_observations=copy)
    rng = np.random.default_rng(0)
    done, seed = 0, 0
    start = time.perf_counter()
    while done < steps:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            env.step(int(legal[rng.integers(len(legal))]))
            done += 1
    return done / (time.perf_counter() - start)


@pytest.mark.benchmark(group="rl-aec")
@pytest.mark.parametrize("copy", [True, False], ids=["copies", "buffers"])
@pytest.mark.parametrize("game_id", learn_games())
def test_aec_step_observe(benchmark, game_id, copy):
    rates = []
    benchmark.pedantic(lambda: rates.append(aec_run(game_id, copy, AEC_STEPS)), rounds=3, iterations=1)
    benchmark.extra_info["steps_per_second"] = max(rates)
    assert max(rates) > 0


def record_actions(game_id: str) -> list[np.ndarray]:
    env = vector_env(game_id, num_envs=VECTOR_GAMES)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = []
    for _ in range(VECTOR_STEPS):
        a = pick_rows(obs["action_mask"], rng)
        actions.append(a)
        obs, *_ = env.step(a)
    return actions


@pytest.mark.benchmark(group="rl-vector")
@pytest.mark.parametrize("game_id", learn_games())
def test_vector_env_step(benchmark, game_id):
    actions = record_actions(game_id)
    env = vector_env(game_id, num_envs=VECTOR_GAMES)

    def run():
        env.reset(seed=0)
        start = time.perf_counter()
        for a in actions:
            env.step(a)
        return VECTOR_GAMES * len(actions) / (time.perf_counter() - start)

    rates = []
    benchmark.pedantic(lambda: rates.append(run()), rounds=3, iterations=1)
    benchmark.extra_info["steps_per_second"] = max(rates)
    assert max(rates) > 0


@pytest.mark.benchmark(group="rl-vector")
@pytest.mark.parametrize("game_id", learn_games())
def test_vector_env_step_with_numpy_pick(benchmark, game_id):
    env = vector_env(game_id, num_envs=VECTOR_GAMES)
    rng = np.random.default_rng(0)

    def run():
        obs, _ = env.reset(seed=0)
        start = time.perf_counter()
        for _ in range(VECTOR_STEPS // 4):
            obs, *_ = env.step(pick_rows(obs["action_mask"], rng))
        return VECTOR_GAMES * (VECTOR_STEPS // 4) / (time.perf_counter() - start)

    rates = []
    benchmark.pedantic(lambda: rates.append(run()), rounds=2, iterations=1)
    benchmark.extra_info["steps_per_second"] = max(rates)
    assert max(rates) > 0


@pytest.mark.benchmark(group="rl-vector")
@pytest.mark.parametrize("game_id", learn_games())
def test_vector_env_step_with_sample_legal(benchmark, game_id):
    """Random legal codes from `HuntersVectorEnv.sample_legal` (the batch's legal lists where kept)."""
    env = vector_env(game_id, num_envs=VECTOR_GAMES)
    rng = np.random.default_rng(0)

    def run():
        env.reset(seed=0)
        start = time.perf_counter()
        for _ in range(VECTOR_STEPS):
            env.step(env.sample_legal(rng))
        return VECTOR_GAMES * VECTOR_STEPS / (time.perf_counter() - start)

    rates = []
    benchmark.pedantic(lambda: rates.append(run()), rounds=2, iterations=1)
    benchmark.extra_info["steps_per_second"] = max(rates)
    assert max(rates) > 0


SINGLE_STEPS = {"random": 3_000, "greedy": 2_000, "mcts:iterations=100": 60, "mcts": 8}
"""Learner steps per round of the single-agent env against each built-in bot (fewer for slower
bots): ``greedy`` takes its one-ply choice from the game's core (`CoreSearch.greedy_best`); ``mcts``
small (100 iterations a move) and at its default. (``strong`` is left out: its search runs partly in
Python, about 1 step/s in Jäger und Sammler.)"""


def single_run(game_id: str, opponent: str, steps: int) -> float:
    """Learner steps per second of the single-agent Gymnasium env against `opponent` (every other
    seat), the learner picking random legal codes (`sample_legal`); bots' moves included."""
    env = gym_env(game_id, players=2, opponents=opponent)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        _obs, _reward, term, trunc, _info = env.step(env.sample_legal(rng))
        done += 1
        if term or trunc:
            env.reset()
    return done / (time.perf_counter() - start)


@pytest.mark.benchmark(group="rl-single")
@pytest.mark.parametrize("opponent", list(SINGLE_STEPS))
@pytest.mark.parametrize("game_id", learn_games())
def test_single_agent_env_against_bot(benchmark, game_id, opponent):
    rates = []
    benchmark.pedantic(
        lambda: rates.append(single_run(game_id, opponent, SINGLE_STEPS[opponent])), rounds=2, iterations=1
    )
    benchmark.extra_info["steps_per_second"] = max(rates)
    assert max(rates) > 0


if __name__ == "__main__":  # quick figures without pytest-benchmark
    for gid in learn_games():
        print(
            f"{gid}: AEC step+observe {aec_run(gid, True, AEC_STEPS):,.0f} steps/s (copies), "
            f"{aec_run(gid, False, AEC_STEPS):,.0f} (buffers)"
        )
        for opp, n in SINGLE_STEPS.items():
            print(f"{gid}: single-agent env against {opp} {single_run(gid, opp, n):,.0f} steps/s")
