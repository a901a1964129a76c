"""One harness every registered game passes (the common protocol the service relies on): random
games to the end, clones independent, records round-trip through JSON, legal moves all accepted and
their action codes consistent, illegal input refused without a change, seeds reproducible."""

import json
import random
from collections.abc import Sequence

import pytest

import hunters
from hunters.errors import IllegalMoveError, InvalidRecordError
from hunters.game_base import GameBase, GameInfo, SimulationResult


@pytest.fixture(params=hunters.games.ids())
def game_cls(request):
    return hunters.games.get(request.param)


def public(g):
    """Everything the protocol exposes about a game."""
    return (
        g.to_record(),
        g.view(),
        g.scores,
        [tuple(e) for e in g.events],
        g.player,
        g.is_over,
        g.winners,
        list(g.legal_moves()),
    )


def walk(game_cls, players, seed, steps=None):
    g = game_cls.new(players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.play(rng.choice(g.legal_moves()))
        n += 1
    return g


def test_registered_and_described(game_cls):
    info = game_cls.INFO
    assert isinstance(info, GameInfo) and issubclass(game_cls, GameBase)
    assert hunters.games.get(info.id) is game_cls and info.id == game_cls.GAME_ID
    assert 1 <= info.min_players <= info.max_players and info.action_space_size > 0 and info.record_format >= 1
    g = game_cls.new(players=info.min_players, seed=1)
    assert g.action_space_size == info.action_space_size and len(g.action_mask()) == info.action_space_size
    assert isinstance(g.legal_moves(), Sequence) and g.to_record()["format"] == info.record_format


def test_player_range_and_seed_checked(game_cls):
    info = game_cls.INFO
    for players in (info.min_players - 1, info.max_players + 1, "2", 2.0, None):
        with pytest.raises(ValueError):
            game_cls.new(players=players, seed=1)
    for seed in (-1, 2**64, "1", 1.5):
        with pytest.raises(ValueError):
            game_cls.new(players=info.min_players, seed=seed)
    with pytest.raises(ValueError):
        game_cls.random_games(1, players=info.max_players + 1, seed=0)
    for players in range(info.min_players, info.max_players + 1):
        assert game_cls.new(players=players, seed=2**64 - 1).players == players


def test_unknown_game_is_a_key_error_naming_the_registered():
    with pytest.raises(KeyError, match="carcassonne_hg"):
        hunters.games.get("chess")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_consistent_winners(game_cls, players):
    for seed in range(3):
        g = walk(game_cls, players, seed)
        assert g.is_over and len(g.legal_moves()) == 0
        assert g.winners and all(g.scores[w] == max(g.scores) for w in g.winners)
        with pytest.raises(IllegalMoveError) as exc:
            g.play(g.moves[-1])
        assert exc.value.reason == "GAME_OVER"


def test_clone_is_independent(game_cls):
    g = walk(game_cls, 3, 9, steps=10)
    before = public(g)
    c = g.clone()
    assert public(c) == before
    while not c.is_over:
        c.play(c.legal_moves()[-1])
    assert public(g) == before


def test_record_round_trips_through_json(game_cls):
    for steps in (0, 7, None):
        g = walk(game_cls, 3, 12, steps=steps)
        again = game_cls.from_record(json.loads(json.dumps(g.to_record())))
        assert public(again) == public(g)
    bad = g.to_record()
    bad["game"] = "other"
    with pytest.raises(InvalidRecordError):
        game_cls.from_record(bad)


def test_legal_moves_accepted_and_actions_consistent(game_cls):
    g = walk(game_cls, 2, 5, steps=6)
    pairs = g.legal_moves_with_actions()
    assert [m for m, _ in pairs] == list(g.legal_moves())
    assert sorted(a for _, a in pairs) == g.legal_actions()
    mask = g.action_mask()
    assert sum(mask) == len(pairs) and all(mask[a] for _, a in pairs)
    for move, action in pairs[:40]:
        assert g.is_legal(move) and g.move_to_action(move) == action and g.action_to_move(action) == move
        c = g.clone()
        assert c.play_action(action) == g.clone().play(move)


@pytest.mark.parametrize("junk", [None, 3, "move", (1, 2, 3), {"x": 1}])
def test_junk_is_refused_without_a_change(game_cls, junk):
    g = walk(game_cls, 2, 6, steps=4)
    before = public(g)
    with pytest.raises(IllegalMoveError) as exc:
        g.play(junk)
    assert exc.value.reason and exc.value.message
    assert not g.is_legal(junk)
    assert public(g) == before


def test_same_seed_same_game_different_seed_other_game(game_cls):
    assert public(walk(game_cls, 3, 21)) == public(walk(game_cls, 3, 21))
    assert walk(game_cls, 3, 21).to_record() != walk(game_cls, 3, 22).to_record()
    res = game_cls.random_games(20, players=2, seed=4)
    assert isinstance(res, SimulationResult) and res == game_cls.random_games(20, players=2, seed=4)
    assert res.games == 20 and sum(res.wins) >= 20 and res.decisions > 20 and len(res.mean_scores) == 2


def test_legal_move_membership_and_breakdown(game_cls):
    g = walk(game_cls, 3, 8, steps=5)
    moves = g.legal_moves()
    assert all(m in moves for m in moves[:30]) and None not in moves and "x" not in moves
    first = moves[0]
    g.play(first)
    assert (first in moves) is True  # a stale listing still answers for its own decision
    g = walk(game_cls, 3, 8)
    parts = g.score_breakdown()
    assert [p["total"] for p in parts] == g.scores
    assert all(sum(v for k, v in p.items() if k != "total") == p["total"] for p in parts)
    assert set(g.points_by_kind()) == set(parts[0]) - {"total"}
    text = g.summary()
    assert game_cls.INFO.id in text and "winner" in text and str(max(g.scores)) in text
