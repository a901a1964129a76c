"""Gymnasium: the single-agent env against bots, and the vector env over the core batch."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from hunters.errors import IllegalMoveError
from hunters.learn import terminal_rewards
from hunters.rl import gym_env, vector_env
from hunters.rl.gym import register_envs
from tests.tiny_tiles.game import TinyGame

from .conftest import LEARN_GAMES


def run_episode(env, seed):
    obs, info = env.reset(seed=seed)
    steps, codes = 0, []
    while True:
        code = int(np.flatnonzero(obs["action_mask"])[-1])
        codes.append(code)
        obs, reward, term, trunc, info = env.step(code)
        steps += 1
        if term or trunc:
            return reward, info, codes


@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_check_env(game_cls, opponents):
    check_env(gym_env(game_cls, players=2, opponents=opponents), skip_render_check=True)


def test_episode_against_bots_ends_with_the_learners_terminal_reward(game_cls):
    env = gym_env(game_cls, players=3 if game_cls.INFO.max_players >= 3 else 2, seat=1, opponents="greedy")
    reward, info, _ = run_episode(env, seed=4)
    assert env.game.is_over
    assert reward == terminal_rewards(info["scores"])[1] == terminal_rewards(env.game.scores)[1]


def test_same_seed_same_episode(game_cls):
    a = run_episode(gym_env(game_cls, opponents="random", seat="random"), seed=11)
    b = run_episode(gym_env(game_cls, opponents="random", seat="random"), seed=11)
    assert a[0] == b[0] and a[2] == b[2]


def test_illegal_action_loses_or_raises(game_cls):
    env = gym_env(game_cls)
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, term, _trunc, info = env.step(bad)
    assert (reward, term, info) == (-1.0, True, {"illegal_action": True})
    strict = gym_env(game_cls, illegal="raise")
    obs, _ = strict.reset(seed=0)
    obs, *_ = strict.step(int(np.flatnonzero(obs["action_mask"])[0]))
    record = strict.game.to_record()
    with pytest.raises(IllegalMoveError):
        strict.step(bad)
    assert strict.game.to_record() == record


def test_bad_arguments():
    with pytest.raises(ValueError):
        gym_env("carcassonne_hg", opponents="nobody")
    with pytest.raises(ValueError):
        gym_env("carcassonne_hg", players=3, opponents=["random"])
    with pytest.raises(ValueError):
        gym_env("carcassonne_hg", seat=2)


def test_registered_ids():
    ids = register_envs()
    assert "hunters/CarcassonneHG-v0" in ids and "hunters/JaegerSammler-v0" in ids
    assert all(i in gymnasium.registry for i in ids)
    single = gymnasium.make("hunters/CarcassonneHG-v0", opponents="greedy")
    obs, _ = single.reset(seed=0)
    assert single.observation_space.contains(obs)
    vec = gymnasium.make_vec("hunters/JaegerSammler-SelfPlay-v0", num_envs=3)
    obs, info = vec.reset(seed=0)
    assert obs["action_mask"].shape == (3, vec.single_action_space.n) and info["player"].shape == (3,)
    vec.step(vec.sample_legal())


def test_vector_env_equals_single_games(batch_cls):
    n = 4
    env = vector_env(batch_cls, num_envs=n, players=2)
    assert env.observation_space.contains(env.reset(seed=100)[0])
    obs, info = env.reset(seed=100)
    games = [batch_cls.new(players=2, seed=100 + i) for i in range(n)]
    episodes = [0] * n
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        actors = info["player"].copy()
        obs, reward, term, _trunc, info = env.step(actions)
        for i in range(n):
            g = games[i]
            assert g.player == actors[i]
            g.compact.play(int(actions[i]))
            if g.is_over:
                ended += 1
                assert term[i]
                expected = terminal_rewards(g.scores)
                assert list(info["rewards"][i]) == expected
                assert reward[i] == expected[actors[i]]
                assert list(info["final_scores"][i]) == g.scores
                episodes[i] += 1
                games[i] = g = batch_cls.new(players=2, seed=100 + episodes[i] * n + i)
            else:
                assert not term[i] and reward[i] == 0
            assert info["player"][i] == g.player
            assert np.array_equal(obs["action_mask"][i], g.compact.mask().view(np.int8))
            direct = g.observe(g.player, view=env.view)
            assert all(np.array_equal(obs[k][i], direct[k]) for k in direct)
        if ended >= n and batch_cls.INFO.id != "tiny_tiles":
            break
    assert ended >= 1


def test_make_vec_and_illegal_batch_action(batch_cls):
    env = vector_env(batch_cls, num_envs=2)
    obs, _ = env.reset(seed=0)
    actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    obs, *_ = env.step(actions)  # the batch's buffers, refilled in place
    masks = obs["action_mask"].copy()
    bad = np.array([np.flatnonzero(m)[0] for m in masks])
    bad[1] = int(np.flatnonzero(masks[1] == 0)[0])
    before = [env.batch.game(i).to_record() for i in range(2)]
    with pytest.raises(IllegalMoveError, match="slot 1"):
        env.step(bad)
    assert [env.batch.game(i).to_record() for i in range(2)] == before


def test_sample_legal_draws_legal_codes(batch_cls):
    """(H&G's batch draws them itself, the tiny game's keeps legal lists, Jäger's only masks.)"""
    env = vector_env(batch_cls, num_envs=6)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(30):
        codes = env.sample_legal(rng)
        assert all(obs["action_mask"][i, c] == 1 for i, c in enumerate(codes))
        seen.add(int(codes[0]))
        obs, *_ = env.step(codes)
    assert len(seen) > 1


@pytest.mark.parametrize("game_id", [c.INFO.id for c in LEARN_GAMES if c is not TinyGame])
def test_mcts_opponents_and_svg(game_id):
    env = gym_env(game_id, opponents="mcts:iterations=20", seat=1, render_mode="svg")
    obs, _ = env.reset(seed=1)
    assert env.game.moves_played >= 1  # the bot at seat 0 moved first
    for _ in range(3):
        obs, _reward, term, _trunc, _info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if term:
            break
    assert env.render().lstrip().startswith("<svg")


def _fresh_python(code: str) -> str:
    """Run `code` in a new interpreter (nothing of hunters imported before it); its stdout."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return out.stdout.strip()


def test_gymnasium_entry_point_registers_every_learnable_game():
    """The package's `gymnasium.envs` entry point names a function that registers the ids of every
    registered learnable game; loaded as Gymnasium 0.26-0.29 load it, `gymnasium.make` then works."""
    from importlib import metadata

    from hunters.rl._common import gym_name, learnable_games

    eps = [ep for ep in metadata.entry_points(group="gymnasium.envs") if ep.value.startswith("hunters.")]
    assert [ep.value for ep in eps] == ["hunters.rl:register_gymnasium"]
    want = sorted(f"hunters/{gym_name(g)}-v0" for g in learnable_games())
    got = _fresh_python(
        "import sys\n"
        "from importlib import metadata\n"
        "ep = next(e for e in metadata.entry_points(group='gymnasium.envs') if e.value.startswith('hunters.'))\n"
        "assert 'hunters.rl.gym' not in sys.modules\n"
        "ids = ep.load()()\n"
        "import gymnasium\n"
        "for i in ids:\n"
        "    if i.endswith('-v0') and 'SelfPlay' not in i:\n"
        "        env = gymnasium.make(i)\n"
        "        obs, _ = env.reset(seed=0)\n"
        "        assert env.observation_space.contains(obs)\n"
        "print(' '.join(sorted(i for i in ids if 'SelfPlay' not in i)))\n"
    )
    assert got.split() == want


def test_make_with_no_prior_import():
    """Gymnasium 1.x: ``module:id`` imports the registering module itself."""
    got = _fresh_python(
        "import gymnasium\n"
        "env = gymnasium.make('hunters.rl.gym:hunters/JaegerSammler-v0', opponents='greedy')\n"
        "obs, info = env.reset(seed=3)\n"
        "print(env.unwrapped.game.to_record()['seed'], env.observation_space.contains(obs))\n"
    )
    assert got == "3 True"


@pytest.mark.parametrize("mode", ["default", "next_step", "same_step"])
def test_make_vec_sync_autoreset_gives_the_next_episodes_first_mask(mode):
    """``gymnasium.make_vec(..., vectorization_mode="sync")`` over the single-agent env, in
    Gymnasium's default autoreset mode (next step) and in same-step mode: a masked sampler never
    meets an all-zero mask, and when an episode ends the mask it gets is that of the next episode's
    first position (next step: the mask of the observation the following reset returns)."""
    from gymnasium.vector import AutoresetMode

    kwargs = {} if mode == "default" else {"vector_kwargs": {"autoreset_mode": AutoresetMode[mode.upper()]}}
    envs = gymnasium.make_vec(
        "hunters.rl.gym:hunters/JaegerSammler-v0", num_envs=2, vectorization_mode="sync", seat="random", **kwargs
    )
    if mode == "default":
        assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    ended, pending = 0, {}
    for _ in range(400):
        assert all(obs["action_mask"][i].any() for i in range(2))
        actions = np.array([rng.choice(np.flatnonzero(obs["action_mask"][i])) for i in range(2)])
        obs, _reward, term, _trunc, _info = envs.step(actions)
        for i, mask in pending.items():  # next step: the slot was reset now, its first mask as announced
            game = envs.envs[i].unwrapped.game
            assert np.array_equal(obs["action_mask"][i], mask)
            assert game.compact.legal() == np.flatnonzero(mask).tolist() and game.player == envs.envs[i].unwrapped.seat
        pending = {}
        for i in np.flatnonzero(term):
            ended += 1
            if envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP:
                pending[int(i)] = obs["action_mask"][i].copy()
            else:  # same step: the observation is already the next episode's first
                game = envs.envs[i].unwrapped.game
                assert np.flatnonzero(obs["action_mask"][i]).tolist() == game.compact.legal() != []
        if ended >= 3 and not pending:
            break
    assert ended >= 3


def test_an_ended_episode_begins_the_next_one_as_reset_would(game_cls):
    """After an episode ends, ``reset()`` plays the game the ended step began (its mask was the
    last observation's), and the episodes are those of an env that only ever reset: same seeds, same
    seats, same opponents' moves."""
    env = gym_env(game_cls, opponents="greedy", seat="random")
    obs, _ = env.reset(seed=21)
    records = []
    for _ in range(3):
        done = False
        while not done:
            obs, _r, done, _t, _i = env.step(env.sample_legal())
        last_mask = obs["action_mask"].copy()
        with pytest.raises(RuntimeError, match="episode is over"):
            env.step(int(np.flatnonzero(last_mask)[0]))
        records.append(env.game.to_record())
        obs, _info = env.reset()
        assert np.array_equal(obs["action_mask"], last_mask) and last_mask.any()
    # the same seed stream without looking ahead: each game's seed and opening are reset()'s
    from hunters.rl._common import SeedStream

    stream = SeedStream()
    stream.next(21)
    seeds = [stream.next() for _ in range(3)]
    assert [r["seed"] for r in records[1:]] == seeds[:2]
