"""The `usage` table through which the processes of one database share their callers' usage
(usage.py), in SQLite and in PostgreSQL: one row per process, kind and caller key, each process's
heartbeat a row of its own."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from .store_base import OtherRow, Row
from .usage import HEARTBEAT, STALE_SECONDS

SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS usage (
    process TEXT NOT NULL,         -- usage.process_id() of the process that wrote it
    kind TEXT NOT NULL,            -- e.g. 'evaluate:counter' (engine seconds), 'bot_seats:gauge'
    key TEXT NOT NULL,             -- the caller
    amount REAL NOT NULL,
    at REAL NOT NULL,              -- when it was written (epoch seconds)
    PRIMARY KEY (process, kind, key)
) WITHOUT ROWID;
"""

POSTGRES_SCHEMA = """CREATE TABLE IF NOT EXISTS usage (
    process TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    amount DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (process, kind, key)
)"""

_STALE = "SELECT process FROM usage WHERE kind = '' AND key = '' AND at < {p}"
_OTHERS = "SELECT process, kind, key, amount FROM usage WHERE process <> {p}"  # heartbeats too


def sqlite_share(
    db: sqlite3.Connection, process: str, rows: Sequence[Row], gone: Sequence[tuple[str, str]]
) -> list[OtherRow]:
    """usage.UsageStore.share_usage on a SQLite connection (in autocommit mode), as one transaction."""
    now = time.time()
    db.execute("BEGIN IMMEDIATE")
    try:
        db.executemany(
            "INSERT OR REPLACE INTO usage (process, kind, key, amount, at) VALUES (?, ?, ?, ?, ?)",
            [(process, kind, key, amount, now) for kind, key, amount in (*rows, (*HEARTBEAT, 0.0))],
        )
        db.executemany("DELETE FROM usage WHERE process = ? AND kind = ? AND key = ?", [(process, *g) for g in gone])
        db.execute(f"DELETE FROM usage WHERE process IN ({_STALE.format(p='?')})", (now - STALE_SECONDS,))
        others = [tuple(row) for row in db.execute(_OTHERS.format(p="?"), (process,))]
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return others


async def postgres_share(
    conn: Any, process: str, rows: Sequence[Row], gone: Sequence[tuple[str, str]]
) -> list[OtherRow]:
    """The same on a psycopg AsyncConnection, as one transaction."""
    now = time.time()
    async with conn.transaction(), conn.cursor() as cur:
        await cur.executemany(
            "INSERT INTO usage (process, kind, key, amount, at) VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT (process, kind, key) DO UPDATE SET amount = EXCLUDED.amount, at = EXCLUDED.at",
            [(process, kind, key, amount, now) for kind, key, amount in (*rows, (*HEARTBEAT, 0.0))],
        )
        if gone:
            await cur.executemany(
                "DELETE FROM usage WHERE process = %s AND kind = %s AND key = %s", [(process, *g) for g in gone]
            )
        await cur.execute(f"DELETE FROM usage WHERE process IN ({_STALE.format(p='%s')})", (now - STALE_SECONDS,))
        await cur.execute(_OTHERS.format(p="%s"), (process,))
        return [tuple(row) for row in await cur.fetchall()]
