"""`hunters serve`: its options and the run. Every ordinary mistake (a port in use, an unwritable
database, a missing TLS file, half a TLS pair, a bad log level) is one line on stderr and exit 2.

Options default from environment variables (HUNTERS_HOST, HUNTERS_PORT, HUNTERS_DB, HUNTERS_TLS_CERT,
HUNTERS_TLS_KEY, HUNTERS_CREATE_TOKEN, HUNTERS_RAY), so a container's health check can read the same settings."""

from __future__ import annotations

import argparse
import errno
import os
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from hunters.address import DEFAULT_PORT, join

from .launch import refusals, refused, serve_config

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


# What a server without a create token (anyone may create matches) holds at most, unless told otherwise:
# strangers cannot be told apart, so the limits stay small and their matches short-lived.
@dataclass(frozen=True)
class Limits:
    max_matches: int
    idle_timeout: float
    max_bot_seats: int


WITH_TOKEN = Limits(max_matches=10_000, idle_timeout=7 * 24 * 3600.0, max_bot_seats=256)
ANONYMOUS = Limits(max_matches=1000, idle_timeout=3600.0, max_bot_seats=32)


def _env(name: str, default: str | None = None) -> str | None:
    return os.environ.get(name) or default


MAX_SECONDS = 10 * 365 * 24 * 3600.0  # ten years: any longer time is a mistake


def _seconds_in(high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from 0 to `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not 0 <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a number of seconds from 0 to {high:.0f}, not {text!r}")
        return value

    parse.__name__ = "seconds"
    return parse


_seconds = _seconds_in(MAX_SECONDS)


def _int_in(low: int, high: int, what: str = "") -> Callable[[str], int]:
    """An argparse type: an integer from `low` to `high` (`what` names where a default came from)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer{what}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, not {text}{what}")
        return value

    parse.__name__ = "integer"  # argparse's word for a value it could not convert
    return parse


_positive = _int_in(1, 1_000_000)
_threads = _int_in(1, 256)
_port = _int_in(0, 65535, " (from --port or HUNTERS_PORT)")
MAX_MESSAGE_BYTES = 2**31 - 1  # gRPC's channel arguments are C ints


def _one_line_error(parser: argparse.ArgumentParser) -> Callable[[str], NoReturn]:
    def error(message: str) -> NoReturn:
        parser.exit(2, f"{parser.prog}: error: {message} (see {parser.prog} --help)\n")

    return error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `hunters serve`; a bad one is a single line on stderr and exit status 2."""
    # an instance attribute, not a method: it is called without self (mypy types it as a method)
    parser.error = _one_line_error(parser)  # type: ignore[method-assign,assignment]
    parser.add_argument(
        "--host",
        default=_env("HUNTERS_HOST", "127.0.0.1"),
        help="interface to bind (0.0.0.0 or [::] for every interface)",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=_env("HUNTERS_PORT", str(DEFAULT_PORT)),  # a string: argparse checks it with `type`, as if given
        help="gRPC port (0: any free port)",
    )
    parser.add_argument(
        "--db",
        default=_env("HUNTERS_DB", "hunters.db"),
        help="SQLite file of the matches (created if missing), or a postgresql://user@host/db URL: any number of "
        "servers (replicas) on one PostgreSQL database serve the same matches (needs the `postgres` extra)",
    )
    parser.add_argument("--tls-cert", default=_env("HUNTERS_TLS_CERT"), help="PEM certificate chain: serve TLS")
    parser.add_argument("--tls-key", default=_env("HUNTERS_TLS_KEY"), help="PEM private key for --tls-cert")
    parser.add_argument(
        "--create-token-file",
        help="file holding the operator token CreateMatch must present "
        "(or set HUNTERS_CREATE_TOKEN); without one anyone may create matches, within the smaller limits of "
        "an anonymous server (see --max-matches, --idle-timeout, --max-bot-seats)",
    )
    parser.add_argument(
        "--oracle-token-file",
        help="file holding the token Evaluate and SimulateGames must present (or set HUNTERS_ORACLE_TOKEN); "
        "without one anyone may use the oracle, within the per-caller limits",
    )
    parser.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=None,
        help="seconds without a move after which an unfinished match is abandoned (0: never; a match whose every "
        "seat is a bot ends that long after its creation); default 604800 (7 days) with a create token, "
        f"{ANONYMOUS.idle_timeout:.0f} without",
    )
    parser.add_argument(
        "--max-matches",
        type=_positive,
        default=None,
        help=f"limit of active (unfinished) matches, 1 to 1,000,000; default 10000 with a create token, "
        f"{ANONYMOUS.max_matches} without",
    )
    parser.add_argument(
        "--max-message-bytes",
        type=_int_in(1024, MAX_MESSAGE_BYTES),
        default=4 * 1024 * 1024,
        help=f"largest request or reply message, 1024 to {MAX_MESSAGE_BYTES}",
    )
    parser.add_argument(
        "--max-concurrent-rpcs",
        type=_positive,
        default=10_000,
        help="calls in progress at once, open streams included, 1 to 1,000,000",
    )
    parser.add_argument("--engine-threads", type=_threads, default=2, help="threads for Evaluate, 1 to 256")
    parser.add_argument(
        "--simulate-threads", type=_threads, default=1, help="threads for SimulateGames (without --ray), 1 to 256"
    )
    parser.add_argument(
        "--bot-threads",
        type=_threads,
        default=1,
        help="threads the server's bot seats think on (every match's bots in turn), 1 to 256",
    )
    parser.add_argument(
        "--engine-queue",
        type=_int_in(0, 100_000),
        default=64,
        help="Evaluate / SimulateGames jobs that may wait for a thread; more are RESOURCE_EXHAUSTED / ENGINE_BUSY",
    )
    parser.add_argument(
        "--caller-engine-calls",
        type=_int_in(1, 10_000),
        default=1,
        help="Evaluate calls (and, apart, SimulateGames calls) one caller may have in progress; more are "
        "RESOURCE_EXHAUSTED / CALLER_BUSY. A caller is its bearer token, else its address; the holder of "
        "--oracle-token-file's token has no per-caller bound",
    )
    parser.add_argument(
        "--caller-engine-seconds",
        type=_seconds,
        default=60.0,
        help="engine seconds per minute one caller may use on Evaluate (and apart on SimulateGames, which then "
        "slows down); past it Evaluate is RESOURCE_EXHAUSTED / CALLER_BUDGET_EXHAUSTED (0: no bound)",
    )
    parser.add_argument(
        "--max-bot-iterations",
        type=_int_in(1, 1_000_000),
        default=100_000,
        help="most iterations per move a bot seat (mcts:iterations=N) may search; more is INVALID_CONFIG",
    )
    parser.add_argument(
        "--max-match-bot-iterations",
        type=_int_in(0, 10**12),
        default=5_000_000,
        help="iterations all the bot seats of one match may search in total (each move counts its spec's "
        "iterations); after that they play their one-ply (greedy) move, the same on every replay, so that no "
        "match costs more than a few core-minutes however long it is; a seat searching more a move is "
        "INVALID_CONFIG (0: no bound)",
    )
    parser.add_argument(
        "--max-bot-seats",
        type=_int_in(0, 1_000_000),
        default=None,
        help="bot seats the server plays in unfinished matches; more are RESOURCE_EXHAUSTED / TOO_MANY_BOT_SEATS; "
        f"default 256 with a create token, {ANONYMOUS.max_bot_seats} without",
    )
    parser.add_argument(
        "--caller-bot-seats",
        type=_int_in(0, 1_000_000),
        default=16,
        help="bot seats in the unfinished matches one host created (none with a create token: the operator's "
        "game server creates them all)",
    )
    parser.add_argument(
        "--max-analysis-iterations",
        type=_int_in(1, 1_000_000),
        default=10_000,
        help="most search iterations an Analyze (or a hint) may ask for; more is INVALID_ARGUMENT / BAD_ITERATIONS "
        "(an analysis is charged to its caller's engine seconds like an Evaluate)",
    )
    parser.add_argument(
        "--review-iterations",
        type=_int_in(0, 1_000_000),
        default=_env("HUNTERS_REVIEW_ITERATIONS", "0"),
        help="search iterations a decision of a match's review (0: the strong bot's default, as it plays; a "
        "2-player H&G review then takes some 25 s of one core; or set HUNTERS_REVIEW_ITERATIONS)",
    )
    parser.add_argument(
        "--review-threads", type=_threads, default=1, help="threads reviews are computed on, at a lower priority"
    )
    parser.add_argument(
        "--max-queued-reviews",
        type=_int_in(1, 100_000),
        default=64,
        help="reviews waiting or running at once; more are RESOURCE_EXHAUSTED / REVIEWS_BUSY (one host: at most "
        "--caller-reviews of them, then CALLER_BUSY)",
    )
    parser.add_argument("--caller-reviews", type=_int_in(1, 100_000), default=2, help="see --max-queued-reviews")
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=_env("HUNTERS_RAY"),
        help="play SimulateGames on the Ray cluster at ADDRESS (HOST:PORT of its head, or auto; needs "
        "hunters-engine[ray]): the same results as on the engine threads",
    )
    parser.add_argument(
        "--db-busy-timeout",
        type=_seconds_in(60),
        default=2.0,
        help="seconds a call waits while another process holds the SQLite database's write lock, then "
        "UNAVAILABLE / DATABASE_BUSY (0 to 60)",
    )
    parser.add_argument(
        "--sync",
        choices=["normal", "full"],
        default="normal",
        help="SQLite synchronous: normal survives process crashes, full also power loss",
    )
    parser.add_argument(
        "--grace", type=_seconds_in(3600), default=5.0, help="seconds calls in flight get on SIGTERM, 0 to 3600"
    )
    parser.add_argument(
        "--http",
        type=_int_in(0, 65535),
        metavar="PORT",
        default=None,
        help="also serve the live viewer (web pages of the matches) on this port of --host; off by default",
    )
    parser.add_argument(
        "--http-connections-per-client",
        type=_int_in(1, 100_000),
        default=32,
        help="the viewer's page loads in progress from one host, and its event streams (each); more are "
        "answered 503 at once",
    )
    parser.add_argument(
        "--http-streams",
        type=_int_in(1, 1_000_000),
        default=1000,
        help="the viewer's open event streams, server-wide (page loads have their own room); more are 503",
    )
    parser.add_argument(
        "--http-body-timeout",
        type=_seconds_in(3600),
        default=10.0,
        metavar="SECONDS",
        help="seconds a request's whole body has to arrive in, else 408 and the connection is closed",
    )
    parser.add_argument(
        "--http-cache-mb",
        type=_int_in(1, 1_000_000),
        default=256,
        metavar="MB",
        help="the viewer's histories and rendered states kept in memory, in MiB (least recently used out first)",
    )
    parser.add_argument(
        "--workers",
        type=_int_in(1, 256),
        default=1,
        help="server processes on the one port and database (SO_REUSEPORT; the kernel spreads connections over "
        "them), supervised by this one: restarted when one ends, stopped together; 1 to 256 (see docs/workers.md)",
    )
    parser.add_argument(
        "--metrics-port",
        type=_int_in(0, 65535),
        metavar="PORT",
        default=_env("HUNTERS_METRICS_PORT"),
        help="serve Prometheus metrics at /metrics on this port of --host (also at /metrics of --http when "
        "that is on; or set HUNTERS_METRICS_PORT); off by default",
    )
    parser.add_argument(
        "--log-format",
        choices=("auto", "json", "text"),
        default=_env("HUNTERS_LOG_FORMAT", "auto"),
        help="log lines as JSON objects or as text; auto: text on a terminal, JSON otherwise (a container)",
    )
    parser.add_argument(
        "--log-level",
        type=str.upper,
        choices=LOG_LEVELS,
        default="INFO",
        help="INFO logs start, stop, matches created, over, deleted and abandoned; DEBUG adds every move and refusal",
    )


def _token_file(path: str | None, variable: str) -> str | None:
    if path:
        with open(path, encoding="utf-8") as fh:
            token = fh.read().strip()
        if not token:
            raise ValueError(f"{path} holds no token")
        return token
    return _env(variable)


def _create_token(args: argparse.Namespace) -> str | None:
    return _token_file(args.create_token_file, "HUNTERS_CREATE_TOKEN")


def _check_tls(cert: str | None, key: str | None) -> None:
    """Refuse half a TLS pair or files that do not load, before gRPC would log its own lines."""
    if not (cert or key):
        return
    if not (cert and key):
        raise ValueError("TLS needs both --tls-cert and --tls-key")
    for path in (cert, key):
        with open(path, "rb"):
            pass
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except ssl.SSLError:
        raise ValueError(f"{cert} and {key} are not a PEM certificate chain and its private key") from None


def _check_port(host: str, port: int) -> None:
    """Refuse an address nobody can listen on (in use, not local) with the system's words."""
    if port == 0:
        return
    try:
        for family, kind, proto, _, address in socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        ):
            with socket.socket(family, kind, proto) as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind(address)
    except OSError as exc:
        if host.strip("[]") == "::" and exc.errno in (errno.EAFNOSUPPORT, errno.EADDRNOTAVAIL):
            # No IPv6 on this host: gRPC binds the wildcard on IPv4 alone, so check that instead.
            return _check_port("0.0.0.0", port)
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM/SIGINT; an unusable setting is one line on stderr and exit status 2."""
    from .server import ServerConfig

    try:
        _check_tls(args.tls_cert, args.tls_key)
        _check_port(args.host, args.port)
        if args.http is not None:
            if args.http == args.port and args.port:
                raise ValueError(f"--http must be a port from 0 to 65535 other than --port, not {args.http}")
            _check_port(args.host, args.http)
        if args.http_body_timeout <= 0:
            raise ValueError(f"--http-body-timeout must be more than 0 seconds, not {args.http_body_timeout:g}")
        if args.metrics_port is not None:
            if args.metrics_port and args.metrics_port in (args.port, args.http):
                raise ValueError(f"--metrics-port must be a port other than --port and --http, not {args.metrics_port}")
            _check_port(args.host, args.metrics_port)
        create_token = _create_token(args)
        limits = WITH_TOKEN if create_token else ANONYMOUS
        idle = limits.idle_timeout if args.idle_timeout is None else args.idle_timeout
        config = ServerConfig(
            address=join(args.host, args.port),
            db=args.db,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
            engine_threads=args.engine_threads,
            simulate_threads=args.simulate_threads,
            bot_threads=args.bot_threads,
            engine_queue=args.engine_queue,
            caller_engine_calls=args.caller_engine_calls,
            caller_engine_seconds=args.caller_engine_seconds or None,
            max_bot_iterations=args.max_bot_iterations,
            max_analysis_iterations=args.max_analysis_iterations,
            review_iterations=args.review_iterations or None,
            review_threads=args.review_threads,
            max_queued_reviews=args.max_queued_reviews,
            caller_reviews=args.caller_reviews,
            max_match_bot_iterations=args.max_match_bot_iterations or None,
            max_bot_seats=limits.max_bot_seats if args.max_bot_seats is None else args.max_bot_seats,
            caller_bot_seats=args.caller_bot_seats,
            max_live_matches=limits.max_matches if args.max_matches is None else args.max_matches,
            max_message_bytes=args.max_message_bytes,
            max_concurrent_rpcs=args.max_concurrent_rpcs,
            sqlite_sync=args.sync,
            db_busy_timeout=args.db_busy_timeout,
            grace_seconds=args.grace,
            idle_seconds=idle or None,
            create_token=create_token,
            oracle_token=_token_file(args.oracle_token_file, "HUNTERS_ORACLE_TOKEN"),
            http_port=args.http,
            http_per_client=args.http_connections_per_client,
            http_streams=args.http_streams,
            http_body_timeout=args.http_body_timeout,
            http_cache_bytes=args.http_cache_mb * 1024 * 1024,
            ray_address=args.ray,
            metrics=args.metrics_port is not None or args.http is not None,
            metrics_port=args.metrics_port,
        )
    except refusals(args.db) as exc:
        return refused(exc, args.db)
    if args.workers > 1:
        from .workers import supervise

        try:
            return supervise(config, args.workers, log_level=args.log_level, log_format=args.log_format)
        except refusals(args.db) as exc:
            return refused(exc, args.db)
    return serve_config(config, args.log_level, args.log_format)
