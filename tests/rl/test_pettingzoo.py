"""PettingZoo AEC environments of every game with the learning surface."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hunters.errors import IllegalMoveError
from hunters.learn import terminal_rewards
from hunters.rl import aec_env

ROOT = Path(__file__).resolve().parents[2]


def test_api(game_cls):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations and all-zero masks of waiting agents
        api_test(aec_env(game_cls, players=2), num_cycles=300)


def test_api_three_players(game_cls):
    if game_cls.INFO.max_players < 3:
        pytest.skip("two players only")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(game_cls, players=3), num_cycles=100)


def test_seed(game_cls):
    seed_test(lambda: aec_env(game_cls, players=2), num_cycles=100)


def play_out(env, seed):
    """A whole game with the first legal code each time; returns (agents in order, final rewards)."""
    env.reset(seed=seed)
    order, rewards = [], {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        order.append(agent)
        if term or trunc:
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return order, rewards


def test_a_game_matches_the_game_and_pays_terminal_rewards(game_cls):
    env = aec_env(game_cls, players=2)
    order, rewards = play_out(env, seed=5)
    game = game_cls.new(players=2, seed=5)
    seats = []
    while not game.is_over:
        seats.append(game.player)
        game.compact.play(game.compact.legal()[0])
    assert order[: len(seats)] == [f"player_{s}" for s in seats]
    assert env.game.scores == game.scores
    assert rewards == {f"player_{i}": r for i, r in enumerate(terminal_rewards(game.scores))}
    assert env.agents == []


def test_observations_are_the_seats_and_stay_valid(game_cls):
    env = aec_env(game_cls, players=2)
    env.reset(seed=2)
    mover = env.agent_selection
    other = next(a for a in env.possible_agents if a != mover)
    first = env.observe(mover)
    kept = {k: v.copy() for k, v in first.items()}
    waiting = env.observe(other)
    assert not waiting["action_mask"].any()
    assert first["action_mask"].dtype == np.int8
    assert np.flatnonzero(first["action_mask"]).tolist() == env.game.compact.legal()
    direct = env.game.observe(int(mover.split("_")[1]), view=env.view)
    assert all(np.array_equal(first[k], direct[k]) for k in direct)
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    assert all(np.array_equal(first[k], kept[k]) for k in kept)  # copies: not refilled by the step
    assert env.observation_space(mover).contains(first)


def test_buffers_without_copies(game_cls):
    env = aec_env(game_cls, players=2, copy_observations=False)
    env.reset(seed=2)
    a = env.observe(env.agent_selection)
    b = env.observe(env.agent_selection)
    assert a["action_mask"] is b["action_mask"]


def test_illegal_code_raises_and_changes_nothing(game_cls):
    env = aec_env(game_cls, players=2)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    record = env.game.to_record()
    with pytest.raises(IllegalMoveError):
        env.step(bad)
    assert env.game.to_record() == record


def test_unseeded_resets_differ_and_seeded_repeat(game_cls):
    env = aec_env(game_cls, players=2)
    env.reset(seed=9)
    s1 = env.game.seed
    env.reset()
    env.reset(seed=9)
    assert env.game.seed == s1


def test_render_ansi(game_cls):
    env = aec_env(game_cls, players=2, render_mode="ansi")
    env.reset(seed=0)
    assert game_cls.INFO.name in env.render()
    with pytest.raises(ValueError):
        aec_env(game_cls, render_mode="rgb_array")


def test_importing_hunters_rl_imports_no_library():
    import subprocess
    import sys

    libraries = "('numpy', 'gymnasium', 'pettingzoo', 'pyspiel')"
    code = f"import sys, hunters, hunters.rl; print(sorted(m for m in {libraries} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_the_usual_constructors_pass_the_api_test(game_cls):
    """``env()`` (PettingZoo's wrappers, as its classic games have) and ``raw_env()`` pass
    `pettingzoo.test.api_test` and `seed_test`, and play a whole game."""
    from hunters.rl.pettingzoo import HuntersAECEnv, env, raw_env

    assert isinstance(raw_env(game_cls), HuntersAECEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(game_cls, players=2), num_cycles=200)
        api_test(raw_env(game_cls, players=2), num_cycles=50)
        seed_test(lambda: env(game_cls, players=2), num_cycles=30)
    wrapped = env(game_cls)
    wrapped.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in wrapped.agent_iter():
        obs, _reward, terminated, truncated, _info = wrapped.last()
        if terminated or truncated:
            wrapped.step(None)
            continue
        wrapped.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert wrapped.unwrapped.game.is_over


def test_env_ends_the_game_on_an_illegal_code(game_cls):
    from hunters.rl.pettingzoo import ILLEGAL_REWARD, env

    wrapped = env(game_cls, players=2)
    wrapped.reset(seed=1)
    obs, *_ = wrapped.last()
    while obs["action_mask"].all():  # (the tiny game's first decisions allow every code)
        wrapped.step(int(np.flatnonzero(obs["action_mask"])[0]))
        obs, *_ = wrapped.last()
    agent = wrapped.agent_selection
    record = wrapped.unwrapped.game.to_record()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's own warning about the illegal move
        wrapped.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert wrapped.unwrapped.game.to_record() == record  # the game itself is unchanged
    rewards = {}
    for a in wrapped.agent_iter():
        _obs, reward, terminated, _truncated, _info = wrapped.last()
        assert terminated
        rewards[a] = reward
        wrapped.step(None)
    assert rewards[agent] == ILLEGAL_REWARD and all(r == 0 for a, r in rewards.items() if a != agent)
    with pytest.raises(AssertionError):
        fresh = env(game_cls)
        fresh.reset(seed=0)
        fresh.step(fresh.action_space(fresh.agent_selection).n)
    with pytest.raises(ValueError, match="raw_env"):
        env(game_cls, copy_observations=False)
