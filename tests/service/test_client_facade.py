"""The Python client (hunters.client) reaches every RPC of the contract, with the same fields and the
same behaviour as the TypeScript and Go facades (docs/clients.md#one-client-behaviour): bot seats,
listing page by page and deleting, creation time, results that say when the game is over, one line
for every error, request ids and retries of lost replies, deadlines."""

import importlib
import pkgutil
import re
import socket
from datetime import UTC, datetime, timedelta

import grpc
import pytest

import hunters.v1
from hunters.aio import AsyncClient
from hunters.client import (
    RPC_METHODS,
    Client,
    IllegalMoveError,
    RemoteIllegalMoveError,
    SeatPlayed,
    ServiceError,
    Turn,
)
from hunters.v1 import matches_pb2
from tests.clients.hooks import BlockingHook, Hook


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
    listed = list(client.all_matches(game="carcassonne_hg", page_size=2))
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


def test_every_rpc_has_an_async_facade_method():
    missing = [name for name in RPC_METHODS.values() if not callable(getattr(AsyncClient, name, None))]
    assert missing == [], "the asyncio client has every call of the blocking one"


def test_an_error_is_one_line_with_code_reason_message_and_metadata(client):
    m = client.create_match("carcassonne_hg", players=2, seed=1)
    with pytest.raises(ServiceError) as missing:
        client.get_match("no-such-match")
    assert str(missing.value) == "NOT_FOUND MATCH_NOT_FOUND: no match 'no-such-match'"
    assert missing.value.metadata == {"match_id": "no-such-match"}
    with pytest.raises(IllegalMoveError) as illegal:
        client.play(m.match_id, token=m.seat_tokens[0], action=8144160)  # onto the start tile
    err = illegal.value
    assert isinstance(err, RemoteIllegalMoveError) and isinstance(err, ServiceError)
    assert (err.code, err.reason, err.metadata) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "POSITION_OCCUPIED",
        {"match_id": m.match_id, "version": "0"},
    )
    assert str(err) == "FAILED_PRECONDITION POSITION_OCCUPIED: a tile is already placed there"


def test_no_server_is_unavailable_with_the_codes_name_as_reason_and_a_move_is_tried_three_times():
    hook = Hook()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with Client(f"127.0.0.1:{port}", interceptors=[BlockingHook(hook)]) as c:
        with pytest.raises(ServiceError) as read:
            c.get_match("m")
        with pytest.raises(ServiceError) as move:
            c.play("m", token="t", action=0)
        with pytest.raises(ServiceError) as create:
            c.create_match("carcassonne_hg", 2)
    for err in (read.value, move.value, create.value):
        assert (err.code, err.reason) == (grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE")
        assert str(err).startswith("UNAVAILABLE UNAVAILABLE: ")
    assert [name for name, _ in hook.calls] == ["GetMatch", "PlayMove", "PlayMove", "PlayMove", "CreateMatch"]


def test_a_lost_reply_of_a_write_is_sent_again_and_applied_once(server):
    hook = Hook()
    with Client(f"127.0.0.1:{server.port}", interceptors=[BlockingHook(hook)]) as c:
        m = c.create_match("carcassonne_hg", players=2, seed=1)
        legal = c.legal_moves(m.match_id)
        hook.lose("PlayMove", 2)
        played = c.play(m.match_id, token=m.seat_tokens[0], action=legal[0][1], expected_version=0)
        ids = [r.request_id for r in hook.requests("PlayMove")]
        assert played.version == 1 and c.get_match(m.match_id).version == 1
        assert len(ids) == 3 and len(set(ids)) == 1 and re.fullmatch("[0-9a-f]{32}", ids[0])

        hook.reset()
        hook.lose("PlayMove", 5)  # every try's reply lost: the last try's error, after `attempts`
        with pytest.raises(ServiceError) as lost:
            c.play(m.match_id, token=m.seat_tokens[1], action=c.legal_moves(m.match_id)[0][1], attempts=2)
        assert lost.value.reason == "UNAVAILABLE" and len(hook.requests("PlayMove")) == 2
        assert c.get_match(m.match_id).version == 2, "applied once although its replies were lost"

        hook.reset()  # refusals are not retried
        with pytest.raises(ServiceError) as stale:
            c.play(m.match_id, token=m.seat_tokens[0], action=legal[0][1], expected_version=0)
        assert stale.value.reason == "STALE_VERSION" and len(hook.requests("PlayMove")) == 1

        hook.reset()  # a delete whose reply was lost: the retry's MATCH_NOT_FOUND means done
        hook.lose("DeleteMatch", 1)
        c.delete_match(m.match_id, m.admin_token)
        assert len(hook.requests("DeleteMatch")) == 2
        with pytest.raises(ServiceError) as again:
            c.delete_match(m.match_id, m.admin_token)
        assert again.value.reason == "MATCH_NOT_FOUND" and len(hook.requests("DeleteMatch")) == 3


def test_seat_moves_carry_a_request_id_and_a_stream_knows_its_last_version(client):
    m = client.create_match("carcassonne_hg", players=2, seed=4)
    with client.seat(m.match_id, m.seat_tokens[0]) as stream:
        assert stream.version == -1
        for item in stream:
            if isinstance(item, Turn):
                stream.play(item, action=item.actions[0])
            if isinstance(item, SeatPlayed):
                break
    assert re.fullmatch("[0-9a-f]{32}", item.request_id) and item.version == 1 and stream.version == 1


class _Deadlines(grpc.UnaryStreamClientInterceptor):
    def __init__(self):
        self.seen = []

    def intercept_unary_stream(self, continuation, details, request):
        self.seen.append((details.method.rsplit("/", 1)[-1], details.timeout))
        return continuation(details, request)


def test_perft_has_a_deadline_its_own_or_the_clients(server):
    deadlines = _Deadlines()
    with Client(f"127.0.0.1:{server.port}", timeout=20.0, interceptors=[deadlines]) as c:
        assert [line.count for line in c.perft("carcassonne_hg", 2, 1, seed=1, timeout=5.0)] == [15]
        list(c.perft("carcassonne_hg", 2, 1, seed=1))
    assert deadlines.seen == [("Perft", 5.0), ("Perft", 20.0)]


def test_one_page_or_every_page(client):
    made = [client.create_match("carcassonne_hg", players=2, seed=s).match_id for s in (1, 2, 3)]
    first = client.list_matches(page_size=2)
    second = client.list_matches(page_size=2, page_token=first.next_page_token)
    assert [m.match_id for m in first.matches] == made[:2] and first.next_page_token
    assert [m.match_id for m in second.matches] == made[2:] and second.next_page_token == ""
    assert [m.match_id for m in client.all_matches(page_size=2)] == made
