"""Rules every env type shares: one seed rule, numpy integers as Python integers, `sample_legal`,
`render_fps`, and opponents that are any callable."""

from __future__ import annotations

import numpy as np
import pytest

from hunters.bots import make_bot
from hunters.rl import aec_env, gym_env, vector_env
from hunters.rl._common import DEFAULT_VIEW


def _first_obs(obs):
    return {k: np.array(v) for k, v in obs.items() if k != "action_mask"}


def _same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_one_seed_rule_in_every_env_type(game_cls):
    """reset(seed=s) plays Game.new(seed=s) in the single-agent, AEC and vector envs."""
    for seed in (9, 123456789):
        expected = game_cls.new(players=2, seed=seed)
        single = gym_env(game_cls, opponents="random", seat=0)
        obs, _ = single.reset(seed=seed)
        assert single.game.to_record() == expected.to_record()
        aec = aec_env(game_cls, players=2)
        aec.reset(seed=seed)
        assert aec.game.to_record() == expected.to_record()
        want = _first_obs(expected.observe(0, view=DEFAULT_VIEW))
        assert _same(_first_obs(obs), want)
        assert _same(_first_obs(aec.observe("player_0")), want)
        if hasattr(game_cls, "learn_batch"):
            try:
                vec = vector_env(game_cls, num_envs=2, players=2)
            except NotImplementedError:
                continue
            vobs, _ = vec.reset(seed=seed)
            assert _same({k: np.array(v[0]) for k, v in vobs.items() if k != "action_mask"}, want)


def test_unseeded_resets_follow_the_same_stream_in_every_env_type(game_cls):
    single = gym_env(game_cls, opponents="random", seat=0)
    aec = aec_env(game_cls, players=2)
    single.reset(seed=5)
    aec.reset(seed=5)
    for _ in range(3):
        single.reset()
        aec.reset()
        assert single.game.to_record()["seed"] == aec.game.to_record()["seed"]
        assert single.game.to_record() == aec.game.to_record()


def test_same_seed_same_game_through_the_playing(game_cls):
    """The single-agent env and the AEC env, given the same seed and the same codes for every seat,
    play the same game (the opponent is a policy replaying the AEC env's codes)."""
    aec = aec_env(game_cls, players=2)
    aec.reset(seed=21)
    rng = np.random.default_rng(0)
    codes = []
    while not aec.game.is_over:
        code = aec.sample_legal(rng)
        codes.append((aec.game.player, code))
        aec.step(code)
    theirs = iter([c for s, c in codes if s == 1])
    mine = iter([c for s, c in codes if s == 0])
    single = gym_env(game_cls, opponents=lambda obs: next(theirs), seat=0)
    single.reset(seed=21)
    done = single.game.is_over
    while not done:
        _, _, done, _, _ = single.step(next(mine))
    assert single.game.to_record() == aec.game.to_record()


def test_numpy_integers_are_accepted(game_cls):
    env = gym_env(game_cls, players=np.int64(2), seat=np.int32(1), opponents="random")
    obs, _ = env.reset(seed=np.uint64(9))
    assert env.game.to_record()["seed"] == 9 and env.seat == 1
    code = np.flatnonzero(obs["action_mask"])[0]  # numpy int64
    env.step(code)
    aec = aec_env(game_cls, players=np.int8(2))
    aec.reset(seed=np.int64(9))
    aec.step(np.int16(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    with pytest.raises(TypeError):
        env.reset(seed=9.0)
    with pytest.raises(TypeError):
        aec.step(1.5)
    with pytest.raises(ValueError):
        gym_env(game_cls, seat=np.int64(5))


def test_render_fps_in_metadata(game_cls):
    assert gym_env(game_cls).metadata["render_fps"] > 0
    assert aec_env(game_cls).metadata["render_fps"] > 0


def test_sample_legal_in_every_env_type(game_cls):
    rng = np.random.default_rng(3)
    env = gym_env(game_cls)
    obs, _ = env.reset(seed=2)
    for _ in range(5):
        code = env.sample_legal(rng)
        assert obs["action_mask"][code] == 1
        obs, _r, term, _t, _ = env.step(code)
        if term:
            break
    aec = aec_env(game_cls)
    aec.reset(seed=2)
    for _ in range(5):
        code = aec.sample_legal()
        assert aec.observe(aec.agent_selection)["action_mask"][code] == 1
        aec.step(code)


def test_opponents_may_be_callables_or_bots(game_cls):
    seen = []

    def first_legal(obs):
        seen.append(obs)
        return int(np.flatnonzero(obs["action_mask"])[0])

    env = gym_env(game_cls, opponents=first_legal, seat=1)
    obs, _ = env.reset(seed=4)
    assert seen and set(seen[0]) == set(obs)
    done = False
    while not done:
        obs, reward, done, _t, info = env.step(env.sample_legal())
    assert reward in (-1.0, 0.0, 1.0) and "scores" in info
    # the opponent's observation is its own seat's: equal to observe(seat 0) at its decisions
    game = game_cls.new(players=2, seed=4)
    want = game.observe(0, view=DEFAULT_VIEW)
    assert all(np.array_equal(seen[0][k], want[k]) for k in want)
    # a Bot object and a list mixing kinds
    bot_env = gym_env(game_cls, opponents=make_bot("greedy"), seat=0)
    bot_env.reset(seed=1)
    if game_cls.INFO.max_players >= 3:
        mixed = gym_env(game_cls, players=3, opponents=["random", first_legal])
        mixed.reset(seed=1)
    with pytest.raises(TypeError):
        gym_env(game_cls, opponents=[3])


def test_illegal_code_from_a_policy_opponent_raises(game_cls):
    from hunters.errors import IllegalMoveError

    def bad(obs):
        return len(obs["action_mask"])  # no code of the action space

    env = gym_env(game_cls, opponents=bad, seat=1)
    with pytest.raises(IllegalMoveError):
        env.reset(seed=0)


def test_afterstates_option_puts_the_cores_table_in_info(game_cls):
    layout = game_cls.new(players=2, seed=0).learn_layout()
    if not layout.afterstates:
        with pytest.raises(ValueError, match="no afterstate features"):
            gym_env(game_cls, afterstates=True)
        return
    env = gym_env(game_cls, opponents="random", afterstates=True)
    _obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = 0
    while True:
        codes, table = env.game.learn_afterstates()
        assert np.array_equal(info["legal_codes"], codes) and np.array_equal(info["afterstates"], table)
        assert table.shape == (len(codes), len(layout.afterstates)) and codes.tolist() == env.game.compact.legal()
        _obs, _r, term, _t, info = env.step(int(codes[rng.integers(len(codes))]))
        steps += 1
        if term:
            assert "afterstates" not in info
            break
    assert steps > 10
