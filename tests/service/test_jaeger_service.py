"""jaeger_sammler through every service method: the servicer is the same, only the translation differs."""

import grpc
import pytest

from hunters.errors import IllegalMoveError
from hunters.jaeger import Game, Move, random_games
from hunters.v1 import carcassonne_pb2, jaeger_pb2, matches_pb2, moves_pb2
from hunters.wire import adapter

from .helpers import bearer, over, rpc_error, stubs

AD = adapter("jaeger_sammler")
GAME = "jaeger_sammler"


def test_a_whole_game_through_the_service(client):
    m = client.create_match(GAME, players=3, seed=5)
    local = Game.new(players=3, seed=5)
    assert m.state.jaeger.season == jaeger_pb2.SEASON_SUMMER and len(m.state.jaeger.board) == 120
    assert m.state == AD.state(local, 0)
    version = 0
    while not local.is_over:
        pairs = client.legal_moves(m.match_id)
        assert pairs == local.actions.pairs()
        move, action = pairs[(version * 5) % len(pairs)]
        seat = local.player
        events = local.play(move)
        r = client.play(
            m.match_id,
            move if version % 2 else None,
            action=None if version % 2 else action,
            token=m.seat_tokens[seat],
            expected_version=version,
        )
        version += 1
        assert r.version == version and r.events == events and r.state == AD.state(local, version)
    assert over(client.get_match(m.match_id).state)
    assert client.record(m.match_id) == local.to_record()
    watched = list(client.watch(m.match_id, from_version=0))
    assert [e.move for e in watched[1:]] == local.moves
    assert [ev for e in watched for ev in e.events] == local.events


def test_errors_carry_the_engine_reasons(server):
    _, stub, _ = stubs(server.port)
    resp = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=matches_pb2.GameConfig(game=GAME, players=2, seed=1)))
    mid, tokens = resp.match.match_id, resp.seat_tokens
    local = Game.new(players=2, seed=1)
    occupied = {space for _, space in local.characters}
    empty = next(v for v in range(120) if v not in occupied)
    before = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match
    req = matches_pb2.PlayMoveRequest(match_id=mid, move=moves_pb2.Move(jaeger=jaeger_pb2.JaegerMove()))
    assert rpc_error(stub.PlayMove, req, metadata=bearer(tokens[0]))[:2] == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "MALFORMED",
    )
    bad = Move.of((empty, None))  # no character of seat 0 stands there
    with pytest.raises(IllegalMoveError) as exc:
        local.clone().play(bad)
    req = matches_pb2.PlayMoveRequest(match_id=mid, move=AD.move_to_proto(bad))
    code, reason, _ = rpc_error(stub.PlayMove, req, metadata=bearer(tokens[0]))
    assert exc.value.reason == "NOT_YOUR_CHARACTER"
    assert reason == exc.value.reason and code in (
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    wrong_game = matches_pb2.PlayMoveRequest(
        match_id=mid, move=moves_pb2.Move(carcassonne=carcassonne_pb2.CarcassonneMove())
    )
    assert rpc_error(stub.PlayMove, wrong_game, metadata=bearer(tokens[0]))[:2] == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "WRONG_GAME",
    )
    assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match == before


def test_oracle_and_simulation(client):
    local = Game.new(players=2, seed=8)
    for i in range(12):
        local.play(local.legal_moves()[i % len(local.legal_moves())])
    resp = client.evaluate(GAME, 2, local.moves, seed=8, include_legal_moves=True)
    assert resp.legal and resp.state == AD.state(local, 12)
    assert [AD.event_from_proto(e) for e in resp.events] == local.events
    assert [(AD.move_from_proto(lm.move), lm.action) for lm in resp.legal_moves] == local.actions.pairs()
    bad = client.evaluate(GAME, 2, [*local.moves[:3], local.moves[5]], seed=8)
    assert not bad.legal and bad.illegal.index == 3 and bad.illegal.reason
    updates = list(client.simulate(GAME, players=4, games=40, seed=3))
    assert updates[-1].done and updates[-1].games_done == 40
    expected = [random_games(40, players=4, seed=3)]  # one block
    assert updates[-1].moves == sum(r.decisions for r in expected)
