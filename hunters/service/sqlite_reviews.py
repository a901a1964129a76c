"""The SQLite store's reviews of finished matches (review_sql.py holds the statements, shared with
PostgreSQL): one process claims a review, writes its progress as a heartbeat and its result."""

from __future__ import annotations

import time

from . import review_sql
from .sqlite_reads import SQLiteReads
from .store_base import StoredReview

__all__ = ["SQLiteReviews"]

_REVIEWS = review_sql.Statements("?")


class SQLiteReviews(SQLiteReads):
    """What the store keeps of reviews (its matches: sqlite_reads.SQLiteReads, store.SQLiteStore)."""

    async def claim_review(self, match_id: str, process: str, stale_before: float) -> bool:
        args = _REVIEWS.claim_args(match_id, process, time.time(), stale_before)
        return bool(await self._run(self._rows, _REVIEWS.claim, args, write=True))

    async def review_progress(self, match_id: str, process: str, done: int, total: int) -> bool:
        args = _REVIEWS.progress_args(match_id, process, done, total, time.time())
        return bool(await self._run(self._rows, _REVIEWS.progress, args, write=True))

    async def finish_review(
        self, match_id: str, process: str, done: int, total: int, review: str | None, message: str = ""
    ) -> bool:
        args = _REVIEWS.finish_args(match_id, process, done, total, review, message, time.time())
        # on the database thread: a review's JSON is some hundreds of kilobytes
        return bool(await self._run(self._rows, _REVIEWS.finish, args, write=True, thread=True))

    async def load_review(self, match_id: str) -> StoredReview | None:
        rows = await self._run(self._rows, _REVIEWS.load, (match_id,), thread=True)
        return review_sql.stored_review(rows[0]) if rows else None

    async def unfinished_reviews(self, stale_before: float) -> list[str]:
        return [r[0] for r in await self._run(self._rows, _REVIEWS.unfinished, (stale_before,))]
