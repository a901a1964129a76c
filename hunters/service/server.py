"""The server: `create_server` (a server on its own event-loop thread, for tests and embedding) and
`serve` (the `hunters serve` command). Both build the same grpc.aio server with `start_server`."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import os
import signal
import ssl
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer

from hunters import games
from hunters.address import DEFAULT_PORT, join
from hunters.scale import Executor, connect_ray
from hunters.v1 import games_pb2, matches_pb2, oracle_pb2

from . import reflection, tracing
from .analysis import MAX_ANALYSIS_ITERATIONS, Analyses
from .engine import Engine
from .games import adapter
from .handlers import add_service
from .matches import MatchManager
from .metrics import Metrics, MetricsInterceptor
from .play import PlayRoutes
from .reviews import Reviews
from .reviewweb import ReviewRoutes
from .servicer import GameInfoServicer, MatchServicer, OracleServicer, encode_watch_event
from .store_base import OUTAGES, MatchStore, StoreUnavailable, is_postgres, without_password
from .stores import open_store
from .usage import Shareable, SharedUsage
from .web import Viewer
from .webguard import WebLimits

SERVICE_NAMES = (
    matches_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name,
    oracle_pb2.DESCRIPTOR.services_by_name["OracleService"].full_name,
    games_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
)
HEALTH_SERVICE = "grpc.health.v1.Health"
SWITCH_INTERVAL = 0.001  # seconds a thread holds the GIL while another waits (Python's default: 0.005)
log = logging.getLogger("hunters.service")


@dataclass
class ServerConfig:
    address: str = join("127.0.0.1", DEFAULT_PORT)
    db: str = "hunters.db"  # a SQLite file, or a postgresql:// URL (replicas share that database)
    tls_cert: str | None = None
    tls_key: str | None = None
    engine_threads: int = 2  # threads for Evaluate
    simulate_threads: int = 1  # threads for SimulateGames (when not on Ray)
    bot_threads: int = 1  # threads the server's bot seats think on, in turn
    engine_queue: int = 64  # Evaluate / SimulateGames jobs waiting per lane; more are ENGINE_BUSY
    caller_engine_calls: int = 1  # Evaluate (and SimulateGames) calls at once per caller
    caller_engine_seconds: float | None = 60.0  # engine seconds per minute per caller and lane; None: no bound
    max_bot_iterations: int = 100_000  # an mcts bot seat's search per move
    max_match_bot_iterations: int | None = 5_000_000  # all a match's bots' search; then one-ply moves; None: no bound
    max_bot_seats: int = 256  # bot seats in the unfinished matches in memory
    caller_bot_seats: int = 16  # ... of the matches one caller created
    oracle_token: str | None = None  # when set, Evaluate and SimulateGames need it as their bearer token
    max_live_matches: int = 10_000  # active (unfinished, not abandoned) matches
    max_message_bytes: int = 4 * 1024 * 1024
    max_concurrent_rpcs: int = 10_000  # calls in progress, streams included; more are RESOURCE_EXHAUSTED
    sqlite_sync: str = "NORMAL"
    db_busy_timeout: float = 2.0  # seconds a SQLite call waits for another process's lock (then DATABASE_BUSY)
    grace_seconds: float = 5.0
    idle_seconds: float | None = 7 * 24 * 3600  # an unfinished match with no move for this long is abandoned
    create_token: str | None = None  # when set, CreateMatch needs it as its bearer token
    http_port: int | None = None  # the live viewer (web.py) on this port of the same host; None: off
    http_per_client: int = 32  # the viewer's page loads in progress from one host, and its event streams (each)
    http_streams: int = 1000  # the viewer's open event streams, server-wide (apart from page loads)
    http_writes_per_client: int = 8  # the web side's requests with a body in progress from one host
    http_body_timeout: float = 10.0  # seconds a request's whole body has to arrive in (then 408)
    http_cache_bytes: int = 256 * 1024 * 1024  # the viewer's histories and rendered states kept
    ray_address: str | None = None  # SimulateGames plays its blocks on this Ray cluster (hunters.scale)
    metrics: bool = False  # Prometheus metrics (metrics.py): collected, and served at the viewer's /metrics
    metrics_port: int | None = None  # ... and on this port of the same host (0: a free one); needs `metrics`
    # Replicas (a shared store): how often each one takes over the bot matches with no move for as long
    # (their replica may have died; the database keeps one move per version if two play).
    bot_takeover_seconds: float = 30.0
    max_analysis_iterations: int = MAX_ANALYSIS_ITERATIONS  # an Analyze's (or a hint's) search
    review_iterations: int | None = None  # a review's search a decision; None: the strong bot's default
    review_threads: int = 1  # threads reviews are computed on, at a lower priority
    max_queued_reviews: int = 64  # reviews waiting or running; more are RESOURCE_EXHAUSTED / REVIEWS_BUSY
    caller_reviews: int = 2  # ... of which one caller's (then CALLER_BUSY)
    # One of the processes of `hunters serve --workers N` (workers.py): its number, 0 to N-1. Workers
    # share the port (SO_REUSEPORT) and the database (a shared SQLite store, or PostgreSQL as replicas).
    worker: int | None = None


def worker_health_name(worker: int) -> str:
    """The health-check service name only worker `worker` answers SERVING (the others NOT_FOUND):
    which process a connection reached."""
    return f"hunters.worker.{worker}"


@dataclass
class Started:
    """A started grpc.aio server and what it serves with (all bound to its event loop)."""

    server: grpc.aio.Server
    port: int
    manager: MatchManager
    health: HealthServicer
    store: MatchStore
    engine: Engine
    sweeper: asyncio.Task[None] | None
    viewer: Viewer | None = None
    http_port: int | None = None
    scale: Executor | None = None
    bot_keeper: asyncio.Task[None] | None = None
    storage_watch: asyncio.Task[None] | None = None
    metrics: Metrics | None = None
    metrics_port: int | None = None
    usage_share: asyncio.Task[None] | None = None
    reviews: Reviews | None = None

    async def stop(self, grace: float | None) -> None:
        """NOT_SERVING, finish calls in flight (up to `grace` s, then cancel them), close the database."""
        await self.health.enter_graceful_shutdown()
        self.manager.close()
        if self.reviews is not None:
            self.reviews.close()  # stopped inside their search; resumed at the next start
        if self.viewer is not None:
            await self.viewer.stop()
        for task in (self.sweeper, self.bot_keeper, self.storage_watch, self.usage_share):
            if task is not None:
                task.cancel()
        await self.server.stop(grace)
        self.manager.reads.close()  # once no call can ask for a read
        if self.metrics is not None:
            self.metrics.stop()
        self.engine.shutdown()
        if self.scale is not None:
            self.scale.close()
        await self.store.close()


def _credentials(config: ServerConfig) -> grpc.ServerCredentials | None:
    if not (config.tls_cert or config.tls_key):
        return None
    if not (config.tls_cert and config.tls_key):
        raise ValueError("TLS needs both --tls-cert and --tls-key")
    with open(config.tls_key, "rb") as k, open(config.tls_cert, "rb") as c:
        return grpc.ssl_server_credentials([(k.read(), c.read())])


def _http_tls(config: ServerConfig) -> ssl.SSLContext | None:
    """The viewer's TLS: gRPC's certificate and key, when the server has them."""
    if not (config.tls_cert and config.tls_key):
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(config.tls_cert, config.tls_key)
    return context


async def _sweep(manager: MatchManager, every: float) -> None:
    """Abandon idle matches now and then."""
    while True:
        await asyncio.sleep(every)
        try:
            ids = await manager.expire()
        except StoreUnavailable:  # logged by the store, once per fault: try again next time
            continue
        except Exception:  # a failing database must not end the sweeper
            log.exception("expiry sweep failed")
            continue
        if ids:
            log.debug("expiry sweep", extra={"abandoned": len(ids)})


async def _keep_bots(manager: MatchManager, every: float) -> None:
    """Replicas: take over the bot matches no replica has moved for `every` seconds."""
    while True:
        await asyncio.sleep(every)
        try:
            await manager.resume_bots(quiet_for=every)
        except Exception:  # an unreachable database must not end the task
            log.exception("taking over bot seats failed")


STORAGE_CHECK_SECONDS = 1.0  # how often the server checks its database file, and retries a failed write


async def _watch_storage(store: MatchStore, health: HealthServicer, every: float) -> None:
    """Keep the health service honest about the database: NOT_SERVING while writes fail for a
    storage fault (disk full, file unwritable, deleted or replaced) or the database is out of reach
    (PostgreSQL down), SERVING again once a probe works. Also notices a database file deleted or
    replaced before the next move would."""
    serving = True
    fault: list[str | None] = [None]
    changed = asyncio.Event()

    def on_health(reason: str | None) -> None:
        fault[0] = reason
        changed.set()

    store.on_health = on_health
    while True:
        try:
            if fault[0] in OUTAGES:
                await store.probe()
            else:
                await store.check()
        except StoreUnavailable:
            pass
        except Exception:  # a surprise must not end the watch
            log.exception("checking the database failed")
        healthy = fault[0] not in OUTAGES
        if healthy != serving:
            serving = healthy
            status = health_pb2.HealthCheckResponse.SERVING if healthy else health_pb2.HealthCheckResponse.NOT_SERVING
            for name in ("", *SERVICE_NAMES):
                await health.set(name, status)
            continue  # probe again at once: the fault may be over already
        changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), every)


async def start_server(config: ServerConfig) -> Started:
    """Build and start a server on the running loop (port 0 picks a free one); SERVING once every
    game's core is loaded. Raises OSError/ValueError for a bad address, database or TLS files."""
    for game_id in games.ids():
        adapter(game_id)  # import each game's core now, not on the first call
    credentials = _credentials(config)
    scale = connect_ray(config.ray_address) if config.ray_address is not None else None
    try:
        store = open_store(
            config.db,
            sqlite_sync=config.sqlite_sync,
            busy_timeout=config.db_busy_timeout,
            shared=config.worker is not None,
        )
    except BaseException:
        if scale is not None:
            scale.close()
        raise
    try:
        await store.open()
        engine = Engine(
            config.engine_threads,
            bot_threads=config.bot_threads,
            simulate_threads=config.simulate_threads,
            queue=config.engine_queue,
            caller_jobs=config.caller_engine_calls,
            caller_seconds=config.caller_engine_seconds,
            review_threads=config.review_threads,
        )
        manager = MatchManager(
            store,
            encode_watch_event,
            max_live_matches=config.max_live_matches,
            idle_seconds=config.idle_seconds,
            create_token=config.create_token,
            engine=engine,
            max_bot_iterations=config.max_bot_iterations,
            max_match_bot_iterations=config.max_match_bot_iterations,
            max_bot_seats=config.max_bot_seats,
            caller_bot_seats=config.caller_bot_seats,
        )
        await manager.start()
        metrics = Metrics("postgresql" if is_postgres(config.db) else "sqlite") if config.metrics else None
        manager.metrics = metrics
        options = [
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", config.max_message_bytes),
            ("grpc.so_reuseport", int(config.worker is not None)),  # workers share one port
            # Calls that arrived but that the event loop has not picked up yet: past the soft limit
            # (default 1,000) gRPC cancels some at random, so a burst of watchers opening at once
            # would lose streams. The bound on calls in progress is maximum_concurrent_rpcs.
            ("grpc.server.max_pending_requests", config.max_concurrent_rpcs),
            ("grpc.server.max_pending_requests_hard_limit", config.max_concurrent_rpcs),
            # No bandwidth-delay probing: it grows a connection's flow-control window to megabytes, so
            # a watcher that never reads would make the server build and buffer that much history
            # per stream. At HTTP/2's 64 KB a stream that is not read stops after a few messages.
            ("grpc.http2.bdp_probe", 0),
        ]
        traced = tracing.server_interceptor()  # None unless OTEL_* asks for traces (and hunters-engine[otel])
        interceptors = [i for i in (traced, MetricsInterceptor(metrics) if metrics else None) if i is not None]
        server = grpc.aio.server(
            options=options, maximum_concurrent_rpcs=config.max_concurrent_rpcs, interceptors=interceptors
        )
        reviews = Reviews(
            manager, engine.review, config.review_iterations, config.max_queued_reviews, config.caller_reviews
        )
        analyses = Analyses(manager, engine.evaluate, config.max_analysis_iterations)
        add_service(server, matches_pb2.DESCRIPTOR.services_by_name["MatchService"], MatchServicer(manager, reviews))
        oracle = OracleServicer(engine, scale, config.oracle_token, analyses)
        if metrics is not None:
            metrics.watch(manager.stats, engine, lambda: dict(oracle.work))
        add_service(server, oracle_pb2.DESCRIPTOR.services_by_name["OracleService"], oracle)
        add_service(server, games_pb2.DESCRIPTOR.services_by_name["GameService"], GameInfoServicer())
        health = HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health, server)
        reflection.enable(server, (*SERVICE_NAMES, HEALTH_SERVICE))
        try:
            port = (
                server.add_secure_port(config.address, credentials)
                if credentials
                else server.add_insecure_port(config.address)
            )
        except RuntimeError as exc:
            raise OSError(f"cannot listen on {config.address}: {exc}") from None
        if port == 0:
            raise OSError(f"cannot listen on {config.address}")
        await server.start()
        viewer, http_port, metrics_port = None, None, None
        host = config.address.rpartition(":")[0].strip("[]")
        try:
            if metrics is not None and config.metrics_port is not None:
                # each worker of --workers N on a port of its own: --metrics-port + its number
                wanted = config.metrics_port + (config.worker or 0) if config.metrics_port else 0
                metrics_port = metrics.serve(host, wanted)
            if config.http_port is not None:
                limits = WebLimits(
                    per_client=config.http_per_client,
                    streams=config.http_streams,
                    writes_per_client=config.http_writes_per_client,
                    body_seconds=config.http_body_timeout,
                )
                viewer = Viewer(manager, limits, _http_tls(config), config.http_cache_bytes)
                play = PlayRoutes(viewer, secure=viewer.ssl_context is not None, analyses=analyses)
                viewer.extra.extend(play.routes() + ReviewRoutes(viewer, reviews).routes())
                if metrics is not None:
                    viewer.add_text("/metrics", metrics.exposition)
                http_port = await viewer.start(host, config.http_port, reuse_port=config.worker is not None)
        except BaseException:
            if metrics is not None:
                metrics.stop()
            await server.stop(None)
            raise
    except BaseException:
        await store.close()
        if scale is not None:
            scale.close()
        raise
    for name in ("", *SERVICE_NAMES):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    if config.worker is not None:
        await health.set(worker_health_name(config.worker), health_pb2.HealthCheckResponse.SERVING)
    resumed = await manager.resume_bots()
    if resumed:
        log.info("bots resumed", extra={"matches": resumed})
    resumed = await reviews.resume()
    if resumed:
        log.info("reviews resumed", extra={"matches": resumed})
    sweeper = None
    if config.idle_seconds:
        sweeper = asyncio.get_running_loop().create_task(_sweep(manager, min(60.0, config.idle_seconds / 4)))
    bot_keeper = None
    if store.shared and config.bot_takeover_seconds:
        bot_keeper = asyncio.get_running_loop().create_task(_keep_bots(manager, config.bot_takeover_seconds))
    storage_watch = asyncio.get_running_loop().create_task(_watch_storage(store, health, STORAGE_CHECK_SECONDS))
    usage_share = None
    if store.shared:  # workers on one file, or replicas: per-caller limits are the deployment's
        kinds: dict[str, Shareable] = {lane.name: lane.callers for lane in engine.lanes if lane.callers is not None}
        usage = SharedUsage(store, {**kinds, "bot_seats": manager.bots.ledger})
        usage_share = asyncio.get_running_loop().create_task(usage.run())
    return Started(
        server,
        port,
        manager,
        health,
        store,
        engine,
        sweeper,
        viewer,
        http_port,
        scale,
        bot_keeper,
        storage_watch,
        metrics,
        metrics_port,
        usage_share,
        reviews,
    )


class RunningServer:
    """A server running on its own event-loop thread, driven from ordinary (synchronous) code."""

    def __init__(self, config: ServerConfig):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="hunters-server", daemon=True)
        self._thread.start()
        try:
            self._started: Started = self.call(start_server(config))
        except BaseException:
            self._close_loop()
            raise
        self.port = self._started.port
        self.http_port = self._started.http_port
        self.metrics_port = self._started.metrics_port
        self.metrics = self._started.metrics
        self.manager = self._started.manager
        self.store = self._started.store
        self.engine = self._started.engine
        self.reviews = self._started.reviews

    def call(self, what: Any) -> Any:
        """Run a coroutine, or a plain function of no arguments, on the server's loop; return its
        result (awaited, when the function returns an awaitable)."""
        if asyncio.iscoroutine(what):
            return asyncio.run_coroutine_threadsafe(what, self._loop).result()

        async def run() -> Any:
            result = what()
            return await result if inspect.isawaitable(result) else result

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result()

    def enter_graceful_shutdown(self) -> None:
        """Answer NOT_SERVING from now on (what a stop does first)."""
        self.call(self._started.health.enter_graceful_shutdown())

    def stop(self, grace: float | None = None) -> None:
        """NOT_SERVING, finish calls in flight (up to `grace` s), close the database, end the thread.
        Stopping a stopped server does nothing."""
        if self._loop.is_closed():
            return
        try:
            self.call(self._started.stop(grace))
        finally:
            self._close_loop()

    def _close_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


def create_server(config: ServerConfig) -> RunningServer:
    """Start a server in a background thread (port 0 picks a free one) and return once it serves."""
    return RunningServer(config)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, message (and the worker's number, for one of
    `--workers N`) and any `extra` fields."""

    _SKIP = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}

    def __init__(self, worker: int | None = None):
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"ts": round(record.created, 3), "level": record.levelname, "msg": record.getMessage()}
        if self.worker is not None:
            out["worker"] = self.worker
        out.update({k: v for k, v in vars(record).items() if k not in self._SKIP})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class TextFormatter(logging.Formatter):
    """One line for a person at a terminal: time, level, (the worker,) message, then the `extra`
    fields as key=value."""

    def __init__(self, worker: int | None = None):
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        when = time.strftime("%H:%M:%S", time.localtime(record.created)) + f".{int(record.msecs):03d}"
        if self.worker is not None:
            when += f" [{self.worker}]"
        fields = " ".join(f"{k}={v}" for k, v in vars(record).items() if k not in JsonFormatter._SKIP and v is not None)
        line = f"{when} {record.levelname:<7} {record.getMessage()}" + (f"  {fields}" if fields else "")
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


LOG_FORMATS = ("auto", "json", "text")


def configure_logging(level: str = "INFO", fmt: str = "auto", worker: int | None = None) -> None:
    """The `hunters` loggers to stderr: JSON lines (for a container's log collector), or text for a
    person (`auto`: text when stderr is a terminal, else JSON); a worker of `--workers N` says its
    number in every line."""
    handler = logging.StreamHandler(sys.stderr)
    text = fmt == "text" or (fmt == "auto" and sys.stderr.isatty())
    handler.setFormatter(TextFormatter(worker) if text else JsonFormatter(worker))
    root = logging.getLogger("hunters")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False


async def _serve(config: ServerConfig, ready: Callable[[Started], None] | None = None) -> None:
    started = await start_server(config)
    host = config.address.rpartition(":")[0]
    bound = join(host, started.port)  # the port bound, not the 0 of "any free port"
    log.info(
        "serving",
        extra={
            "address": bound,
            "port": started.port,
            "db": without_password(config.db),
            "tls": bool(config.tls_cert),
            "games": games.ids(),
            "create_token": bool(config.create_token),
            "oracle_token": bool(config.oracle_token),
            "max_matches": config.max_live_matches,
            "max_bot_seats": config.max_bot_seats,
            "max_match_bot_iterations": config.max_match_bot_iterations,
            "idle_seconds": config.idle_seconds,
            "http_port": started.http_port,
            "metrics_port": started.metrics_port,
            **({"pid": os.getpid()} if config.worker is not None else {}),
        },
    )
    if not config.create_token and host.strip("[]") not in ("127.0.0.1", "localhost", "::1"):
        log.warning(
            "anyone who reaches this address may create matches (no create token): the limits of an "
            "anonymous server apply unless set (see hunters serve --help)",
            extra={
                "address": bound,
                "max_matches": config.max_live_matches,
                "idle_seconds": config.idle_seconds,
            },
        )
    if ready is not None:
        ready(started)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_signal(sig: signal.Signals) -> None:
        log.info("shutting down", extra={"signal": sig.name})
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal, sig)
    await stop.wait()
    await started.stop(config.grace_seconds)
    tracing.shutdown()  # the spans still buffered, exported
    # Let the per-call tasks that stop() cancelled (open WatchMatch streams) end on this loop: torn down
    # by asyncio.run instead, gRPC prints each one's CancelledError traceback to stderr.
    others = asyncio.all_tasks() - {asyncio.current_task()}
    if others:
        await asyncio.wait(others, timeout=1.0)
    log.info("stopped")


def _raise_file_limit() -> None:
    """Every connection and stream holds a file descriptor: take the hard limit of open files (often
    1,024 soft, far more hard), so that running out (EMFILE: accepts fail, retried every second and
    logged) comes as late as the system allows."""
    try:
        import resource
    except ImportError:  # not on this system
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(1 << 20, hard if hard != resource.RLIM_INFINITY else 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def serve(config: ServerConfig, log_level: str = "INFO", log_format: str = "auto") -> int:
    """Run until SIGTERM or SIGINT; then NOT_SERVING and a graceful stop (calls in flight get
    `grace_seconds`, then are cancelled)."""
    configure_logging(log_level, log_format, config.worker)
    # Engine work in Python (Evaluate) holds the GIL in turns with the event loop: hand it back every
    # millisecond instead of every 5, so that a call waits less behind another caller's work.
    sys.setswitchinterval(SWITCH_INTERVAL)
    if hasattr(signal, "SIGXFSZ"):  # a file-size limit reached: the write fails (STORAGE_UNAVAILABLE), no kill
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    _raise_file_limit()
    asyncio.run(_serve(config))
    return 0
