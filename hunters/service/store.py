"""SQLite storage of matches as records: configuration + moves. WAL journal; every accepted move
is committed before the reply, so a restart (or a kill -9) loses nothing that was acknowledged.

synchronous=NORMAL (default) survives a crash of the process; "full" also survives a power cut at
the cost of an fsync per move. A match is active, over, or abandoned (idle past the server's time
limit); only active matches count against the limit of unfinished matches.

The connection, how calls run and how storage faults are told (a busy, full, unwritable, damaged,
deleted, replaced or truncated file) are sqlite_db.py's; the checks of the files, sqlite_files.py's.

Shared by the worker processes of one `hunters serve --workers N` (`shared=True`), the store works
as PostgreSQL's does for replicas (store_postgres.py): the database decides every race (a move is
inserted only while its number is free and the match neither over, abandoned nor deleted, else
VersionConflict), and every move, abandonment and deletion adds a row to `changes` in its own
transaction, which each worker polls (`listen`, sqlite_changes.py).
A write that finds another worker writing tries again in steps of 50 µs growing to 1 ms (up to the
busy timeout), instead of SQLite's busy-handler sleeps of 1, 2, 5 ms and more."""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from . import review_sql, usage_sql
from .groupcommit import GroupCommit
from .sqlite_changes import ChangeListener
from .sqlite_db import BUSY_TIMEOUT, _rollback
from .sqlite_reads import SQLiteReads
from .store_base import (
    ChangeHandler,
    OtherRow,
    ResyncHandler,
    Row,
    StoredMatch,
    StoreUnavailable,
    VersionConflict,
)

__all__ = ["SQLiteStore", "Store", "StoredMatch"]

# one SQL statement and its parameters
_Statement = tuple[str, tuple[Any, ...]]
_REVIEWS = review_sql.Statements("?")
KEEP_CHANGES = 100_000  # rows of `changes` kept; a worker further behind brings every match up to date


class SQLiteStore(SQLiteReads, review_sql.StoreReviews):
    """The store's calls on one SQLite database (sqlite_db.py runs them)."""

    def __init__(
        self, path: str, synchronous: str = "NORMAL", busy_timeout: float = BUSY_TIMEOUT, shared: bool = False
    ):
        super().__init__(path, synchronous, busy_timeout, shared)
        self._moves: GroupCommit[list[_Statement], bool] = GroupCommit(self._commit_moves)  # synchronous=FULL
        self._changes = ChangeListener(self)

    @property
    def busy_timeout(self) -> float:
        return self._busy

    @property
    def origin(self) -> int:
        return self._origin

    def touchable(self) -> bool:
        """The database may be touched (its index is not one that would be SIGBUS)."""
        if self.untouchable or self._files is None:
            return not self.untouchable
        try:
            self._files.check_index()
        except StoreUnavailable:
            return False
        return True

    async def close(self) -> None:
        await self._changes.stop()
        self._close_db()

    async def probe(self) -> None:
        await self._run(self._probe, write=True)

    async def check(self) -> None:
        """The files are still the ones opened; the WAL checkpointed into the database file (on the
        database thread)."""
        await self._run(self._checkpoint, write=True, thread=True)

    def _checkpoint(self) -> None:
        if self.shared:
            self._db.execute("DELETE FROM changes WHERE seq <= (SELECT MAX(seq) FROM changes) - ?", (KEEP_CHANGES,))
        self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _probe(self) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('probe', ?)", (secrets.token_bytes(8),))

    def _tx(self, statements: list[_Statement]) -> bool:
        """Run the statements as one transaction (a single statement commits on its own), its lock
        held. False, and nothing changed, when the first statement changed no row."""
        if len(statements) == 1:
            return self._db.execute(*statements[0]).rowcount != 0
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if self._db.execute(*statements[0]).rowcount == 0:
                _rollback(self._db)
                return False
            for sql, args in statements[1:]:
                self._db.execute(sql, args)
            self._db.execute("COMMIT")
        except BaseException:
            _rollback(self._db)
            raise
        return True

    # -- the store's calls --------------------------------------------------------------------------
    async def secret(self, key: str) -> bytes:
        return await self._run(self._secret, key)

    def _secret(self, key: str) -> bytes:
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
        row = (
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
        )
        seq = await self._run(self._create, row, limit, write=True)
        return None if seq is None else (seq, created)

    def _create(self, row: tuple[Any, ...], limit: int | None) -> int | None:
        if limit is None:
            return self._insert_match(row)
        # counted and inserted in one transaction: the workers of one database create at once
        self._db.execute("BEGIN IMMEDIATE")
        try:
            seq = None if self._live_count() >= limit else self._insert_match(row)
            self._db.execute("COMMIT")
        except BaseException:
            _rollback(self._db)
            raise
        return seq

    def _insert_match(self, row: tuple[Any, ...]) -> int:
        cur = self._db.execute(
            "INSERT INTO matches (match_id, game, record, config, seat_hashes, admin_hash, created_at, over,"
            " last_active, bots) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )
        assert cur.lastrowid is not None  # set by every successful INSERT
        return cur.lastrowid

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
        if self.shared:
            # the move only while the match is open (another worker may have ended, abandoned or
            # deleted it), and the change the other workers poll for
            # (its row of `changes` comes from the trigger made in __init__)
            statements[0] = (
                "INSERT INTO moves (match_id, idx, seat, move, played_at) SELECT ?, ?, ?, ?, ? WHERE EXISTS"
                " (SELECT 1 FROM matches WHERE match_id = ? AND over = 0 AND abandoned = 0)",
                (*statements[0][1], match_id),
            )
        try:
            if self._durable:  # every commit syncs: the moves that arrive meanwhile share the next one
                stored = await self._moves.submit(statements)
            else:  # a commit with no sync, on the loop (about 12 µs): nothing to share
                stored = await self._run(self._tx, statements, write=True)
        except sqlite3.IntegrityError:  # another server process on this database got there first
            raise VersionConflict(match_id) from None
        if not stored:
            raise VersionConflict(match_id)
        return now

    async def _commit_moves(self, batch: list[list[_Statement]]) -> list[bool | BaseException]:
        """A batch of moves in one transaction (one sync), on the database thread."""
        stored: list[bool | BaseException] = await self._run(self._tx_batch, batch, write=True, thread=True)
        return stored

    def _tx_batch(self, batch: list[list[_Statement]]) -> list[bool | BaseException]:
        """Each write's statements as `_tx` runs them, all in one transaction, each in a savepoint
        of its own: a write whose first statement changes no row (or breaks a key: another process
        stored that version) is undone alone and answered False."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        out: list[bool | BaseException] = []
        try:
            for statements in batch:
                db.execute("SAVEPOINT move")
                try:
                    stored = db.execute(*statements[0]).rowcount != 0
                    if stored:
                        for sql, args in statements[1:]:
                            db.execute(sql, args)
                except sqlite3.IntegrityError:
                    stored = False
                if not stored:
                    db.execute("ROLLBACK TO move")
                db.execute("RELEASE move")
                out.append(stored)
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return out

    async def abandon_idle(self, idle_before: float) -> list[str]:
        """Mark every active match with no move since `idle_before` abandoned; return their ids.

        Moves carry their time, so playing never updates the match row; the sweep first brings the
        `last_active` of the candidates up to their latest move (each match is scanned about once per
        idle period), then abandons those still idle."""
        return await self._run(self._abandon_idle, idle_before, write=True)

    def _abandon_idle(self, idle_before: float) -> list[str]:
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
            if self.shared:
                self._db.executemany(
                    "INSERT INTO changes (match_id, what, origin) VALUES (?, 'a', ?)",
                    [(r[0], self._origin) for r in rows],
                )
            self._db.execute("COMMIT")
        except BaseException:
            _rollback(self._db)
            raise
        return [r[0] for r in rows]

    async def abandon(self, match_id: str) -> bool:
        statements: list[_Statement] = [
            ("UPDATE matches SET abandoned = 1 WHERE match_id = ? AND over = 0 AND abandoned = 0", (match_id,))
        ]
        if self.shared:
            statements.append(
                ("INSERT INTO changes (match_id, what, origin) VALUES (?, 'a', ?)", (match_id, self._origin))
            )
        return await self._run(self._tx, statements, write=True)

    async def delete(self, match_id: str) -> None:
        # the match row first: when it is gone already nothing else is done (nor told)
        statements: list[_Statement] = [
            ("DELETE FROM matches WHERE match_id = ?", (match_id,)),
            ("DELETE FROM moves WHERE match_id = ?", (match_id,)),
            ("DELETE FROM requests WHERE match_id = ?", (match_id,)),
            (_REVIEWS.delete, (match_id,)),
        ]
        if self.shared:
            statements.append(
                ("INSERT INTO changes (match_id, what, origin) VALUES (?, 'd', ?)", (match_id, self._origin))
            )
        await self._run(self._tx, statements, write=True)

    # -- reviews (review_sql.StoreReviews) -----------------------------------------------------------
    _reviews = _REVIEWS

    async def _review_rows(
        self, sql: str, args: tuple[Any, ...], write: bool = False, large: bool = False
    ) -> list[tuple[Any, ...]]:
        # a review's JSON is read and written on the database thread
        return await self._run(self._rows, sql, args, write=write, thread=large)

    async def share_usage(self, process: str, rows: Sequence[Row], gone: Sequence[tuple[str, str]]) -> list[OtherRow]:
        if not self.shared:
            return []
        return await self._run(usage_sql.sqlite_share, self._db, process, rows, gone, write=True, thread=True)

    async def listen(self, on_change: ChangeHandler, on_resync: ResyncHandler) -> None:
        """A shared store: hear the other workers' changes until close(); nothing otherwise."""
        if self.shared:
            self._changes.start(on_change, on_resync)


Store = SQLiteStore  # the name before there were two stores
