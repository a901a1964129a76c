"""PostgreSQL storage of matches (psycopg 3, asynchronous): any number of server replicas on one
database. The records are the same as SQLite's (store.py): configuration + moves.

The database decides every race. A move is one statement: a conditional UPDATE of the match row
(`version = idx`, neither over nor abandoned) that, when it matched, inserts the move (and the
request id of an idempotent call) and NOTIFYs "<match id> <version>"; when it matched no row the
caller lost (VersionConflict). Concurrent moves on one match queue on its row lock and exactly one
finds its version. Creation takes a transaction-scoped advisory lock to count the active matches
against the limit, so the limit holds across replicas. Abandoning and deleting NOTIFY
"<match id> a" / "<match id> d". Each server LISTENs on one connection of its own and feeds
what it hears to the match manager (`listen`); after that connection comes back it asks for a
resync, since notifications sent while it was gone are lost."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from . import review_sql, usage_sql
from .groupcommit import GroupCommit
from .store_base import (
    ChangeHandler,
    OtherRow,
    ResyncHandler,
    Row,
    StoredMatch,
    StoreUnavailable,
    VersionConflict,
    parse_change,
)

log = logging.getLogger("hunters.service")

PROBE_TIMEOUT = 2.0  # seconds the health probe waits for a connection of the pool
CHANNEL = "hunters_matches"
_SCHEMA_LOCK = 0x68756E7465727301  # advisory lock keys ("hunters" + n): schema creation, match creation
_CREATE_LOCK = 0x68756E7465727302

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS matches (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        match_id TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        record TEXT NOT NULL,
        config BYTEA NOT NULL,
        seat_hashes TEXT NOT NULL,
        admin_hash TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        over BOOLEAN NOT NULL DEFAULT false,
        abandoned BOOLEAN NOT NULL DEFAULT false,
        last_active DOUBLE PRECISION NOT NULL,  -- creation or the latest move (kept by every move)
        bots BOOLEAN NOT NULL DEFAULT false,
        version INTEGER NOT NULL DEFAULT 0       -- the number of moves: the race is decided on it
    )""",
    """CREATE TABLE IF NOT EXISTS moves (
        match_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        seat SMALLINT NOT NULL,
        move TEXT NOT NULL,
        played_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (match_id, idx)
    )""",
    """CREATE TABLE IF NOT EXISTS requests (
        match_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        response BYTEA NOT NULL,
        PRIMARY KEY (match_id, request_id)
    )""",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BYTEA NOT NULL)",
    "CREATE INDEX IF NOT EXISTS matches_open ON matches (last_active) WHERE NOT over AND NOT abandoned",
    "CREATE INDEX IF NOT EXISTS matches_bots ON matches (seq) WHERE bots AND NOT over AND NOT abandoned",
    "CREATE INDEX IF NOT EXISTS matches_game ON matches (game, seq)",
    usage_sql.POSTGRES_SCHEMA,
    review_sql.POSTGRES_SCHEMA,
)
_REVIEWS = review_sql.Statements("%s")

_MOVE = f"""
WITH bumped AS (
    UPDATE matches SET version = version + 1, last_active = %(now)s, over = %(over)s
    WHERE match_id = %(match_id)s AND version = %(idx)s AND NOT over AND NOT abandoned
    RETURNING match_id, version
), moved AS (
    INSERT INTO moves (match_id, idx, seat, move, played_at)
    SELECT match_id, version - 1, %(seat)s, %(move)s, %(now)s FROM bumped
), answered AS (
    INSERT INTO requests (match_id, request_id, fingerprint, response)
    SELECT match_id, %(request_id)s, %(fingerprint)s, %(response)s FROM bumped WHERE %(has_request)s
)
SELECT pg_notify('{CHANNEL}', match_id || ' ' || version) FROM bumped
"""
_ABANDON = f"""
WITH idle AS (
    UPDATE matches SET abandoned = true WHERE NOT over AND NOT abandoned AND last_active < %s RETURNING match_id
)
SELECT match_id, pg_notify('{CHANNEL}', match_id || ' a') FROM idle
"""
_ABANDON_ONE = f"""
WITH one AS (
    UPDATE matches SET abandoned = true WHERE match_id = %s AND NOT over AND NOT abandoned RETURNING match_id
)
SELECT match_id, pg_notify('{CHANNEL}', match_id || ' a') FROM one
"""


ON_LOOP_ROWS = 256  # moves whose JSON is read on the event loop itself; more are read on a thread


async def _parsed(rows: list[tuple[Any, ...]]) -> list[tuple[int, dict[str, Any]]]:
    """(seat, move) of the rows (seat, move JSON): a long match's on a thread (20,000 moves take tens
    of milliseconds, which the event loop must not wait through)."""

    def parse() -> list[tuple[int, dict[str, Any]]]:
        return [(int(seat), json.loads(move)) for seat, move in rows]

    return parse() if len(rows) <= ON_LOOP_ROWS else await asyncio.to_thread(parse)


class PostgresStore(review_sql.StoreReviews):
    """The match store on a PostgreSQL database shared by any number of servers."""

    shared = True

    def __init__(self, url: str, min_connections: int = 2, max_connections: int = 10):
        self.path = url
        self._moves: GroupCommit[dict[str, Any], bool] = GroupCommit(self._commit_moves)
        self._pool = AsyncConnectionPool(
            url,
            min_size=min_connections,
            max_size=max_connections,
            kwargs={"autocommit": True},
            open=False,
            name="hunters",
            timeout=10,  # seconds a call waits for a connection before StoreUnavailable
        )
        self._listener: asyncio.Task[None] | None = None

    async def open(self) -> None:
        # One plain connection first: an unreachable server or a refused login is an error now, in
        # the server's words, instead of a pool that retries in the background.
        conn = await psycopg.AsyncConnection.connect(self.path, autocommit=True, connect_timeout=10)
        async with conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for sql in _SCHEMA:
                await conn.execute(sql)
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ('page_token_key', %s) ON CONFLICT (key) DO NOTHING",
                (secrets.token_bytes(32),),
            )
        await self._pool.open(wait=True, timeout=30)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
            self._listener = None
        await self._pool.close()

    @contextlib.asynccontextmanager
    async def _connection(self, timeout: float | None = None) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A connection of the pool; a database out of reach is StoreUnavailable (the first of an
        outage logged, the server told: NOT_SERVING until a call works again)."""
        try:
            async with self._pool.connection(timeout=timeout) as conn:
                yield conn
        except (psycopg.OperationalError, PoolTimeout) as exc:
            text = str(exc).strip()
            error = StoreUnavailable(f"the database cannot be reached: {text.splitlines()[0] if text else repr(exc)}")
            self._faulted(error)
            raise StoreUnavailable(str(error), error.reason, logged=True) from exc
        self._succeeded()

    async def probe(self) -> None:
        """One round trip (every second while the database is out of reach, to notice its return)."""
        async with self._connection(timeout=PROBE_TIMEOUT) as conn:
            await conn.execute("SELECT 1")

    async def check(self) -> None:
        """The same round trip: an outage is noticed (health NOT_SERVING) with no call in flight."""
        await self.probe()

    async def _fetch(self, sql: str, args: Any = None) -> list[tuple[Any, ...]]:
        async with self._connection() as conn:
            cur = await conn.execute(sql, args)
            return await cur.fetchall()

    async def secret(self, key: str) -> bytes:
        rows = await self._fetch("SELECT value FROM meta WHERE key = %s", (key,))
        return bytes(rows[0][0])

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
        async with self._connection() as conn, conn.transaction():
            if limit is not None:
                # Creations queue here, so each one counts the matches the previous one committed.
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_CREATE_LOCK,))
                cur = await conn.execute("SELECT count(*) FROM matches WHERE NOT over AND NOT abandoned")
                row = await cur.fetchone()
                if row is not None and row[0] >= limit:
                    return None
            cur = await conn.execute(
                "INSERT INTO matches (match_id, game, record, config, seat_hashes, admin_hash, created_at, over,"
                " last_active, bots) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING seq",
                (
                    match_id,
                    game,
                    json.dumps(record),
                    config,
                    json.dumps(seat_hashes),
                    admin_hash,
                    created,
                    over,
                    created,
                    has_bots,
                ),
            )
            row = await cur.fetchone()
        assert row is not None
        return int(row[0]), created

    async def append_move(
        self,
        match_id: str,
        idx: int,
        seat: int,
        move: dict[str, Any],
        over: bool,
        request: tuple[str, str, bytes] | None,
    ) -> float:
        now = time.time()
        request_id, fingerprint, response = request if request is not None else ("", "", b"")
        args = {
            "now": now,
            "over": over,
            "match_id": match_id,
            "idx": idx,
            "seat": seat,
            "move": json.dumps(move, separators=(",", ":")),
            "request_id": request_id,
            "fingerprint": fingerprint,
            "response": response,
            "has_request": request is not None,
        }
        if not await self._moves.submit(args):
            raise VersionConflict(match_id)
        return now

    async def _commit_moves(self, batch: list[dict[str, Any]]) -> list[bool | BaseException]:
        """Moves that arrived together, in one transaction (one WAL flush), their statements
        pipelined; alone, one statement as before. If one of them breaks a key (a request id or move
        written past the version check) nothing of the batch is stored, and each is tried alone for
        its own outcome."""
        if len(batch) > 1:
            try:
                return await self._moves_together(batch)
            except psycopg.errors.UniqueViolation:
                pass
        return [await self._move_alone(args) for args in batch]

    async def _moves_together(self, batch: list[dict[str, Any]]) -> list[bool | BaseException]:
        async with self._connection() as conn, conn.transaction():
            async with conn.pipeline():
                cursors = [await conn.execute(_MOVE, args) for args in batch]
            return [bool(await cur.fetchall()) for cur in cursors]

    async def _move_alone(self, args: dict[str, Any]) -> bool:
        try:
            return bool(await self._fetch(_MOVE, args))
        except psycopg.errors.UniqueViolation:  # a move or request id written past the version check
            return False

    async def request(self, match_id: str, request_id: str) -> tuple[str, bytes] | None:
        rows = await self._fetch(
            "SELECT fingerprint, response FROM requests WHERE match_id = %s AND request_id = %s",
            (match_id, request_id),
        )
        return None if not rows else (rows[0][0], bytes(rows[0][1]))

    async def load(self, match_id: str) -> StoredMatch | None:
        async with self._connection() as conn, conn.transaction():  # one snapshot: the match, its moves
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            cur = await conn.execute(
                "SELECT seq, match_id, game, record, config, seat_hashes, admin_hash, created_at, over,"
                " abandoned, last_active FROM matches WHERE match_id = %s",
                (match_id,),
            )
            row = await cur.fetchone()
            if row is None:
                return None
            cur = await conn.execute("SELECT seat, move FROM moves WHERE match_id = %s ORDER BY idx", (match_id,))
            moves = await cur.fetchall()
        return StoredMatch(
            int(row[0]),
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
            await _parsed(moves),
        )

    async def moves_from(self, match_id: str, idx: int) -> tuple[list[tuple[int, dict[str, Any]]], bool] | None:
        rows = await self._fetch(
            "SELECT m.abandoned, v.seat, v.move FROM matches m LEFT JOIN moves v"
            " ON v.match_id = m.match_id AND v.idx >= %s WHERE m.match_id = %s ORDER BY v.idx",
            (idx, match_id),
        )
        if not rows:
            return None
        return await _parsed([r[1:] for r in rows if r[1] is not None]), bool(rows[0][0])

    async def page(self, after_seq: int, limit: int, game: str | None) -> list[tuple[int, str]]:
        sql = (
            "SELECT seq, match_id FROM matches WHERE seq > %s"
            + (" AND game = %s" if game else "")
            + " ORDER BY seq LIMIT %s"
        )
        args = (after_seq, game, limit) if game else (after_seq, limit)
        return [(int(r[0]), r[1]) for r in await self._fetch(sql, args)]

    async def live_count(self) -> int:
        rows = await self._fetch("SELECT count(*) FROM matches WHERE NOT over AND NOT abandoned")
        return int(rows[0][0])

    async def open_with_bots(self, quiet_before: float | None = None) -> list[str]:
        rows = await self._fetch(
            "SELECT match_id FROM matches WHERE bots AND NOT over AND NOT abandoned AND last_active < %s ORDER BY seq",
            (float("inf") if quiet_before is None else quiet_before,),
        )
        return [r[0] for r in rows]

    async def abandon_idle(self, idle_before: float) -> list[str]:
        return [r[0] for r in await self._fetch(_ABANDON, (idle_before,))]

    async def abandon(self, match_id: str) -> bool:
        rows = await self._fetch(_ABANDON_ONE, (match_id,))
        return bool(rows)

    async def delete(self, match_id: str) -> None:
        async with self._connection() as conn, conn.transaction():
            # The match row first: a move in flight holds its lock, so the moves deleted next
            # include it.
            cur = await conn.execute("DELETE FROM matches WHERE match_id = %s RETURNING match_id", (match_id,))
            if await cur.fetchone() is None:
                return
            await conn.execute("DELETE FROM moves WHERE match_id = %s", (match_id,))
            await conn.execute("DELETE FROM requests WHERE match_id = %s", (match_id,))
            await conn.execute(_REVIEWS.delete, (match_id,))
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{match_id} d"))

    # -- reviews (review_sql.StoreReviews) -----------------------------------------------------------
    _reviews = _REVIEWS

    async def _review_rows(
        self, sql: str, args: tuple[Any, ...], write: bool = False, large: bool = False
    ) -> list[tuple[Any, ...]]:
        return await self._fetch(sql, args)

    async def share_usage(self, process: str, rows: Sequence[Row], gone: Sequence[tuple[str, str]]) -> list[OtherRow]:
        async with self._connection() as conn:
            return await usage_sql.postgres_share(conn, process, rows, gone)

    async def listen(self, on_change: ChangeHandler, on_resync: ResyncHandler) -> None:
        """LISTEN on a connection of its own until close(); returns once the first LISTEN holds."""
        ready = asyncio.get_running_loop().create_future()
        self._listener = asyncio.get_running_loop().create_task(self._listen(on_change, on_resync, ready))
        await ready

    async def _listen(self, on_change: ChangeHandler, on_resync: ResyncHandler, ready: asyncio.Future[None]) -> None:
        first, lost = True, False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.path, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if first:
                        first = False
                        ready.set_result(None)
                    else:  # whatever was sent while the connection was down is lost: catch up
                        log.info("listening again")
                        lost = False
                        await on_resync()
                    async for notify in conn.notifies():
                        change = parse_change(notify.payload)
                        if change is not None:
                            await on_change(change)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if first:
                    first = False
                    ready.set_exception(exc)
                    return
                # once per loss; the reconnection attempts of an outage, every 0.5 s, at DEBUG
                level = logging.DEBUG if lost else logging.WARNING
                log.log(level, "listening connection lost", extra={"error": str(exc)})
                lost = True
                await asyncio.sleep(0.5)
