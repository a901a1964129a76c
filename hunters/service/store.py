"""SQLite storage of matches as records: configuration + moves. WAL journal; every accepted move
is committed before the reply, so a restart (or a kill -9) loses nothing that was acknowledged.

synchronous=NORMAL (default) survives a crash of the process; "full" also survives a power cut at
the cost of an fsync per move. A match is active, over, or abandoned (idle past the server's time
limit); only active matches count against the limit of unfinished matches."""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from typing import Any

from .store_base import MatchStore, StoredMatch, VersionConflict

__all__ = ["SQLiteStore", "Store", "StoredMatch"]

# one SQL statement and its parameters
_Statement = tuple[str, tuple[Any, ...]]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    record TEXT NOT NULL,          -- the game record at creation (configuration, piles), no moves
    config BLOB NOT NULL,          -- the GameConfig protobuf as created
    seat_hashes TEXT NOT NULL,     -- JSON list of SHA-256 token hashes, index = seat
    admin_hash TEXT NOT NULL,
    created_at REAL NOT NULL,
    over INTEGER NOT NULL DEFAULT 0  -- the version is the number of moves
);
CREATE TABLE IF NOT EXISTS moves (
    match_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,            -- the game API's Move.to_json()
    played_at REAL,                -- when it was accepted (the match's activity, for idle expiry)
    PRIMARY KEY (match_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    match_id TEXT NOT NULL,
    request_id TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    response BLOB NOT NULL,        -- the serialized PlayMoveResponse sent the first time
    PRIMARY KEY (match_id, request_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL            -- page_token_key: the secret that signs page tokens
) WITHOUT ROWID;
"""
# Columns added after the first release: (table, name, definition), added to older databases on open.
_ADDED_COLUMNS = (
    ("matches", "abandoned", "INTEGER NOT NULL DEFAULT 0"),  # 1: idle past the limit, closed
    ("matches", "last_active", "REAL"),  # creation, or a move seen by the last expiry sweep
    ("moves", "played_at", "REAL"),
    ("matches", "bots", "INTEGER NOT NULL DEFAULT 0"),  # 1: some seats are played by the server's bots
)
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS matches_open ON matches (over, abandoned, last_active)",
    "CREATE INDEX IF NOT EXISTS matches_game ON matches (game, seq)",
)


class SQLiteStore(MatchStore):
    """All database access; thread-safe (one connection behind a lock). Its calls are local and short,
    so they run on the event loop itself (the async methods never wait)."""

    shared = False

    def __init__(self, path: str, synchronous: str = "NORMAL"):
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if synchronous.upper() == 'FULL' else 'NORMAL'}")
            self._db.executescript(_SCHEMA)
            for table, name, definition in _ADDED_COLUMNS:
                if name not in {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
            self._db.execute("UPDATE matches SET last_active = created_at WHERE last_active IS NULL")
            for sql in _INDEXES:
                self._db.execute(sql)
            self._db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('page_token_key', ?)", (secrets.token_bytes(32),)
            )
        except BaseException:
            self._db.close()
            raise

    async def close(self) -> None:
        with self._lock:
            self._db.close()

    def _tx(self, statements: list[_Statement]) -> None:
        """Run the statements as one transaction (a single statement commits on its own)."""
        with self._lock:
            if len(statements) == 1:
                self._db.execute(*statements[0])
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    async def secret(self, key: str) -> bytes:
        with self._lock:
            return bytes(self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0])

    async def create(
        self,
        match_id: str,
        game: str,
        record: dict[str, Any],
        config: bytes,
        seat_hashes: list[str],
        admin_hash: str,
        over: bool,
        has_bots: bool = False,
        limit: int | None = None,
    ) -> tuple[int, float] | None:
        created = time.time()
        with self._lock:
            if limit is not None and self._live_count() >= limit:
                return None
            cur = self._db.execute(
                "INSERT INTO matches (match_id, game, record, config, seat_hashes, admin_hash, created_at, over,"
                " last_active, bots) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    game,
                    json.dumps(record),
                    config,
                    json.dumps(seat_hashes),
                    admin_hash,
                    created,
                    int(over),
                    created,
                    int(has_bots),
                ),
            )
            seq = cur.lastrowid
        assert seq is not None  # set by every successful INSERT
        return seq, created

    async def append_move(
        self,
        match_id: str,
        idx: int,
        seat: int,
        move: dict[str, Any],
        over: bool,
        request: tuple[str, str, bytes] | None,
    ) -> float:
        """Move number `idx` (0-based), the end of the match and the idempotency entry, atomically
        (a plain move is one INSERT). Returns the time of the move."""
        now = time.time()
        statements: list[_Statement] = [
            (
                "INSERT INTO moves (match_id, idx, seat, move, played_at) VALUES (?, ?, ?, ?, ?)",
                (match_id, idx, seat, json.dumps(move, separators=(",", ":")), now),
            )
        ]
        if over:
            statements.append(("UPDATE matches SET over = 1 WHERE match_id = ?", (match_id,)))
        if request is not None:
            request_id, fingerprint, response = request
            statements.append(
                (
                    "INSERT INTO requests (match_id, request_id, fingerprint, response) VALUES (?, ?, ?, ?)",
                    (match_id, request_id, fingerprint, response),
                )
            )
        try:
            self._tx(statements)
        except sqlite3.IntegrityError:  # another server process on this database got there first
            raise VersionConflict(match_id) from None
        return now

    async def request(self, match_id: str, request_id: str) -> tuple[str, bytes] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT fingerprint, response FROM requests WHERE match_id = ? AND request_id = ?",
                (match_id, request_id),
            ).fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    async def load(self, match_id: str) -> StoredMatch | None:
        with self._lock:
            row = self._db.execute(
                "SELECT seq, match_id, game, record, config, seat_hashes, admin_hash, created_at, over, abandoned,"
                " MAX(last_active, COALESCE((SELECT MAX(played_at) FROM moves WHERE moves.match_id = ?), 0))"
                " FROM matches WHERE match_id = ?",
                (match_id, match_id),
            ).fetchone()
            if row is None:
                return None
            moves = self._db.execute(
                "SELECT seat, move FROM moves WHERE match_id = ? ORDER BY idx", (match_id,)
            ).fetchall()
        return StoredMatch(
            row[0],
            row[1],
            row[2],
            json.loads(row[3]),
            bytes(row[4]),
            json.loads(row[5]),
            row[6],
            row[7],
            bool(row[8]),
            bool(row[9]),
            row[10],
            [(s, json.loads(m)) for s, m in moves],
        )

    async def moves_from(self, match_id: str, idx: int) -> tuple[list[tuple[int, dict[str, Any]]], bool] | None:
        with self._lock:
            row = self._db.execute("SELECT abandoned FROM matches WHERE match_id = ?", (match_id,)).fetchone()
            if row is None:
                return None
            moves = self._db.execute(
                "SELECT seat, move FROM moves WHERE match_id = ? AND idx >= ? ORDER BY idx", (match_id, idx)
            ).fetchall()
        return [(s, json.loads(m)) for s, m in moves], bool(row[0])

    async def page(self, after_seq: int, limit: int, game: str | None) -> list[tuple[int, str]]:
        """(seq, match_id) of up to `limit` matches after position `after_seq`, in creation order."""
        sql = (
            "SELECT seq, match_id FROM matches WHERE seq > ?"
            + (" AND game = ?" if game else "")
            + " ORDER BY seq LIMIT ?"
        )
        args = (after_seq, game, limit) if game else (after_seq, limit)
        with self._lock:
            return [(r[0], r[1]) for r in self._db.execute(sql, args).fetchall()]

    async def live_count(self) -> int:
        """Active matches: neither over nor abandoned (answered from the index)."""
        with self._lock:
            return self._live_count()

    def _live_count(self) -> int:
        count: int = self._db.execute("SELECT COUNT(*) FROM matches WHERE over = 0 AND abandoned = 0").fetchone()[0]
        return count

    async def open_with_bots(self, quiet_before: float | None = None) -> list[str]:
        """Ids of the active matches some of whose seats the server plays (`quiet_before` is for
        shared stores: one server has no other server's stalled bots to take over)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT match_id FROM matches WHERE over = 0 AND abandoned = 0 AND bots = 1 ORDER BY seq"
            ).fetchall()
        return [r[0] for r in rows]

    async def abandon_idle(self, idle_before: float) -> list[str]:
        """Mark every active match with no move since `idle_before` abandoned; return their ids.

        Moves carry their time, so playing never updates the match row; the sweep first brings the
        `last_active` of the candidates up to their latest move (each match is scanned about once per
        idle period), then abandons those still idle."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "UPDATE matches SET last_active = (SELECT MAX(played_at) FROM moves WHERE moves.match_id ="
                    " matches.match_id) WHERE over = 0 AND abandoned = 0 AND last_active < ?1 AND EXISTS"
                    " (SELECT 1 FROM moves WHERE moves.match_id = matches.match_id AND played_at >= ?1)",
                    (idle_before,),
                )
                rows = self._db.execute(
                    "UPDATE matches SET abandoned = 1 WHERE over = 0 AND abandoned = 0 AND last_active < ?"
                    " RETURNING match_id",
                    (idle_before,),
                ).fetchall()
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return [r[0] for r in rows]

    async def abandon(self, match_id: str) -> bool:
        with self._lock:
            cur = self._db.execute(
                "UPDATE matches SET abandoned = 1 WHERE match_id = ? AND over = 0 AND abandoned = 0", (match_id,)
            )
            return cur.rowcount > 0

    async def delete(self, match_id: str) -> None:
        self._tx(
            [
                ("DELETE FROM moves WHERE match_id = ?", (match_id,)),
                ("DELETE FROM requests WHERE match_id = ?", (match_id,)),
                ("DELETE FROM matches WHERE match_id = ?", (match_id,)),
            ]
        )


Store = SQLiteStore  # the name before there were two stores
