"""The Python client (hunters.client) reaches every RPC of the contract, with the same fields as the
TypeScript and Go facades: bot seats, listing and deleting, creation time, results that say when the
game is over."""

import importlib
import pkgutil
from datetime import UTC, datetime, timedelta

import pytest

import hunters.v1
from hunters.client import RPC_METHODS, Client, ServiceError
from hunters.v1 import matches_pb2


def contract_rpcs():
    """Every RPC of every service of hunters.v1, from the generated descriptors of each module."""
    rpcs = []
    for mod in pkgutil.iter_modules(hunters.v1.__path__):
        if mod.name.endswith("_pb2"):
            file = importlib.import_module(f"hunters.v1.{mod.name}").DESCRIPTOR
            for service in file.services_by_name.values():
                rpcs += [f"{service.full_name}.{m.name}" for m in service.methods]
    return sorted(rpcs)


def test_every_rpc_has_a_facade_method():
    rpcs = contract_rpcs()
    assert {r.rsplit(".", 1)[0] for r in rpcs} == {
        "hunters.v1.GameService",
        "hunters.v1.MatchService",
        "hunters.v1.OracleService",
    }
    missing = [r for r in rpcs if not callable(getattr(Client, RPC_METHODS.get(r, ""), None))]
    assert missing == [], "RPCs without a facade method (add them to RPC_METHODS and Client)"
    assert sorted(RPC_METHODS) == rpcs


def test_a_server_bot_plays_its_seat_and_the_result_says_when_it_is_over(client):
    m = client.create_match("jaeger_sammler", players=2, seed=5, bots={1: "random"})
    assert m.bots == {1: "random"} and m.seed is None and m.players == 2
    assert m.status == matches_pb2.MATCH_STATUS_ACTIVE
    assert m.created_at is not None and abs(datetime.now(UTC) - m.created_at) < timedelta(minutes=1)
    version, over_by = 0, ""
    for _ in range(2000):
        turn = client.wait_turn(m.match_id, 0, version)
        assert turn is not None and turn.match_id == m.match_id
        if turn.match_over:
            over_by = "bot"
            break
        legal = client.legal_moves(m.match_id)
        assert (legal.version, legal.player) == (turn.version, 0)
        _, action = legal[0]
        r = client.play(m.match_id, token=m.seat_tokens[0], action=action, expected_version=turn.version)
        version = r.version
        if r.is_over:
            over_by = "me"
            assert r.winners and list(r.winners) == list(r.state.winners)
            break
        assert r.winners == ()
    end = client.get_match(m.match_id)
    assert over_by and end.status == matches_pb2.MATCH_STATUS_OVER and end.seed == 5
    assert end.bots == {1: "random"} and end.state.winners

    b = client.create_match("carcassonne_hg", players=2, seed=1, bots={0: "random"})
    assert client.wait_turn(b.match_id, 1).state.player == 1
    _, action = client.legal_moves(b.match_id)[0]
    with pytest.raises(ServiceError) as err:
        client.play(b.match_id, token=b.seat_tokens[0], action=action)
    assert err.value.reason == "SEAT_PLAYED_BY_BOT"
    assert err.value.message == "seat 0 is played by the server's bot"  # the reason is not repeated in it
    assert err.value.metadata == {"match_id": b.match_id, "seat": "0"}


def test_list_and_delete(client):
    made = [client.create_match("carcassonne_hg", players=2, seed=s) for s in (1, 2, 3)]
    j = client.create_match("jaeger_sammler", players=3, seed=1)
    listed = list(client.list_matches(game="carcassonne_hg", page_size=2))
    assert [m.match_id for m in listed] == [m.match_id for m in made]
    assert all(m.created_at is not None and m.players == 2 for m in listed)
    assert j.match_id not in {m.match_id for m in listed}
    with pytest.raises(ServiceError) as err:
        client.delete_match(made[0].match_id, made[0].seat_tokens[0])
    assert err.value.reason == "ADMIN_TOKEN_REQUIRED"
    client.delete_match(made[0].match_id, made[0].admin_token)
    with pytest.raises(ServiceError) as err:
        client.get_match(made[0].match_id)
    assert err.value.reason == "MATCH_NOT_FOUND"
