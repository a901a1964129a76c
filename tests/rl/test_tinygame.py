"""The tiny test game honours the learning surface (so that the env tests on it mean something)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hunters.errors import IllegalMoveError
from tests.tiny_tiles.game import Place, TinyGame


def test_mask_actions_moves_agree():
    rng = random.Random(1)
    for seed in range(20):
        g = TinyGame.new(players=3, seed=seed)
        while not g.is_over:
            codes = g.compact.legal()
            assert codes == sorted(g.compact.from_move(m) for m in g.legal_moves())
            assert np.flatnonzero(g.compact.mask()).tolist() == codes
            g.compact.play(rng.choice(codes))


def test_illegal_code_changes_nothing():
    g = TinyGame.new(seed=3)
    g.compact.play(0)
    before = g.to_record()
    with pytest.raises(IllegalMoveError):
        g.compact.play(0)
    assert g.to_record() == before


def test_observation_hides_the_pile_order():
    a, b = TinyGame.new(seed=1), TinyGame.new(seed=1)
    b._pile[b._drawn :] = sorted(b._pile[b._drawn :])  # same public state, other hidden order
    assert a._pile != b._pile
    for seat in (0, 1):
        oa, ob = a.observe(seat), b.observe(seat)
        assert all(np.array_equal(oa[k], ob[k]) for k in oa)


def test_external_chance_reproduces_the_seeded_game():
    for seed in range(10):
        seeded, ext = TinyGame.new(seed=seed), TinyGame.new(seed=seed, chance="external")
        rng = random.Random(seed)
        while not seeded.is_over:
            assert ext.player == -1 and ext.legal_moves() == []
            probs = dict(ext.chance_outcomes())
            assert abs(sum(probs.values()) - 1) < 1e-12
            ext.apply_chance(seeded._hand)
            code = rng.choice(seeded.compact.legal())
            seeded.compact.play(code)
            ext.compact.play(code)
        assert ext.scores == seeded.scores
        assert TinyGame.from_record(ext.to_record()).scores == ext.scores


def test_batch_equals_games_played_one_by_one():
    batch = TinyGame.learn_batch(3, players=2, seed=10)
    games = [TinyGame.new(2, 10 + i) for i in range(3)]
    episodes = [0, 0, 0]
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in batch.mask]
        batch.step(actions)
        for i, g in enumerate(games):
            g.compact.play(actions[i])
            assert g.moves[-1] == Place(actions[i])  # the code played is the cell placed on
            if g.is_over:
                assert batch.done[i] and list(batch.final_scores[i]) == g.scores
                episodes[i] += 1
                games[i] = g = TinyGame.new(2, 10 + episodes[i] * 3 + i)
            else:
                assert not batch.done[i]
            assert batch.game(i).to_record() == g.to_record()  # the same seed and moves, so far
            assert batch.player[i] == g.player
            assert np.array_equal(batch.obs["board"][i], g.observe(g.player)["board"])
    assert all(episodes)  # every slot finished a game and started another (40 steps, 9 a game)
