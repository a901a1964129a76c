"""Worker threads for engine work that can take long (an `Evaluate` of many moves, a block of
simulated games, a bot's search), so that the event loop never waits for it, and a cancel flag the
work polls so that a caller going away, or a shutdown, stops it at its next step."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, TypeVarTuple

__all__ = ["Cancel", "Engine"]

_T = TypeVar("_T")
_Args = TypeVarTuple("_Args")


class Cancel:
    """A flag a worker thread polls between steps; set when the caller is gone."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def __bool__(self) -> bool:
        return self._event.is_set()


class Engine:
    """Worker threads for long engine work, and how many jobs are running on them now."""

    def __init__(self, threads: int):
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="hunters-engine")
        self.busy = 0  # jobs started and not yet returned (updated on the event loop)

    async def run(self, fn: Callable[[*_Args, Cancel], _T], *args: *_Args) -> _T:
        """`fn(*args, cancel)` in a worker thread; if the awaiting call is cancelled (the caller went
        away, or the server stops), `cancel` is set so that `fn` stops at its next check."""
        cancel = Cancel()
        future = asyncio.get_running_loop().run_in_executor(self.pool, fn, *args, cancel)
        self.busy += 1
        future.add_done_callback(self._done)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            cancel.set()
            raise

    def _done(self, _future: asyncio.Future[Any]) -> None:
        self.busy -= 1

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
