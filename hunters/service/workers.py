"""`hunters serve --workers N`: N server processes on one port and one database, and a parent that
supervises them.

Each worker is a whole server (`server.serve`) started with `ServerConfig.worker` set: it listens
with SO_REUSEPORT, so the kernel spreads the incoming connections over the workers, and it opens
the database as a shared store (a SQLite file written by every worker, or PostgreSQL as replicas),
on which the database decides every race and each worker hears the others' changes (store.py,
matches.py). A worker's number is answered by the health check as the service name
`hunters.worker.<n>` and is in every log line it writes.

The parent serves nothing: it starts the workers (their configuration on their stdin), restarts one
that ends without being asked to (a crash, a `kill -9`) after a short pause, forwards SIGTERM and
SIGINT to every worker and waits for them to stop (each gets the grace period), and exits. A worker
that refuses its configuration (exit status 2: a database it cannot use) stops them all, with that
status. Workers end with the parent even if it is killed (Linux: PR_SET_PDEATHSIG)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import signal
import socket
import subprocess
import sys
import time
from typing import Any

from .server import ServerConfig, configure_logging

log = logging.getLogger("hunters.service")
RESTART_PAUSE = 0.5  # seconds before a worker that ended is started again; doubled while it keeps failing
MAX_RESTART_PAUSE = 10.0
STEADY_SECONDS = 30.0  # a worker that ran this long before ending is restarted after the shortest pause
REFUSED = 2  # the exit status of a server that refuses its configuration (command.py)


def free_port(host: str) -> int:
    """A port free on `host` now (what `--port 0` means for workers that must all share one)."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host.strip("[]"), 0))
        return int(s.getsockname()[1])


@dataclasses.dataclass
class _Worker:
    index: int
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    pause: float = RESTART_PAUSE
    restart_at: float | None = None


def _start(worker: _Worker, config: ServerConfig, log_level: str, log_format: str) -> None:
    given = {"config": dataclasses.asdict(config), "log_level": log_level, "log_format": log_format}
    payload = json.dumps(given).encode()
    worker.proc = subprocess.Popen(
        [sys.executable, "-m", "hunters.service.workers", str(worker.index)], stdin=subprocess.PIPE
    )
    assert worker.proc.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        worker.proc.stdin.write(payload)
        worker.proc.stdin.close()
    worker.started = time.monotonic()
    worker.restart_at = None
    log.info("worker started", extra={"worker": worker.index, "pid": worker.proc.pid})


def supervise(config: ServerConfig, workers: int, log_level: str = "INFO", log_format: str = "auto") -> int:
    """Run `workers` worker processes of `config` until SIGTERM or SIGINT; 0 after a clean stop,
    2 when a worker refused the configuration. Each worker serves its metrics (`--metrics-port`) on
    that port + its number."""
    configure_logging(log_level, log_format)
    host, _, port = config.address.rpartition(":")
    if int(port) == 0:
        config = dataclasses.replace(config, address=f"{host}:{free_port(host)}")
    if config.http_port == 0:
        config = dataclasses.replace(config, http_port=free_port(host))
    stopping: list[int] = []

    def on_signal(sig: int, _frame: Any) -> None:
        if not stopping:
            log.info("shutting down", extra={"signal": signal.Signals(sig).name})
        stopping.append(sig)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    group = [_Worker(i) for i in range(workers)]
    status = 0
    try:
        for worker in group:
            _start(worker, dataclasses.replace(config, worker=worker.index), log_level, log_format)
        log.info("workers started", extra={"address": config.address, "workers": workers, "http": config.http_port})
        while not stopping:
            time.sleep(0.05)
            now = time.monotonic()
            for worker in group:
                if worker.proc is None or stopping:
                    continue
                code = worker.proc.poll()
                if code is None:
                    continue
                if code == REFUSED:
                    log.error("worker refused its configuration: stopping", extra={"worker": worker.index})
                    status = REFUSED
                    stopping.append(signal.SIGTERM)
                    break
                if worker.restart_at is None:
                    if now - worker.started >= STEADY_SECONDS:
                        worker.pause = RESTART_PAUSE
                    worker.restart_at = now + worker.pause
                    log.warning(
                        "worker ended: restarting",
                        extra={"worker": worker.index, "pid": worker.proc.pid, "status": code, "in": worker.pause},
                    )
                    worker.pause = min(2 * worker.pause, MAX_RESTART_PAUSE)
                elif now >= worker.restart_at:
                    _start(worker, dataclasses.replace(config, worker=worker.index), log_level, log_format)
    finally:
        _stop_all(group, config.grace_seconds)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    log.info("stopped")
    return status


def _stop_all(group: list[_Worker], grace: float) -> None:
    """SIGTERM to every worker; each gets the grace period and a few seconds to close, then SIGKILL."""
    live = [w.proc for w in group if w.proc is not None and w.proc.poll() is None]
    for proc in live:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace + 10.0
    for proc in live:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.error("worker did not stop: killed", extra={"pid": proc.pid})
            proc.kill()
            proc.wait()


def _die_with_parent() -> None:
    """Linux: this process gets SIGTERM when its parent dies (a supervisor killed with -9)."""
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)


def main(index: int) -> int:
    """A worker: its configuration from stdin, then the server until SIGTERM."""
    from .launch import serve_config

    _die_with_parent()
    given = json.loads(sys.stdin.buffer.read())
    sys.stdin.close()
    config = ServerConfig(**dict(given["config"], worker=index))
    return serve_config(config, given["log_level"], given.get("log_format", "auto"))


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
