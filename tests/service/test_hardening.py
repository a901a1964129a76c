"""What a hostile client tries: holding threads with streams, cancelling long work, reading the
hidden draw order, odd ids and page tokens, filling the match limit, creating without leave."""

import re
import threading
import time

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2

from hunters.carcassonne import Game
from hunters.client import Client, ServiceError
from hunters.v1 import matches_pb2, matches_pb2_grpc, oracle_pb2

from .helpers import bearer, create, over, rpc_error, sql, stubs


def health_ok(port, timeout=5):
    from hunters.service.healthcheck import check

    return check(f"127.0.0.1:{port}", timeout)


def test_two_thousand_watch_streams_opened_at_once_hold_no_thread(server):
    """Far more streams than the old server had threads (32), all opened in one burst over 20
    connections: none is refused, health and moves still answer at once, every watcher gets every
    event."""
    channel, stub, _ = stubs(server.port)
    m = create(stub, seed=3)
    mid, tokens = m.match.match_id, m.seat_tokens
    channels = [
        grpc.insecure_channel(f"127.0.0.1:{server.port}", options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(20)
    ]
    streams = [
        matches_pb2_grpc.MatchServiceStub(channels[i % 20]).WatchMatch(
            matches_pb2.WatchMatchRequest(match_id=mid, from_version=0)
        )
        for i in range(2000)
    ]
    assert all(next(call).version == 0 for call in streams)
    assert health_ok(server.port, timeout=2)
    local = Game.new(players=2, seed=3)
    for _ in range(3):
        move = local.legal_moves()[0]
        stub.PlayMove(
            matches_pb2.PlayMoveRequest(match_id=mid, action=local.actions.from_move(move)),
            metadata=bearer(tokens[local.player]),
            timeout=2,
        )
        local.play(move)
    for call in streams:
        assert [next(call).version for _ in range(3)] == [1, 2, 3]
        call.cancel()
    for c in [channel, *channels]:
        c.close()


def test_a_cancelled_simulation_stops_its_engine_work(server):
    channel, _, oracle = stubs(server.port)
    call = oracle.SimulateGames(
        oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=10_000_000, seed=1)
    )
    first = next(call)
    assert 0 < first.games_done < 10_000_000 and server.call(lambda: server.engine.busy) <= 1
    call.cancel()
    cancelled = time.perf_counter()
    while server.call(lambda: server.engine.busy):
        assert time.perf_counter() - cancelled < 2, "engine work went on after the cancel"
        time.sleep(0.01)
    assert health_ok(server.port)
    channel.close()


def _integers(message, out):
    """Every integer field value anywhere in `message` (the candidates a cheat would try as seeds)."""
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        for v in values:
            if field.message_type is not None:
                _integers(v, out)
            elif isinstance(v, int) and not isinstance(v, bool):
                out.add(v)
            elif isinstance(v, str):
                out.update(int(t) for t in re.findall(r"\d+", v))
    return out


def test_nothing_public_predicts_the_next_tile(server):
    """A seat or spectator sees creation replies, matches, listings, legal moves, move replies and
    watch events before the end; no number in them seeds the piles, and no explicit deck shows."""
    channel, stub, _ = stubs(server.port)
    seed = 48_271
    created = create(stub, players=2, seed=seed)
    mid = created.match.match_id
    deck = [3, 17, 5, 40, 22, 61, 9]
    explicit = create(stub, players=2, seed=seed, options={"normal_deck": deck, "menhir_deck": [88]})
    local = Game.new(players=2, seed=seed)
    move = local.legal_moves()[0]
    played = stub.PlayMove(
        matches_pb2.PlayMoveRequest(match_id=mid, action=local.actions.from_move(move)),
        metadata=bearer(created.seat_tokens[0]),
    )
    local.play(move)
    public = [
        created.match,
        explicit.match,
        played,
        stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match,
        stub.ListMatches(matches_pb2.ListMatchesRequest()),
        stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)),
    ]
    watch = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=mid, from_version=0))
    public += [next(watch), next(watch)]
    watch.cancel()
    candidates = set()
    for message in public:
        _integers(message, candidates)
    assert seed not in candidates
    piles = Game.new(players=2, seed=seed).to_record()
    hidden = (piles["normal_deck"], piles["menhir_deck"])
    for candidate in candidates:  # a cheat would seed a local game with every number it saw
        if 0 <= candidate < 2**64:
            guess = Game.new(players=2, seed=candidate).to_record()
            assert (guess["normal_deck"], guess["menhir_deck"]) != hidden
    seen = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=explicit.match.match_id)).match
    for config in (explicit.match.config, seen.config):
        assert not config.carcassonne.HasField("normal_deck") and not config.carcassonne.HasField("menhir_deck")
    assert not explicit.match.config.HasField("seed") and not created.match.config.HasField("seed")
    # the record (it holds the draw order) stays with the admin token until the end
    assert rpc_error(
        stub.GetRecord, matches_pb2.GetRecordRequest(match_id=mid), metadata=bearer(created.seat_tokens[0])
    )[:2] == (grpc.StatusCode.PERMISSION_DENIED, "ADMIN_TOKEN_REQUIRED")
    channel.close()


def test_seed_and_decks_are_shown_once_the_match_is_over(server):
    _, stub, _ = stubs(server.port)
    done = create(stub, seed=9, options={"normal_deck": [], "menhir_deck": []})
    assert over(done.match.state) and done.match.status == matches_pb2.MATCH_STATUS_OVER
    assert done.match.config.seed == 9 and done.match.config.carcassonne.HasField("normal_deck")


def test_ids_and_request_ids_are_bounded_and_never_echoed_long(server):
    _, stub, _ = stubs(server.port)
    m = create(stub)
    for bad in ("x" * 10_000, "a b", "é", "../etc", "x" * 65):
        code, reason, meta = rpc_error(stub.GetMatch, matches_pb2.GetMatchRequest(match_id=bad))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_MATCH_ID")
        assert all(len(v) <= 64 for v in meta.values())
    code, reason, _ = rpc_error(stub.GetMatch, matches_pb2.GetMatchRequest(match_id="f" * 64))
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND")
    for request_id in ("r" * 129, "with space", "tab\t"):
        code, reason, _ = rpc_error(
            stub.PlayMove,
            matches_pb2.PlayMoveRequest(match_id=m.match.match_id, action=0, request_id=request_id),
            metadata=bearer(m.seat_tokens[0]),
        )
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_REQUEST_ID")
    with Client(f"127.0.0.1:{server.port}") as c:
        with pytest.raises(ServiceError) as err:
            c.get_match("x" * 10_000)
        assert err.value.reason == "BAD_MATCH_ID" and len(str(err.value)) < 300


def test_page_tokens_are_opaque_and_strict(server):
    _, stub, _ = stubs(server.port)
    ids = [create(stub, seed=s).match.match_id for s in range(5)]
    first = stub.ListMatches(matches_pb2.ListMatchesRequest(page_size=2))
    assert [m.match_id for m in first.matches] == ids[:2] and first.next_page_token
    second = stub.ListMatches(matches_pb2.ListMatchesRequest(page_size=2, page_token=first.next_page_token))
    assert [m.match_id for m in second.matches] == ids[2:4]
    token = first.next_page_token
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    for bad in ("-1", "0x10", "1_0", "8000000000000000", "2", forged, token + "A", " " + token, "é" * 32):
        code, reason, _ = rpc_error(stub.ListMatches, matches_pb2.ListMatchesRequest(page_size=2, page_token=bad))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_PAGE_TOKEN"), bad
    # a token belongs to its query: another game filter refuses it
    code, reason, _ = rpc_error(
        stub.ListMatches, matches_pb2.ListMatchesRequest(page_size=2, page_token=token, game="jaeger_sammler")
    )
    assert reason == "BAD_PAGE_TOKEN"


def test_idle_matches_are_abandoned_and_free_the_limit(server_factory, tmp_path):
    running = server_factory(max_live_matches=1, idle_seconds=3600)
    _, stub, _ = stubs(running.port)
    m = create(stub, seed=1)
    assert rpc_error(create, stub, seed=2)[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_MATCHES")
    assert running.call(lambda: running.manager.expire(now=time.time() + 1000)) == []  # not idle long enough
    assert running.call(lambda: running.manager.expire(now=time.time() + 4000)) == [m.match.match_id]
    seen = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=m.match.match_id)).match
    assert seen.status == matches_pb2.MATCH_STATUS_ABANDONED and not seen.config.HasField("seed")
    code, reason, _ = rpc_error(
        stub.PlayMove,
        matches_pb2.PlayMoveRequest(match_id=m.match.match_id, action=0),
        metadata=bearer(m.seat_tokens[0]),
    )
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_ABANDONED")
    create(stub, seed=3)  # the abandoned match no longer counts
    running.stop(0)
    again = server_factory(max_live_matches=1, idle_seconds=3600, db=running.store.path)
    _, stub, _ = stubs(again.port)
    assert (
        stub.GetMatch(matches_pb2.GetMatchRequest(match_id=m.match.match_id)).match.status
        == matches_pb2.MATCH_STATUS_ABANDONED
    )
    assert rpc_error(create, stub, seed=4)[1] == "TOO_MANY_MATCHES"  # the limit is counted from the database


def test_a_move_keeps_a_match_alive(server_factory):
    running = server_factory(idle_seconds=3600)
    _, stub, _ = stubs(running.port)
    quiet, busy = create(stub, seed=1), create(stub, seed=2)
    # both created two hours ago
    sql(running, "UPDATE matches SET created_at = created_at - 7200, last_active = last_active - 7200")
    local = Game.new(players=2, seed=2)
    stub.PlayMove(
        matches_pb2.PlayMoveRequest(match_id=busy.match.match_id, action=local.actions.legal()[0]),
        metadata=bearer(busy.seat_tokens[0]),
    )
    assert running.call(lambda: running.manager.expire()) == [quiet.match.match_id]
    assert running.call(lambda: running.manager.expire(now=time.time() + 3000)) == []
    assert running.call(lambda: running.manager.expire(now=time.time() + 3700)) == [busy.match.match_id]


def test_a_watcher_of_an_abandoned_match_is_released(server_factory):
    running = server_factory(idle_seconds=3600)
    channel, stub, _ = stubs(running.port)
    m = create(stub, seed=1)
    call = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=m.match.match_id), timeout=10)
    assert next(call).version == 0
    running.call(lambda: running.manager.expire(now=time.time() + 4000))
    assert list(call) == []  # the stream ends, cleanly
    channel.close()


def test_create_token(server_factory):
    running = server_factory(create_token="operator-secret")
    _, stub, _ = stubs(running.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    request = matches_pb2.CreateMatchRequest(config=config)
    assert rpc_error(stub.CreateMatch, request)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN")
    assert rpc_error(stub.CreateMatch, request, metadata=bearer("guess"))[:2] == (
        grpc.StatusCode.PERMISSION_DENIED,
        "CREATE_TOKEN_REQUIRED",
    )
    assert stub.CreateMatch(request, metadata=bearer("operator-secret")).match.match_id
    with Client(f"127.0.0.1:{running.port}") as c:
        assert c.create_match("jaeger_sammler", players=2, seed=1, token="operator-secret").version == 0


def test_reflection_v1_and_v1alpha(server):
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    for version in ("v1", "v1alpha"):
        rpc = channel.stream_stream(
            f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
            request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
            response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
        )
        replies = list(
            rpc(
                iter(
                    [
                        reflection_pb2.ServerReflectionRequest(list_services=""),
                        reflection_pb2.ServerReflectionRequest(file_containing_symbol="hunters.v1.MatchService"),
                    ]
                )
            )
        )
        names = {s.name for s in replies[0].list_services_response.service}
        assert {
            "hunters.v1.MatchService",
            "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection",
        } <= names
        assert replies[1].file_descriptor_response.file_descriptor_proto
    channel.close()


def test_concurrent_moves_on_many_matches_all_land(server):
    """16 clients on 16 matches at once: every move acknowledged is in the match, in order."""
    _, stub, _ = stubs(server.port)
    matches = [create(stub, seed=100 + i) for i in range(16)]
    errors = []

    def play(m, seed):
        local = Game.new(players=2, seed=seed)
        try:
            for _ in range(15):
                move = local.legal_moves()[len(local.moves) % len(local.legal_moves())]
                r = stub.PlayMove(
                    matches_pb2.PlayMoveRequest(
                        match_id=m.match.match_id,
                        expected_version=len(local.moves),
                        action=local.actions.from_move(move),
                    ),
                    metadata=bearer(m.seat_tokens[local.player]),
                )
                local.play(move)
                assert r.version == len(local.moves)
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(m, 100 + i)) for i, m in enumerate(matches)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(
        stub.GetMatch(matches_pb2.GetMatchRequest(match_id=m.match.match_id)).match.version == 15 for m in matches
    )


def test_nothing_public_predicts_the_jaeger_winter_deck(server):
    from hunters.jaeger import Game as Jaeger

    channel, stub, _ = stubs(server.port)
    seed = 77_713
    created = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(config=matches_pb2.GameConfig(game="jaeger_sammler", players=3, seed=seed))
    )
    mid = created.match.match_id
    public = [
        created.match,
        stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match,
        stub.ListMatches(matches_pb2.ListMatchesRequest(game="jaeger_sammler")),
        stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)),
    ]
    watch = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=mid, from_version=0))
    public.append(next(watch))
    watch.cancel()
    candidates = set()
    for message in public:
        _integers(message, candidates)
    assert seed not in candidates and not created.match.config.HasField("seed")
    winter = Jaeger.new(players=3, seed=seed).to_record()["winter"]
    for candidate in candidates:
        if 0 <= candidate < 2**64:
            assert Jaeger.new(players=3, seed=candidate).to_record()["winter"] != winter
    channel.close()


def test_watchers_end_at_once_on_shutdown_and_say_where_to_resume(server_factory):
    running = server_factory()
    channel, stub, _ = stubs(running.port)
    m = create(stub, seed=1)
    call = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=m.match.match_id), timeout=30)
    assert next(call).version == 0
    started = time.monotonic()
    running.stop(grace=10)
    assert time.monotonic() - started < 5, "an open watch held the stop for its grace period"
    code, reason, meta = rpc_error(lambda: list(call))
    assert (code, reason, meta.get("next_version")) == (grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN", "1")
    channel.close()
