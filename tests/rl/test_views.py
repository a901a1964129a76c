"""The env option ``view`` (`hunters.learn.VIEWS`) in every env type: ``"information_state"`` (default) gives
what `observe(seat, view="information_state")` gives (the seat's recall: in Jäger und Sammler its
own face-down tiles), ``"observation"`` what is on the table; names are checked."""

from __future__ import annotations

import numpy as np
import pytest

from hunters.learn import VIEWS
from hunters.rl import aec_env, gym_env, vector_env

from .conftest import BATCH_GAMES, _ids


def _fields(obs):
    return {k: np.array(v) for k, v in obs.items() if k != "action_mask"}


def _same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("view", VIEWS)
def test_single_agent_and_aec_envs_give_the_chosen_view(game_cls, view):
    single = gym_env(game_cls, opponents="random", seat=0, view=view)
    aec = aec_env(game_cls, players=2, view=view, copy_observations=False)
    rng = np.random.default_rng(0)
    obs, _ = single.reset(seed=4)
    aec.reset(seed=4)
    for _ in range(40):
        g = single.game
        if g.is_over:
            break
        assert _same(_fields(obs), _fields(g.observe(0, view=view)))
        obs, *_ = single.step(single.sample_legal(rng))
    for _ in range(40):
        g = aec.game
        if g.is_over:
            break
        for seat, agent in enumerate(aec.possible_agents):
            assert _same(_fields(aec.observe(agent)), _fields(g.observe(seat, view=view)))
        aec.step(aec.sample_legal(rng))


@pytest.mark.parametrize("game", BATCH_GAMES, ids=_ids(BATCH_GAMES))
def test_vector_env_gives_the_chosen_view(game):
    env = vector_env(game, num_envs=3, view="information_state")
    obs, _ = env.reset(seed=7)
    shadow = [game.new(players=2, seed=7 + i) for i in range(3)]
    rng = np.random.default_rng(2)
    for _ in range(30):
        for i, g in enumerate(shadow):
            want = g.observe(g.player, view="information_state")
            assert all(np.array_equal(obs[k][i], want[k]) for k in want)
        acts = env.sample_legal(rng)
        obs, _r, done, _t, _info = env.step(acts)
        if done.any():
            break
        for i, g in enumerate(shadow):
            g.compact.play(int(acts[i]))


def test_unknown_view_is_refused(game_cls):
    for make in (lambda: gym_env(game_cls, view="state"), lambda: aec_env(game_cls, view="state")):
        with pytest.raises(ValueError, match="view must be one of"):
            make()


def test_the_information_state_is_the_bots_model(game_cls):
    """A seat's information state is that of its observed copy (`observed_by`, what the bots play
    on), over a random game: the bots and a learner know the same."""
    g = game_cls.new(players=2, seed=3)
    rng = np.random.default_rng(3)
    while not g.is_over and g.moves_played < 120:
        for seat in range(2):
            info = g.observe(seat, view="information_state")
            assert _same(info, g.observed_by(seat).observe(seat, view="information_state"))
        g.compact.play(int(rng.choice(g.compact.legal())))


def _seat_key(game, seat):
    """Everything a seat's view determines, as the bots get it: the public view and the private
    view of `observed_by(seat)` (`hunters.bots.Observation`)."""
    import json

    from hunters.capabilities import private_view

    observed = game.observed_by(seat)
    return json.dumps([observed.view(), private_view(observed, seat)], sort_keys=True, default=str)


def _obs_key(game, seat, view):
    return b"".join(np.ascontiguousarray(a).tobytes() for a in game.observe(seat, view=view).values())


def test_the_default_view_determines_what_the_seat_may_see(game_cls):
    """Twin worlds a seat cannot tell apart from each other's seat (another seat's `determinized`
    worlds: there the seat's own face-down tiles differ) must not give the seat one observation
    unless they give it one view: the default view (`DEFAULT_VIEW`) of every env type determines
    `observed_by(seat)`, what the bots play on, in every position of random 3-player games. The
    table-only ``"observation"`` does not in Jäger und Sammler (counted, so the twins are real)."""
    from hunters.capabilities import HiddenState, supports
    from hunters.rl._common import DEFAULT_VIEW

    players = 3 if game_cls.INFO.max_players >= 3 else 2
    undetermined = {view: 0 for view in VIEWS}
    positions = 0
    for seed in range(3):
        g = game_cls.new(players=players, seed=seed)
        rng = np.random.default_rng(seed)
        while not g.is_over and g.moves_played < 60:
            for seat in range(players):
                worlds = [g]
                if supports(g, HiddenState):
                    worlds += [g.determinized(other, k) for other in range(players) if other != seat for k in range(3)]
                for view in VIEWS:
                    seen: dict[bytes, set[str]] = {}
                    for w in worlds:
                        seen.setdefault(_obs_key(w, seat, view), set()).add(_seat_key(w, seat))
                    undetermined[view] += any(len(keys) > 1 for keys in seen.values())
                positions += 1
            g.compact.play(int(rng.choice(g.compact.legal())))
    assert positions > 50
    assert undetermined[DEFAULT_VIEW] == 0, f"{undetermined[DEFAULT_VIEW]} of {positions} positions"
    if game_cls.INFO.id == "jaeger_sammler":
        assert undetermined["observation"] > positions // 4


def test_every_env_type_defaults_to_the_full_view(game_cls):
    from hunters.rl._common import DEFAULT_VIEW

    assert DEFAULT_VIEW == "information_state"
    assert gym_env(game_cls).view == aec_env(game_cls).view == DEFAULT_VIEW
    if game_cls in BATCH_GAMES:
        assert vector_env(game_cls, num_envs=2).view == DEFAULT_VIEW
