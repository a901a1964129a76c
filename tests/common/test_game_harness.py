"""One harness every registered game passes (the common protocol the service relies on): random
games to the end, clones independent, records round-trip through JSON, legal moves all accepted and
their action codes consistent, illegal input refused without a change, seeds reproducible."""
import importlib
import json
import random

import pytest

from hunters import GAMES
from hunters.errors import IllegalMoveError, InvalidRecordError

MODULES = {game_id: importlib.import_module(path) for game_id, path in sorted(GAMES.items())}


@pytest.fixture(params=sorted(MODULES))
def module(request):
    return MODULES[request.param]


def public(g):
    """Everything the protocol exposes about a game."""
    return (g.to_record(), g.view(), g.scores, [tuple(e) for e in g.events], g.player, g.is_over, g.winners,
            list(g.legal_moves()))


def walk(module, players, seed, steps=None):
    g = module.Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.play(rng.choice(g.legal_moves()))
        n += 1
    return g


def test_registered_and_complete(module):
    assert MODULES[module.GAME_ID] is module and module.Game.GAME_ID == module.GAME_ID
    for name in ("Game", "Move", "IllegalMoveError", "InvalidRecordError", "ACTION_SPACE_SIZE", "random_games"):
        assert hasattr(module, name), name
    assert module.IllegalMoveError is IllegalMoveError and module.InvalidRecordError is InvalidRecordError


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_consistent_winners(module, players):
    for seed in range(3):
        g = walk(module, players, seed)
        assert g.is_over and len(g.legal_moves()) == 0
        assert g.winners and all(g.scores[w] == max(g.scores) for w in g.winners)
        with pytest.raises(IllegalMoveError) as exc:
            g.play(g.moves[-1])
        assert exc.value.reason == "GAME_OVER"


def test_clone_is_independent(module):
    g = walk(module, 3, 9, steps=10)
    before = public(g)
    c = g.clone()
    assert public(c) == before
    while not c.is_over:
        c.play(c.legal_moves()[-1])
    assert public(g) == before


def test_record_round_trips_through_json(module):
    for steps in (0, 7, None):
        g = walk(module, 3, 12, steps=steps)
        again = module.Game.from_record(json.loads(json.dumps(g.to_record())))
        assert public(again) == public(g)
    bad = g.to_record()
    bad["game"] = "other"
    with pytest.raises(InvalidRecordError):
        module.Game.from_record(bad)


def test_legal_moves_accepted_and_actions_consistent(module):
    g = walk(module, 2, 5, steps=6)
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
def test_junk_is_refused_without_a_change(module, junk):
    g = walk(module, 2, 6, steps=4)
    before = public(g)
    with pytest.raises(IllegalMoveError) as exc:
        g.play(junk)
    assert exc.value.reason and exc.value.message
    assert not g.is_legal(junk)
    assert public(g) == before


def test_same_seed_same_game_different_seed_other_game(module):
    assert public(walk(module, 3, 21)) == public(walk(module, 3, 21))
    assert walk(module, 3, 21).to_record() != walk(module, 3, 22).to_record()
    assert module.random_games(20, players=2, seed=4) == module.random_games(20, players=2, seed=4)
