"""OpenTelemetry traces, optional (`pip install hunters-engine[otel]`) and off unless the standard OTEL_*
environment variables ask for them (OTEL_TRACES_EXPORTER other than "none", or an
OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT; OTEL_SDK_DISABLED=true turns them off).

When on, every call is a server span (opentelemetry-instrumentation-grpc's interceptor) and the
server adds child spans for the work inside it: a move's store commit, the engine's jobs (Evaluate,
SimulateGames' blocks, bots' thinking), with the call's request_id as an attribute. When off, or
without the extra, `span` returns one shared do-nothing context manager: no import, no allocation."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Mapping
from typing import Any

log = logging.getLogger("hunters.service")
_NOTHING = contextlib.nullcontext()
_provider: Any = None  # the TracerProvider spans go to (None: tracing off)
_tracer: Any = None
_owned = False  # the provider was made here from the environment (shut down with the server)


def wanted(env: Mapping[str, str] = os.environ) -> bool:
    """Whether the OTEL_* variables ask for traces."""
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter:
        return exporter != "none"
    return bool(env.get("OTEL_EXPORTER_OTLP_ENDPOINT") or env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))


def use(provider: Any) -> None:
    """Send spans to `provider` (an opentelemetry-sdk TracerProvider; None: tracing off), as a test
    or an embedding program does; `hunters serve` sets it up from the environment instead."""
    global _provider, _tracer, _owned
    _provider, _owned = provider, False
    _tracer = provider.get_tracer("hunters.service") if provider is not None else None


def _from_environment() -> Any:
    """A TracerProvider with the exporter the environment names (OTLP by default; `console`)."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter

    resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME") or "hunters"})
    provider = TracerProvider(resource=resource)
    names = [n.strip().lower() for n in os.environ.get("OTEL_TRACES_EXPORTER", "otlp").split(",") if n.strip()]
    for name in names:
        exporter: SpanExporter
        if name == "console":
            exporter = ConsoleSpanExporter()
        elif name == "otlp":
            protocol = os.environ.get(
                "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
            )
            if protocol.startswith("http"):
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter

                exporter = HttpExporter()
            else:
                from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

                exporter = OTLPSpanExporter()
        else:
            raise ValueError(f"OTEL_TRACES_EXPORTER: unknown exporter {name!r} (otlp, console or none)")
        provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


def server_interceptor() -> Any:
    """The gRPC interceptor that makes each call a span, or None when tracing is off. Sets tracing
    up from the environment first if it asks for it and nothing else did."""
    global _owned
    if _provider is None and wanted():
        try:
            provider = _from_environment()
        except ImportError:
            log.warning(
                "the OTEL_* environment asks for traces, but hunters-engine[otel] is not installed: no traces",
                extra={"reason": "OTEL_NOT_INSTALLED"},
            )
            return None
        use(provider)
        _owned = True
        log.info("tracing", extra={"exporter": os.environ.get("OTEL_TRACES_EXPORTER", "otlp")})
    if _provider is None:
        return None
    from opentelemetry.instrumentation.grpc import aio_server_interceptor

    return aio_server_interceptor(tracer_provider=_provider)  # type: ignore[no-untyped-call]


def shutdown() -> None:
    """Flush and stop the provider this module made from the environment (not one given to `use`)."""
    if _owned and _provider is not None:
        _provider.shutdown()
        use(None)


def span(name: str, attributes: Mapping[str, Any] | None = None) -> contextlib.AbstractContextManager[Any]:
    """A child span of the current one for the block (nothing when tracing is off)."""
    if _tracer is None:
        return _NOTHING
    return _tracer.start_as_current_span(name, attributes=attributes)  # type: ignore[no-any-return]


def annotate(key: str, value: Any) -> None:
    """Set an attribute on the current span (nothing when tracing is off or the value is empty)."""
    if _tracer is not None and value:
        from opentelemetry import trace

        trace.get_current_span().set_attribute(key, value)
