"""Legal-move listings encoded from cached entries (`hunters.service.legal`) are exactly what
encoding every move afresh gives, in order, for every registered game: on the keyed path, on the
path by pairs, and when the caches are full."""

import random

import pytest

import hunters
from hunters.service.games import adapter
from hunters.service.legal import LegalEncoder, field_bytes
from hunters.v1 import matches_pb2, moves_pb2

FIELD = matches_pb2.YourTurn.DESCRIPTOR.fields_by_name["moves"].number


def afresh(ad, game):
    return [moves_pb2.LegalMove(move=ad.move_to_proto(m), action=a) for m, a in game.legal_moves_with_actions()]


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
@pytest.mark.parametrize("sizes", [(512, 50_000), (2, 7)], ids=["roomy", "tiny-caches"])
def test_cached_listings_are_fresh_encodings(game_id, sizes):
    ad = adapter(game_id)
    encoder = LegalEncoder(*sizes)
    keyed = positions_seen = 0
    for game in positions(game_id, range(3)):
        want = afresh(ad, game)
        assert listed(encoder.entries(ad, game, FIELD)) == want
        assert listed(encoder.entries(ad, game, FIELD)) == want  # now all from the cache
        keyed += game.legal_action_keys() is not None
        positions_seen += 1
    assert positions_seen > 20 and keyed > 0


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_listing_by_pairs_matches(game_id, monkeypatch):
    """A game without action keys is listed from its (move, action) pairs, the same bytes."""
    ad = adapter(game_id)
    keyed, plain = LegalEncoder(), LegalEncoder()
    games = list(positions(game_id, [7]))[::5]
    cls = hunters.games.get(game_id)
    expected = [keyed.entries(ad, g, FIELD) for g in games]
    monkeypatch.setattr(cls, "legal_action_keys", lambda self: None)
    assert [plain.entries(ad, g, FIELD) for g in games] == expected
    assert all(listed(e) == afresh(ad, g) for e, g in zip(expected, games, strict=True))


def test_field_bytes_is_a_length_delimited_field():
    for size in (0, 1, 127, 128, 300, 20_000):
        data = b"x" * size
        msg = moves_pb2.LegalMove()
        msg.MergeFromString(field_bytes(1, moves_pb2.Move().SerializeToString()))
        raw = field_bytes(7, data)
        assert raw.endswith(data) and raw[0] == (7 << 3 | 2)
        # the varint length decodes back to the size
        n, shift, i = 0, 0, 1
        while True:
            b = raw[i]
            n |= (b & 0x7F) << shift
            i += 1
            if not b & 0x80:
                break
            shift += 7
        assert n == size and i + size == len(raw)
