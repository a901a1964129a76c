"""OracleService: stateless evaluation of move lists, and streamed in-server simulation."""

import grpc
import pytest

from hunters.carcassonne import Game, Move, Occupant, random_games
from hunters.client import ServiceError
from hunters.service.servicer import SIMULATION_BLOCK
from hunters.v1 import matches_pb2, moves_pb2, oracle_pb2
from hunters.wire import adapter

from .helpers import rpc_error, stubs

AD = adapter("carcassonne_hg")


def test_evaluate_a_legal_list(client, server):
    local = Game.new(players=3, seed=31)
    for i in range(20):
        local.play(local.legal_moves()[i % len(local.legal_moves())])
    resp = client.evaluate("carcassonne_hg", 3, local.moves, seed=31, include_legal_moves=True)
    assert resp.legal and not resp.HasField("illegal")
    assert resp.state == AD.state(local, 20)
    assert [AD.event_from_proto(e) for e in resp.events] == local.events
    assert [(AD.move_from_proto(lm.move), lm.action) for lm in resp.legal_moves] == local.actions.pairs()
    assert client.list_matches().matches == [] and list(client.all_matches()) == []  # nothing stored


def test_evaluate_reports_the_first_illegal_move(client):
    local = Game.new(players=2, seed=32)
    moves = []
    for i in range(5):
        moves.append(local.legal_moves()[0])
        local.play(moves[-1])
    bad = [*moves, Move(0, 0, 0), Move(0, -1, 0)]
    resp = client.evaluate("carcassonne_hg", 2, bad, seed=32)
    assert not resp.legal
    assert (resp.illegal.index, resp.illegal.reason) == (5, "POSITION_OCCUPIED") and resp.illegal.message
    assert resp.state == AD.state(local, 5)
    other = client.evaluate("carcassonne_hg", 2, [*moves[:2], moves[2]._replace(rotation=8)], seed=32)
    assert (other.illegal.index, other.illegal.reason) == (2, "BAD_ROTATION")
    occ = client.evaluate("carcassonne_hg", 2, [moves[0]._replace(occupant=Occupant("meeple", 561))], seed=32)
    assert (occ.illegal.index, occ.illegal.reason) == (0, "ZONE_NOT_ON_TILE")


def test_evaluate_with_explicit_decks_and_raw_json_moves(server):
    _, _, oracle = stubs(server.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2)
    config.carcassonne.normal_deck.tiles.extend([3, 17, 5])
    config.carcassonne.menhir_deck.SetInParent()
    local = Game.new(players=2, normal_deck=[3, 17, 5], menhir_deck=[])
    move = local.legal_moves()[0]
    resp = oracle.Evaluate(oracle_pb2.EvaluateRequest(config=config, moves=[moves_pb2.Move(json='{"x": 1')]))
    assert (resp.illegal.index, resp.illegal.reason) == (0, "MALFORMED")
    resp = oracle.Evaluate(oracle_pb2.EvaluateRequest(config=config, moves=[moves_pb2.Move()]))
    assert (resp.illegal.index, resp.illegal.reason) == (0, "MOVE_MISSING")
    import json

    resp = oracle.Evaluate(
        oracle_pb2.EvaluateRequest(config=config, moves=[moves_pb2.Move(json=json.dumps(move.to_json()))])
    )
    assert resp.legal and resp.state.version == 1


def test_evaluate_bad_configuration(server):
    _, _, oracle = stubs(server.port)
    for config in (
        matches_pb2.GameConfig(game="go", players=2, seed=1),
        matches_pb2.GameConfig(game="carcassonne_hg", players=9, seed=1),
        matches_pb2.GameConfig(game="carcassonne_hg", players=2),
    ):
        code, reason, _ = rpc_error(oracle.Evaluate, oracle_pb2.EvaluateRequest(config=config))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and reason in ("UNKNOWN_GAME", "INVALID_CONFIG")


def test_simulate_streams_progress_to_the_same_totals(client):
    games = 2 * SIMULATION_BLOCK + 88
    updates = list(client.simulate("carcassonne_hg", players=3, games=games, seed=4))
    assert updates[-1].done and updates[-1].games_done == games
    assert [u.games_done for u in updates] == sorted({u.games_done for u in updates})
    assert not any(u.done for u in updates[:-1]) and updates[-1].games_per_second > 0
    # block b of the run is the core's random_games(block size, seed + b): independent of timing
    expected = [random_games(n, players=3, seed=4 + b) for b, n in enumerate((SIMULATION_BLOCK, SIMULATION_BLOCK, 88))]
    assert updates[-1].moves == sum(r.decisions for r in expected)
    assert list(updates[-1].wins) == [sum(r.wins[p] for r in expected) for p in range(3)]


def test_simulate_errors(client):
    for kwargs in ({"games": 0}, {"games": 10**8}, {"players": 7}):
        args = {"game": "carcassonne_hg", "players": 2, "games": 10, **kwargs}
        with pytest.raises(ServiceError) as exc:
            list(client.simulate(**args))
        assert exc.value.code == grpc.StatusCode.INVALID_ARGUMENT
