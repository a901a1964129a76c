"""MatchService against a real server: every RPC, auth, errors and their codes, versions, retries."""

import asyncio
import json
import threading

import grpc
import pytest

from hunters.carcassonne import Game, Move, Occupant
from hunters.client import Client, ServiceError
from hunters.errors import IllegalMoveError
from hunters.v1 import carcassonne_pb2, matches_pb2, moves_pb2, state_pb2
from hunters.wire import adapter

from .helpers import bearer, create, over, rpc_error, sql, stubs

AD = adapter("carcassonne_hg")


def test_create_returns_match_tokens_and_public_state(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub, players=3, seed=7)
    assert len(resp.seat_tokens) == 3 and len(set(resp.seat_tokens)) == 3 and resp.admin_token
    m = resp.match
    assert m.version == 0 and m.config.game == "carcassonne_hg" and m.config.players == 3
    assert not m.config.HasField("seed") and m.status == matches_pb2.MATCH_STATUS_ACTIVE  # the seed fixes the piles
    local = Game.new(players=3, seed=7)
    st = m.state
    assert st.player == 0 and st.status == state_pb2.GAME_STATUS_IN_PROGRESS and list(st.scores) == [0, 0, 0]
    assert st.carcassonne.tile == local.tile
    assert (st.carcassonne.normal_pile, st.carcassonne.menhir_pile) == local.piles
    assert [(b.x, b.y, b.tile, b.rotation) for b in st.carcassonne.board] == local.board
    assert list(st.carcassonne.meeples) == [5, 5, 5] and list(st.carcassonne.huts) == [3, 3, 3]
    # the hidden draw order is nowhere in the public view
    seen = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=m.match_id)).match
    assert "normal_deck" not in str(seen) and seen.state == st


def test_tokens_are_stored_hashed(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub)
    rows = sql(server, "SELECT seat_hashes, admin_hash FROM matches")
    dump = json.dumps(rows)
    raw = dump.encode()
    if "://" not in server.store.path:  # SQLite: nowhere in the file either
        with open(server.store.path, "rb") as fh:
            raw = fh.read()
    for token in [*list(resp.seat_tokens), resp.admin_token]:
        assert token not in dump and token.encode() not in raw


def test_create_errors(server_factory):
    running = server_factory(max_live_matches=2)
    _, stub, _ = stubs(running.port)
    assert rpc_error(stub.CreateMatch, matches_pb2.CreateMatchRequest()) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_CONFIG",
        {},
    )
    code, reason, _ = rpc_error(
        stub.CreateMatch, matches_pb2.CreateMatchRequest(config=matches_pb2.GameConfig(game="chess", players=2))
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME")
    for players in (1, 6, 0, -3):
        code, reason, _ = rpc_error(create, stub, players=players)
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG")
    for options in (
        {"normal_deck": [1, 1]},
        {"normal_deck": [88]},
        {"menhir_deck": [3]},
        {"normal_deck": [-1]},
        {"normal_deck": [*list(range(79)), 0]},
    ):
        code, reason, _ = rpc_error(create, stub, options=options)
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG"), options
    create(stub)
    create(stub)
    code, reason, _ = rpc_error(create, stub)
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_MATCHES")


def test_explicit_decks_as_options(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub, options={"normal_deck": [3, 17, 5], "menhir_deck": []})
    assert resp.match.state.carcassonne.tile == 3 and resp.match.state.carcassonne.normal_pile == 2


def test_get_list_delete(server):
    _, stub, _ = stubs(server.port)
    made = [create(stub, seed=s) for s in range(5)]
    ids = [m.match.match_id for m in made]
    seen, token = [], ""
    while True:
        page = stub.ListMatches(matches_pb2.ListMatchesRequest(page_size=2, page_token=token))
        assert len(page.matches) <= 2
        seen += [m.match_id for m in page.matches]
        token = page.next_page_token
        if not token:
            break
    assert seen == ids
    assert [m.match_id for m in stub.ListMatches(matches_pb2.ListMatchesRequest(game="other")).matches] == []
    code, reason, _ = rpc_error(stub.ListMatches, matches_pb2.ListMatchesRequest(page_token="zz-not-a-token"))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_PAGE_TOKEN")
    victim = made[1]
    req = matches_pb2.DeleteMatchRequest(match_id=victim.match.match_id)
    assert rpc_error(stub.DeleteMatch, req)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN")
    assert rpc_error(stub.DeleteMatch, req, metadata=bearer(victim.seat_tokens[0]))[:2] == (
        grpc.StatusCode.PERMISSION_DENIED,
        "ADMIN_TOKEN_REQUIRED",
    )
    stub.DeleteMatch(req, metadata=bearer(victim.admin_token))
    assert rpc_error(stub.GetMatch, matches_pb2.GetMatchRequest(match_id=victim.match.match_id))[:2] == (
        grpc.StatusCode.NOT_FOUND,
        "MATCH_NOT_FOUND",
    )
    assert rpc_error(stub.DeleteMatch, req, metadata=bearer(victim.admin_token))[0] == grpc.StatusCode.NOT_FOUND
    assert rpc_error(stub.GetMatch, matches_pb2.GetMatchRequest())[:2] == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "MATCH_ID_MISSING",
    )


def test_legal_moves_match_the_game_api(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub, seed=9)
    listed = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=resp.match.match_id))
    local = Game.new(players=2, seed=9)
    assert listed.version == 0 and listed.player == 0
    assert [(AD.move_from_proto(lm.move), lm.action) for lm in listed.moves] == local.actions.pairs()


def play_req(match_id, move=None, action=None, version=None, request_id=""):
    req = matches_pb2.PlayMoveRequest(match_id=match_id, request_id=request_id)
    if version is not None:
        req.expected_version = version
    if move is not None:
        req.move.CopyFrom(AD.move_to_proto(move))
    if action is not None:
        req.action = action
    return req


def test_play_errors_have_reasons_codes_and_change_nothing(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub, seed=3)
    mid, tokens = resp.match.match_id, resp.seat_tokens
    local = Game.new(players=2, seed=3)
    good = local.legal_moves()[0]
    cases = [
        (play_req(mid, good, version=0), None, grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN"),
        (play_req(mid, good, version=0), "nope", grpc.StatusCode.PERMISSION_DENIED, "INVALID_TOKEN"),
        (play_req(mid, good, version=0), resp.admin_token, grpc.StatusCode.PERMISSION_DENIED, "INVALID_TOKEN"),
        (play_req(mid, good, version=0), tokens[1], grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN"),
        (play_req(mid, good, version=4), tokens[0], grpc.StatusCode.ABORTED, "STALE_VERSION"),
        (play_req(mid, version=0), tokens[0], grpc.StatusCode.INVALID_ARGUMENT, "MOVE_MISSING"),
        (play_req(mid, Move(0, 0, 0), version=0), tokens[0], grpc.StatusCode.FAILED_PRECONDITION, "POSITION_OCCUPIED"),
        (play_req(mid, Move(7, 7, 0), version=0), tokens[0], grpc.StatusCode.FAILED_PRECONDITION, "NOT_ADJACENT"),
        (play_req(mid, Move(0, -1, 9), version=0), tokens[0], grpc.StatusCode.INVALID_ARGUMENT, "BAD_ROTATION"),
        (
            play_req(mid, good._replace(occupant=Occupant("meeple", 560)), version=0),
            tokens[0],
            grpc.StatusCode.FAILED_PRECONDITION,
            "ZONE_NOT_ON_TILE",
        ),
        (
            play_req(mid, good._replace(occupant=Occupant("hut", 99999)), version=0),
            tokens[0],
            grpc.StatusCode.INVALID_ARGUMENT,
            "UNKNOWN_ZONE",
        ),
        (
            play_req(mid, good._replace(retake=560), version=0),
            tokens[0],
            grpc.StatusCode.FAILED_PRECONDITION,
            "RETAKE_NOT_ALLOWED",
        ),
        (play_req(mid, action=-5, version=0), tokens[0], grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED"),
        (play_req("missing", good, version=0), tokens[0], grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND"),
    ]
    mismatch = next(
        Move(x, y, r)
        for x, y in [(0, -1), (1, 0), (0, 1), (-1, 0)]
        for r in range(4)
        if Move(x, y, r) not in set(local.legal_moves())
        and local.tile is not None
        and not local.is_legal(Move(x, y, r))
    )
    cases.append((play_req(mid, mismatch, version=0), tokens[0], grpc.StatusCode.FAILED_PRECONDITION, "SIDE_MISMATCH"))
    raw = matches_pb2.PlayMoveRequest(
        match_id=mid,
        expected_version=0,
        move=moves_pb2.Move(
            carcassonne=carcassonne_pb2.CarcassonneMove(x=0, y=-1, occupant=carcassonne_pb2.CarcassonneOccupant(zone=1))
        ),
    )
    cases.append((raw, tokens[0], grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED"))
    before = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match
    for req, token, code, reason in cases:
        got = rpc_error(stub.PlayMove, req, metadata=bearer(token) if token else None)
        assert got[:2] == (code, reason), (req, got)
        assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match == before


def test_a_whole_game_through_the_service_equals_the_local_game(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub, players=3, seed=11)
    mid, tokens = resp.match.match_id, resp.seat_tokens
    local = Game.new(players=3, seed=11)
    version = 0
    while not local.is_over:
        pairs = local.actions.pairs()
        move, action = pairs[(version * 7) % len(pairs)]
        seat = local.player
        events = local.play(move)
        req = play_req(mid, action=action, version=version) if version % 2 else play_req(mid, move, version=version)
        out = stub.PlayMove(req, metadata=bearer(tokens[seat]))
        version += 1
        assert out.version == version
        assert [AD.event_from_proto(e) for e in out.events] == events
        assert list(out.state.scores) == local.scores and out.state.player == local.player
        assert out.state == AD.state(local, version)
    final = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match
    assert over(final.state) and list(final.state.winners) == local.winners
    code, reason, _ = rpc_error(
        stub.PlayMove, play_req(mid, Move(0, -1, 0), version=version), metadata=bearer(tokens[local.player])
    )
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_OVER")
    record = json.loads(stub.GetRecord(matches_pb2.GetRecordRequest(match_id=mid)).record_json)
    assert record == local.to_record()


def test_record_before_the_end_needs_the_admin_token(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub)
    req = matches_pb2.GetRecordRequest(match_id=resp.match.match_id)
    assert rpc_error(stub.GetRecord, req)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN")
    assert rpc_error(stub.GetRecord, req, metadata=bearer(resp.seat_tokens[0]))[:2] == (
        grpc.StatusCode.PERMISSION_DENIED,
        "ADMIN_TOKEN_REQUIRED",
    )
    record = json.loads(stub.GetRecord(req, metadata=bearer(resp.admin_token)).record_json)
    assert record == Game.new(players=2, seed=5).to_record()


def test_idempotent_retries(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub, seed=4)
    mid, tokens = resp.match.match_id, resp.seat_tokens
    local = Game.new(players=2, seed=4)
    move = local.legal_moves()[1]
    req = play_req(mid, move, version=0, request_id="req-1")
    first = stub.PlayMove(req, metadata=bearer(tokens[0]))
    again = stub.PlayMove(req, metadata=bearer(tokens[0]))
    assert first == again and first.version == 1
    assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match.version == 1
    other = play_req(mid, local.legal_moves()[0], version=0, request_id="req-1")
    assert rpc_error(stub.PlayMove, other, metadata=bearer(tokens[0]))[:2] == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "REQUEST_ID_REUSED",
    )
    # without a request id the same call is a new (stale) move
    assert rpc_error(stub.PlayMove, play_req(mid, move, version=0), metadata=bearer(tokens[0]))[:2] == (
        grpc.StatusCode.ABORTED,
        "STALE_VERSION",
    )


def test_simultaneous_moves_on_one_match_exactly_one_wins(server):
    _, stub, _ = stubs(server.port)
    resp = create(stub, seed=8)
    mid, token = resp.match.match_id, resp.seat_tokens[0]
    moves = list(Game.new(players=2, seed=8).legal_moves())
    results = []
    barrier = threading.Barrier(12)

    def submit(i):
        barrier.wait()
        try:
            results.append(
                stub.PlayMove(play_req(mid, moves[i % len(moves)], version=0), metadata=bearer(token)).version
            )
        except grpc.RpcError as err:
            results.append(err.code())

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(1) == 1
    assert results.count(grpc.StatusCode.ABORTED) == 11
    assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match.version == 1


def test_many_matches_concurrently(server):
    def play_one(seed, out):
        with Client(f"127.0.0.1:{server.port}") as c:
            m = c.create_match("carcassonne_hg", players=2, seed=seed)
            local = Game.new(players=2, seed=seed)
            while not local.is_over:
                move = local.legal_moves()[-1]
                r = c.play(m.match_id, move, token=m.seat_tokens[local.player], expected_version=len(local.moves))
                local.play(move)
                assert list(r.state.scores) == local.scores
            out[seed] = c.record(m.match_id) == local.to_record()

    out = {}
    threads = [threading.Thread(target=play_one, args=(s, out)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == {s: True for s in range(6)}


def test_client_raises_the_game_api_errors(client):
    m = client.create_match("carcassonne_hg", players=2, seed=1)
    with pytest.raises(IllegalMoveError) as exc:
        client.play(m.match_id, Move(0, 0, 0), token=m.seat_tokens[0])
    assert exc.value.reason == "POSITION_OCCUPIED"
    with pytest.raises(ServiceError) as err:
        client.play(m.match_id, Move(0, -1, 0), token=m.seat_tokens[1])
    assert err.value.reason == "NOT_YOUR_TURN" and err.value.code == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(ServiceError) as err:
        client.get_match("nope")
    assert err.value.code == grpc.StatusCode.NOT_FOUND
    moves = client.legal_moves(m.match_id)
    r = client.play(m.match_id, action=moves[0][1], token=m.seat_tokens[0], expected_version=0, request_id="a")
    assert r.version == 1
    assert [i.match_id for i in client.all_matches(page_size=1)] == [m.match_id]
    client.delete_match(m.match_id, m.admin_token)
    assert list(client.all_matches()) == []


def test_unfinished_matches_stay_in_memory_beyond_the_cache(server_factory):
    running = server_factory()
    manager = running.manager
    manager.cache_size = 0  # no finished match stays in memory
    with Client(f"127.0.0.1:{running.port}") as c:
        live = [c.create_match("carcassonne_hg", players=2, seed=s) for s in range(4)]
        finished = c.create_match("carcassonne_hg", players=2, seed=9, options={"normal_deck": [], "menhir_deck": []})
        assert over(c.get_match(finished.match_id).state)
        c.create_match("carcassonne_hg", players=2, seed=10)
    held = running.call(lambda: asyncio.gather(*[manager.get(m.match_id) for m in live]))
    assert manager.cached(finished.match_id) is None
    again = running.call(lambda: asyncio.gather(*[manager.get(m.match_id) for m in live]))
    assert all(a is h for a, h in zip(again, held))


def test_tokens_never_look_like_command_line_options():
    """Tokens go on command lines (`hunters play --token T`, the arena's `cmd:` bots): one that began
    with "-" was taken for an option (a base64url token did, one time in 64)."""
    from hunters.service.auth import new_token

    tokens = [new_token() for _ in range(2000)]
    assert len(set(tokens)) == 2000
    assert all(len(t) == 64 and t[0] != "-" and all(c in "0123456789abcdef" for c in t) for t in tokens)
