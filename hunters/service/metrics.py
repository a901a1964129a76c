"""Prometheus metrics of one server, in a registry of its own (several servers in one process, as in
the tests, never share or clash over a metric).

Two kinds of figures. Events are counted where they happen, cheaply: a gRPC interceptor counts every
call by method and status code and times it (the gRPC server conventions: `grpc_server_started_total`,
`grpc_server_handled_total`, `grpc_server_handling_seconds`), and counts refusals by their ErrorInfo
reason; the store's commits and the bots' thinking are timed. State is read when Prometheus scrapes,
from the objects that hold it (the match manager, the engine's lanes, the oracle), so that a gauge
can never drift from what it shows. Labels name games only by the ids the registry gives at run time.

Served by `hunters serve --metrics-port N`, and at /metrics of the viewer's --http port."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import grpc
from google.rpc import error_details_pb2, status_pb2
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

    from .engine import Engine
    from .stats import MatchStats

log = logging.getLogger("hunters.service")

# Latency buckets (seconds): a move is a millisecond or less, a commit to PostgreSQL a few, a bot's
# search or an Evaluate of a long game up to seconds; streams (WatchMatch) last minutes.
RPC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)
COMMIT_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
_DETAILS_KEY = "grpc-status-details-bin"


def reason_of(context: grpc.aio.ServicerContext) -> str:
    """The ErrorInfo reason of the status a call ended with ("" when it has none)."""
    try:
        metadata = context.trailing_metadata() or ()
    except Exception:  # an older grpcio: no reason to read
        return ""
    for key, value in metadata:
        if key == _DETAILS_KEY and isinstance(value, bytes):
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    return str(info.reason)
    return ""


class Metrics:
    """The metrics of one server: its registry, the instruments the server's parts update, and the
    collectors that read the manager, the engine and the oracle at scrape time (`watch`)."""

    def __init__(self, backend: str = "sqlite", process: bool = True):
        self.registry = CollectorRegistry(auto_describe=True)
        self.backend = backend
        r = self.registry
        self.started = Counter(
            "grpc_server_started",
            "RPCs started on the server",
            ["grpc_service", "grpc_method", "grpc_type"],
            registry=r,
        )
        self.handled = Counter(
            "grpc_server_handled",
            "RPCs completed on the server, by status code",
            ["grpc_service", "grpc_method", "grpc_type", "grpc_code"],
            registry=r,
        )
        self.handling = Histogram(
            "grpc_server_handling_seconds",
            "time from the start of an RPC to its end (a stream's whole life)",
            ["grpc_service", "grpc_method", "grpc_type"],
            buckets=RPC_BUCKETS,
            registry=r,
        )
        self.sent = Counter(
            "grpc_server_msg_sent", "stream messages sent by the server", ["grpc_service", "grpc_method"], registry=r
        )
        self.refusals = Counter(
            "hunters_rpc_refusals",
            "RPCs refused with a google.rpc.ErrorInfo reason, by method, code and reason",
            ["grpc_method", "grpc_code", "reason"],
            registry=r,
        )
        self.commit = Histogram(
            "hunters_store_commit_seconds",
            "time to store one move durably (the database's commit)",
            ["backend"],
            buckets=COMMIT_BUCKETS,
            registry=r,
        )
        self.commit_errors = Counter(
            "hunters_store_commit_errors",
            "moves the store did not commit, by reason (VERSION_CONFLICT: another replica was first)",
            ["backend", "reason"],
            registry=r,
        )
        self.think = Histogram(
            "hunters_bot_think_seconds",
            "a server bot seat's thinking for one move, on its engine thread",
            ["game"],
            buckets=THINK_BUCKETS,
            registry=r,
        )
        self.replica_lag = Histogram(
            "hunters_replica_catch_up_seconds",
            "PostgreSQL replicas: from hearing another replica's move (NOTIFY) to holding it in memory",
            buckets=COMMIT_BUCKETS,
            registry=r,
        )
        self._commit_child = self.commit.labels(backend)
        self._think_children: dict[str, Any] = {}
        if process:
            ProcessCollector(registry=r)
        self._http: WSGIServer | None = None
        self._http_thread: threading.Thread | None = None

    # -- what the server's parts call -------------------------------------------------------------
    def committed(self, seconds: float) -> None:
        self._commit_child.observe(seconds)

    def commit_failed(self, reason: str) -> None:
        self.commit_errors.labels(self.backend, reason).inc()

    def thought(self, game: str, seconds: float) -> None:
        child = self._think_children.get(game)
        if child is None:
            child = self._think_children[game] = self.think.labels(game)
        child.observe(seconds)

    def caught_up(self, seconds: float) -> None:
        self.replica_lag.observe(seconds)

    def watch(
        self,
        match_stats: Callable[[], MatchStats],
        engine: Engine,
        oracle_work: Callable[[], Mapping[tuple[str, str], int]] | None = None,
    ) -> None:
        """Read the server's state at every scrape: the match engine's snapshot, the engine's lanes
        and the oracle's work done."""
        self.registry.register(_StateCollector(match_stats, engine, oracle_work))

    # -- exposition -------------------------------------------------------------------------------
    def exposition(self) -> tuple[str, bytes]:
        """(content type, body) of a scrape, in Prometheus' text format."""
        return CONTENT_TYPE_LATEST, generate_latest(self.registry)

    def serve(self, host: str, port: int) -> int:
        """Serve /metrics on host:port (0: a free port) from a thread of its own; returns the port."""
        from prometheus_client import start_http_server

        server, thread = start_http_server(port, addr=host, registry=self.registry)
        self._http, self._http_thread = server, thread
        return int(server.server_port)

    def stop(self) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
            self._http = None


class _StateCollector(Collector):
    """Gauges and counters read from the server's objects when scraped (from the scrape's thread:
    every container is copied in one step before it is read)."""

    def __init__(
        self,
        match_stats: Callable[[], MatchStats],
        engine: Engine,
        oracle_work: Callable[[], Mapping[tuple[str, str], int]] | None,
    ):
        self.match_stats = match_stats
        self.engine = engine
        self.oracle_work = oracle_work

    def collect(self) -> Iterable[Any]:
        m = self.match_stats()
        games = GaugeMetricFamily(
            "hunters_matches_open", "unfinished matches in this server's memory, by game", labels=["game"]
        )
        for game, n in sorted(m.open_by_game.items()):
            games.add_metric([game], n)
        yield games
        if m.active is not None:
            yield GaugeMetricFamily(
                "hunters_matches_active",
                "active matches counted against --max-matches (a server alone on its database)",
                value=m.active,
            )
        yield GaugeMetricFamily("hunters_matches_limit", "--max-matches", value=m.limit)
        events = CounterMetricFamily(
            "hunters_matches",
            "matches this server created, ended (over), abandoned or deleted, by game",
            labels=["game", "event"],
        )
        moves = CounterMetricFamily("hunters_moves_played", "moves this server stored, by game", labels=["game"])
        for (kind, game), n in sorted(m.counts.items()):
            if kind == "moves":
                moves.add_metric([game], n)
            else:
                events.add_metric([game, kind], n)
        yield events
        yield moves
        yield GaugeMetricFamily("hunters_watch_streams", "open WatchMatch streams", value=m.watchers)
        yield GaugeMetricFamily("hunters_bot_seats", "bot seats of the unfinished matches in memory", value=m.bot_seats)
        yield GaugeMetricFamily(
            "hunters_bot_seats_thinking", "bot seats thinking now or waiting for a thread", value=m.bots_thinking
        )
        yield CounterMetricFamily(
            "hunters_store_version_conflicts", "moves that lost their version to another replica", value=m.lost_races
        )
        notices = CounterMetricFamily(
            "hunters_replica_notifications", "changes heard from the shared database, by kind", labels=["kind"]
        )
        for kind, n in sorted(m.heard.items()):
            notices.add_metric([kind], n)
        yield notices
        yield from self._lanes()
        if self.oracle_work is not None:
            work = CounterMetricFamily(
                "hunters_oracle_work",
                "the oracle's work done: evaluated moves, simulated games and their moves, by game",
                labels=["game", "kind"],
            )
            for (kind, game), n in sorted(self.oracle_work().items()):
                work.add_metric([game, kind], n)
            yield work

    def _lanes(self) -> Iterator[Any]:
        threads = GaugeMetricFamily("hunters_engine_threads", "threads of each engine lane", labels=["lane"])
        running = GaugeMetricFamily("hunters_engine_running", "jobs on a lane's threads now", labels=["lane"])
        queued = GaugeMetricFamily("hunters_engine_queued", "jobs waiting for a lane's thread", labels=["lane"])
        limit = GaugeMetricFamily("hunters_engine_queue_limit", "--engine-queue per lane", labels=["lane"])
        busy = CounterMetricFamily(
            "hunters_engine_busy_seconds", "thread seconds a lane spent on jobs", labels=["lane"]
        )
        done = CounterMetricFamily("hunters_engine_jobs", "jobs a lane finished", labels=["lane"])
        for lane in self.engine.lanes:
            run, wait = lane.load()
            threads.add_metric([lane.name], lane.threads)
            running.add_metric([lane.name], run)
            queued.add_metric([lane.name], wait)
            limit.add_metric([lane.name], lane.queue)
            busy.add_metric([lane.name], lane.busy_seconds)
            done.add_metric([lane.name], lane.done)
        yield from (threads, running, queued, limit, busy, done)


# -- the gRPC interceptor -------------------------------------------------------------------------
class _Method:
    """One method's label values and the children of its instruments (looked up once, not per call)."""

    def __init__(self, metrics: Metrics, full: str, kind: str):
        service, _, name = full.lstrip("/").rpartition("/")
        self.metrics, self.service, self.name, self.kind = metrics, service, name, kind
        self.started = metrics.started.labels(service, name, kind)
        self.handling = metrics.handling.labels(service, name, kind)
        self.sent = metrics.sent.labels(service, name)
        self._handled: dict[str, Any] = {}

    def ended(self, begun: float, code: grpc.StatusCode, context: grpc.aio.ServicerContext | None) -> None:
        self.handling.observe(time.perf_counter() - begun)
        name = code.name
        child = self._handled.get(name)
        if child is None:
            child = self._handled[name] = self.metrics.handled.labels(self.service, self.name, self.kind, name)
        child.inc()
        if code is not grpc.StatusCode.OK and context is not None:
            reason = reason_of(context)
            if reason:
                self.metrics.refusals.labels(self.name, name, reason).inc()


def _code(context: grpc.aio.ServicerContext) -> grpc.StatusCode:
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    if isinstance(code, int):  # grpc.aio keeps the number given to abort()
        for member in grpc.StatusCode:
            if member.value[0] == code:
                return member
    return grpc.StatusCode.OK if code is None else grpc.StatusCode.UNKNOWN


class MetricsInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Counts and times every call of the methods the server serves (unary and server-streaming)."""

    def __init__(self, metrics: Metrics):
        self.metrics = metrics
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None:  # an unknown method: gRPC answers UNIMPLEMENTED, no labels made up
            return handler
        method = handler_call_details.method
        cached = self._wrapped.get(method)
        if cached is not None and cached[0] is handler:
            return cached[1]
        wrapped = self._wrap(method, handler)
        self._wrapped[method] = (handler, wrapped)
        return wrapped

    def _wrap(self, method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        if handler.unary_unary is not None:
            return handler._replace(  # a namedtuple
                unary_unary=self._unary(_Method(self.metrics, method, "unary"), handler.unary_unary)
            )
        if handler.unary_stream is not None:
            return handler._replace(  # a namedtuple
                unary_stream=self._stream(_Method(self.metrics, method, "server_stream"), handler.unary_stream)
            )
        return handler  # client streaming: not used by this server

    @staticmethod
    def _unary(m: _Method, behavior: Callable[..., Any]) -> Callable[..., Any]:
        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            m.started.inc()
            begun = time.perf_counter()
            try:
                response = await behavior(request, context)
            except grpc.aio.AbortError:
                m.ended(begun, _code(context), context)
                raise
            except BaseException:
                m.ended(begun, grpc.StatusCode.CANCELLED if _cancelled(context) else grpc.StatusCode.UNKNOWN, None)
                raise
            m.ended(begun, _code(context), context)
            return response

        return unary

    @staticmethod
    def _stream(m: _Method, behavior: Callable[..., Any]) -> Callable[..., Any]:
        async def stream(request: Any, context: grpc.aio.ServicerContext) -> Any:
            m.started.inc()
            begun = time.perf_counter()
            sent = 0
            try:
                async for item in behavior(request, context):
                    sent += 1
                    yield item
            except grpc.aio.AbortError:
                m.ended(begun, _code(context), context)
                raise
            except BaseException:
                m.ended(begun, grpc.StatusCode.CANCELLED if _cancelled(context) else grpc.StatusCode.UNKNOWN, None)
                raise
            finally:
                if sent:
                    m.sent.inc(sent)
            m.ended(begun, _code(context), context)

        return stream


def _cancelled(context: grpc.aio.ServicerContext) -> bool:
    try:
        return bool(context.cancelled())
    except Exception:
        return True
