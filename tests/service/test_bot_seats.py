"""Seats played by the server's own bots (GameConfig.bots): a person or program plays the other seats
over gRPC with no other process."""

import json
import time

import grpc

from hunters.carcassonne import Game
from hunters.jaeger import Game as Jaeger
from hunters.v1 import matches_pb2, oracle_pb2

from .helpers import bearer, over, rpc_error, sql, stubs


def config(game="carcassonne_hg", players=2, seed=5, bots=()):
    return matches_pb2.GameConfig(
        game=game, players=players, seed=seed, bots=[matches_pb2.BotSeat(seat=s, bot=b) for s, b in bots]
    )


def wait_for(stub, match_id, condition, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        match = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match
        if condition(match):
            return match
        assert time.monotonic() < deadline, "the bot did not move"
        time.sleep(0.02)


def test_a_person_plays_against_a_bot_to_the_end(server):
    """Seat 0 through PlayMove, seat 1 by the server's greedy bot; the record replays the match."""
    _, stub, _ = stubs(server.port)
    created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(seed=11, bots=[(1, "greedy")])))
    mid, token = created.match.match_id, created.seat_tokens[0]
    bot_moves = 0
    while True:
        match = wait_for(stub, mid, lambda m: over(m.state) or m.state.player == 0)
        if over(match.state):
            break
        legal = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)).moves
        stub.PlayMove(
            matches_pb2.PlayMoveRequest(match_id=mid, action=legal[0].action, expected_version=match.version),
            metadata=bearer(token),
        )
    record = stub.GetRecord(matches_pb2.GetRecordRequest(match_id=mid))
    replay = Game.from_record(json.loads(record.record_json))
    assert replay.is_over and replay.scores == list(match.state.scores)
    watched = list(stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=mid, from_version=1)))
    bot_moves = sum(1 for w in watched if w.seat == 1)
    assert bot_moves > 10 and all(w.seat in (0, 1) for w in watched)


def test_a_bot_seat_refuses_its_token_and_bad_bots_are_refused(server):
    _, stub, oracle = stubs(server.port)
    created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=[(0, "random")])))
    wait_for(stub, created.match.match_id, lambda m: m.version >= 1)
    code, reason, meta = rpc_error(
        stub.PlayMove,
        matches_pb2.PlayMoveRequest(match_id=created.match.match_id, action=0),
        metadata=bearer(created.seat_tokens[0]),
    )
    assert (code, reason, meta["seat"]) == (grpc.StatusCode.FAILED_PRECONDITION, "SEAT_PLAYED_BY_BOT", "0")
    for bots in (
        [(2, "random")],
        [(-1, "random")],
        [(0, "random"), (0, "greedy")],
        [(1, "chess")],
        [(1, "mcts:iterations=1000000")],
        [(1, "mcts:seconds=1")],
        [(1, "strong:time=1")],
        [(1, "random:depth=3")],
        [(1, "")],
    ):
        code, reason, _ = rpc_error(stub.CreateMatch, matches_pb2.CreateMatchRequest(config=config(bots=bots)))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG"), bots
    code, reason, _ = rpc_error(oracle.Evaluate, oracle_pb2.EvaluateRequest(config=config(bots=[(1, "random")])))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG")


def test_bots_play_a_match_by_themselves_the_same_way_every_time(server):
    """All seats bots (here Jäger und Sammler, mcts against greedy): the match plays to the end, and
    the same seed gives the same match."""
    _, stub, _ = stubs(server.port)
    bots = [(0, "mcts:iterations=50"), (1, "greedy")]
    records = []
    for _ in range(2):
        created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config("jaeger_sammler", seed=3, bots=bots)))
        wait_for(stub, created.match.match_id, lambda m: over(m.state), timeout=120)
        record = stub.GetRecord(matches_pb2.GetRecordRequest(match_id=created.match.match_id)).record_json
        records.append(record)
    assert records[0] == records[1]
    assert Jaeger.from_record(json.loads(records[0])).is_over


def test_bots_play_on_after_a_restart(server_factory, tmp_path):
    """A match whose bot is to move when the server stops is played on by the next server."""
    db = str(tmp_path / "bots.db")
    first = server_factory(db=db)
    _, stub, _ = stubs(first.port)
    created = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(config=config(seed=8, bots=[(0, "mcts:iterations=100000")]))
    )
    first.stop(0)  # long before a 100,000-iteration search ends
    second = server_factory(db=db)
    _, stub, _ = stubs(second.port)
    match = wait_for(stub, created.match.match_id, lambda m: m.version >= 1, timeout=120)
    assert match.state.player == 1


def test_the_python_client_creates_bot_seats(client):
    m = client.create_match("jaeger_sammler", players=2, seed=4, bots={0: "random"})
    deadline = time.monotonic() + 30
    while client.get_match(m.match_id).version < 1:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert client.get_match(m.match_id).state.player == 1


def test_a_stored_bot_spec_out_of_range_is_said_once_and_its_seat_handed_back(server_factory, tmp_path, caplog):
    """A match stored before ranges were checked (strong:alpha=1e308 then passed CreateMatch, and
    failed at every move and every restart) is loaded with its seat handed back to its token: one
    warning naming the option, no error, and the seat's token plays."""
    import logging

    db = str(tmp_path / "old.db")
    first = server_factory(db=db)
    _, stub, _ = stubs(first.port)
    created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=[(1, "random")])))
    mid = created.match.match_id
    first.stop(0)
    old = config(bots=[(1, "strong:iterations=10,alpha=1e308")]).SerializeToString().hex()
    blob = f"'\\x{old}'::bytea" if "://" in first.store.path else f"X'{old}'"  # PostgreSQL, SQLite
    sql(first, f"UPDATE matches SET config = {blob} WHERE match_id = '{mid}'")
    with caplog.at_level(logging.WARNING, logger="hunters.service"):
        for _ in range(2):  # each restart says it once
            server = server_factory(db=db)
            _, stub, _ = stubs(server.port)
            assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match.version == 0
            server.stop(0)
    said = [r for r in caplog.records if "alpha of bot 'strong' must be from 0 to 1" in getattr(r, "error", "")]
    assert len(said) == 2, [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
