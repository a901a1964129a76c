"""A watch from a live match's current version is encoded from the match itself, with no replay of its
history; the message is the one a watch from the start shows for that version."""

import pytest

from hunters.carcassonne import Game
from hunters.client import Client
from hunters.v1 import matches_pb2

from .helpers import stubs
from .test_watch_and_persistence import play_some


@pytest.mark.parametrize("moves", [0, 1, 9])
def test_a_watch_from_the_current_version_replays_nothing(server, monkeypatch, moves):
    with Client(f"127.0.0.1:{server.port}") as client:
        m = client.create_match("carcassonne_hg", players=2, seed=21)
        local = Game.new(players=2, seed=21)
        play_some(client, m, local, moves)
        version = len(local.moves)
        _, stub, _ = stubs(server.port)
        everything = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=m.match_id), timeout=30)
        from_start = [next(everything) for _ in range(version + 1)][-1]
        everything.cancel()
        replays = []
        from_record = Game.from_record.__func__

        def counting(cls, record, *args, **kwargs):
            replays.append(len(record.get("moves", [])))
            return from_record(cls, record, *args, **kwargs)

        monkeypatch.setattr(Game, "from_record", classmethod(counting))
        latest = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=m.match_id, from_version=version), timeout=30)
        first = next(latest)
        latest.cancel()
        assert replays == []
        assert first.version == version
        assert first == from_start
