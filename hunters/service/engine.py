"""Worker threads for engine work that can take long (an `Evaluate` of many moves, a block of
simulated games, a bot's search), so that the event loop never waits for it, and a cancel flag the
work polls so that a caller going away, or a shutdown, stops it at its next step.

The work is split into lanes, each with its own threads and its own bound on jobs waiting: bots
think on theirs, `Evaluate` and `SimulateGames` on theirs, so that a flood of one kind never takes
the threads of another. Within a lane each caller (`callers.Callers`: a token the server issued,
else the host) has a bound on its jobs at once and a budget of engine seconds per minute; past
either the call is RESOURCE_EXHAUSTED with a reason, instead of waiting behind everybody else's
work."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, TypeVarTuple

import grpc

from . import tracing
from .callers import MAX_CALLERS, Budget, Callers
from .errors import ServiceError

__all__ = ["Callers", "Cancel", "Engine", "Lane"]

_T = TypeVar("_T")
_Args = TypeVarTuple("_Args")


class Cancel:
    """A flag a worker thread polls between steps; set when the caller is gone. `flag` is one byte a
    search in the core may read without the GIL (1: stop now)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.flag = bytearray(1)

    def set(self) -> None:
        self.flag[0] = 1
        self._event.set()

    def __bool__(self) -> bool:
        return self._event.is_set()


class Shares:
    """The thread time each key (a host, a match) had on a lane lately, halved every `half_life`
    seconds, and its jobs on a thread now: a free thread goes to the waiting job whose keys have had
    least (weighted fair queueing, first come first served only between equals)."""

    def __init__(self, half_life: float = 30.0):
        self.half_life = half_life
        self._used: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (seconds, when)
        self._running: dict[str, int] = {}

    def _decayed(self, key: str, now: float) -> float:
        seconds, when = self._used.get(key, (0.0, now))
        decayed: float = seconds * 0.5 ** ((now - when) / self.half_life)
        return decayed

    def rank(self, keys: tuple[str, ...]) -> tuple[float, ...]:
        """What orders waiting jobs: per key in turn, its jobs running now, then its recent time."""
        now = time.monotonic()
        return tuple(x for key in keys for x in (self._running.get(key, 0), self._decayed(key, now)))

    def start(self, keys: tuple[str, ...]) -> None:
        for key in keys:
            self._running[key] = self._running.get(key, 0) + 1

    def end(self, keys: tuple[str, ...], seconds: float) -> None:
        now = time.monotonic()
        for key in keys:
            left = self._running.get(key, 0) - 1
            if left > 0:
                self._running[key] = left
            else:
                self._running.pop(key, None)
            self._used[key] = (self._decayed(key, now) + seconds, now)
            self._used.move_to_end(key)
        while len(self._used) > MAX_CALLERS:
            self._used.popitem(last=False)


BACKGROUND_NICENESS = 10  # how much lower the CPU priority of long work (bots, simulations) is


def _lower_priority(by: int) -> None:
    """Run this engine thread at a lower CPU priority than the event loop's thread (Linux sets a
    niceness per thread): on a busy machine the loop (and a short Evaluate) goes first, a long search
    or simulation waits."""
    if not by or not hasattr(os, "setpriority"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + by))
    except OSError:  # not permitted here: the thread keeps the server's priority
        pass


def _timed(spent: list[float], fn: Callable[..., _T], args: tuple[Any, ...]) -> _T:
    """`fn(*args)` on a worker thread, its time written to `spent[0]`."""
    begun = time.perf_counter()
    try:
        return fn(*args)
    finally:
        spent[0] = time.perf_counter() - begun


class Lane:
    """`threads` worker threads and at most `queue` jobs waiting for one; past that a job is refused
    (RESOURCE_EXHAUSTED / ENGINE_BUSY), or (`wait_run`) it waits on the event loop for its turn (bots:
    their moves come in turn, costing nothing while they wait). `callers` bounds each caller's calls
    (`admitted`) and engine time (charged per job)."""

    def __init__(self, name: str, threads: int, queue: int, callers: Callers | None = None, niceness: int = 0):
        self.name = name
        self.threads = threads
        self.queue = queue
        self.callers = callers
        self.pool = ThreadPoolExecutor(
            max_workers=threads,
            thread_name_prefix=f"hunters-{name}",
            initializer=_lower_priority,
            initargs=(niceness,),
        )
        self.busy = 0  # jobs on a thread or queued for one (updated on the event loop)
        self.done = 0  # jobs finished
        self.busy_seconds = 0.0  # thread time spent on jobs (summed on the event loop as each ends)
        self._free = threads  # threads no `wait_run` job holds
        # the `wait_run` jobs waiting for a thread: (priority, order, keys, wake-up)
        self._turns: list[tuple[int, int, tuple[str, ...], asyncio.Future[None]]] = []
        self._order = itertools.count()
        self.shares = Shares()  # what each key of the `wait_run` jobs had of the threads lately

    def load(self) -> tuple[int, int]:
        """(jobs on a thread now, jobs waiting for one): the lane's saturation, for its metrics."""
        running = min(self.busy, self.threads)
        waiting = self.busy - running + sum(not woken.done() for _, _, _, woken in list(self._turns))
        return running, waiting

    def admitted(self, caller: str | None) -> contextlib.AbstractContextManager[Budget | None]:
        """One call of `caller` on this lane (its per-caller bounds; None: none), for a `with` block."""
        if self.callers is None or caller is None:
            return contextlib.nullcontext()
        return self.callers.admitted(caller, self.name)

    def screen(self, caller: str | None) -> None:
        """Refuse now what `admitted` and `run` would refuse (the caller's bounds, the lane full),
        changing nothing: a call screened so costs the server no parsing and no engine work."""
        if self.callers is not None and caller is not None:
            self.callers.screen(caller, self.name)
        self._check_room()

    def _check_room(self) -> None:
        if self.busy >= self.threads + self.queue:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "ENGINE_BUSY",
                f"the server's {self.name} work is at its limit ({self.threads} running, {self.queue} waiting): "
                "retry after a pause",
            )

    async def run(self, fn: Callable[[*_Args, Cancel], _T], *args: *_Args, budget: Budget | None = None) -> _T:
        """`fn(*args, cancel)` on one of the lane's threads (its time charged to `budget`); if the
        awaiting call is cancelled (the caller went away, or the server stops), `cancel` is set so
        that `fn` stops at its next check."""
        self._check_room()
        return await self._run(fn, args, budget)

    async def wait_run(
        self,
        fn: Callable[[*_Args, Cancel], _T],
        *args: *_Args,
        priority: int = 0,
        timed: Callable[[float], None] | None = None,
        keys: tuple[str, ...] = (),
    ) -> _T:
        """The same, waiting (on the loop) for a free thread instead of being refused: a thread is
        taken only when one is free, by the waiting job of the lowest `priority` (bots: a bot whose
        opponent is a person goes before bots playing bots), then of the `keys` that had least of
        the threads (`Shares`: e.g. its host, then its match), then the first come. `timed` is told
        the job's seconds on its thread once it has ended."""
        await self._turn(priority, keys)
        return await self._run(fn, args, None, True, timed, keys)

    async def _turn(self, priority: int, keys: tuple[str, ...]) -> None:
        if self._free > 0 and not self._turns:
            self._free -= 1
            self.shares.start(keys)
            return
        woken = asyncio.get_running_loop().create_future()
        self._turns.append((priority, next(self._order), keys, woken))
        try:
            await woken
        except asyncio.CancelledError:
            if woken.done() and not woken.cancelled():  # given a thread, then cancelled: pass it on
                self.shares.end(keys, 0.0)
                self._next_turn()
            raise

    def _next_turn(self) -> None:
        """A `wait_run` thread is free: to the waiting job that goes first (cancelled ones are
        skipped)."""
        while self._turns:
            best = min(self._turns, key=lambda t: (t[0], self.shares.rank(t[2]), t[1]))
            self._turns.remove(best)
            _, _, keys, woken = best
            if not woken.done():
                self.shares.start(keys)
                woken.set_result(None)
                return
        self._free += 1

    async def _run(
        self,
        fn: Callable[..., _T],
        args: tuple[Any, ...],
        budget: Budget | None,
        turn: bool = False,
        timed: Callable[[float], None] | None = None,
        keys: tuple[str, ...] = (),
    ) -> _T:
        cancel = Cancel()
        spent = [0.0]  # the job's own time on its thread (its wait in the queue left out)
        try:
            future = asyncio.get_running_loop().run_in_executor(self.pool, _timed, spent, fn, (*args, cancel))
        except BaseException:
            if turn:
                self.shares.end(keys, 0.0)
                self._next_turn()
            raise
        self.busy += 1

        def finished(done: asyncio.Future[Any]) -> None:
            # When the job has really ended (a cancelled caller's job runs to its next check): its
            # thread is free again, its time charged, its result or error read (never left unread).
            self.busy -= 1
            self.done += 1
            self.busy_seconds += spent[0]
            if turn:
                self.shares.end(keys, spent[0])
                self._next_turn()
            if budget is not None and self.callers is not None:
                self.callers.charge(budget, spent[0])  # its time on a thread: waiting is not charged
            failed = done.cancelled() or done.exception() is not None  # (the error read, never left unread)
            if timed is not None and not failed:
                timed(spent[0])

        future.add_done_callback(finished)
        try:
            with tracing.span(f"engine {self.name}"):
                return await asyncio.shield(future)
        except asyncio.CancelledError:
            cancel.set()
            raise

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class Engine:
    """The lanes of engine work: `bots` (the server's own seats), `evaluate` (Evaluate, Analyze,
    hints), `simulate` (SimulateGames, Perft), `review` (the reviews of finished matches)."""

    def __init__(
        self,
        threads: int = 2,
        bot_threads: int = 1,
        simulate_threads: int | None = None,
        queue: int = 64,
        caller_jobs: int = 1,
        caller_seconds: float | None = None,
        review_threads: int = 1,
    ):
        self.bots = Lane("bots", bot_threads, queue, niceness=BACKGROUND_NICENESS)
        self.evaluate = Lane("evaluate", threads, queue, Callers(caller_jobs, caller_seconds))
        self.simulate = Lane(
            "simulate",
            simulate_threads or threads,
            queue,
            Callers(caller_jobs, caller_seconds),
            niceness=BACKGROUND_NICENESS,
        )
        self.review = Lane("review", review_threads, queue, niceness=BACKGROUND_NICENESS)
        self.lanes = (self.bots, self.evaluate, self.simulate, self.review)

    @property
    def busy(self) -> int:
        """Jobs started (or waiting for a thread) and not yet returned, over every lane."""
        return sum(lane.busy for lane in self.lanes)

    async def run(self, fn: Callable[[*_Args, Cancel], _T], *args: *_Args) -> _T:
        """`fn(*args, cancel)` on the evaluate lane, for tools that want one thread pool."""
        return await self.evaluate.run(fn, *args)

    def shutdown(self) -> None:
        for lane in self.lanes:
            lane.shutdown()
