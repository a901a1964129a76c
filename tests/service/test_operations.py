"""Health checking, reflection, TLS, message limits and shutdown."""

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from hunters.client import Client, ServiceError
from hunters.v1 import matches_pb2, state_pb2

from .helpers import make_cert


def health_status(port, service=""):
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        return health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=service)).status


def test_health_serving_then_not_serving_on_shutdown(server):
    assert health_status(server.port) == health_pb2.HealthCheckResponse.SERVING
    assert health_status(server.port, "hunters.v1.MatchService") == health_pb2.HealthCheckResponse.SERVING
    server.enter_graceful_shutdown()
    assert health_status(server.port) == health_pb2.HealthCheckResponse.NOT_SERVING


def test_reflection_lists_the_services(server):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        stub = reflection_pb2_grpc.ServerReflectionStub(ch)
        responses = stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
        names = {s.name for r in responses for s in r.list_services_response.service}
    assert {"hunters.v1.MatchService", "hunters.v1.OracleService", "grpc.health.v1.Health"} <= names


def test_oversized_messages_are_refused(server_factory):
    running = server_factory(max_message_bytes=4096)
    with Client(f"127.0.0.1:{running.port}") as c:
        with pytest.raises(grpc.RpcError) as exc:
            c.matches.GetMatch(matches_pb2.GetMatchRequest(match_id="x" * 10000))
        assert exc.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        with pytest.raises(ServiceError) as err:
            c.get_match("x" * 100)
        assert (err.value.code, err.value.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_MATCH_ID")


def test_tls(server_factory, tmp_path):
    cert, key = make_cert(tmp_path)
    running = server_factory(tls_cert=str(cert), tls_key=str(key))
    creds = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
    with Client(f"localhost:{running.port}", credentials=creds) as c:
        m = c.create_match("carcassonne_hg", players=2, seed=1)
        assert c.get_match(m.match_id).version == 0
    with Client(f"127.0.0.1:{running.port}", timeout=2) as plain, pytest.raises(ServiceError) as refused:
        plain.create_match("carcassonne_hg", players=2, seed=1)
    assert refused.value.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    with pytest.raises(ValueError):
        server_factory(tls_cert=str(cert))


def test_healthcheck_command(server):
    from hunters.service.healthcheck import main

    assert main(["--address", f"127.0.0.1:{server.port}"]) == 0
    server.enter_graceful_shutdown()
    assert main(["--address", f"127.0.0.1:{server.port}"]) == 1


def test_info_logs_the_lifecycle_and_debug_adds_every_move(client, caplog):
    """At INFO a match is one line when created and one when over, however many moves it has; the
    moves (and refusals) are DEBUG lines."""
    import logging
    import random

    caplog.set_level(logging.DEBUG, logger="hunters.service")
    m = client.create_match("jaeger_sammler", players=2, seed=3)
    rng, version = random.Random(3), 0
    while True:
        moves = client.legal_moves(m.match_id)
        if not moves:
            break
        seat = client.get_match(m.match_id).state.player
        result = client.play(m.match_id, rng.choice(moves)[0], token=m.seat_tokens[seat], expected_version=version)
        version = result.version
        if result.state.status == state_pb2.GAME_STATUS_OVER:
            break
    ours = [r for r in caplog.records if getattr(r, "match_id", None) == m.match_id]
    info = [r.getMessage() for r in ours if r.levelno >= logging.INFO]
    assert info == ["match created", "match over"], info
    assert sum(1 for r in ours if r.levelno == logging.DEBUG and r.getMessage() == "move played") == version


def test_a_refusal_is_logged_with_its_reason_and_request_id(server, caplog):
    import logging

    from hunters.v1 import matches_pb2

    from .helpers import bearer, rpc_error, stubs

    caplog.set_level(logging.DEBUG, logger="hunters.service")
    _, stub, _ = stubs(server.port)
    created = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(config=matches_pb2.GameConfig(game="jaeger_sammler", players=2))
    )
    request = matches_pb2.PlayMoveRequest(match_id=created.match.match_id, action=0, request_id="req-17")
    assert rpc_error(stub.PlayMove, request, metadata=bearer("nobody"))[1] == "INVALID_TOKEN"
    refused = [r for r in caplog.records if r.getMessage() == "rpc refused"]
    assert [(r.rpc, r.reason, r.request_id) for r in refused] == [("PlayMove", "INVALID_TOKEN", "req-17")]


def test_log_lines_are_json_in_a_container_and_text_on_a_terminal(monkeypatch, capsys):
    import io
    import json
    import logging

    from hunters.service.server import configure_logging

    log = logging.getLogger("hunters.service")
    try:
        for fmt, tty in (("auto", False), ("json", True), ("auto", True), ("text", False)):
            stream = io.StringIO()
            stream.isatty = lambda tty=tty: tty  # type: ignore[method-assign]
            monkeypatch.setattr("sys.stderr", stream)
            configure_logging("INFO", fmt)
            log.warning("database unavailable", extra={"reason": "DATABASE_BUSY", "request_id": "r-1"})
            line = stream.getvalue().strip()
            if fmt == "json" or (fmt == "auto" and not tty):
                record = json.loads(line)
                assert (record["level"], record["msg"], record["reason"]) == (
                    "WARNING",
                    "database unavailable",
                    "DATABASE_BUSY",
                )
                assert record["request_id"] == "r-1"
            else:
                assert "WARNING" in line and "database unavailable" in line and "reason=DATABASE_BUSY" in line
                assert "request_id=r-1" in line and not line.startswith("{")
    finally:
        root = logging.getLogger("hunters")
        root.handlers.clear()
        root.propagate = True
        root.setLevel(logging.NOTSET)


def test_list_games_describes_each_game_and_its_options(client):
    import json

    import hunters

    for summary in client.list_games():
        info = hunters.games.info(summary.game)
        assert summary.perfect_information == info.perfect_information and summary.chance == info.chance
        assert summary.utility == info.utility and summary.reward_scale == info.reward_scale
        assert [o.name for o in summary.options] == [o.name for o in info.options]
        for pb, option in zip(summary.options, info.options, strict=True):
            assert json.loads(pb.default_json) == option.default and pb.doc == option.doc
            assert list(pb.choices) == list(option.choices)
            assert (pb.minimum if pb.HasField("minimum") else None) == option.minimum
