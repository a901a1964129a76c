"""Every reason of docs/clients.md's table of reasons, triggered for real over the wire: its gRPC code,
exactly the ErrorInfo.metadata keys the table lists, and a message in the contract's words (no
Python types, no reason repeated in front of it)."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import grpc

from hunters.errors import IllegalMoveError
from hunters.service.matches import MatchManager
from hunters.service.store_base import StoreUnavailable
from hunters.status import error_info
from hunters.v1 import games_pb2, games_pb2_grpc, jaeger_pb2, matches_pb2, moves_pb2, oracle_pb2
from hunters.wire import adapter

from .helpers import bearer, stubs

DOCS = Path(__file__).resolve().parents[2] / "docs" / "clients.md"
# Reasons no client can observe: the client that cancels a call sees its own CANCELLED, without details.
UNOBSERVABLE = {"CANCELLED"}
# Reasons that need a server under load or a broken disk: their own tests trigger them for real.
ELSEWHERE = {
    "ORACLE_TOKEN_REQUIRED": "tests/service/test_limits.py",
    "TOO_MANY_BOT_SEATS": "tests/service/test_limits.py",
    "CALLER_BUSY": "tests/service/test_limits.py",
    "CALLER_BUDGET_EXHAUSTED": "tests/service/test_limits.py",
    "ENGINE_BUSY": "tests/service/test_limits.py",
    "BAD_PERFT": "tests/service/test_perft_rpc.py",  # needs a game that cannot branch over its chance
    "DATABASE_BUSY": "tests/service/test_storage_faults.py",
    "STORAGE_UNAVAILABLE": "tests/service/test_storage_faults.py",
    "TOO_MANY_SEAT_STREAMS": "tests/service/test_seat_stream.py",
    "ANALYSIS_NOT_SUPPORTED": "tests/service/test_analyze.py",  # needs a game without a search
    "REVIEWS_BUSY": "tests/service/test_reviews.py",
}
# Words of Python, not of the contract, that no message may use.
PYTHONISMS = re.compile(r"\bNone\b|\bint\b|\bdict\b|\bstr\b|\bbool\b|\bTrue\b|\bFalse\b|\*\*|\[0, |\.\.")


def documented() -> dict[str, tuple[str, frozenset[str]]]:
    """reason -> (gRPC code name, metadata keys), from the table under "### Reasons and metadata"."""
    text = DOCS.read_text()
    section = text.split("### Reasons and metadata", 1)[1].split("\n#", 1)[0]
    out: dict[str, tuple[str, frozenset[str]]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        code = cells[1].strip("`")
        keys = frozenset(re.findall(r"`([a-z_]+)`", cells[2]))
        for reason in re.findall(r"`([A-Z_]+)`", cells[0]):
            assert reason not in out, f"{reason} is listed twice"
            out[reason] = (code, keys)
    assert out, "no table of reasons in docs/clients.md"
    return out


class Seen:
    """The refusals seen, by reason."""

    def __init__(self) -> None:
        self.by_reason: dict[str, list[tuple[str, dict[str, str], str]]] = {}

    def expect(self, reason: str, call, *args, **kwargs) -> None:
        try:
            result = call(*args, **kwargs)
            if hasattr(result, "__iter__") and not hasattr(result, "SerializeToString"):
                list(result)
        except grpc.RpcError as err:
            got, metadata = error_info(err)
            assert got == reason, (reason, got, err.details())
            self.by_reason.setdefault(reason, []).append((err.code().name, metadata, err.details() or ""))
            return
        raise AssertionError(f"expected {reason}, the call succeeded")


# -- illegal moves: positions found by local play, then the same match played over the wire ---------


def _refusal(game, move) -> str | None:
    try:
        game.clone().play(move)
    except IllegalMoveError as exc:
        return exc.reason
    return None


def _carcassonne_variants(game, move):
    from hunters.carcassonne import Occupant

    tile = game.tile
    yield move._replace(x=0, y=0)
    yield move._replace(x=60, y=60)
    yield move._replace(rotation=7)
    for r in range(4):
        yield move._replace(rotation=r)
    for kind in ("meeple", "hut"):
        for local in range(10):
            yield move._replace(occupant=Occupant(kind, tile * 10 + local))
    yield move._replace(occupant=Occupant("meeple", ((tile + 1) % 95) * 10 + 1))
    yield move._replace(occupant=Occupant("meeple", 99_999))
    for zone in (1, 2, 3, 5):
        yield move._replace(retake=zone)


def _jaeger_variants(game, move, rng):
    from hunters.jaeger import Move, Step

    n = game.board.n
    first, second = move.first, move.second
    yield Move(first, None)
    yield Move(Step(first.src, n + 5), second)
    for d in [*rng.sample(range(n), 30), None]:
        yield Move(Step(first.src, d), second)
        yield Move(Step(d if d is not None else 0, first.dst), second)
        if second is not None:
            yield Move(first, Step(second.src, d))


def _find_illegal(game_id: str, config: matches_pb2.GameConfig, wanted: set[str]):
    """(seed, actions to play first, the refused move as proto) for each wanted engine reason."""
    ad = adapter(game_id)
    found: dict[str, tuple[int, list[int], moves_pb2.Move]] = {}
    for seed in range(1, 40):
        rng = random.Random(seed)
        game = ad.new_game(config, seed)
        prefix: list[int] = []
        while not game.is_over and not wanted <= found.keys():
            legal = game.actions.pairs()
            for move, _ in rng.sample(legal, min(4, len(legal))):
                if game_id == "carcassonne_hg":
                    variants = _carcassonne_variants(game, move)
                else:
                    variants = _jaeger_variants(game, move, rng)
                for v in variants:
                    reason = _refusal(game, v)
                    if reason in wanted and reason not in found:
                        found[reason] = (seed, list(prefix), ad.move_to_proto(v))
            # pieces on the board early, so that supplies run out and features fill up
            with_piece = [(m, a) for m, a in legal if getattr(m, "occupant", None) is not None]
            move, action = rng.choice(with_piece or legal)
            game.play(move)
            prefix.append(action)
        if wanted <= found.keys():
            break
    assert wanted <= found.keys(), f"{game_id}: no position found for {wanted - found.keys()}"
    return found


def _replay(stub, config, seed, prefix):
    config = matches_pb2.GameConfig(seed=seed, game=config.game, players=config.players, jaeger=config.jaeger)
    if not config.HasField("jaeger") or not config.jaeger.ListFields():
        config.ClearField("jaeger")
    created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config))
    mid, tokens = created.match.match_id, created.seat_tokens
    for action in prefix:
        player = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)).player
        stub.PlayMove(matches_pb2.PlayMoveRequest(match_id=mid, action=action), metadata=bearer(tokens[player]))
    return mid, tokens, stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)).player


ENGINE = {
    "carcassonne_hg": (
        matches_pb2.GameConfig(game="carcassonne_hg", players=2),
        {
            "POSITION_OCCUPIED",
            "NOT_ADJACENT",
            "SIDE_MISMATCH",
            "ZONE_NOT_ON_TILE",
            "BAD_ZONE_TYPE",
            "FEATURE_OCCUPIED",
            "SYSTEM_OCCUPIED",
            "NO_MEEPLE_LEFT",
            "NO_HUT_LEFT",
            "NOT_YOUR_MEEPLE",
            "RETAKE_NOT_ALLOWED",
            "BAD_ROTATION",
            "UNKNOWN_ZONE",
        },
    ),
    "jaeger_sammler": (
        matches_pb2.GameConfig(game="jaeger_sammler", players=2, jaeger=jaeger_pb2.JaegerOptions(straight_jumps=True)),
        {
            "NOT_YOUR_CHARACTER",
            "NOT_ADJACENT",
            "NOT_STRAIGHT",
            "OCCUPIED",
            "HOLE",
            "NO_WEAPON",
            "STEP_COUNT",
            "UNKNOWN_SPACE",
        },
    ),
}


def test_every_documented_reason_is_sent_with_its_code_and_metadata(server_factory, monkeypatch):
    table = documented()
    seen = Seen()
    running = server_factory(max_live_matches=50, idle_seconds=3600)
    channel, stub, oracle = stubs(running.port)
    games = games_pb2_grpc.GameServiceStub(channel)
    C = matches_pb2.GameConfig

    def create(game="carcassonne_hg", **kw):
        kw.setdefault("seed", 1)
        return stub.CreateMatch(matches_pb2.CreateMatchRequest(config=C(game=game, players=2, **kw)))

    def play(mid, token=None, **kw):
        return stub.PlayMove(matches_pb2.PlayMoveRequest(match_id=mid, **kw), metadata=bearer(token) if token else None)

    # configurations and requests
    seen.expect("INVALID_CONFIG", create, jaeger=jaeger_pb2.JaegerOptions())
    seen.expect("INVALID_CONFIG", create, "jaeger_sammler", jaeger=jaeger_pb2.JaegerOptions(stall_rounds=-1))
    seen.expect("INVALID_CONFIG", create, bots=[matches_pb2.BotSeat(seat=7, bot="random")])
    seen.expect("UNKNOWN_GAME", create, "chess")
    seen.expect("UNKNOWN_GAME", games.GetGameInfo, games_pb2.GetGameInfoRequest(game="chess"))
    seen.expect("BAD_GAME", stub.ListMatches, matches_pb2.ListMatchesRequest(game="no such game!"))
    seen.expect("MATCH_ID_MISSING", stub.GetMatch, matches_pb2.GetMatchRequest())
    seen.expect("BAD_MATCH_ID", stub.GetMatch, matches_pb2.GetMatchRequest(match_id="x" * 100))
    seen.expect("BAD_PAGE_SIZE", stub.ListMatches, matches_pb2.ListMatchesRequest(page_size=-1))
    seen.expect("BAD_PAGE_TOKEN", stub.ListMatches, matches_pb2.ListMatchesRequest(page_token="forged"))
    seen.expect("BAD_GAMES", oracle.SimulateGames, oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2))
    perft_config = C(game="carcassonne_hg", players=2, seed=1)
    perft = oracle_pb2.PerftRequest
    seen.expect("BAD_DEPTH", oracle.Perft, perft(config=perft_config, depth=9))
    seen.expect("BAD_MAX_NODES", oracle.Perft, perft(config=perft_config, depth=1, max_nodes=-1))
    seen.expect("ILLEGAL_MOVE", oracle.Perft, perft(config=perft_config, depth=1, moves=[moves_pb2.Move(json="{}")]))
    seen.expect("PERFT_NODE_LIMIT", oracle.Perft, perft(config=perft_config, depth=3, max_nodes=5))
    no_file = oracle_pb2.GetConformanceVectorsRequest(game="carcassonne_hg", name="x")
    seen.expect("NO_VECTORS", oracle.GetConformanceVectors, no_file)
    malformed = channel.unary_unary("/hunters.v1.MatchService/GetMatch")
    seen.expect("MALFORMED_REQUEST", malformed, b"\xff\xff\xff")

    m = create()
    mid, tokens = m.match.match_id, m.seat_tokens
    legal = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid))
    seen.expect("BAD_VERSION", stub.WatchMatch, matches_pb2.WatchMatchRequest(match_id=mid, from_version=-1))
    opening = matches_pb2.PlaySeatRequest(open=matches_pb2.PlaySeatOpen(match_id=mid))
    seat_move = matches_pb2.PlaySeatRequest(play=matches_pb2.PlaySeatMove(version=0, action=1))
    resume = matches_pb2.PlaySeatRequest(open=matches_pb2.PlaySeatOpen(match_id=mid, resume_version=99))
    seen.expect("BAD_VERSION", stub.PlaySeat, iter([resume]), metadata=bearer(tokens[0]))
    seen.expect("SEAT_STREAM_NOT_OPEN", stub.PlaySeat, iter([seat_move]), metadata=bearer(tokens[0]))
    seen.expect("SEAT_STREAM_OPEN_TWICE", stub.PlaySeat, iter([opening, opening]), metadata=bearer(tokens[0]))
    seen.expect("MOVE_MISSING", play, mid, tokens[0])
    seen.expect("WRONG_GAME", play, mid, tokens[0], move=moves_pb2.Move(jaeger=jaeger_pb2.JaegerMove()))
    seen.expect("MALFORMED", play, mid, tokens[0], action=-1)
    seen.expect("BAD_REQUEST_ID", play, mid, tokens[0], action=legal.moves[0].action, request_id="has space")
    seen.expect("MATCH_NOT_FOUND", stub.GetMatch, matches_pb2.GetMatchRequest(match_id="nosuchmatch"))
    seen.expect("MISSING_TOKEN", play, mid, action=legal.moves[0].action)
    seen.expect("INVALID_TOKEN", play, mid, "not-a-token", action=legal.moves[0].action)
    record = matches_pb2.GetRecordRequest(match_id=mid)
    seen.expect("ADMIN_TOKEN_REQUIRED", stub.GetRecord, record, metadata=bearer(tokens[0]))
    seen.expect("NOT_YOUR_TURN", play, mid, tokens[1 - legal.player], action=legal.moves[0].action)
    seen.expect("STALE_VERSION", play, mid, tokens[legal.player], action=legal.moves[0].action, expected_version=5)
    play(mid, tokens[legal.player], action=legal.moves[0].action, request_id="r1")
    nxt = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid))
    seen.expect("REQUEST_ID_REUSED", play, mid, tokens[legal.player], action=legal.moves[1].action, request_id="r1")
    seen.expect("NOT_YOUR_TURN", play, mid, tokens[1 - nxt.player], action=nxt.moves[0].action)

    b = create(bots=[matches_pb2.BotSeat(seat=0, bot="random")])
    seen.expect("SEAT_PLAYED_BY_BOT", play, b.match.match_id, b.seat_tokens[0], action=legal.moves[0].action)

    # a finished match: GAME_OVER
    over = create("jaeger_sammler")
    omid = over.match.match_id
    while True:
        lm = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=omid))
        if not lm.moves:
            break
        play(omid, over.seat_tokens[lm.player], action=lm.moves[0].action)
    seen.expect("GAME_OVER", play, omid, over.seat_tokens[lm.player], action=legal.moves[0].action)

    # analyses and reviews
    analyze = oracle_pb2.AnalyzeRequest
    seen.expect("BAD_POSITION", oracle.Analyze, analyze())
    seen.expect("BAD_SEAT", oracle.Analyze, analyze(match_id=omid, iterations=10))
    seen.expect("BAD_TOP_K", oracle.Analyze, analyze(config=perft_config, top_k=99))
    seen.expect("BAD_ITERATIONS", oracle.Analyze, analyze(config=perft_config, iterations=10**6))
    seen.expect("HINTS_NOT_ALLOWED", oracle.Analyze, analyze(match_id=mid), metadata=bearer(tokens[0]))
    hinted = create(hints=True)
    hint = analyze(match_id=hinted.match.match_id, seat=1)
    seen.expect("SEAT_TOKEN_REQUIRED", oracle.Analyze, hint, metadata=bearer(hinted.seat_tokens[0]))
    seen.expect("MATCH_NOT_OVER", stub.RequestReview, matches_pb2.RequestReviewRequest(match_id=mid))

    # every refusal of the engines, in positions reached by play
    for game_id, (config, wanted) in ENGINE.items():
        for reason, (seed, prefix, move) in sorted(_find_illegal(game_id, config, wanted).items()):
            rmid, rtokens, player = _replay(stub, config, seed, prefix)
            seen.expect(reason, play, rmid, rtokens[player], move=move)

    # an abandoned match; a full server
    idle = create(seed=9)
    assert idle.match.match_id in running.call(lambda: running.manager.expire(now=time.time() + 4000))
    seen.expect("MATCH_ABANDONED", play, idle.match.match_id, idle.seat_tokens[0], action=legal.moves[0].action)

    full = server_factory(max_live_matches=1)
    _, full_stub, _ = stubs(full.port)
    request = matches_pb2.CreateMatchRequest(config=C(game="carcassonne_hg", players=2))
    full_stub.CreateMatch(request)
    seen.expect("TOO_MANY_MATCHES", full_stub.CreateMatch, request)

    guarded = server_factory(create_token="operator")
    _, guarded_stub, _ = stubs(guarded.port)
    request = matches_pb2.CreateMatchRequest(config=C(game="carcassonne_hg", players=2))
    seen.expect("CREATE_TOKEN_REQUIRED", guarded_stub.CreateMatch, request, metadata=bearer("guess"))

    # the server's own troubles
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    def unreachable(*args, **kwargs):
        raise StoreUnavailable("connection refused")

    monkeypatch.setattr(MatchManager, "get", unreachable)
    seen.expect("DATABASE_UNAVAILABLE", stub.GetMatch, matches_pb2.GetMatchRequest(match_id=mid))
    monkeypatch.setattr(MatchManager, "get", broken)
    seen.expect("INTERNAL", stub.GetMatch, matches_pb2.GetMatchRequest(match_id=mid))
    monkeypatch.undo()

    # shutting down with a watcher waiting
    waiting = create(seed=11)
    watch = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=waiting.match.match_id), timeout=30)
    assert next(watch).version == 0
    running.stop(grace=10)
    seen.expect("SHUTTING_DOWN", lambda: list(watch))

    missing = set(table) - UNOBSERVABLE - set(ELSEWHERE) - set(seen.by_reason)
    assert not missing, f"documented but not triggered: {sorted(missing)}"
    undocumented = set(seen.by_reason) - set(table)
    assert not undocumented, f"sent but not in docs/clients.md: {sorted(undocumented)}"
    for reason, calls in seen.by_reason.items():
        code, keys = table[reason]
        for got_code, metadata, message in calls:
            assert got_code == code, (reason, got_code, code)
            assert set(metadata) == keys, (reason, sorted(metadata), sorted(keys))
            assert message and not message.startswith(reason), (reason, message)
            assert not PYTHONISMS.search(message), (reason, message)
