"""The `reviews` table, in SQLite and in PostgreSQL: one row per reviewed match (reviews.py), with
its progress while a process computes it and the review's JSON once done. A row is claimed by one
process at a time (an insert, or a takeover of a failed review or of one whose process stopped
updating it); the others only read it. The statements take the store's placeholder (``?`` or ``%s``)."""

from __future__ import annotations

import abc
import time
from collections.abc import Sequence
from typing import Any

from .store_base import MatchStore, StoredReview

__all__ = ["POSTGRES_SCHEMA", "SQLITE_SCHEMA", "Statements", "StoreReviews", "stored_review"]

SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS reviews (
    match_id TEXT PRIMARY KEY,
    state TEXT NOT NULL,             -- 'running', 'done' or 'failed'
    done INTEGER NOT NULL DEFAULT 0, -- decisions reviewed so far
    total INTEGER NOT NULL DEFAULT 0,
    review TEXT,                     -- hunters.review.Review.to_json() once done
    message TEXT NOT NULL DEFAULT '',  -- why it failed
    process TEXT NOT NULL,           -- the process computing it (usage.process_id())
    updated_at REAL NOT NULL         -- its latest progress: a heartbeat while it runs (epoch seconds)
) WITHOUT ROWID;
"""

POSTGRES_SCHEMA = """CREATE TABLE IF NOT EXISTS reviews (
    match_id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    review TEXT,
    message TEXT NOT NULL DEFAULT '',
    process TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
)"""

_COLUMNS = "match_id, state, done, total, review, message, process, updated_at"


class Statements:
    """The statements, with the placeholder `p`."""

    def __init__(self, p: str):
        # a new row, or a failed review or one nobody has updated since the given time taken over
        self.claim = (
            f"INSERT INTO reviews (match_id, state, process, updated_at) VALUES ({p}, 'running', {p}, {p})"
            " ON CONFLICT (match_id) DO UPDATE SET state = 'running', done = 0, total = 0, review = NULL,"
            " message = '', process = excluded.process, updated_at = excluded.updated_at"
            f" WHERE reviews.state = 'failed' OR (reviews.state = 'running' AND reviews.updated_at < {p})"
            " RETURNING match_id"
        )
        self.progress = (
            f"UPDATE reviews SET done = {p}, total = {p}, updated_at = {p}"
            f" WHERE match_id = {p} AND process = {p} AND state = 'running' RETURNING match_id"
        )
        self.finish = (
            f"UPDATE reviews SET state = {p}, done = {p}, total = {p}, review = {p}, message = {p}, updated_at = {p}"
            f" WHERE match_id = {p} AND process = {p} AND state = 'running' RETURNING match_id"
        )
        self.load = f"SELECT {_COLUMNS} FROM reviews WHERE match_id = {p}"
        self.unfinished = (
            f"SELECT match_id FROM reviews WHERE state = 'running' AND updated_at < {p} ORDER BY updated_at"
        )
        self.delete = f"DELETE FROM reviews WHERE match_id = {p}"

    @staticmethod
    def claim_args(match_id: str, process: str, now: float, stale_before: float) -> tuple[Any, ...]:
        return (match_id, process, now, stale_before)

    @staticmethod
    def progress_args(match_id: str, process: str, done: int, total: int, now: float) -> tuple[Any, ...]:
        return (done, total, now, match_id, process)

    @staticmethod
    def finish_args(
        match_id: str, process: str, done: int, total: int, review: str | None, message: str, now: float
    ) -> tuple[Any, ...]:
        state = "done" if review is not None else "failed"
        return (state, done, total, review, message, now, match_id, process)


def stored_review(row: Sequence[Any]) -> StoredReview:
    """A row of `Statements.load` as a StoredReview."""
    return StoredReview(
        match_id=row[0],
        state=row[1],
        done=int(row[2]),
        total=int(row[3]),
        review=row[4],
        message=row[5],
        process=row[6],
        updated_at=float(row[7]),
    )


class StoreReviews(MatchStore):
    """MatchStore's review calls, the same in every SQL store: each store runs a statement its own
    way (`_review_rows`) with its own placeholder (`_reviews`)."""

    _reviews: Statements

    @abc.abstractmethod
    async def _review_rows(
        self, sql: str, args: tuple[Any, ...], write: bool = False, large: bool = False
    ) -> list[tuple[Any, ...]]:
        """The rows of one statement (`write`: it changes the table; `large`: it carries a review's
        JSON, some hundreds of kilobytes)."""

    async def claim_review(self, match_id: str, process: str, stale_before: float) -> bool:
        r = self._reviews
        args = r.claim_args(match_id, process, time.time(), stale_before)
        return bool(await self._review_rows(r.claim, args, write=True))

    async def review_progress(self, match_id: str, process: str, done: int, total: int) -> bool:
        r = self._reviews
        args = r.progress_args(match_id, process, done, total, time.time())
        return bool(await self._review_rows(r.progress, args, write=True))

    async def finish_review(
        self, match_id: str, process: str, done: int, total: int, review: str | None, message: str = ""
    ) -> bool:
        args = self._reviews.finish_args(match_id, process, done, total, review, message, time.time())
        return bool(await self._review_rows(self._reviews.finish, args, write=True, large=True))

    async def load_review(self, match_id: str) -> StoredReview | None:
        rows = await self._review_rows(self._reviews.load, (match_id,), large=True)
        return stored_review(rows[0]) if rows else None

    async def unfinished_reviews(self, stale_before: float) -> list[str]:
        return [r[0] for r in await self._review_rows(self._reviews.unfinished, (stale_before,))]
