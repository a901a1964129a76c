"""A write and its effect in memory, run to their end together even when the caller goes away, so
that what the database holds and what memory holds never part."""

from __future__ import annotations

import asyncio
import types
from collections.abc import Coroutine, Generator
from typing import Any


async def to_the_end(work: Coroutine[Any, Any, None]) -> None:
    """Run `work` (a write and its effect in memory) to its end even if the caller is cancelled
    meanwhile (a client gone), then pass the cancellation on: what the database holds and what
    memory holds never part, and the match's lock is held until both agree.

    `work` starts at once, in the caller's step: a write that never waits (SQLite's usual commit on
    the loop) ends there, with no task and no turn of the event loop; only one that waits goes on
    in a task of its own."""
    try:
        waiting_for = work.send(None)
    except StopIteration:
        return
    task = asyncio.ensure_future(_the_rest(work, waiting_for))
    cancelled = False
    while True:
        try:
            await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            if task.done():
                break
            cancelled = True
    task.result()  # its error, if any, first
    if cancelled:
        raise asyncio.CancelledError


async def _the_rest(work: Coroutine[Any, Any, None], waiting_for: Any) -> None:
    """The rest of `work`, started already, which is waiting for `waiting_for` (what it yielded to the loop)."""
    await _resume(work, waiting_for)


@types.coroutine
def _resume(work: Coroutine[Any, Any, None], waiting_for: Any) -> Generator[Any, Any, None]:
    """Drive a started coroutine on: pass the loop's answers (a value or an exception) in, and what
    it waits for next out, until it returns."""
    while True:
        try:
            try:
                answer = yield waiting_for
            except BaseException as exc:
                waiting_for = work.throw(exc)
            else:
                waiting_for = work.send(answer)
        except StopIteration:
            return
