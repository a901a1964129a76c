"""Reviews of finished matches (`hunters.review.review_record`), computed once each in the
background and stored with the match (the `reviews` table, review_sql.py), for MatchService's
RequestReview and GetReview and the viewer.

A review runs on its own engine lane (`Engine.review`: its threads at a lower CPU priority, jobs
waiting their turn there), one job a match, its progress kept in memory and written to the store
every few seconds (its heartbeat). A caller has at most `caller_reviews` reviews waiting or running
at once, the server `max_queued`. The server's shutdown cancels the jobs (their stop byte ends the
search at once) and leaves their rows running: the next start resumes them. With processes sharing
a database, a review whose process has not written its heartbeat for `STALE_SECONDS` is taken over
by the next request for it (or by a process starting), and one process computes it at a time."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import grpc

from hunters.errors import InvalidRecordError, NotSupportedError
from hunters.review import AnalysisCancelled, Review, review_record, reviewable
from hunters.v1 import review_pb2

from .engine import Cancel, Lane
from .errors import ServiceError
from .games import ServiceAdapter
from .reads import ByteCache, ByteLRU
from .review_wire import review_pb
from .store_base import MatchStore, StoredReview, StoreUnavailable
from .usage import process_id

if TYPE_CHECKING:
    from .live import LiveMatch
    from .matches import MatchManager

log = logging.getLogger("hunters.service")

__all__ = ["BEAT_SECONDS", "STALE_SECONDS", "Reviews"]

BEAT_SECONDS = 2.0  # how often a running review's progress is written to the store
STALE_SECONDS = 60.0  # a running review not updated for this long: its process stopped
REPORT_CACHE_BYTES = 64 * 1024 * 1024  # finished reviews kept as serialized reports


@dataclass
class Job:
    """A review this process computes: `done` of `total` decisions (set by the engine thread)."""

    match_id: str
    caller: str
    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total


def compute(game: Any, iterations: int | None, job: Job, cancel: Cancel) -> str:
    """The review of the finished `game` as JSON text (run on a review thread; its stop byte is the
    job's cancel flag)."""
    review = review_record(game.to_record(), iterations=iterations, progress=job.progress, stop=cancel.flag)
    return json.dumps(review.to_json(), separators=(",", ":"))


def _report_bytes(ad: ServiceAdapter, match_id: str, text: str, game: Any) -> bytes:
    """A serialized ReviewReport of the finished review `text` of `game` (built off the loop)."""
    review = review_pb(ad, Review.from_json(json.loads(text)), game.to_record())
    report = review_pb2.ReviewReport(match_id=match_id, status=review_pb2.REVIEW_STATUS_DONE, review=review)
    report.decisions_done = report.decisions_total = len(review.decisions)
    return report.SerializeToString()


class Reviews:
    """The reviews of `manager`'s matches, computed on `lane` with `iterations` a decision (None:
    the strong bot's default, its budget in play)."""

    def __init__(
        self,
        manager: MatchManager,
        lane: Lane,
        iterations: int | None = None,
        max_queued: int = 64,
        caller_reviews: int = 2,
    ):
        self.manager = manager
        self.store: MatchStore = manager.store
        self.lane = lane
        self.iterations = iterations
        self.max_queued = max_queued
        self.caller_reviews = caller_reviews
        self.process = process_id()
        self.jobs: dict[str, Job] = {}
        self.reports: ByteCache[str] = ByteCache(REPORT_CACHE_BYTES)  # finished reviews, serialized
        self.parsed: ByteLRU[str, Review] = ByteLRU(REPORT_CACHE_BYTES)  # ... and read (the viewer's), by JSON size
        self.computed = 0  # reviews this process computed to their end
        manager.on_delete.append(self.forget)

    # -- the calls ------------------------------------------------------------------------------------
    async def request(self, match_id: str, caller: str) -> review_pb2.ReviewReport | bytes:
        """Start the review of a finished match, or find it (running, done or, when it failed, again)."""
        live = await self._finished(match_id)
        found = await self._known(live)
        if found is not None and not self._restartable(found):
            return found
        mine = sum(1 for job in self.jobs.values() if job.caller == caller)
        if caller and mine >= self.caller_reviews:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "CALLER_BUSY",
                f"you have {mine} reviews waiting or running, this server's limit per caller: wait for one to end",
                limit=str(self.caller_reviews),
            )
        if len(self.jobs) >= self.max_queued:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "REVIEWS_BUSY",
                f"the server has {len(self.jobs)} reviews waiting or running, its limit: retry later",
                limit=str(self.max_queued),
            )
        if await self.store.claim_review(live.match_id, self.process, time.time() - STALE_SECONDS):
            self._start(live, caller)
        return await self.get(match_id)

    async def get(self, match_id: str) -> review_pb2.ReviewReport | bytes:
        """The review of a finished match as it stands (a report, or a finished one's bytes)."""
        live = await self._finished(match_id)
        found = await self._known(live)
        if found is not None:
            return found
        return review_pb2.ReviewReport(match_id=live.match_id, status=review_pb2.REVIEW_STATUS_NOT_REQUESTED)

    async def review(self, match_id: str) -> tuple[LiveMatch, Review | None, review_pb2.ReviewReport]:
        """The match, its review once done (None before) and the report (the viewer's reads)."""
        live = await self._finished(match_id)
        found = await self.get(match_id)
        report = review_pb2.ReviewReport.FromString(found) if isinstance(found, bytes) else found
        if report.status != review_pb2.REVIEW_STATUS_DONE:
            return live, None, report
        review = self.parsed.get(live.match_id)
        if review is None:
            stored = await self.store.load_review(live.match_id)
            if stored is None or stored.review is None:  # deleted meanwhile
                gone = review_pb2.ReviewReport(match_id=live.match_id, status=review_pb2.REVIEW_STATUS_NOT_REQUESTED)
                return live, None, gone
            text = stored.review
            review = await self.manager.reads.run(lambda: Review.from_json(json.loads(text)))
            self.parsed.put(live.match_id, review, 2 * len(text))
        return live, review, report

    # -- what is known of a review ------------------------------------------------------------------
    async def _finished(self, match_id: str) -> LiveMatch:
        live = await self.manager.get(match_id)
        if not live.game.is_over:
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION,
                "MATCH_NOT_OVER",
                "a review is of a finished match: until the end each seat's view is its own",
                match_id=live.match_id,
            )
        try:
            reviewable(live.adapter.Game)
        except NotSupportedError as exc:
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION, "ANALYSIS_NOT_SUPPORTED", str(exc)) from None
        return live

    async def _known(self, live: LiveMatch) -> review_pb2.ReviewReport | bytes | None:
        """The report of a review running here, stored or running elsewhere; None if there is none."""
        job = self.jobs.get(live.match_id)
        if job is not None:
            return self._running(live.match_id, job.done, job.total)
        cached = self.reports.get(live.match_id)
        if cached is not None:
            return cached
        stored = await self.store.load_review(live.match_id)
        if stored is None:
            return None
        if stored.state == "done" and stored.review is not None:
            data = await self.manager.reads.run(_report_bytes, live.adapter, live.match_id, stored.review, live.game)
            self.reports.put(live.match_id, data)
            return data
        if stored.state == "running" and not self._stale(stored):
            return self._running(live.match_id, stored.done, stored.total)
        message = stored.message or "the server computing it stopped before the end: ask for it again"
        return review_pb2.ReviewReport(
            match_id=live.match_id,
            status=review_pb2.REVIEW_STATUS_FAILED,
            decisions_done=stored.done,
            decisions_total=stored.total,
            message=message,
        )

    @staticmethod
    def _restartable(found: review_pb2.ReviewReport | bytes) -> bool:
        return isinstance(found, review_pb2.ReviewReport) and found.status == review_pb2.REVIEW_STATUS_FAILED

    @staticmethod
    def _stale(stored: StoredReview) -> bool:
        return stored.updated_at < time.time() - STALE_SECONDS

    @staticmethod
    def _running(match_id: str, done: int, total: int) -> review_pb2.ReviewReport:
        return review_pb2.ReviewReport(
            match_id=match_id, status=review_pb2.REVIEW_STATUS_RUNNING, decisions_done=done, decisions_total=total
        )

    # -- the jobs ---------------------------------------------------------------------------------------
    def _start(self, live: LiveMatch, caller: str) -> None:
        job = Job(live.match_id, caller)
        self.jobs[live.match_id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(live, job))

    async def _run(self, live: LiveMatch, job: Job) -> None:
        beat = asyncio.get_running_loop().create_task(self._beat(job))
        text: str | None = None
        message = ""
        try:
            try:
                text = await self.lane.wait_run(compute, live.game, self.iterations, job, keys=(job.caller,))
            except (InvalidRecordError, NotSupportedError, ValueError, AnalysisCancelled) as exc:
                message = str(exc)
            except Exception:
                log.exception("review failed", extra={"match_id": job.match_id})
                message = "the review failed on the server"
            else:
                self.computed += 1
                log.info("match reviewed", extra={"match_id": job.match_id, "decisions": job.total})
            beat.cancel()
            try:
                await self.store.finish_review(job.match_id, self.process, job.done, job.total, text, message)
            except StoreUnavailable:  # left running: taken over once stale (or resumed at the next start)
                log.warning("review not stored: the database is unavailable", extra={"match_id": job.match_id})
            except Exception:
                log.exception("review not stored", extra={"match_id": job.match_id})
        finally:  # (cancelled: shutting down, or the match deleted; a shutdown leaves the row running)
            beat.cancel()
            if self.jobs.get(job.match_id) is job:
                del self.jobs[job.match_id]

    async def _beat(self, job: Job) -> None:
        """Write the job's progress now and then (its heartbeat); stop the job if the review is no
        longer this process's (taken over, or the match deleted elsewhere)."""
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            try:
                ours = await self.store.review_progress(job.match_id, self.process, job.done, job.total)
            except StoreUnavailable:
                continue
            if not ours and job.task is not None:
                job.task.cancel()
                return

    def forget(self, match_id: str) -> None:
        """The match is deleted: its review stops and is forgotten."""
        job = self.jobs.pop(match_id, None)
        if job is not None and job.task is not None:
            job.task.cancel()
        self.reports.forget(match_id)
        self.parsed.forget(match_id)

    async def resume(self) -> int:
        """Start again the reviews left running: by this server's previous run (a store of its own),
        or by a process that stopped (a shared store: not updated for STALE_SECONDS)."""
        stale_before = time.time() - STALE_SECONDS if self.store.shared else float("inf")
        started = 0
        for match_id in await self.store.unfinished_reviews(stale_before):
            try:
                live = await self._finished(match_id)
            except ServiceError:  # gone meanwhile
                continue
            if match_id not in self.jobs and await self.store.claim_review(match_id, self.process, stale_before):
                self._start(live, "")
                started += 1
        return started

    def close(self) -> None:
        """Shutting down: every job stops (its row stays running, for the next start)."""
        for job in list(self.jobs.values()):
            if job.task is not None:
                job.task.cancel()
