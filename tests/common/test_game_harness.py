"""One harness every registered game passes (the common protocol the service relies on): random
games to the end, clones independent, records round-trip through JSON, legal moves all accepted and
their action codes consistent, illegal input refused without a change, seeds reproducible; what a
seat may know (observed_by, determinized, private_view), the search hook, chance nodes, options and
the wire adapter. The third game (tests/tiny_tiles, a plug-in from outside the package) runs it too,
and so does its two-player-only variant: player counts and options come from each game's `GameInfo`."""

import itertools
import json
import random
from collections.abc import Sequence

import pytest

import hunters
from hunters import wire
from hunters.capabilities import (
    CoreSearch,
    ExplicitChance,
    Learnable,
    SearchStats,
    determinized,
    private_view,
    supports,
)
from hunters.errors import IllegalMoveError, InvalidOptionError, InvalidRecordError
from hunters.game_base import CHANCE_MODES, ActionSpace, GameBase, GameInfo
from hunters.simulate import SimulationResult, random_games
from hunters.v1 import events_pb2
from tests.tiny_tiles.plugin import DUEL, PLUGIN

OUTSIDE = {p.id: p for p in (PLUGIN, DUEL)}  # plug-ins from outside the package, registered per test


@pytest.fixture(params=[*hunters.games.ids(), *OUTSIDE])
def game_cls(request):
    if request.param in OUTSIDE:
        hunters.games.register(OUTSIDE[request.param])
        request.addfinalizer(lambda: hunters.games.unregister(request.param))
    return hunters.games.get(request.param)


def seats(game_cls) -> tuple[int, int]:
    """Two player counts of the game's range: its fewest, and one more where the range allows it
    (the same count for a game of one count)."""
    info = game_cls.INFO
    return info.min_players, min(info.min_players + 1, info.max_players)


def defaults(game_cls) -> dict:
    """The options of `Game.new` at their defaults, as the game's option schema gives them."""
    return {o.name: o.default for o in game_cls.INFO.options}


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
    g = game_cls.new(players=players, seed=seed, **defaults(game_cls))
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.play(rng.choice(g.legal_moves()))
        n += 1
    return g


def test_registered_and_described(game_cls):
    info = game_cls.INFO
    assert isinstance(info, GameInfo) and issubclass(game_cls, GameBase)
    assert hunters.games.get(info.id) is game_cls and not game_cls.__abstractmethods__
    assert 1 <= info.min_players <= info.max_players and info.action_space_size > 0 and info.record_format >= 1
    g = game_cls.new(players=info.min_players, seed=1)
    assert g.actions.size == info.action_space_size and len(g.actions.mask()) == info.action_space_size
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
        random_games(game_cls, 1, players=info.max_players + 1, seed=0)
    for players in range(info.min_players, info.max_players + 1):
        assert game_cls.new(players=players, seed=2**64 - 1).players == players


def test_unknown_game_is_a_key_error_naming_the_registered():
    with pytest.raises(KeyError, match="carcassonne_hg"):
        hunters.games.get("chess")


def test_random_games_end_with_consistent_winners(game_cls):
    info = game_cls.INFO
    for players, seed in itertools.product(range(info.min_players, min(info.max_players, 4) + 1), range(3)):
        g = walk(game_cls, players, seed)
        assert g.is_over and len(g.legal_moves()) == 0
        assert g.winners and all(g.scores[w] == max(g.scores) for w in g.winners)
        with pytest.raises(IllegalMoveError) as exc:
            g.play(g.moves[-1])
        assert exc.value.reason == "GAME_OVER"


def test_clone_is_independent(game_cls):
    _, more = seats(game_cls)
    g = walk(game_cls, more, 9, steps=10)
    before = public(g)
    c = g.clone()
    assert public(c) == before
    while not c.is_over:
        c.play(c.legal_moves()[-1])
    assert public(g) == before


def test_record_round_trips_through_json(game_cls):
    _, more = seats(game_cls)
    for steps in (0, 7, None):
        g = walk(game_cls, more, 12, steps=steps)
        again = game_cls.from_record(json.loads(json.dumps(g.to_record())))
        assert public(again) == public(g)
    bad = g.to_record()
    bad["game"] = "other"
    with pytest.raises(InvalidRecordError):
        game_cls.from_record(bad)


def test_legal_moves_accepted_and_actions_consistent(game_cls):
    few, _ = seats(game_cls)
    g = walk(game_cls, few, 5, steps=6)
    pairs = g.actions.pairs()
    assert [m for m, _ in pairs] == list(g.legal_moves())
    assert sorted(a for _, a in pairs) == g.actions.legal()
    mask = g.actions.mask()
    assert sum(mask) == len(pairs) and all(mask[a] for _, a in pairs)
    for move, action in pairs[:40]:
        assert g.is_legal(move) and g.actions.from_move(move) == action and g.actions.to_move(action) == move
        c = g.clone()
        assert c.actions.play(action) == g.clone().play(move)


def test_action_keys_keep_their_promise(game_cls):
    """Where a game gives (context, actions), the actions are its legal pairs' in order, and one
    (context, action) stands for one move over every position of several games: what lets the
    service reuse an encoding by action alone."""
    seen: dict = {}

    def check(g) -> bool:
        keys = g.actions.keys()
        if keys is None:
            return False
        context, actions = keys
        pairs = g.actions.pairs()
        assert actions == [a for _, a in pairs]
        for move, action in pairs:
            assert seen.setdefault((context, action), move) == move
        return True

    keyed = 0
    few, _ = seats(game_cls)
    for seed in range(6):
        g = game_cls.new(players=few, seed=seed, **defaults(game_cls))
        rng = random.Random(seed)
        while not g.is_over:
            keyed += check(g)
            g.play(rng.choice(g.legal_moves()))
    if type(g.actions).keys is not ActionSpace.keys:
        assert keyed, "the game offers action keys but gave none"
    assert (game_cls.INFO.chance == "explicit") == supports(game_cls, ExplicitChance)
    if game_cls.INFO.chance == "explicit":  # and at chance nodes drawn from outside
        g = game_cls.new(players=few, seed=3, **{**defaults(game_cls), "chance": "external"})
        rng = random.Random(3)
        while not g.is_over:
            check(g)
            if g.player == -1:
                g.apply_chance(rng.choice(g.chance_outcomes())[0])
            else:
                g.play(rng.choice(g.legal_moves()))


@pytest.mark.parametrize("junk", [None, 3, "move", (1, 2, 3), {"x": 1}])
def test_junk_is_refused_without_a_change(game_cls, junk):
    few, _ = seats(game_cls)
    g = walk(game_cls, few, 6, steps=4)
    before = public(g)
    with pytest.raises(IllegalMoveError) as exc:
        g.play(junk)
    assert exc.value.reason and exc.value.message
    assert not g.is_legal(junk)
    assert public(g) == before


def test_same_seed_same_game_different_seed_other_game(game_cls):
    few, more = seats(game_cls)
    assert public(walk(game_cls, more, 21)) == public(walk(game_cls, more, 21))
    assert walk(game_cls, more, 21).to_record() != walk(game_cls, more, 22).to_record()
    res = random_games(game_cls, 20, players=few, seed=4)
    assert isinstance(res, SimulationResult) and res == random_games(game_cls, 20, players=few, seed=4)
    assert res.games == 20 and sum(res.wins) >= 20 and res.decisions > 20 and len(res.mean_scores) == few


def test_legal_move_membership_and_breakdown(game_cls):
    _, more = seats(game_cls)
    g = walk(game_cls, more, 8, steps=5)
    moves = g.legal_moves()
    assert all(m in moves for m in moves[:30]) and None not in moves and "x" not in moves
    first = moves[0]
    g.play(first)
    assert (first in moves) is True  # a stale listing still answers for its own decision
    g = walk(game_cls, more, 8)
    parts = g.score_breakdown()
    assert [p["total"] for p in parts] == g.scores
    assert all(sum(v for k, v in p.items() if k != "total") == p["total"] for p in parts)
    assert set(g.points_by_kind()) == set(parts[0]) - {"total"}
    text = g.summary()
    assert game_cls.INFO.id in text and "winner" in text and str(max(g.scores)) in text


def test_the_description_is_complete(game_cls):
    info = game_cls.INFO
    assert info.chance in CHANCE_MODES and isinstance(info.perfect_information, bool) and info.reward_scale > 0
    assert info.gym_name and info.gym_name[0].isupper() and info.max_game_length > 0
    names = [o.name for o in info.options]
    assert len(set(names)) == len(names) and all(o.type in ("bool", "int", "str", "ints", "json") for o in info.options)
    assert all(o.doc for o in info.options)
    with pytest.raises(InvalidOptionError, match="unknown"):
        game_cls.new(players=info.min_players, seed=1, no_such_option=1)
    for players in set(seats(game_cls)):  # the schema's defaults are the game's
        assert public(game_cls.new(players=players, seed=5, **defaults(game_cls))) == public(
            game_cls.new(players=players, seed=5)
        )
    if info.chance == "explicit":
        g = game_cls.new(players=info.min_players, seed=1, chance="external")
        outcomes = g.chance_outcomes()
        assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9 and g.player == -1
        before = g.to_record()
        with pytest.raises(IllegalMoveError):
            g.apply_chance(10**9)
        assert g.to_record() == before
        g.apply_chance(outcomes[0][0])


def test_what_a_seat_may_know(game_cls):
    few, _ = seats(game_cls)
    g = walk(game_cls, few, 9, steps=5)
    seat = g.player
    seen = g.observed_by(seat)
    assert seen.seed is None or seen.seed == g.seed
    assert list(seen.legal_moves()) == list(g.legal_moves()) and seen.scores == g.scores
    assert seen.view() == g.view()  # the public view is the public view
    a, b = determinized(g, seat, 5), determinized(g, seat, 5)
    assert list(a.legal_moves()) == list(g.legal_moves()) and public(a) == public(b)
    json.dumps(private_view(g, seat))
    for bad in (-1, g.players, "0"):
        with pytest.raises(ValueError):
            private_view(g, bad)
        with pytest.raises(ValueError):
            g.observed_by(bad)


def test_the_search_hook(game_cls):
    few, _ = seats(game_cls)
    g = walk(game_cls, few, 3, steps=3)
    if supports(g, CoreSearch):  # a game with a search of its own: the root's moves by legal index
        found = g.search(50, 0.0, 0.25, 1.0, 7)
        assert isinstance(found, SearchStats) and found.iterations == 50
        index = [i for i, _, _ in found.moves]  # the root's moves tried so far, by legal index
        assert len(set(index)) == len(index) and set(index) <= set(range(len(g.legal_moves())))
        assert sum(v for _, v, _ in found.moves) == 50 and found == g.search(50, 0.0, 0.25, 1.0, 7)


def test_the_wire_adapter_round_trips(game_cls):
    ad = wire.adapter(game_cls.INFO.id)
    few, _ = seats(game_cls)
    g = walk(game_cls, few, 4, steps=4)
    for move in list(g.legal_moves())[:20]:
        assert ad.move_from_proto(ad.move_to_proto(move)) == move
        assert ad.describe_move(move)
    events = g.clone().play(g.legal_moves()[0])
    assert isinstance(ad.describe_events(events, str), str)
    whole = walk(game_cls, few, 4)  # a whole game's events: a few moves may cause none
    assert whole.events
    if type(ad).event_from_proto is wire.GameAdapter.event_from_proto:  # the generic JSON events
        expected = [json.loads(json.dumps(e._asdict())) for e in whole.events]
    else:  # a typed adapter gives back the game's own event tuples
        expected = whole.events
    received = [events_pb2.Event.FromString(ad.event(e).SerializeToString()) for e in whole.events]
    assert [ad.event_from_proto(pb) for pb in received] == expected
    state = ad.state(g, 4)
    assert state.game == game_cls.INFO.id and state.version == 4
    assert list(state.scores) in (g.scores, [])  # a game may hide the scores until its end


def _spaces(game):
    """The dense encoding, and the compact one of a game that can be learned."""
    return [game.actions, *([game.compact] if supports(game, Learnable) else [])]


def test_both_action_spaces(game_cls):
    """Each encoding is one ActionSpace: codes ascending and within its size, a mask that matches,
    code <-> move both ways for every legal move, and playing a code is playing its move."""
    few, _ = seats(game_cls)
    g = walk(game_cls, few, 11, steps=7)
    moves = list(g.legal_moves())
    for space in _spaces(g):
        codes = space.legal()
        assert codes == sorted(codes) and len(codes) == len(moves) and all(0 <= c < space.size for c in codes)
        mask = space.mask()
        assert len(mask) == space.size and sum(int(b) for b in mask) == len(codes) and all(mask[c] for c in codes)
        assert sorted(space.from_move(m) for m in moves) == codes
        for code in codes[:25]:
            move = space.to_move(code)
            assert move in moves and space.from_move(move) == code
            assert space.game.clone().play(move) == type(space)(g.clone()).play(code)
        with pytest.raises(IllegalMoveError):
            space.to_move(space.size)
