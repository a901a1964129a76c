"""Group commit: writes that arrive while a batch is being committed wait, and go together in the
next batch, one transaction and one sync for all of them. No write waits for company: with nothing
in flight a write goes at once, as a batch of one, so a lone player pays no extra turn of the loop
and a busy server pays one sync for many moves.

Each write is still answered only after its batch is durable, each with its own outcome (a move
that lost its version fails alone); a batch that fails as a whole (the database away) fails every
write in it with that error, and nothing of it was stored."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

W = TypeVar("W")
R = TypeVar("R")

MAX_BATCH = 256
"""Writes in one batch at most (a transaction stays short; the rest go in the next)."""


class GroupCommit(Generic[W, R]):
    """Commits writes in batches through `commit(writes) -> outcomes`, one outcome (a result or the
    exception to raise) per write, in order; one batch at a time."""

    def __init__(self, commit: Callable[[list[W]], Awaitable[list[R | BaseException]]], max_batch: int = MAX_BATCH):
        self._commit = commit
        self.max_batch = max_batch
        self._waiting: list[tuple[W, asyncio.Future[R]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.batches = 0  # batches committed (or failed): with `writes`, how much the grouping saved
        self.writes = 0

    async def submit(self, write: W) -> R:
        """`write` committed (alone or with others); its outcome. A caller that is cancelled while
        waiting leaves the write to its batch, which commits it all the same."""
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_retrieved)
        self._waiting.append((write, future))
        if self._flusher is None:
            self._flusher = asyncio.ensure_future(self._flush())
        return await asyncio.shield(future)

    async def _flush(self) -> None:
        """Commit batch after batch while writes wait."""
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[: self.max_batch], self._waiting[self.max_batch :]
                self.batches += 1
                self.writes += len(batch)
                try:
                    outcomes = await self._commit([w for w, _ in batch])
                except Exception as exc:  # the whole batch failed: every write in it
                    outcomes = [exc] * len(batch)
                except BaseException:  # cancelled (the loop is closing): this batch and the rest fail
                    self._waiting = batch + self._waiting
                    raise
                for (_, future), outcome in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue
                    if isinstance(outcome, BaseException):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
        finally:
            self._flusher = None
            waiting, self._waiting = self._waiting, []
            for _, future in waiting:  # only when cancelled: nothing waits for a batch that never comes
                if not future.done():
                    future.cancel()


def _retrieved(future: asyncio.Future[Any]) -> None:
    """A write's outcome counts as seen even when its caller stopped waiting (asyncio would log it)."""
    if not future.cancelled():
        future.exception()
