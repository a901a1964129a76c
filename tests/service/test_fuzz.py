"""Random and malformed requests: never INTERNAL, and no match ever changes because of them."""
import random

import grpc
from hypothesis import HealthCheck, given, settings, strategies as st

from hunters.v1 import games_pb2, matches_pb2, moves_pb2, oracle_pb2

from .helpers import bearer, create, stubs

METHODS = [
    ("/hunters.v1.MatchService/CreateMatch", False), ("/hunters.v1.MatchService/GetMatch", False),
    ("/hunters.v1.MatchService/ListMatches", False), ("/hunters.v1.MatchService/DeleteMatch", False),
    ("/hunters.v1.MatchService/ListLegalMoves", False), ("/hunters.v1.MatchService/PlayMove", False),
    ("/hunters.v1.MatchService/GetRecord", False), ("/hunters.v1.MatchService/WatchMatch", True),
    ("/hunters.v1.OracleService/Evaluate", False), ("/hunters.v1.OracleService/SimulateGames", True),
    ("/hunters.v1.GameService/ListGames", False), ("/hunters.v1.GameService/GetGameInfo", False),
]


def call_raw(channel, method, streaming, payload, metadata):
    ident = lambda b: b  # noqa: E731
    if streaming:
        rpc = channel.unary_stream(method, request_serializer=ident, response_deserializer=ident)
        for _ in zip(range(3), rpc(payload, timeout=5, metadata=metadata)):
            pass
    else:
        channel.unary_unary(method, request_serializer=ident, response_deserializer=ident)(
            payload, timeout=5, metadata=metadata)


def snapshot(stub, match_id):
    return stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match.SerializeToString(deterministic=True)


def random_move(rng):
    m = moves_pb2.CarcassonneMove(x=rng.randint(-3, 3), y=rng.randint(-3, 3), rotation=rng.randint(-2, 6))
    if rng.random() < 0.5:
        m.occupant.kind = rng.randint(0, 3)
        m.occupant.zone = rng.choice([rng.randint(-10, 1000), 560, 561, 568])
    if rng.random() < 0.2:
        m.retake = rng.randint(-5, 1000)
    return moves_pb2.Move(carcassonne=m) if rng.random() < 0.9 else moves_pb2.Move(json=rng.choice(
        ['{', '[]', '{"x":1}', "null", '{"retake": 2147483648}', "[" * 100000 + "]" * 100000, '{"x": 1e400}']))


def random_request(rng, match_id, method):
    ids = [match_id, "", "x" * rng.randint(1, 50), "\u00e9\u0000"]
    if method.endswith("PlayMove"):
        req = matches_pb2.PlayMoveRequest(match_id=rng.choice(ids), request_id=rng.choice(["", "r", "x" * 300]))
        if rng.random() < 0.5:
            req.expected_version = rng.randint(-2, 3)
        if rng.random() < 0.5:
            req.move.CopyFrom(random_move(rng))
        elif rng.random() < 0.5:
            req.action = rng.randint(-2**40, 2**40)
        return req
    if method.endswith("CreateMatch") or method.endswith("Evaluate"):
        config = matches_pb2.GameConfig(game=rng.choice(["carcassonne_hg", "", "x"]), players=rng.randint(-3, 9))
        if rng.random() < 0.5:
            config.seed = rng.randint(0, 2**64 - 1)
        if rng.random() < 0.4:
            choice = rng.randint(0, 4)
            if choice == 0:
                config.carcassonne.normal_deck.tiles.extend(rng.randint(-5, 100) for _ in range(rng.randint(0, 200)))
            elif choice == 1:
                config.carcassonne.menhir_deck.tiles.append(rng.randint(-2**31, 2**31 - 1))
            elif choice == 2:
                config.jaeger.board.grid.rows = rng.randint(-5, 2**31 - 1)
                config.jaeger.board.grid.cols = rng.randint(-5, 2**31 - 1)
            elif choice == 3:
                config.json = rng.choice(['{"x": 1}', "[" * 100000, '{"normal_deck": [2147483648]}', "nan"])
            else:
                config.jaeger.stall_rounds = rng.randint(-2**31, 2**31 - 1)
        if method.endswith("CreateMatch"):
            return matches_pb2.CreateMatchRequest(config=config)
        return oracle_pb2.EvaluateRequest(config=config, moves=[random_move(rng) for _ in range(rng.randint(0, 3))],
                                          include_legal_moves=rng.random() < 0.5)
    if method.endswith("ListMatches"):
        return matches_pb2.ListMatchesRequest(page_size=rng.randint(-5, 1000), page_token=rng.choice(["", "zz", "1", "-1"]))
    if method.endswith("WatchMatch"):
        return matches_pb2.WatchMatchRequest(match_id=rng.choice(ids), from_version=rng.randint(-3, 500))
    if method.endswith("SimulateGames"):
        return oracle_pb2.SimulateGamesRequest(game=rng.choice(["carcassonne_hg", "x"]), players=rng.randint(-1, 7),
                                               games=rng.randint(-3, 3), seed=rng.randint(0, 9))
    if method.endswith("ListGames"):
        return games_pb2.ListGamesRequest()
    if method.endswith("GetGameInfo"):
        return games_pb2.GetGameInfoRequest(game=rng.choice(["carcassonne_hg", "jaeger_sammler", "", "x" * 300]))
    cls = {"GetMatch": matches_pb2.GetMatchRequest, "DeleteMatch": matches_pb2.DeleteMatchRequest,
           "ListLegalMoves": matches_pb2.ListLegalMovesRequest, "GetRecord": matches_pb2.GetRecordRequest}
    return cls[method.rsplit("/", 1)[1]](match_id=rng.choice(ids))


def test_fuzz(server):
    channel, stub, _ = stubs(server.port)
    match = create(stub, seed=2)
    mid = match.match.match_id
    before = snapshot(stub, mid)
    tokens = [None, "junk", match.seat_tokens[1]]

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, 2**32), st.sampled_from(METHODS), st.booleans())
    def one(seed, method, raw_bytes):
        rng = random.Random(seed)
        name, streaming = method
        if raw_bytes:
            payload = bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 64)))
        else:
            payload = random_request(rng, mid, name).SerializeToString()
        token = rng.choice(tokens)
        try:
            call_raw(channel, name, streaming, payload, bearer(token) if token else None)
        except grpc.RpcError as err:
            assert err.code() not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN), (name, err.details())
        assert snapshot(stub, mid) == before

    one()
