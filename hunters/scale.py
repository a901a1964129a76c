"""Independent units of work (blocks of simulated games, arena games) run in this process, on a local
process pool, or on a Ray cluster, with the same results wherever they run.

A unit is a module-level function and its arguments; what it computes is fixed by its arguments (the
seeds in them), never by where or when it runs, and `ordered` hands the results back in unit order, so
a caller that merges them in that order gets the same totals from `Inline()`, `Local(n)` and
`Ray(address)`. Ray is imported only by `connect_ray`; the package is optional (``hunters-engine[ray]``).
"""

from __future__ import annotations

import collections
import logging
import os
import socket
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

__all__ = ["Executor", "Inline", "Job", "Local", "Ray", "ScaleError", "connect_ray", "ordered"]

_R = TypeVar("_R")


class ScaleError(RuntimeError):
    """The executor cannot be used: ray missing, a cluster unreachable. The message is one line."""


class Job:
    """One submitted unit: its `future`, and `cancel()` (a unit not started never runs)."""

    def __init__(self, future: Future[Any], cancel: Callable[[], Any]):
        self.future = future
        self._cancel = cancel

    def cancel(self) -> None:
        self._cancel()


class Executor:
    """Where units run. `workers` is how many run at once (the window `ordered` keeps busy);
    `submitted` counts the units handed over, `unfinished()` those not yet done or cancelled."""

    def __init__(self, workers: int = 1, name: str = "this process") -> None:
        self.workers = workers
        self.name = name
        self.submitted = 0
        self._open: set[Future[Any]] = set()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Job:
        job = self._submit(fn, *args)
        self.submitted += 1
        self._open.add(job.future)
        job.future.add_done_callback(self._open.discard)
        return job

    def unfinished(self) -> int:
        return len(self._open)

    def _submit(self, fn: Callable[..., Any], *args: Any) -> Job:
        raise NotImplementedError

    def close(self) -> None:
        """Release the workers (a cluster this process joined is left running)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Inline(Executor):
    """Units run in this process, one at a time, when their result is asked for."""

    def _submit(self, fn: Callable[..., Any], *args: Any) -> Job:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:
            future.set_exception(exc)
        return Job(future, lambda: None)


class Local(Executor):
    """A pool of `workers` processes on this machine (multiprocessing)."""

    def __init__(self, workers: int):
        if type(workers) is not int or workers < 1:
            raise ValueError("workers must be an int >= 1")
        super().__init__(workers, f"{workers} local processes")
        self._pool = ProcessPoolExecutor(max_workers=workers)

    def _submit(self, fn: Callable[..., Any], *args: Any) -> Job:
        future = self._pool.submit(fn, *args)
        return Job(future, future.cancel)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def executor(workers: int = 1, ray: str | None = None) -> Executor:
    """`Ray(ray)` when an address is given, else `Local(workers)`, or `Inline()` for one worker."""
    if ray is not None:
        return connect_ray(ray)
    return Inline() if workers == 1 else Local(workers)


class Ray(Executor):
    """Units as Ray tasks (one CPU each) on the cluster this process is connected to (`connect_ray`)."""

    def __init__(self, ray: Any, owned: bool, address: str):
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        super().__init__(cpus, f"the Ray cluster at {address} ({cpus} CPUs)")
        self._ray = ray
        self._owned = owned  # ray.init was ours: shut down on close
        self._remote: dict[Callable[..., Any], Any] = {}

    def _submit(self, fn: Callable[..., Any], *args: Any) -> Job:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(num_cpus=1, max_retries=3)(fn)
        ref = remote.remote(*args)
        return Job(ref.future(), lambda: self._ray.cancel(ref))

    def close(self) -> None:
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()


def _package_dir() -> str:
    return os.path.dirname(os.path.abspath(__file__))


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on host:port (or ray://host:port) where nothing listens: ray.init would retry for
    a long while before saying so."""
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        raise ScaleError(f"--ray: {address!r} is not 'auto' or HOST:PORT of a Ray cluster")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise ScaleError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None


def connect_ray(address: str) -> Ray:
    """Join the Ray cluster at `address` (HOST:PORT of its head, ray://HOST:PORT, or ``auto`` for the
    one started on this machine by ``ray start``); reuse the connection this process already has.

    The workers run this process's copy of `hunters` (shipped as a runtime-env module), so the rules
    they play are the driver's; the nodes need the same Python and platform (the core is compiled).
    Raises ScaleError (one line) when ray is not installed or the cluster cannot be reached."""
    try:
        import ray
    except ImportError:
        raise ScaleError("--ray needs the Ray package: pip install 'hunters-engine[ray]'") from None
    if ray.is_initialized():
        return Ray(ray, owned=False, address=address)
    if address != "auto":
        _check_reachable(address)
    runtime_env = {"py_modules": [_package_dir()], "excludes": ["*.c", "__pycache__"]}
    try:
        ray.init(
            address=address,
            runtime_env=runtime_env,
            log_to_driver=False,
            logging_level=logging.ERROR,
            configure_logging=True,
        )
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ScaleError(f"cannot connect to the Ray cluster at {address}: {first}") from None
    return Ray(ray, owned=True, address=address)


def ordered(
    pool: Executor, fn: Callable[..., _R], units: Iterable[tuple[Any, ...]], window: int | None = None
) -> Iterator[_R]:
    """`fn(*unit)` for every unit, yielded in unit order, with at most `window` units (default: two per
    worker) submitted and not yet consumed; closing the iterator early cancels the units in flight."""
    limit = window or 2 * pool.workers
    pending: collections.deque[Job] = collections.deque()
    source = iter(units)
    try:
        for unit in source:
            pending.append(pool.submit(fn, *unit))
            if len(pending) >= limit:
                yield pending.popleft().future.result()
        while pending:
            yield pending.popleft().future.result()
    finally:
        for job in pending:
            job.cancel()


def chunks(total: int, size: int) -> list[tuple[int, int]]:
    """(first, count) of consecutive units of `size` covering 0..total-1."""
    return [(first, min(size, total - first)) for first in range(0, total, size)]
