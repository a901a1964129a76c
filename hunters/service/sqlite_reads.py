"""The SQLite store's reads (store.py): a match and its moves, retried moves' replies, pages of
matches, counts. A long match is read on the database thread, not the event loop."""

from __future__ import annotations

import json
from typing import Any

from .sqlite_db import SQLiteDatabase
from .store_base import StoredMatch

__all__ = ["ON_LOOP_ROWS", "SQLiteReads"]

ON_LOOP_ROWS = 256  # moves read on the event loop itself; more are read on the database thread


class SQLiteReads(SQLiteDatabase):
    """What the store reads (its writes: store.SQLiteStore)."""

    async def request(self, match_id: str, request_id: str) -> tuple[str, bytes] | None:
        return await self._run(self._request, match_id, request_id)

    def _request(self, match_id: str, request_id: str) -> tuple[str, bytes] | None:
        row = self._db.execute(
            "SELECT fingerprint, response FROM requests WHERE match_id = ? AND request_id = ?",
            (match_id, request_id),
        ).fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    async def load(self, match_id: str) -> StoredMatch | None:
        # on the database thread: a long match's rows and their JSON take tens of milliseconds
        # (20,000 moves: ~70 ms), which the event loop must not wait through
        return await self._run(self._load, match_id, thread=True)

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
        many = await self._run(self._moves_after, match_id, idx) > ON_LOOP_ROWS
        return await self._run(self._moves_from, match_id, idx, thread=many)

    def _moves_after(self, match_id: str, idx: int) -> int:
        """How many moves from `idx` on (one lookup in the moves' key)."""
        row = self._db.execute("SELECT MAX(idx) FROM moves WHERE match_id = ?", (match_id,)).fetchone()
        return 0 if row[0] is None else int(row[0]) + 1 - idx

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
