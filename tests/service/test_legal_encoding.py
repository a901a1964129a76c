"""Legal-move listings encoded from cached entries (`hunters.service.legal`) are exactly what
encoding every move afresh gives, in order, for every registered game: on the keyed path, on the
path by pairs, and when the caches are full."""

import random

import pytest

import hunters
from hunters.service.games import adapter
from hunters.service.legal import LegalEncoder, legal_entries
from hunters.v1 import matches_pb2, moves_pb2
from hunters.wire import field_bytes, varint_bytes

FIELD = matches_pb2.YourTurn.DESCRIPTOR.fields_by_name["moves"].number


def afresh(ad, game):
    return [moves_pb2.LegalMove(move=ad.move_to_proto(m), action=a) for m, a in game.actions.pairs()]


def listed(data):
    return list(matches_pb2.YourTurn.FromString(data).moves)


def positions(game_id, seeds):
    for seed in seeds:
        game = hunters.games.get(game_id).new(players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            yield game
            game.play(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("game_id", hunters.games.ids())
@pytest.mark.parametrize("sizes", [(512, 200_000), (2, 7), (1, 100_000)], ids=["roomy", "tiny", "one-context"])
def test_cached_listings_are_fresh_encodings(game_id, sizes):
    ad = adapter(game_id)
    encoder = LegalEncoder(*sizes)
    keyed = positions_seen = 0
    for game in positions(game_id, range(3)):
        want = afresh(ad, game)
        assert listed(encoder.entries(ad, game, FIELD)) == want
        assert listed(encoder.entries(ad, game, FIELD)) == want  # now all from the cache
        keyed += game.actions.keys() is not None
        positions_seen += 1
        assert encoder.size == sum(map(len, encoder._tables.values())) <= encoder.limit
    assert positions_seen > 20 and keyed > 0


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_keyed_listing_builds_only_the_missing_moves(game_id, monkeypatch):
    """On the keyed path a listing builds the moves of the entries not cached (from their actions),
    never the whole list of (move, action) pairs, and none when every entry is cached."""
    ad = adapter(game_id)
    games = [g.clone() for g in positions(game_id, [11]) if g.actions.keys() is not None][::4]
    want = [afresh(ad, g) for g in games]
    encoder = LegalEncoder()
    monkeypatch.setattr(type(games[0].actions), "pairs", lambda self: pytest.fail("every move built"))
    assert [listed(encoder.entries(ad, g, FIELD)) for g in games] == want
    built = []
    space = type(games[0].actions)
    to_move = space.to_move
    monkeypatch.setattr(space, "to_move", lambda self, a: built.append(a) or to_move(self, a))
    assert [listed(encoder.entries(ad, g, FIELD)) for g in games] == want
    assert built == [] and len(games) > 5


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_listing_by_pairs_matches(game_id, monkeypatch):
    """A game without action keys is listed from its (move, action) pairs, the same bytes."""
    ad = adapter(game_id)
    keyed, plain = LegalEncoder(), LegalEncoder()
    games = [g.clone() for g in positions(game_id, [7])][::5]
    expected = [keyed.entries(ad, g, FIELD) for g in games]
    monkeypatch.setattr(type(games[0].actions), "keys", lambda self: None)
    assert [plain.entries(ad, g, FIELD) for g in games] == expected
    assert sum(map(bool, expected)) > 5  # positions with moves, not one finished game
    assert all(listed(e) == afresh(ad, g) for e, g in zip(expected, games, strict=True))


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_move_bytes_are_the_serialized_moves(game_id):
    """Each adapter's `move_bytes` gives exactly `move_to_proto(...).SerializeToString()` (the
    listings are built from it), over every legal move of the positions of three games."""
    ad = adapter(game_id)
    checked = 0
    for game in positions(game_id, range(3)):
        for move in game.legal_moves():
            assert ad.move_bytes(move) == ad.move_to_proto(move).SerializeToString(), move
            checked += 1
    assert checked > 500


def test_varints_and_fields_are_protobufs():
    """`varint_bytes` and `field_bytes` against protobuf's own encoding, on every length class."""
    assert varint_bytes(0) == b"\x00"
    for value in [1, 127, 128, 300, 16383, 16384, 2**21 - 1, 2**21, 2**28 + 5, 2**40 + 7, 2**63 - 1]:
        assert moves_pb2.LegalMove(action=value).SerializeToString() == b"\x10" + varint_bytes(value)
    for size in (0, 1, 127, 128, 300, 20_000):
        move = moves_pb2.Move(json="x" * size)
        inner = move.SerializeToString()
        assert field_bytes(1, inner) == moves_pb2.LegalMove(move=move).SerializeToString()
        assert field_bytes(15, b"x" * size) == inner


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_the_served_listing_is_the_protobuf_librarys_encoding(game_id):
    """What the service sends (the game's core's listing where it builds one) is byte for byte what
    the protobuf library writes for each LegalMove, over whole random games of 2 to 4 seats."""
    ad = adapter(game_id)
    seen = 0
    for game in positions(game_id, range(6)):
        want = afresh(ad, game)
        data = legal_entries(ad, game, FIELD)
        assert data == b"".join(field_bytes(FIELD, lm.SerializeToString()) for lm in want)
        seen += 1
    assert seen > 40


def test_the_carcassonne_core_lists_every_kind_of_move():
    """The core's listing covers negative places, every turn, meeples, huts, zones past 127 and the
    shaman's retakes (whose actions rank the retaken meeple), each as the library encodes it."""
    ad = adapter("carcassonne_hg")
    kinds = set()
    for game in positions("carcassonne_hg", range(40)):
        for fieldnum in (3, 4):
            want = afresh(ad, game)
            assert game.legal_move_entries(fieldnum) == b"".join(
                field_bytes(fieldnum, lm.SerializeToString()) for lm in want
            )
        for lm in want:
            m = lm.move.carcassonne
            kinds.add(("neg", m.x < 0 or m.y < 0))
            kinds.add(("rot", m.rotation))
            kinds.add(("piece", m.occupant.kind, m.occupant.zone >= 128))
            kinds.add(("retake", m.HasField("retake")))
    assert {("neg", True), ("rot", 3), ("piece", 2, True), ("piece", 1, True), ("retake", True)} <= kinds
