"""SQLite storage of matches as records: configuration + moves. WAL journal; every accepted move
is committed before the reply, so a restart (or a kill -9) loses nothing that was acknowledged.

synchronous=NORMAL (default) survives a crash of the process; "full" also survives a power cut at
the cost of an fsync per move. A match is active, over, or abandoned (idle past the server's time
limit); only active matches count against the limit of unfinished matches.

The database is used from one thread of its own, never from the event loop, so a slow disk or
another process holding the write lock never stalls the server: such a call waits at most the busy
timeout and fails with StoreUnavailable (DATABASE_BUSY), a full disk or an unwritable, failing,
deleted or replaced file with StoreUnavailable (STORAGE_UNAVAILABLE), each fault logged once until
writes work again. Before every write the file is checked to be the one opened (device and inode):
a database deleted or replaced under the server is never written to again (a restart opens the
new one).

Shared by the worker processes of one `hunters serve --workers N` (`shared=True`), the store works
as PostgreSQL's does for replicas (store_postgres.py): the database decides every race (a move is
inserted only while its number is free and the match neither over, abandoned nor deleted, else
VersionConflict), and every move, abandonment and deletion adds a row to `changes` in its own
transaction, which each worker polls (`listen`: a thread of its own looks at `PRAGMA data_version`
every 2 ms until a second after the last change it handed on, then less often down to every 20 ms,
reads the table only when another connection committed, and hands the other workers' changes to
the loop, leaving out their moves of matches this worker does not hold in memory: `follows`).
A write that finds another worker writing tries again in steps of 50 µs growing to 1 ms (up to the
busy timeout), instead of SQLite's busy-handler sleeps of 1, 2, 5 ms and more."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .groupcommit import GroupCommit
from .store_base import (
    ChangeHandler,
    MatchStore,
    ResyncHandler,
    StoredMatch,
    StoreUnavailable,
    VersionConflict,
    parse_change,
)

__all__ = ["SQLiteStore", "Store", "StoredMatch"]

# one SQL statement and its parameters
_Statement = tuple[str, tuple[Any, ...]]
_T = TypeVar("_T")
log = logging.getLogger("hunters.service")
BUSY_TIMEOUT = 2.0  # seconds a call waits for another process's write lock before DATABASE_BUSY
_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
# How often a shared store looks for the other workers' changes: every POLL_SECONDS until BUSY_SECONDS
# after the last change it handed to the loop, then the pause doubling up to QUIET_POLL_SECONDS (an
# idle worker wakes 50 times a second; each look costs ~0.1 ms of CPU).
POLL_SECONDS = 0.002
BUSY_SECONDS = 1.0
QUIET_POLL_SECONDS = 0.02
_CHANGES_PER_READ = 1000
KEEP_CHANGES = 100_000  # rows of `changes` kept; a worker further behind brings every match up to date

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
CREATE TABLE IF NOT EXISTS changes (
    -- what the workers of one database tell each other, in commit order. No AUTOINCREMENT (its
    -- sqlite_sequence row is one more write per move, ~10 µs): trimming keeps the newest rows, so the
    -- largest seq is never deleted and a new row's seq is always the largest so far plus one.
    seq INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL,
    what TEXT NOT NULL,            -- the new version, 'a' (abandoned) or 'd' (deleted)
    origin INTEGER NOT NULL DEFAULT 0  -- the process id of the worker that made it
);
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
    """All database access, on one thread of its own (one connection behind a lock); the async
    methods wait for it without blocking the event loop."""

    def __init__(
        self, path: str, synchronous: str = "NORMAL", busy_timeout: float = BUSY_TIMEOUT, shared: bool = False
    ):
        self.path = path
        self.shared = shared  # other processes (the workers of one server) write this database too
        self._listener: asyncio.Task[None] | None = None  # applies what the watching thread read
        self._watching: threading.Thread | None = None  # polls for the other workers' changes
        self._stop_watching = threading.Event()
        self._origin = os.getpid()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=busy_timeout)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if synchronous.upper() == 'FULL' else 'NORMAL'}")
            # one transaction: the workers of one server, opening a new database at once, make it once
            self._db.executescript("BEGIN IMMEDIATE;" + _SCHEMA)
            for table, name, definition in _ADDED_COLUMNS:
                if name not in {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
            self._db.execute("UPDATE matches SET last_active = created_at WHERE last_active IS NULL")
            for sql in _INDEXES:
                self._db.execute(sql)
            self._db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('page_token_key', ?)", (secrets.token_bytes(32),)
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.close()
            raise
        self._busy = busy_timeout
        self._db.execute("PRAGMA busy_timeout = 0")  # calls on the loop never wait (see _run)
        # Checkpoints (the only fsyncs with synchronous=NORMAL) run on the database thread (`check`,
        # every second), not in whichever commit crosses the WAL's size; with FULL every commit syncs,
        # so every write goes to the thread.
        self._db.execute("PRAGMA wal_autocheckpoint = 0")
        self._durable = synchronous.upper() == "FULL"
        self._file = _identity(path)  # (device, inode) of the file opened; None for an in-memory database
        if shared and self._file is None:
            self._db.close()
            raise ValueError("workers share a database file, not an in-memory database")
        if shared:
            # every move this connection stores is told to the other workers in the same statement
            # (a plain move stays one INSERT); a trigger of this connection only, not of the file
            self._db.execute(
                "CREATE TEMP TRIGGER moves_told AFTER INSERT ON main.moves BEGIN"
                " INSERT INTO changes (match_id, what, origin) VALUES (NEW.match_id, NEW.idx + 1,"
                f" {self._origin}); END"
            )
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hunters-sqlite")
        self._moves: GroupCommit[list[_Statement], bool] = GroupCommit(self._commit_moves)  # synchronous=FULL
        self.lost = False  # the file was deleted or replaced: never written again

    async def close(self) -> None:
        self._stop_watching.set()
        if self._watching is not None:
            self._watching.join()
            self._watching = None
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        self._thread.shutdown(wait=True)
        with self._lock:
            self._db.close()

    # -- running and fault episodes -----------------------------------------------------------------
    async def _run(self, fn: Callable[..., _T], *args: Any, write: bool = False, thread: bool = False) -> _T:
        """`fn(*args)`: first on the loop itself without waiting for any lock (the common case: a few
        tens of microseconds, no thread handoff); if the database is locked (by another process, or
        by a call under way on the database thread), on the database thread, which waits up to the
        busy timeout while the loop goes on. A write whose caller is cancelled still finishes there
        (matches.py waits for it), so nothing committed goes unnoticed."""
        try:
            try:
                if thread or (write and self._durable):
                    raise _Locked  # an fsync (synchronous=FULL, a checkpoint) never runs on the loop
                result = self._at_once(fn, args, write)
            except _Locked:
                future = asyncio.get_running_loop().run_in_executor(
                    self._thread, functools.partial(self._guarded, fn, args, write, time.monotonic() + self._busy)
                )
                result = await future
        except StoreUnavailable as exc:
            self._faulted(exc)
            raise StoreUnavailable(str(exc), exc.reason, logged=True) from None
        if write:
            self._succeeded()
        return result

    def _at_once(self, fn: Callable[..., _T], args: tuple[Any, ...], write: bool) -> _T:
        """`fn(*args)` on the calling thread (the loop) if neither our lock nor SQLite's is taken;
        _Locked otherwise (nothing was changed: a transaction that found the database locked is rolled
        back, a single statement was not applied)."""
        if not self._lock.acquire(blocking=False):
            raise _Locked
        try:
            if write:
                self._check_file()
            try:
                return fn(*args)
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as exc:
                error = _unavailable(exc)
                if error.reason == "DATABASE_BUSY":
                    raise _Locked from None
                raise error from None
        finally:
            self._lock.release()

    def _guarded(self, fn: Callable[..., _T], args: tuple[Any, ...], write: bool, deadline: float) -> _T:
        """On the database thread: the lock waited for until `deadline` (the busy timeout from when
        the call was made, so calls queued behind a locked one do not wait one timeout each), the file
        checked before a write, SQLite's faults as StoreUnavailable."""
        with self._lock:
            if write:
                self._check_file()
            if not (write and self.shared):
                self._db.execute(f"PRAGMA busy_timeout = {max(0, int((deadline - time.monotonic()) * 1000))}")
            try:
                if write and self.shared:
                    return self._retrying(fn, args, deadline)
                return fn(*args)
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as exc:
                raise _unavailable(exc) from None
            finally:
                self._db.execute("PRAGMA busy_timeout = 0")

    def _retrying(self, fn: Callable[..., _T], args: tuple[Any, ...], deadline: float) -> _T:
        """`fn(*args)`, a write, tried again while another worker holds the write lock (each try
        changes nothing when it finds the lock taken), until `deadline`; on the database thread."""
        pause = 0.00005
        while True:
            try:
                return fn(*args)
            except sqlite3.OperationalError as exc:
                if _unavailable(exc).reason != "DATABASE_BUSY" or time.monotonic() >= deadline:
                    raise
            time.sleep(pause)
            pause = min(2 * pause, 0.001)

    def _check_file(self) -> None:
        """Before a write: the file is still the one opened (else it is lost for good) and not made
        read-only (chmod a-w: the open connection could still write, but an operator said it must not,
        and a restart could not open it; writes resume once it is writable again)."""
        if self.lost:
            raise StoreUnavailable(
                f"the database file {self.path} was deleted or replaced while serving: restart the server",
                "STORAGE_UNAVAILABLE",
            )
        if self._file is None:
            return
        try:
            st = os.stat(self.path)
        except OSError:
            st = None
        if st is None or (st.st_dev, st.st_ino) != self._file:
            self.lost = True
            self._check_file()
        assert st is not None
        if st.st_mode & 0o222 == 0:
            raise StoreUnavailable(f"the database file {self.path} is read-only", "STORAGE_UNAVAILABLE")

    async def probe(self) -> None:
        await self._run(self._probe, write=True)

    async def check(self) -> None:
        """The file is still the one opened; the WAL checkpointed into it (on the database thread)."""
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

    async def request(self, match_id: str, request_id: str) -> tuple[str, bytes] | None:
        return await self._run(self._request, match_id, request_id)

    def _request(self, match_id: str, request_id: str) -> tuple[str, bytes] | None:
        row = self._db.execute(
            "SELECT fingerprint, response FROM requests WHERE match_id = ? AND request_id = ?",
            (match_id, request_id),
        ).fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    async def load(self, match_id: str) -> StoredMatch | None:
        return await self._run(self._load, match_id)

    def _load(self, match_id: str) -> StoredMatch | None:
        row = self._db.execute(
            "SELECT seq, match_id, game, record, config, seat_hashes, admin_hash, created_at, over, abandoned,"
            " MAX(last_active, COALESCE((SELECT MAX(played_at) FROM moves WHERE moves.match_id = ?), 0))"
            " FROM matches WHERE match_id = ?",
            (match_id, match_id),
        ).fetchone()
        if row is None:
            return None
        moves = self._db.execute("SELECT seat, move FROM moves WHERE match_id = ? ORDER BY idx", (match_id,)).fetchall()
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
        return await self._run(self._moves_from, match_id, idx)

    def _moves_from(self, match_id: str, idx: int) -> tuple[list[tuple[int, dict[str, Any]]], bool] | None:
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
        return await self._run(self._rows, sql, args)

    def _rows(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._db.execute(sql, args).fetchall()]

    async def live_count(self) -> int:
        """Active matches: neither over nor abandoned (answered from the index)."""
        return await self._run(self._live_count)

    def _live_count(self) -> int:
        count: int = self._db.execute("SELECT COUNT(*) FROM matches WHERE over = 0 AND abandoned = 0").fetchone()[0]
        return count

    async def open_with_bots(self, quiet_before: float | None = None) -> list[str]:
        """Ids of the active matches some of whose seats the server plays (`quiet_before` is for
        shared stores: one server has no other server's stalled bots to take over)."""
        sql = "SELECT match_id FROM matches WHERE over = 0 AND abandoned = 0 AND bots = 1"
        if quiet_before is None:
            return [r[0] for r in await self._run(self._rows, sql + " ORDER BY seq", ())]
        sql += (
            " AND MAX(last_active, COALESCE((SELECT MAX(played_at) FROM moves WHERE moves.match_id ="
            " matches.match_id), 0)) < ? ORDER BY seq"
        )
        return [r[0] for r in await self._run(self._rows, sql, (quiet_before,))]

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
        ]
        if self.shared:
            statements.append(
                ("INSERT INTO changes (match_id, what, origin) VALUES (?, 'd', ?)", (match_id, self._origin))
            )
        await self._run(self._tx, statements, write=True)

    # -- hearing the other workers ----------------------------------------------------------------
    async def listen(self, on_change: ChangeHandler, on_resync: ResyncHandler) -> None:
        """A shared store: hear the other workers' changes until close(); nothing otherwise.

        A thread of its own polls, on a connection of its own, so that a look that finds nothing (most
        of them) never wakes the event loop; what it reads (the other workers' changes only) is
        handed to the loop in order."""
        if not self.shared:
            return
        loop = asyncio.get_running_loop()
        watch = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=self._busy)
        last = int(watch.execute("SELECT MAX(seq) FROM changes").fetchone()[0] or 0)
        heard: asyncio.Queue[tuple[bool, list[tuple[str, str]]]] = asyncio.Queue()
        self._stop_watching.clear()
        self._watching = threading.Thread(
            target=self._watch, args=(watch, last, loop, heard), name="hunters-sqlite-changes", daemon=True
        )
        self._watching.start()
        self._listener = loop.create_task(self._hear(heard, on_change, on_resync))

    async def _hear(
        self,
        heard: asyncio.Queue[tuple[bool, list[tuple[str, str]]]],
        on_change: ChangeHandler,
        on_resync: ResyncHandler,
    ) -> None:
        while True:
            resync, rows = await heard.get()
            try:
                if resync:
                    await on_resync()
                for match_id, what in rows:
                    change = parse_change(f"{match_id} {what}")
                    if change is not None:
                        await on_change(change)
            except Exception:
                log.exception("applying the other workers' changes failed")

    def _watch(
        self,
        watch: sqlite3.Connection,
        last: int,
        loop: asyncio.AbstractEventLoop,
        heard: asyncio.Queue[tuple[bool, list[tuple[str, str]]]],
    ) -> None:
        """The watching thread: `PRAGMA data_version` (it changes when another connection commits,
        this worker's own included) every POLL_SECONDS until BUSY_SECONDS after the last change handed
        on, then less often; the new rows of `changes` read when it changed, the other workers' ones
        that concern this worker (`follows`) handed on."""
        seen = -1
        pause = POLL_SECONDS
        busy_until = 0.0
        failing = False
        follows = self.follows
        try:
            while not self._stop_watching.wait(pause):
                try:
                    version = watch.execute("PRAGMA data_version").fetchone()[0]
                    if version == seen:
                        if time.monotonic() >= busy_until:
                            pause = min(2 * pause, QUIET_POLL_SECONDS)
                        continue
                    seen, told = version, False
                    while True:
                        rows = watch.execute(
                            "SELECT seq, match_id, what, origin FROM changes WHERE seq > ? ORDER BY seq LIMIT ?",
                            (last, _CHANGES_PER_READ),
                        ).fetchall()
                        resync = bool(rows) and rows[0][0] > last + 1  # trimmed past us: some are lost
                        if resync:
                            log.warning("changes missed: every match in memory catches up", extra={"db": self.path})
                        theirs = [(r[1], r[2]) for r in rows if r[3] != self._origin]
                        if follows is not None and theirs:
                            # the other workers' moves of matches not in memory: not worth waking the loop
                            kept = [c for c in theirs if not str(c[1]).isdigit() or follows(c[0])]
                            self.moves_passed_over += len(theirs) - len(kept)
                            theirs = kept
                        if rows:
                            last = rows[-1][0]
                        if theirs or resync:
                            loop.call_soon_threadsafe(heard.put_nowait, (resync, theirs))
                            told = True
                        if len(rows) < _CHANGES_PER_READ:
                            break
                    # only changes handed on keep the polls frequent: this worker's own commits and the
                    # others' moves of matches it does not hold back off like no change at all
                    if told:
                        pause, busy_until = POLL_SECONDS, time.monotonic() + BUSY_SECONDS
                    elif time.monotonic() >= busy_until:
                        pause = min(2 * pause, QUIET_POLL_SECONDS)
                    failing = False
                except sqlite3.Error as exc:  # the database away for a moment: look again later
                    if not failing:
                        log.warning("reading the other workers' changes failed", extra={"error": str(exc)})
                    failing, seen, pause = True, -1, QUIET_POLL_SECONDS
        except RuntimeError:  # the loop closed under us: the server is stopping
            pass
        finally:
            watch.close()


class _Locked(Exception):
    """The database is locked now: the call goes to the database thread, which may wait."""


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the database file, None when it is missing or not a file (":memory:")."""
    if path == ":memory:" or path.startswith("file:"):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return st.st_dev, st.st_ino


def _rollback(db: sqlite3.Connection) -> None:
    """Roll back a transaction a failure interrupted (SQLite may have rolled it back already)."""
    with contextlib.suppress(sqlite3.Error):
        db.execute("ROLLBACK")


def _unavailable(exc: sqlite3.Error) -> StoreUnavailable:
    """SQLite's error as the store's: a lock held too long is DATABASE_BUSY, anything else (a full
    disk, a read-only or failing file) STORAGE_UNAVAILABLE."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc)
    if primary in _BUSY or (primary is None and "locked" in text):
        return StoreUnavailable(f"the database is locked by another process: {text}", "DATABASE_BUSY")
    return StoreUnavailable(f"the database cannot be written: {text}", "STORAGE_UNAVAILABLE")


Store = SQLiteStore  # the name before there were two stores
