"""Starting one server from its settings, and an unusable setting said in one line: shared by
`hunters serve` (command.py) and each worker of `--workers N` (workers.py), so neither imports the other."""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
from typing import TYPE_CHECKING

from hunters.scale import ScaleError

if TYPE_CHECKING:
    from .server import ServerConfig


def refusals(db: str) -> tuple[type[BaseException], ...]:
    return (OSError, ValueError, sqlite3.Error, ScaleError, *_postgres_errors(db))


def refused(exc: BaseException, db: str) -> int:
    logging.getLogger("hunters.service").handlers.clear()
    print(f"hunters serve: error: {_describe(exc, db)}", file=sys.stderr)
    return 2


def serve_config(config: ServerConfig, log_level: str, log_format: str = "auto") -> int:
    """Serve `config` until SIGTERM/SIGINT (a worker of `--workers N` starts here); an unusable
    setting is one line on stderr and exit status 2."""
    from .server import serve

    try:
        return serve(config, log_level=log_level, log_format=log_format)
    except refusals(config.db) as exc:
        return refused(exc, config.db)
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
    from .sqlite_db import is_damaged
    from .store_base import is_postgres, without_password

    if is_postgres(db) and not isinstance(exc, (OSError, ValueError)):
        return f"cannot use the database {without_password(db)}: {str(exc).strip().splitlines()[0]}"
    if isinstance(exc, FileNotFoundError):
        return f"no such file: {exc.filename}"
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename}"
    if isinstance(exc, sqlite3.Error) and is_damaged(exc):
        return (
            f"the database {db} is damaged ({exc}): it was changed by something other than the server "
            f"(truncated, overwritten, half copied); restore it from a backup (`hunters db check {db}` says what "
            "is wrong)"
        )
    if isinstance(exc, sqlite3.Error):
        # Typically a volume or bind mount the server's user cannot write (the container runs as uid 10001).
        folder = os.path.dirname(os.path.abspath(db))
        if os.path.isdir(folder) and not os.access(folder, os.W_OK):
            return f"cannot use the database {db}: {folder} is not writable by uid {os.getuid()}"
        return f"cannot use the database {db}: {exc}"
    return str(exc)
