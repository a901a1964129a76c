"""The interface of the match store, which two databases implement: SQLite (store.py, embedded, one
server) and PostgreSQL (store_postgres.py, any number of replicas on one database).

A match is a record: its configuration and its moves, numbered from 0; the version of a match is
its number of moves. The store, not the server's memory, decides which move becomes version n+1:
`append_move` raises `VersionConflict` when move `idx` exists already (another server, or another
replica, got there first) or the match closed meanwhile. A store shared by replicas tells every
replica about each change (`listen`), so that each one's cache and watchers follow."""

from __future__ import annotations

import abc
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("hunters.service")

# A fault is over once a write works at least this long after the last failure: a nearly full disk
# lets a small write through now and then, which does not end the episode (nor start a new one).
RECOVERY_QUIET = 1.0

# The faults that make the server NOT_SERVING: no write can succeed until they end. DATABASE_BUSY
# (another process holding SQLite's lock for a while) is not one: other calls go on meanwhile.
OUTAGES = frozenset({"STORAGE_UNAVAILABLE", "DATABASE_UNAVAILABLE"})


# What the processes of one database tell each other of their callers' usage (usage.py): a row
# (kind, key, amount) as written; (process, kind, key, amount) as read back.
Row = tuple[str, str, float]
OtherRow = tuple[str, str, str, float]


class VersionConflict(Exception):
    """The move's version is taken, or the match is over, abandoned or gone: the caller lost a race."""


class StoreUnavailable(Exception):
    """The database cannot be used now: the call may be retried (UNAVAILABLE with `reason`). A move
    whose commit was cut off may or may not be stored: retry it with its request_id.

    Reasons: DATABASE_UNAVAILABLE (a shared store's server is down or unreachable), DATABASE_BUSY
    (another process holds the write lock past the busy timeout), STORAGE_UNAVAILABLE (the disk is
    full, the file unwritable, failing or damaged, or a file of it deleted, replaced, truncated or
    made immutable). `logged`: the store has logged the
    fault already (once per episode), so the caller need not."""

    def __init__(self, message: str, reason: str = "DATABASE_UNAVAILABLE", logged: bool = False):
        super().__init__(message)
        self.reason = reason
        self.logged = logged


@dataclass
class StoredMatch:
    seq: int
    match_id: str
    game: str
    record: dict[str, Any]
    config: bytes
    seat_hashes: list[str]
    admin_hash: str
    created_at: float
    over: bool
    abandoned: bool
    last_active: float
    moves: list[tuple[int, dict[str, Any]]]  # (seat, move json) in order


@dataclass(frozen=True)
class StoredReview:
    """A match's review as stored (reviews.py, review_sql.py): `state` is ``running`` (with its
    progress, `done` of `total` decisions, kept by `process` at `updated_at`), ``done`` (with the
    `review`'s JSON) or ``failed`` (with its `message`)."""

    match_id: str
    state: str
    done: int
    total: int
    review: str | None
    message: str
    process: str
    updated_at: float


@dataclass(frozen=True)
class Change:
    """What another replica did to a match: moved it to `version`, or `abandoned` / `deleted` it."""

    match_id: str
    version: int = -1
    abandoned: bool = False
    deleted: bool = False


def parse_change(payload: str) -> Change | None:
    """A change as the stores pass it between servers ("<match id> <version>", "<match id> a" or
    "<match id> d": a NOTIFY payload on PostgreSQL, a row of `changes` on SQLite) as a Change (None
    for one this version does not know)."""
    match_id, _, what = payload.partition(" ")
    if what == "a":
        return Change(match_id, abandoned=True)
    if what == "d":
        return Change(match_id, deleted=True)
    try:
        return Change(match_id, version=int(what))
    except ValueError:
        return None


# Called for every change the store hears of (its own included); runs on the server's event loop.
ChangeHandler = Callable[[Change], Awaitable[None]]
# Called when the store may have missed changes (its listening connection was lost and is back).
ResyncHandler = Callable[[], Awaitable[None]]


class MatchStore(abc.ABC):
    """All database access of the server. Every method runs on the server's event loop: an
    implementation that talks to a network must not block it."""

    # True: other servers share this database, so counts (the limit of active matches) come from it
    # and changes made elsewhere arrive through `listen`. False: this server is the only writer.
    shared: bool = False
    path: str  # what the server was given (`--db`): a file name or a connection URL
    # Told of every change of the store's health: a fault's reason (writes fail), or None (they work
    # again). The server answers NOT_SERVING in between.
    on_health: Callable[[str | None], None] | None = None
    fault: str | None = None  # the reason of the fault under way (logged once), or None
    # Set by the server before `listen`: whether a move of this match concerns it (the match is in
    # memory). Called from any thread. A store may leave out the other replicas' moves of the
    # matches it does not concern (a match is read fresh when loaded, and caught up after), counting
    # them in `moves_passed_over` instead.
    follows: Callable[[str], bool] | None = None
    moves_passed_over = 0
    _failed_at = 0.0  # when a call last failed (monotonic)

    def _faulted(self, exc: StoreUnavailable) -> None:
        """A call failed: the first failure of an episode is logged (one line), and the server told
        (`on_health`: an outage makes it NOT_SERVING until a write works again)."""
        self._failed_at = time.monotonic()
        if self.fault == exc.reason:
            return
        self.fault = exc.reason
        log.error("database fault", extra={"reason": exc.reason, "db": self.path, "error": str(exc)})
        if self.on_health is not None:
            self.on_health(exc.reason)

    def _succeeded(self) -> None:
        """A call worked: the fault under way (if any, and none for RECOVERY_QUIET s) is over."""
        if self.fault is None or time.monotonic() - self._failed_at < RECOVERY_QUIET:
            return
        reason, self.fault = self.fault, None
        log.warning("database works again", extra={"after": reason, "db": self.path})
        if self.on_health is not None:
            self.on_health(None)

    async def probe(self) -> None:  # noqa: B027 (optional: a store whose faults need no probe)
        """Try a small write (during a fault, to notice its end); raise StoreUnavailable if it fails."""

    async def check(self) -> None:  # noqa: B027 (optional)
        """Check that the database is still the one opened (raise StoreUnavailable if not)."""

    async def open(self) -> None:  # noqa: B027 (optional: a store may connect in its constructor)
        """Connect and create the schema (idempotent). Raises on an unusable database."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def secret(self, key: str) -> bytes:
        """A random secret made once per database (the key that signs page tokens): every replica
        on one database reads the same one."""

    @abc.abstractmethod
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
        """Store a new match; (seq, creation time). With `limit`, None instead when that many active
        matches exist already (checked and inserted atomically, for every replica at once)."""

    @abc.abstractmethod
    async def append_move(
        self,
        match_id: str,
        idx: int,
        seat: int,
        move: dict[str, Any],
        over: bool,
        request: tuple[str, str, bytes] | None,
    ) -> float:
        """Move number `idx` (0-based), the end of the match and the idempotency entry
        (request_id, fingerprint, response), atomically; durable when it returns. Returns the time of
        the move. Raises VersionConflict when move `idx` exists already."""

    @abc.abstractmethod
    async def request(self, match_id: str, request_id: str) -> tuple[str, bytes] | None:
        """(fingerprint, response) stored with a request id, or None."""

    @abc.abstractmethod
    async def load(self, match_id: str) -> StoredMatch | None: ...

    @abc.abstractmethod
    async def moves_from(self, match_id: str, idx: int) -> tuple[list[tuple[int, dict[str, Any]]], bool] | None:
        """(seat, move json) of the moves from number `idx` on, and whether the match is abandoned;
        None when the match is gone. What a replica reads to catch up with a change."""

    @abc.abstractmethod
    async def page(self, after_seq: int, limit: int, game: str | None) -> list[tuple[int, str]]:
        """(seq, match_id) of up to `limit` matches after position `after_seq`, in creation order."""

    @abc.abstractmethod
    async def live_count(self) -> int:
        """Active matches: neither over nor abandoned."""

    @abc.abstractmethod
    async def open_with_bots(self, quiet_before: float | None = None) -> list[str]:
        """Ids of the active matches some of whose seats the server plays; with `quiet_before`, only
        those with no move since then (a shared store: its moves keep the match's last activity)."""

    @abc.abstractmethod
    async def abandon_idle(self, idle_before: float) -> list[str]:
        """Mark every active match with no move since `idle_before` abandoned; return their ids."""

    @abc.abstractmethod
    async def abandon(self, match_id: str) -> bool:
        """Mark one active match abandoned (an all-bot match past its time); False if it was not active."""

    @abc.abstractmethod
    async def delete(self, match_id: str) -> None: ...

    # -- reviews (reviews.py): a row per match, claimed by one process at a time ----------------------
    @abc.abstractmethod
    async def claim_review(self, match_id: str, process: str, stale_before: float) -> bool:
        """Make `process` the one computing `match_id`'s review: a new row, or a failed review, or one
        whose process has not updated it since `stale_before` (epoch seconds), taken over. False
        when another process holds it, or it is done."""

    @abc.abstractmethod
    async def review_progress(self, match_id: str, process: str, done: int, total: int) -> bool:
        """Record the progress of a review `process` computes (its heartbeat); False when it is no
        longer that process's (taken over, or the match deleted)."""

    @abc.abstractmethod
    async def finish_review(
        self, match_id: str, process: str, done: int, total: int, review: str | None, message: str = ""
    ) -> bool:
        """Store the review's JSON (done), or None and why (failed), with its last progress; False
        when the review is no longer `process`'s."""

    @abc.abstractmethod
    async def load_review(self, match_id: str) -> StoredReview | None: ...

    @abc.abstractmethod
    async def unfinished_reviews(self, stale_before: float) -> list[str]:
        """Ids of the matches whose review runs and was last updated before `stale_before`."""

    async def share_usage(self, process: str, rows: Sequence[Row], gone: Sequence[tuple[str, str]]) -> list[OtherRow]:
        """Publish this process's callers' usage and read the other processes' (usage.py); a store
        that no other process writes has nothing to share."""
        return []

    async def listen(self, on_change: ChangeHandler, on_resync: ResyncHandler) -> None:  # noqa: B027 (optional)
        """Start hearing the changes other replicas make (a shared store); nothing otherwise."""


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def without_password(url: str) -> str:
    """`--db` fit for a log line: the password of a connection URL hidden."""
    head, sep, tail = url.partition("://")
    credentials, at, rest = tail.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    return f"{head}{sep}{credentials.split(':', 1)[0]}:***@{rest}"
