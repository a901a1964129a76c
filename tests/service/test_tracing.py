"""Traces (hunters-engine[otel]): off unless the OTEL_* environment asks; on, every call is a server span
and the work inside it (the store commit, the engine's jobs, the bots' thinking) its child spans,
with the request id as an attribute. Spans go to the SDK's in-memory exporter here."""

from __future__ import annotations

import time

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from hunters.service import tracing
from hunters.v1 import matches_pb2, oracle_pb2

from .helpers import bearer, stubs


@pytest.fixture
def spans():
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.use(provider)
    yield exporter
    tracing.use(None)
    provider.shutdown()


def test_the_environment_turns_traces_on_and_off():
    assert not tracing.wanted({})
    assert tracing.wanted({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4317"})
    assert tracing.wanted({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"})
    assert tracing.wanted({"OTEL_TRACES_EXPORTER": "console"})
    assert not tracing.wanted({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317"})
    assert not tracing.wanted({"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"})


def test_off_it_costs_one_shared_null_context(monkeypatch):
    monkeypatch.delenv("OTEL_TRACES_EXPORTER", raising=False)
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT", raising=False)
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", raising=False)
    assert tracing.server_interceptor() is None
    assert tracing.span("a") is tracing.span("b")
    tracing.annotate("hunters.request_id", "r")  # nothing to annotate: no error


def test_asked_for_without_the_extra_it_warns_and_serves_untraced(monkeypatch, caplog):
    import sys

    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "console")
    for name in [m for m in sys.modules if m.startswith("opentelemetry.sdk")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk", None)  # as if not installed
    assert tracing.server_interceptor() is None
    assert [r.reason for r in caplog.records if r.levelname == "WARNING"] == ["OTEL_NOT_INSTALLED"]


def test_a_move_is_a_server_span_with_its_commit_and_request_id(spans, server_factory):
    running = server_factory()
    _, stub, oracle = stubs(running.port)
    created = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1))
    )
    match_id = created.match.match_id
    moves = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=match_id))
    request = matches_pb2.PlayMoveRequest(match_id=match_id, action=moves.moves[0].action, request_id="req-42")
    stub.PlayMove(request, metadata=bearer(created.seat_tokens[0]))
    oracle.Evaluate(oracle_pb2.EvaluateRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)))
    finished = spans.get_finished_spans()
    play = [s for s in finished if s.name == "/hunters.v1.MatchService/PlayMove"]
    assert len(play) == 1 and play[0].kind.name == "SERVER"
    assert play[0].attributes["hunters.request_id"] == "req-42"
    assert play[0].attributes["hunters.match_id"] == match_id
    commit = [s for s in finished if s.name == "store commit"]
    assert len(commit) == 1 and commit[0].parent.span_id == play[0].context.span_id
    assert commit[0].attributes["hunters.version"] == 1
    evaluate = next(s for s in finished if s.name == "/hunters.v1.OracleService/Evaluate")
    engine = [s for s in finished if s.name == "engine evaluate"]
    assert len(engine) == 1 and engine[0].parent.span_id == evaluate.context.span_id


def test_each_bot_move_is_a_trace_of_its_thinking_and_its_commit(spans, server_factory):
    running = server_factory()
    _, stub, _ = stubs(running.port)
    config = matches_pb2.GameConfig(
        game="jaeger_sammler", players=2, seed=2, bots=[matches_pb2.BotSeat(seat=1, bot="random")]
    )
    created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config))
    match_id = created.match.match_id
    moves = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=match_id))
    stub.PlayMove(
        matches_pb2.PlayMoveRequest(match_id=match_id, action=moves.moves[0].action),
        metadata=bearer(created.seat_tokens[0]),
    )
    deadline = time.monotonic() + 30
    while not [s for s in spans.get_finished_spans() if s.name == "bot move"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    finished = spans.get_finished_spans()
    bot = next(s for s in finished if s.name == "bot move")
    assert bot.parent is None and bot.attributes["hunters.seat"] == 1  # a trace of its own
    assert bot.attributes["hunters.game"] == "jaeger_sammler"
    children = {s.name for s in finished if s.parent is not None and s.parent.span_id == bot.context.span_id}
    assert children == {"bot think", "store commit"}
    think = next(s for s in finished if s.name == "bot think" and s.parent.span_id == bot.context.span_id)
    assert [s.name for s in finished if s.parent is not None and s.parent.span_id == think.context.span_id] == [
        "engine bots"
    ]
