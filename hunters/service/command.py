"""`hunters serve`: its options and the run. Every ordinary mistake (a port in use, an unwritable
database, a missing TLS file, half a TLS pair, a bad log level) is one line on stderr and exit 2.

Options default from environment variables (HUNTERS_HOST, HUNTERS_PORT, HUNTERS_DB, HUNTERS_TLS_CERT,
HUNTERS_TLS_KEY, HUNTERS_CREATE_TOKEN, HUNTERS_RAY), so a container's health check can read the same settings."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
import sqlite3
import ssl
import sys
from collections.abc import Callable
from typing import NoReturn

from hunters.scale import ScaleError

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _env(name: str, default: str | None = None) -> str | None:
    return os.environ.get(name) or default


def _seconds(text: str) -> float:
    value = float(text)
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a finite number of seconds, 0 or more")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


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
        "--port", type=int, default=int(_env("HUNTERS_PORT", "50051") or 50051), help="gRPC port (0: any free port)"
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
        "(or set HUNTERS_CREATE_TOKEN); without one anyone may create matches",
    )
    parser.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=7 * 24 * 3600.0,
        help="seconds without a move after which an unfinished match is abandoned (0: never)",
    )
    parser.add_argument("--max-matches", type=_positive, default=10_000, help="limit of active (unfinished) matches")
    parser.add_argument(
        "--max-message-bytes", type=_positive, default=4 * 1024 * 1024, help="largest request or reply message"
    )
    parser.add_argument(
        "--max-concurrent-rpcs", type=_positive, default=10_000, help="calls in progress at once, open streams included"
    )
    parser.add_argument(
        "--engine-threads", type=_positive, default=2, help="threads for long engine work (Evaluate, SimulateGames)"
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=_env("HUNTERS_RAY"),
        help="play SimulateGames on the Ray cluster at ADDRESS (HOST:PORT of its head, or auto; needs "
        "hunters[ray]): the same results as on the engine threads",
    )
    parser.add_argument(
        "--sync",
        choices=["normal", "full"],
        default="normal",
        help="SQLite synchronous: normal survives process crashes, full also power loss",
    )
    parser.add_argument("--grace", type=_seconds, default=5.0, help="seconds calls in flight get on SIGTERM")
    parser.add_argument(
        "--http",
        type=int,
        metavar="PORT",
        default=None,
        help="also serve the live viewer (web pages of the matches) on this port of --host; off by default",
    )
    parser.add_argument(
        "--log-level",
        type=str.upper,
        choices=LOG_LEVELS,
        default="INFO",
        help="INFO logs start, stop, matches created, over, deleted and abandoned; DEBUG adds every move and refusal",
    )


def _create_token(args: argparse.Namespace) -> str | None:
    if args.create_token_file:
        with open(args.create_token_file, encoding="utf-8") as fh:
            token = fh.read().strip()
        if not token:
            raise ValueError(f"{args.create_token_file} holds no token")
        return token
    return _env("HUNTERS_CREATE_TOKEN")


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
    from .server import ServerConfig, serve

    refusals: tuple[type[BaseException], ...] = (
        OSError,
        ValueError,
        sqlite3.Error,
        ScaleError,
        *_postgres_errors(args.db),
    )
    try:
        if not 0 <= args.port <= 65535:
            raise ValueError(f"--port must be 0 to 65535, not {args.port}")
        _check_tls(args.tls_cert, args.tls_key)
        _check_port(args.host, args.port)
        if args.http is not None:
            if not 0 <= args.http <= 65535 or (args.http == args.port and args.port):
                raise ValueError(f"--http must be a port from 0 to 65535 other than --port, not {args.http}")
            _check_port(args.host, args.http)
        config = ServerConfig(
            address=f"{args.host}:{args.port}",
            db=args.db,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
            engine_threads=args.engine_threads,
            max_live_matches=args.max_matches,
            max_message_bytes=args.max_message_bytes,
            max_concurrent_rpcs=args.max_concurrent_rpcs,
            sqlite_sync=args.sync,
            grace_seconds=args.grace,
            idle_seconds=args.idle_timeout or None,
            create_token=_create_token(args),
            http_port=args.http,
            ray_address=args.ray,
        )
        return serve(config, log_level=args.log_level)
    except refusals as exc:
        logging.getLogger("hunters.service").handlers.clear()
        print(f"hunters serve: error: {_describe(exc, args.db)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def _postgres_errors(db: str) -> tuple[type[BaseException], ...]:
    """What an unusable PostgreSQL database raises (nothing to catch when --db is a SQLite file)."""
    from .store_base import is_postgres

    if not is_postgres(db):
        return ()
    try:
        import psycopg
        import psycopg_pool
    except ImportError:
        return ()
    return (psycopg.Error, psycopg_pool.PoolTimeout)


def _describe(exc: BaseException, db: str) -> str:
    from .store_base import is_postgres, without_password

    if is_postgres(db) and not isinstance(exc, (OSError, ValueError)):
        return f"cannot use the database {without_password(db)}: {str(exc).strip().splitlines()[0]}"
    if isinstance(exc, FileNotFoundError):
        return f"no such file: {exc.filename}"
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename}"
    if isinstance(exc, sqlite3.Error):
        # Typically a volume or bind mount the server's user cannot write (the container runs as uid 10001).
        folder = os.path.dirname(os.path.abspath(db))
        if os.path.isdir(folder) and not os.access(folder, os.W_OK):
            return f"cannot use the database {db}: {folder} is not writable by uid {os.getuid()}"
        return f"cannot use the database {db}: {exc}"
    return str(exc)
