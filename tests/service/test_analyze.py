"""OracleService.Analyze: a stored match's position (or one the caller sends) analysed from one
seat's view by the strong bot's search. The service translates `hunters.review.analyze` and decides
who may see what: a seat's own view of a live match with hints, anyone's once it is over. Twins
that differ only in what a seat cannot see give that seat identical analyses over the wire; bounds,
refusals and determinism as for the other engine calls."""

import time

import grpc
import pytest

import hunters
from hunters.client import Client
from hunters.review import analyze
from hunters.service.games import adapter as service_adapter
from hunters.service.review_wire import analysis_pb
from hunters.v1 import matches_pb2, oracle_pb2
from hunters.wire import adapter
from tests.bots.test_observation import _hg_twins, _jaeger_twins
from tests.tiny_tiles.plugin import PLUGIN

from .helpers import bearer, rpc_error, stubs
from .test_perft_rpc import config_of

ITERATIONS = 40


def match_of(port, client, game, hints=True):
    """A match of `game`'s configuration (its seed or explicit piles) with its moves played over
    gRPC, each by its seat's token."""
    config = config_of(game.to_record())
    config.hints = hints
    _, matches, _ = stubs(port)
    made = matches.CreateMatch(matches_pb2.CreateMatchRequest(config=config))
    replay = type(game).from_record({**game.to_record(), "moves": []})
    for move in game.moves:
        client.play(made.match.match_id, move, token=made.seat_tokens[replay.player])
        replay.play(move)
    return made


@pytest.fixture
def oracle(server):
    return stubs(server.port)[2]


def analyse(oracle, match_id, token=None, **fields):
    request = oracle_pb2.AnalyzeRequest(match_id=match_id, iterations=ITERATIONS, **fields)
    return oracle.Analyze(request, metadata=bearer(token) if token else None)


@pytest.mark.parametrize("twins,seat,other", [(_hg_twins, None, None), (_jaeger_twins, 0, 1)])
def test_a_seats_analysis_of_a_live_match_sees_only_what_the_seat_sees(server, oracle, twins, seat, other):
    """Two live matches that look alike to a seat (the piles' order; in Jäger also the winter deck
    and the others' face-down tiles differ): the seat's analyses are identical, and they are the
    analysis the Python API makes of the seat's observation. In Jäger seat 1 can tell the twins
    apart (its own tiles differ): its analyses differ, so the test sees a difference where there is one."""
    a, b = twins()
    seat = a.player if seat is None else seat
    with Client(f"127.0.0.1:{server.port}") as client:
        ma, mb = match_of(server.port, client, a), match_of(server.port, client, b)
    got_a = analyse(oracle, ma.match.match_id, ma.seat_tokens[seat], top_k=4)
    got_b = analyse(oracle, mb.match.match_id, mb.seat_tokens[seat], top_k=4)
    assert got_a.SerializeToString(deterministic=True) == got_b.SerializeToString(deterministic=True)
    assert got_a.seat == seat and got_a.version == len(a.moves) and len(got_a.moves) == 4
    expected = analysis_pb(service_adapter(a.INFO.id), analyze(a, seat, iterations=ITERATIONS, top=4))
    assert got_a == expected
    if other is not None:
        one = analyse(oracle, ma.match.match_id, ma.seat_tokens[other])
        two = analyse(oracle, mb.match.match_id, mb.seat_tokens[other])
        assert one.position != two.position
        assert one.moves == [] and one.player == seat  # not its turn: the estimate only


def finished_match(client, seed=3, hints=False, game="carcassonne_hg"):
    """A match of two server bots, played to its end."""
    made = client.create_match(game, players=2, seed=seed, bots={0: "random", 1: "greedy"}, hints=hints)
    end = time.monotonic() + 60
    while client.get_match(made.match_id).status != matches_pb2.MATCH_STATUS_OVER:
        assert time.monotonic() < end
        time.sleep(0.05)
    return made


def test_who_may_analyse_what(server, oracle, client):
    """Before the end: only with hints, only the token's own seat. After: anyone, any seat, any version."""
    plain = client.create_match("carcassonne_hg", players=2, seed=1)
    hinted = client.create_match("carcassonne_hg", players=2, seed=1, hints=True)
    assert client.get_match(hinted.match_id).config.hints and not client.get_match(plain.match_id).config.hints
    tok = hinted.seat_tokens

    def refused(match_id, token=None, **fields):
        code, reason, _ = rpc_error(lambda: analyse(oracle, match_id, token, **fields))
        return code, reason

    assert refused(plain.match_id, plain.seat_tokens[0]) == (grpc.StatusCode.FAILED_PRECONDITION, "HINTS_NOT_ALLOWED")
    assert refused(hinted.match_id) == (grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN")
    assert refused(hinted.match_id, tok[0], seat=1) == (grpc.StatusCode.PERMISSION_DENIED, "SEAT_TOKEN_REQUIRED")
    assert refused(hinted.match_id, "made-up") == (grpc.StatusCode.PERMISSION_DENIED, "SEAT_TOKEN_REQUIRED")
    assert refused(hinted.match_id, hinted.admin_token) == (grpc.StatusCode.PERMISSION_DENIED, "SEAT_TOKEN_REQUIRED")
    mine = analyse(oracle, hinted.match_id, tok[1])  # seat 1's view: not its turn, the estimate only
    assert (mine.seat, mine.player, len(mine.moves)) == (1, 0, 0)
    hint = analyse(oracle, hinted.match_id, tok[0], seat=0, top_k=3)
    assert hint.seat == 0 and len(hint.moves) == 3
    listed = {action for _, action in client.legal_moves(hinted.match_id)}
    assert {m.move.action for m in hint.moves} <= listed
    # a finished match: any seat, any version, no token
    over = finished_match(client)
    final = analyse(oracle, over.match_id, seat=1)
    assert final.player == -1 and final.iterations == 0 and final.moves == []
    scores = list(client.get_match(over.match_id).state.scores)
    assert list(final.position.scores) == scores
    assert final.position.margin == scores[1] - scores[0]
    early = analyse(oracle, over.match_id, version=4, seat=1)
    assert early.version == 4 and early.seat == 1 and early.player == 0 and early.moves == []
    at5 = analyse(oracle, over.match_id, version=5)  # the seat to move by default
    assert at5.seat == at5.player == 1 and at5.moves
    assert refused(over.match_id) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEAT")  # over: whose view?
    assert refused(over.match_id, version=10**6)[1] == "BAD_VERSION"
    assert refused(over.match_id, seat=2) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEAT")
    assert refused("no-such-match") == (grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND")


def test_bad_requests_are_refused_in_words(server_factory, client):
    running = server_factory(max_analysis_iterations=100)
    _, _, oracle = stubs(running.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    cases = [
        (oracle_pb2.AnalyzeRequest(), "BAD_POSITION"),
        (oracle_pb2.AnalyzeRequest(match_id="x", config=config), "BAD_POSITION"),
        (oracle_pb2.AnalyzeRequest(config=config, version=1), "BAD_POSITION"),
        (oracle_pb2.AnalyzeRequest(config=config, top_k=51), "BAD_TOP_K"),
        (oracle_pb2.AnalyzeRequest(config=config, iterations=101), "BAD_ITERATIONS"),
        (oracle_pb2.AnalyzeRequest(config=config, seat=5), "BAD_SEAT"),
        (oracle_pb2.AnalyzeRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2)), "INVALID_CONFIG"),
        (oracle_pb2.AnalyzeRequest(config=matches_pb2.GameConfig(game="chess", players=2, seed=1)), "UNKNOWN_GAME"),
    ]
    game = hunters.games.get("carcassonne_hg").new(players=2, seed=1)
    bad = game.legal_moves()[0]
    illegal = oracle_pb2.AnalyzeRequest(config=config, moves=[adapter("carcassonne_hg").move_to_proto(bad)] * 2)
    cases.append((illegal, "ILLEGAL_MOVE"))
    for request, reason in cases:
        code, got, meta = rpc_error(oracle.Analyze, request)
        assert (code, got) == (grpc.StatusCode.INVALID_ARGUMENT, reason), request
        if reason == "BAD_ITERATIONS":
            assert meta["limit"] == "100"


def test_a_position_sent_is_analysed_deterministically(oracle):
    """The same request twice gives the same bytes; the moves are the game's own, ranked as the strong
    bot plays (its first is the bot's move)."""
    config = matches_pb2.GameConfig(game="jaeger_sammler", players=2, seed=4)
    game = hunters.games.get("jaeger_sammler").new(players=2, seed=4)
    ad = adapter("jaeger_sammler")
    moves = []
    for _ in range(3):
        move = game.legal_moves()[len(moves) % len(game.legal_moves())]
        moves.append(ad.move_to_proto(move))
        game.play(move)
    request = oracle_pb2.AnalyzeRequest(config=config, moves=moves, iterations=30, top_k=3)
    first, second = oracle.Analyze(request), oracle.Analyze(request)
    assert first.SerializeToString(deterministic=True) == second.SerializeToString(deterministic=True)
    assert first.seat == game.player and first.version == 3
    from hunters.bots import make_bot

    bot = make_bot(first.analyst.replace("strong:", "strong:iterations=30,", 1))
    assert first.moves[0].move.action == game.actions.from_move(bot(game))
    assert first.analyst.startswith("strong:") and first.iterations == 30


def test_a_game_without_a_search_is_not_supported(tmp_path, server_factory):
    hunters.games.register(PLUGIN)
    try:
        running = server_factory(db=str(tmp_path / "tiny.db"))
        _, _, oracle = stubs(running.port)
        config = matches_pb2.GameConfig(game=PLUGIN.id, players=2, seed=1)
        code, reason, _ = rpc_error(oracle.Analyze, oracle_pb2.AnalyzeRequest(config=config))
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ANALYSIS_NOT_SUPPORTED")
    finally:
        hunters.games.unregister(PLUGIN.id)


def test_an_analysis_is_bounded_like_every_engine_call(server_factory):
    """An analysis runs on the evaluate lane as one of its caller's calls: a second call at once is
    refused before it is parsed, the caller's engine seconds and the call's deadline stop the search
    inside the core, and a request too large is refused unread."""
    running = server_factory(caller_engine_seconds=1.0, max_analysis_iterations=1_000_000)
    channel, _, oracle = stubs(running.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    long = oracle_pb2.AnalyzeRequest(config=config, iterations=1_000_000)  # minutes of one core
    first = oracle.Analyze.future(long, timeout=120)
    end = time.monotonic() + 10
    while running.call(lambda: running.engine.evaluate.busy) == 0:
        assert time.monotonic() < end
        time.sleep(0.01)
    raw = channel.unary_unary("/hunters.v1.OracleService/Analyze")
    code, reason, _ = rpc_error(raw, b"\xff\xff\xff garbage")
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CALLER_BUSY")
    code, reason, meta = rpc_error(first.result)
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CALLER_BUDGET_EXHAUSTED")
    assert float(meta["retry_after_seconds"]) > 0
    assert running.call(lambda: running.engine.busy) == 0  # the search stopped
    huge = oracle_pb2.AnalyzeRequest(config=config)
    huge.config.json = "x" * (2 << 20)
    code, reason, _ = rpc_error(oracle.Analyze, huge)
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE")


def test_an_analysis_past_its_deadline_stops_inside_its_search(server_factory):
    running = server_factory(max_analysis_iterations=1_000_000)
    _, _, oracle = stubs(running.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    code, _, _ = rpc_error(oracle.Analyze, oracle_pb2.AnalyzeRequest(config=config, iterations=1_000_000), timeout=1.5)
    assert code == grpc.StatusCode.DEADLINE_EXCEEDED
    end = time.monotonic() + 10
    while running.call(lambda: running.engine.busy) and time.monotonic() < end:
        time.sleep(0.05)
    assert running.call(lambda: running.engine.busy) == 0


def test_the_oracle_token_guards_positions_sent_not_matches(server_factory):
    """With an oracle token, a position sent needs it; a finished match's analysis needs none, and a
    hint needs the seat's token (not the oracle's)."""
    running = server_factory(oracle_token="oracle-secret")
    _, _, oracle = stubs(running.port)
    with Client(f"127.0.0.1:{running.port}") as client:
        over = finished_match(client, hints=True)
        hinted = client.create_match("carcassonne_hg", players=2, seed=1, hints=True)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    sent = oracle_pb2.AnalyzeRequest(config=config, iterations=ITERATIONS)
    code, reason, _ = rpc_error(oracle.Analyze, sent, metadata=bearer("made-up"))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ORACLE_TOKEN_REQUIRED")
    assert oracle.Analyze(sent, metadata=bearer("oracle-secret")).moves
    assert analyse(oracle, over.match_id, seat=0).player == -1
    assert analyse(oracle, hinted.match_id, hinted.seat_tokens[0]).moves


def test_analysis_is_charged_and_counted(server):
    """An analysis's engine time is charged to its caller (the evaluate lane's budget), and counted."""
    _, _, oracle = stubs(server.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    before = server.call(lambda: sum(server.engine.evaluate.callers.counters().values()))
    oracle.Analyze(oracle_pb2.AnalyzeRequest(config=config, iterations=200))
    after = server.call(lambda: sum(server.engine.evaluate.callers.counters().values()))
    assert after > before
