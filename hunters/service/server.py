"""The server: `create_server` (for tests, any port) and `serve` (the `hunters serve` command)."""
from __future__ import annotations

import json
import logging
import signal
import sys
import threading
from concurrent import futures
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from hunters import GAMES
from hunters.v1 import games_pb2, matches_pb2, oracle_pb2

from .gameinfo import GameInfoServicer
from .games import adapter
from .handlers import add_service
from .matches import MatchManager
from .servicer import MatchServicer, OracleServicer
from .store import Store

SERVICE_NAMES = (
    matches_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name,
    oracle_pb2.DESCRIPTOR.services_by_name["OracleService"].full_name,
    games_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
)
log = logging.getLogger("hunters.service")


@dataclass
class ServerConfig:
    address: str = "[::]:50051"
    db: str = "hunters.db"
    tls_cert: str | None = None
    tls_key: str | None = None
    max_workers: int = 32
    max_live_matches: int = 10_000
    max_message_bytes: int = 4 * 1024 * 1024
    sqlite_sync: str = "NORMAL"
    grace_seconds: float = 5.0


@dataclass
class RunningServer:
    server: grpc.Server
    port: int
    manager: MatchManager
    health: health.HealthServicer
    store: Store

    def stop(self, grace: float | None = None) -> None:
        """NOT_SERVING, finish calls in flight (up to `grace` s), close the database."""
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()
        self.store.close()


def create_server(config: ServerConfig) -> RunningServer:
    """Build and start a server (port 0 picks a free one); SERVING once every game's core is loaded."""
    for game_id in GAMES:
        adapter(game_id)  # import each game's core now, not on the first call
    store = Store(config.db, synchronous=config.sqlite_sync)
    manager = MatchManager(store, max_live_matches=config.max_live_matches)
    options = [("grpc.max_receive_message_length", config.max_message_bytes),
               ("grpc.max_send_message_length", config.max_message_bytes),
               ("grpc.so_reuseport", 0)]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=config.max_workers), options=options,
                         maximum_concurrent_rpcs=config.max_workers * 8)
    add_service(server, matches_pb2.DESCRIPTOR.services_by_name["MatchService"], MatchServicer(manager))
    add_service(server, oracle_pb2.DESCRIPTOR.services_by_name["OracleService"], OracleServicer())
    add_service(server, games_pb2.DESCRIPTOR.services_by_name["GameService"], GameInfoServicer())
    health_servicer = health.HealthServicer(experimental_non_blocking=True)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(SERVICE_NAMES + (health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    if config.tls_cert or config.tls_key:
        if not (config.tls_cert and config.tls_key):
            raise ValueError("TLS needs both --tls-cert and --tls-key")
        with open(config.tls_key, "rb") as k, open(config.tls_cert, "rb") as c:
            creds = grpc.ssl_server_credentials([(k.read(), c.read())])
        port = server.add_secure_port(config.address, creds)
    else:
        port = server.add_insecure_port(config.address)
    if port == 0:
        raise OSError(f"cannot listen on {config.address}")
    server.start()
    for name in ("",) + SERVICE_NAMES:
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(server, port, manager, health_servicer, store)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, message and any `extra` fields."""

    _SKIP = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": round(record.created, 3), "level": record.levelname, "msg": record.getMessage()}
        out.update({k: v for k, v in vars(record).items() if k not in self._SKIP})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure_logging(level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("hunters")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False


def serve(config: ServerConfig, log_level: str = "INFO") -> int:
    """Run until SIGTERM or SIGINT; then NOT_SERVING and a graceful stop."""
    configure_logging(log_level)
    running = create_server(config)
    log.info("serving", extra={"address": config.address, "port": running.port, "db": config.db,
                               "tls": bool(config.tls_cert), "games": sorted(GAMES)})
    stop = threading.Event()

    def on_signal(signum, _frame):
        log.info("shutting down", extra={"signal": signal.Signals(signum).name})
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    while not stop.wait(3600):
        pass
    running.stop(config.grace_seconds)
    log.info("stopped")
    return 0
