"""The SQLite store's connection: the database opened (schema made or brought up to date), and
every call run on the loop when the database is free, else on a thread of its own, with SQLite's
faults turned into the store's (store.py holds the calls themselves).

The database is used from one thread at a time, never waiting on the event loop, so a slow disk or
another process holding the write lock never stalls the server: such a call waits at most the busy
timeout and fails with StoreUnavailable (DATABASE_BUSY), a full disk or an unwritable, failing,
damaged, deleted, replaced or truncated file with StoreUnavailable (STORAGE_UNAVAILABLE), each fault
logged once until writes work again.

Before every write, and again after it and before it is acknowledged, the database's files are
checked to be the ones opened and no shorter than seen (sqlite_files.py): a database, `-wal` log or
`-shm` index deleted, replaced or truncated under the server is never written to again (a restart
opens what is there). When only the log was deleted or replaced, the log this server holds open is
first copied into the database file (a checkpoint), so the moves it acknowledged survive a restart.
Before every use, the `-shm` index is checked to be safe to touch (not immutable, not truncated:
either would be SIGBUS), and the database is not touched at all once it is not."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from . import review_sql, usage_sql
from .sqlite_files import FileGuard, FileLost, unusable_index
from .store_base import MatchStore, StoreUnavailable

_T = TypeVar("_T")
BUSY_TIMEOUT = 2.0  # seconds a call waits for another process's write lock before DATABASE_BUSY
_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
# SQLite's reports of a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_IOERR_SHORT_READ: a
# truncated file): nothing more is written to it
_DAMAGED = {11, 26, 522}

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


def _into_wal(db: sqlite3.Connection, busy_timeout: float) -> None:
    """Put the database in WAL mode. SQLite does not wait on its busy handler for this pragma: when
    the workers of one server open a new file at once, all but one find it locked, so they retry
    until the busy timeout (at least a second) is spent."""
    deadline = time.monotonic() + max(1.0, busy_timeout)
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorcode", None) not in _BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class SQLiteDatabase(MatchStore):
    """One connection behind a lock, its thread, and the checks of its files; the async `_run`
    waits for a call without blocking the event loop."""

    def __init__(
        self, path: str, synchronous: str = "NORMAL", busy_timeout: float = BUSY_TIMEOUT, shared: bool = False
    ):
        self.path = path
        self.shared = shared  # other processes (the workers of one server) write this database too
        self._origin = os.getpid()
        self._lock = threading.Lock()
        local = path != ":memory:" and not path.startswith("file:")
        if local and (why := unusable_index(path)) is not None:
            raise ValueError(why)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=busy_timeout)
        try:
            if local and _emptied(path, self._db):
                raise ValueError(
                    f"the database {path} is empty but its log {path}-wal is not: the file was truncated; restore it "
                    f"from a backup (`hunters db check {path}` says what is wrong), or move both away to start afresh"
                )
            _into_wal(self._db, busy_timeout)
            self._db.execute(f"PRAGMA synchronous={'FULL' if synchronous.upper() == 'FULL' else 'NORMAL'}")
            # one transaction: the workers of one server, opening a new database at once, make it once
            self._db.executescript("BEGIN IMMEDIATE;" + _SCHEMA + usage_sql.SQLITE_SCHEMA + review_sql.SQLITE_SCHEMA)
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
        if shared and not local:
            self._db.close()
            raise ValueError("workers share a database file, not an in-memory database")
        # the files as opened (the database, its log and index), checked around every write
        self._files = FileGuard(path) if local else None
        if shared:
            # every move this connection stores is told to the other workers in the same statement
            # (a plain move stays one INSERT); a trigger of this connection only, not of the file
            self._db.execute(
                "CREATE TEMP TRIGGER moves_told AFTER INSERT ON main.moves BEGIN"
                " INSERT INTO changes (match_id, what, origin) VALUES (NEW.match_id, NEW.idx + 1,"
                f" {self._origin}); END"
            )
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hunters-sqlite")
        self.lost: str | None = None  # why the files cannot be trusted any more: never written again
        self.untouchable = False  # the index would be SIGBUS: the database is not even read any more

    def _close_db(self) -> None:
        self._thread.shutdown(wait=True)
        with self._lock:
            self._db.close()
            if self._files is not None:
                self._files.close()

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
            self._before(write)
            try:
                result = fn(*args)
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as exc:
                error = self._unavailable(exc)
                if error.reason == "DATABASE_BUSY":
                    raise _Locked from None
                raise error from None
            if write:
                self._after()
            return result
        finally:
            self._lock.release()

    def _guarded(self, fn: Callable[..., _T], args: tuple[Any, ...], write: bool, deadline: float) -> _T:
        """On the database thread: the lock waited for until `deadline` (the busy timeout from when
        the call was made, so calls queued behind a locked one do not wait one timeout each), the file
        checked before a write, SQLite's faults as StoreUnavailable."""
        with self._lock:
            self._before(write)
            if not (write and self.shared):
                self._db.execute(f"PRAGMA busy_timeout = {max(0, int((deadline - time.monotonic()) * 1000))}")
            try:
                result = self._retrying(fn, args, deadline) if write and self.shared else fn(*args)
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as exc:
                raise self._unavailable(exc) from None
            finally:
                if not self.untouchable:
                    self._db.execute("PRAGMA busy_timeout = 0")
            if write:
                self._after()
            return result

    def _retrying(self, fn: Callable[..., _T], args: tuple[Any, ...], deadline: float) -> _T:
        """`fn(*args)`, a write, tried again while another worker holds the write lock (each try
        changes nothing when it finds the lock taken), until `deadline`; on the database thread."""
        pause = 0.00005
        while True:
            try:
                return fn(*args)
            except sqlite3.OperationalError as exc:
                if _busy(exc) is None or time.monotonic() >= deadline:
                    raise
            time.sleep(pause)
            pause = min(2 * pause, 0.001)

    def _before(self, write: bool) -> None:
        """Before a call, its lock held: the index is safe to touch and, before a write, the files
        are the ones opened and the database file writable; StoreUnavailable otherwise."""
        if self.untouchable or (write and self.lost):
            raise StoreUnavailable(self.lost or "", "STORAGE_UNAVAILABLE")
        if self._files is None:
            return
        try:
            if not write:
                self._files.check_index()
                return
            self._files.check()
        except FileLost as exc:
            raise self._lose(exc) from None
        if self._files.read_only:
            # chmod a-w: the open connection could still write, but an operator said it must not, and
            # a restart could not open it; writes resume once it is writable again
            raise StoreUnavailable(f"the database file {self.path} is read-only", "STORAGE_UNAVAILABLE")

    def _after(self) -> None:
        """After a write, before it is acknowledged: the files are still the ones it went to."""
        if self._files is None:
            return
        try:
            self._files.check()
        except FileLost as exc:
            raise self._lose(exc) from None

    def _lose(self, exc: FileLost) -> StoreUnavailable:
        """The files cannot be trusted any more: never written again (nor touched, when the index is
        unsafe); a log deleted or replaced is first copied into the database file from the one open."""
        message = str(exc)
        if exc.rescue:
            try:
                busy, frames, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                if busy or copied < frames:
                    message += f" (only {copied} of its {frames} pages could be copied into the database file)"
                else:
                    message += " (the log it had open was copied into the database file first: nothing is lost)"
            except sqlite3.Error as err:
                message += f" (copying the log it had open into the database file failed: {err})"
        self.lost = message
        self.untouchable = not exc.touchable
        return StoreUnavailable(message, "STORAGE_UNAVAILABLE")

    def _unavailable(self, exc: sqlite3.Error) -> StoreUnavailable:
        """SQLite's error as the store's: a lock held too long is DATABASE_BUSY, anything else (a full
        disk, a read-only, failing or damaged file) STORAGE_UNAVAILABLE; a damaged file is never
        written again."""
        busy = _busy(exc)
        if busy is not None:
            return busy
        if is_damaged(exc):
            self.lost = (
                f"the database file {self.path} is damaged ({exc}): nothing more is written; restore it from a "
                f"backup (`hunters db check {self.path}` says what is wrong)"
            )
            return StoreUnavailable(self.lost, "STORAGE_UNAVAILABLE")
        return StoreUnavailable(f"the database cannot be written: {exc}", "STORAGE_UNAVAILABLE")


def _busy(exc: sqlite3.Error) -> StoreUnavailable | None:
    """DATABASE_BUSY when SQLite's error is a lock held too long, else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc)
    if primary in _BUSY or (primary is None and "locked" in text):
        return StoreUnavailable(f"the database is locked by another process: {text}", "DATABASE_BUSY")
    return None


def _emptied(path: str, db: sqlite3.Connection) -> bool:
    """The database file is empty and its log holds nothing usable, yet the log is not empty: the
    file was truncated (a new database killed before its first checkpoint has its schema in the log)."""
    try:
        if os.path.getsize(path) > 0 or os.path.getsize(path + "-wal") <= 32:
            return False
    except OSError:
        return False
    return int(db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]) == 0


def is_damaged(exc: BaseException) -> bool:
    """SQLite's error says the file is damaged (malformed, not a database, shorter than it says)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and (code in _DAMAGED or (code & 0xFF) in _DAMAGED)


def integrity(path: str) -> list[str]:
    """What SQLite's `PRAGMA integrity_check` finds wrong in the database at `path` (read only;
    empty when it is sound). FileNotFoundError when there is no such file."""
    if not os.path.isfile(path):
        raise FileNotFoundError(2, "no such file", path)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return [str(exc)]
    try:
        rows = [str(r[0]) for r in db.execute("PRAGMA integrity_check(100)").fetchall()]
    except sqlite3.Error as exc:
        return [str(exc)]
    finally:
        db.close()
    return [] if rows == ["ok"] else rows


class _Locked(Exception):
    """The database is locked now: the call goes to the database thread, which may wait."""


def _rollback(db: sqlite3.Connection) -> None:
    """Roll back a transaction a failure interrupted (SQLite may have rolled it back already)."""
    with contextlib.suppress(sqlite3.Error):
        db.execute("ROLLBACK")
