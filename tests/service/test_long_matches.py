"""A 20,000-move match (Jäger und Sammler, a season that never stalls out: every move a round trip
that takes no tile) watched from version 0 and shown by the viewer: the work per message stays
constant (counted in moves decoded and played, not in seconds)."""

import json
import sqlite3

import pytest

from hunters.jaeger import Game
from hunters.jaeger import game as jaeger_game
from hunters.service import ServerConfig, create_server
from hunters.service.web import Viewer
from hunters.v1 import matches_pb2

from .helpers import stubs

MOVES = 20_000


def long_game(n, seed=1):
    game = Game.new(players=2, seed=seed, stall_rounds=10_000)
    for _ in range(n):
        for move in game.legal_moves():
            steps = move.to_json()["steps"]
            if steps[-1]["dst"] == steps[0]["src"]:  # out and back: no tile taken
                game.play(move)
                break
        else:
            raise AssertionError("no round trip")
    return game


@pytest.fixture
def long_match(tmp_path):
    """(server, match id): the match created by one server, its moves written straight into the
    database (fast), served by a second server that reads it from there (SQLite whatever the store
    of the other tests: what is measured is the watch, not the store)."""
    db = str(tmp_path / "long.db")
    first = create_server(ServerConfig(address="127.0.0.1:0", db=db))
    _, stub, _ = stubs(first.port)
    config = matches_pb2.GameConfig(game="jaeger_sammler", players=2, seed=1)
    config.jaeger.stall_rounds = 10_000
    match_id = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config)).match.match_id
    first.stop(0)
    game = long_game(MOVES)
    conn = sqlite3.connect(db)
    with conn:
        conn.executemany(
            "INSERT INTO moves (match_id, idx, seat, move, played_at) VALUES (?, ?, ?, ?, 0)",
            [(match_id, i, i % 2, json.dumps(m.to_json())) for i, m in enumerate(game.moves)],
        )
    conn.close()
    second = create_server(ServerConfig(address="127.0.0.1:0", db=db))
    _, stub, _ = stubs(second.port)
    assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match.version == MOVES
    yield second, match_id
    second.stop(0)


class Counted:
    """Counts the moves decoded and played while installed."""

    def __init__(self, monkeypatch):
        self.decoded = self.played = 0
        decode, play = jaeger_game._decode, Game.play

        def counting_decode(*args, **kwargs):
            self.decoded += 1
            return decode(*args, **kwargs)

        def counting_play(game, move):
            self.played += 1
            return play(game, move)

        monkeypatch.setattr(jaeger_game, "_decode", counting_decode)
        monkeypatch.setattr(Game, "play", counting_play)


def test_watching_a_long_match_from_the_start_is_linear(long_match, monkeypatch):
    server, match_id = long_match
    _, stub, _ = stubs(server.port)
    work = Counted(monkeypatch)
    stream = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id), timeout=600)
    versions = []
    for event in stream:  # the match goes on: the stream stays open after its latest version
        versions.append(event.version)
        if event.version == MOVES:
            break
    stream.cancel()
    assert versions == list(range(MOVES + 1))
    assert work.played <= MOVES + 1 and work.decoded <= 2 * MOVES, (work.played, work.decoded)


def test_the_viewer_shows_a_long_match_with_bounded_work(long_match, monkeypatch):
    server, match_id = long_match
    viewer = Viewer(server.manager)
    state = server.call(viewer.state(match_id, None))  # the first page: the latest state and its log
    assert state["latest"] == MOVES and len(state["log"]) <= 500
    assert state["log"][-1]["version"] == MOVES
    work = Counted(monkeypatch)
    for at in (1, MOVES // 2, MOVES - 7, MOVES // 2 + 300):
        shown = server.call(viewer.state(match_id, str(at)))
        assert shown["version"] == at and at in [e["version"] for e in shown["log"]]
        assert len(shown["log"]) <= 500
    # each ?at= replays from a checkpoint kept every few hundred moves, not from the start
    assert work.played <= 4 * 1000, work.played
    assert work.decoded == 0, work.decoded
