"""Per-caller bounds on an engine lane: calls at once, and engine seconds per minute, kept per
caller key (a token the server issued, else the host: hosts.py). With several processes on one
database the bounds are shared (usage.py): each process charges a caller what it used elsewhere."""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

import grpc

from .errors import ServiceError

__all__ = ["MAX_CALLERS", "Budget", "Callers"]

MAX_CALLERS = 10_000  # callers whose budgets are remembered (least recently seen first out)


@dataclass
class Budget:
    jobs: int = 0  # running or waiting now
    seconds: float = 0.0  # engine seconds left (refilled over time)
    refilled: float = 0.0  # when it was last refilled (monotonic)
    spent: float = 0.0  # engine seconds charged here in all (what the other processes are told)
    elsewhere: int = 0  # jobs running in the other processes of the database, as last heard


class Callers:
    """Per-caller bounds on one lane: jobs at once, and engine seconds per minute (a bucket that
    refills continuously; a caller may start a job while it has any seconds left, the job's time is
    charged when it ends)."""

    def __init__(self, jobs: int, seconds_per_minute: float | None):
        self.jobs = jobs
        self.per_minute = seconds_per_minute
        self._budgets: OrderedDict[str, Budget] = OrderedDict()
        self._elsewhere: set[str] = set()  # callers with jobs in other processes, as last heard

    def _budget(self, caller: str) -> Budget:
        now = time.monotonic()
        budget = self._budgets.get(caller)
        if budget is None:
            budget = self._budgets[caller] = Budget(0, self.per_minute or 0.0, now)
            while len(self._budgets) > MAX_CALLERS:
                oldest, old = next(iter(self._budgets.items()))
                if old.jobs or old.elsewhere:  # never forget a caller with work under way
                    break
                del self._budgets[oldest]
        else:
            self._budgets.move_to_end(caller)
        return budget

    @contextlib.contextmanager
    def admitted(self, caller: str, lane: str) -> Iterator[Budget]:
        """Hold one of `caller`'s calls at once for the block (RESOURCE_EXHAUSTED / CALLER_BUSY past
        its limit, CALLER_BUDGET_EXHAUSTED while its engine seconds are used up)."""
        budget = self.screen(caller, lane)
        budget.jobs += 1
        try:
            yield budget
        finally:
            budget.jobs -= 1

    def screen(self, caller: str, lane: str) -> Budget:
        """`caller`'s budget, when it may start a call now; else the refusal `admitted` would give
        (changing nothing): what the service asks before it parses a request."""
        budget = self._budget(caller)
        if budget.jobs + budget.elsewhere >= self.jobs:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "CALLER_BUSY",
                f"you have {budget.jobs + budget.elsewhere} {lane} calls in progress, this server's limit per caller: "
                "wait for one to end",
                limit=str(self.jobs),
            )
        self.check(budget, lane)
        return budget

    def check(self, budget: Budget, lane: str) -> None:
        wait = self.wait(budget)
        if wait > 0:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "CALLER_BUDGET_EXHAUSTED",
                f"you used your {self.per_minute:g} engine seconds per minute of {lane} work: retry in {wait:.1f} s",
                retry_after_seconds=f"{wait:.1f}",
            )

    def wait(self, budget: Budget) -> float:
        """Seconds until `budget` has engine time again (0: it has some now)."""
        if not self.per_minute:
            return 0.0
        now = time.monotonic()
        budget.seconds = min(self.per_minute, budget.seconds + (now - budget.refilled) * self.per_minute / 60)
        budget.refilled = now
        return 0.0 if budget.seconds > 0 else -budget.seconds * 60 / self.per_minute + 0.01

    def left(self, budget: Budget) -> float | None:
        """Engine seconds `budget` has now (None: no bound)."""
        if not self.per_minute:
            return None
        self.wait(budget)
        return max(0.0, budget.seconds)

    def charge(self, budget: Budget, seconds: float) -> None:
        budget.spent += seconds
        if self.per_minute:
            budget.seconds -= seconds

    # -- shared with the other processes of the database (usage.Shareable) --------------------------
    def counters(self) -> dict[str, float]:
        return {caller: budget.spent for caller, budget in self._budgets.items() if budget.spent}

    def gauges(self) -> dict[str, float]:
        return {caller: budget.jobs for caller, budget in self._budgets.items() if budget.jobs}

    def absorb(self, grown: dict[str, float], elsewhere: dict[str, float]) -> None:
        """Charge each caller the engine seconds it used in the other processes, and count its calls
        under way there against its calls at once here."""
        for caller, seconds in grown.items():
            budget = self._budget(caller)
            self.wait(budget)  # refilled up to now first, so the charge lands on today's level
            if self.per_minute:
                budget.seconds -= seconds
        for caller in self._elsewhere - elsewhere.keys():
            if (known := self._budgets.get(caller)) is not None:
                known.elsewhere = 0
        for caller, jobs in elsewhere.items():
            self._budget(caller).elsewhere = int(jobs)
        self._elsewhere = set(elsewhere)
