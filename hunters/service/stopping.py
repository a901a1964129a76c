"""How long one engine job of a call may run, and the stop byte that ends it inside the core when
that time is up: the caller's engine seconds left and the call's deadline (`TimeLeft`) arm a timer
that sets the job's cancel flag (`Stopper`), which a core search or count reads without the GIL.
A job that stopped is told in the contract's words: the deadline (DEADLINE_EXCEEDED), the spent
budget (RESOURCE_EXHAUSTED / CALLER_BUDGET_EXHAUSTED), or the caller gone (CANCELLED)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import TracebackType

import grpc

from .engine import Cancel
from .errors import ServiceError

__all__ = ["Stopper", "TimeLeft"]


@dataclass(frozen=True)
class TimeLeft:
    """What bounds one job of a call: the caller's engine `seconds` left and the call's
    `deadline` (seconds from now), each None when there is no such bound."""

    seconds: float | None = None
    deadline: float | None = None

    def first(self) -> tuple[float, bool] | None:
        """(seconds until the nearer bound, whether it is the deadline), or None."""
        pairs = ((self.seconds, False), (self.deadline, True))
        bounds = [(b, by_deadline) for b, by_deadline in pairs if b is not None]
        return min(bounds) if bounds else None


class Stopper:
    """For a `with` block around a job's engine work: sets `cancel` (its flag, the stop byte) when
    the time `left` runs out; `error(what)` then says why the work stopped."""

    def __init__(self, left: TimeLeft, cancel: Cancel):
        self.cancel = cancel
        self.bound = left.first()
        self._timer: threading.Timer | None = None

    def __enter__(self) -> Stopper:
        if self.bound is not None:
            self._timer = threading.Timer(max(0.0, self.bound[0]), self.cancel.set)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def error(self, what: str, retry: str) -> ServiceError:
        """Why the work stopped, in the contract's words: `what` ran past the deadline, or used the
        engine seconds the caller had (`retry`: what to ask for instead), or the caller went away."""
        timer, bound = self._timer, self.bound
        if timer is not None and timer.finished.is_set() and bound is not None:
            if bound[1]:
                return ServiceError(
                    grpc.StatusCode.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", f"{what} passed the call's deadline"
                )
            return ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "CALLER_BUDGET_EXHAUSTED",
                f"{what} used the {bound[0]:.1f} engine seconds you had left: {retry}, or retry in a minute",
                retry_after_seconds="60",
            )
        return ServiceError(grpc.StatusCode.CANCELLED, "CANCELLED", "the call was cancelled")
