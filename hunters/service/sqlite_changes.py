"""How the workers of one `hunters serve --workers N`, sharing a SQLite database, hear each other's
changes: a thread of its own looks at `PRAGMA data_version` every 2 ms until a second after the
last change it handed on, then less often down to every 20 ms, reads the `changes` table only when
another connection committed, and hands the other workers' changes to the loop, leaving out their
moves of matches this worker does not hold in memory (`follows`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Protocol

from .store_base import ChangeHandler, ResyncHandler, parse_change

log = logging.getLogger("hunters.service")
# How often a shared store looks for the other workers' changes: every POLL_SECONDS until BUSY_SECONDS
# after the last change it handed to the loop, then the pause doubling up to QUIET_POLL_SECONDS (an
# idle worker wakes 50 times a second; each look costs ~0.1 ms of CPU).
POLL_SECONDS = 0.002
BUSY_SECONDS = 1.0
QUIET_POLL_SECONDS = 0.02
_CHANGES_PER_READ = 1000


class _Store(Protocol):
    """What the listener reads of its store."""

    path: str
    follows: Callable[[str], bool] | None
    moves_passed_over: int

    @property
    def busy_timeout(self) -> float: ...

    @property
    def origin(self) -> int: ...

    def touchable(self) -> bool: ...


class ChangeListener:
    """The thread that polls a shared SQLite store for the other workers' changes, and the task
    that applies them on the loop."""

    def __init__(self, store: _Store):
        self._store = store
        self._listener: asyncio.Task[None] | None = None  # applies what the watching thread read
        self._watching: threading.Thread | None = None  # polls for the other workers' changes
        self._stop_watching = threading.Event()

    async def stop(self) -> None:
        self._stop_watching.set()
        if self._watching is not None:
            self._watching.join()
            self._watching = None
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None

    def start(self, on_change: ChangeHandler, on_resync: ResyncHandler) -> None:
        """Hear the other workers' changes until stop(): a thread of its own polls, on a connection
        of its own, so that a look that finds nothing (most of them) never wakes the event loop; what
        it reads (the other workers' changes only) is handed to the loop in order."""
        loop = asyncio.get_running_loop()
        watch = sqlite3.connect(
            self._store.path, check_same_thread=False, isolation_level=None, timeout=self._store.busy_timeout
        )
        last = int(watch.execute("SELECT MAX(seq) FROM changes").fetchone()[0] or 0)
        heard: asyncio.Queue[tuple[bool, list[tuple[str, str]]]] = asyncio.Queue()
        self._stop_watching.clear()
        self._watching = threading.Thread(
            target=self._watch, args=(watch, last, loop, heard), name="hunters-sqlite-changes", daemon=True
        )
        self._watching.start()
        self._listener = loop.create_task(self._hear(heard, on_change, on_resync))

    async def _hear(
        self,
        heard: asyncio.Queue[tuple[bool, list[tuple[str, str]]]],
        on_change: ChangeHandler,
        on_resync: ResyncHandler,
    ) -> None:
        while True:
            resync, rows = await heard.get()
            try:
                if resync:
                    await on_resync()
                for match_id, what in rows:
                    change = parse_change(f"{match_id} {what}")
                    if change is not None:
                        await on_change(change)
            except Exception:
                log.exception("applying the other workers' changes failed")

    def _watch(
        self,
        watch: sqlite3.Connection,
        last: int,
        loop: asyncio.AbstractEventLoop,
        heard: asyncio.Queue[tuple[bool, list[tuple[str, str]]]],
    ) -> None:
        """The watching thread: `PRAGMA data_version` (it changes when another connection commits,
        this worker's own included) every POLL_SECONDS until BUSY_SECONDS after the last change handed
        on, then less often; the new rows of `changes` read when it changed, the other workers' ones
        that concern this worker (`follows`) handed on."""
        seen = -1
        pause = POLL_SECONDS
        busy_until = 0.0
        failing = False
        follows = self._store.follows
        try:
            while not self._stop_watching.wait(pause):
                if not self._store.touchable():
                    continue  # its index would be SIGBUS: the store has said why
                try:
                    version = watch.execute("PRAGMA data_version").fetchone()[0]
                    if version == seen:
                        if time.monotonic() >= busy_until:
                            pause = min(2 * pause, QUIET_POLL_SECONDS)
                        continue
                    seen, told = version, False
                    while True:
                        rows = watch.execute(
                            "SELECT seq, match_id, what, origin FROM changes WHERE seq > ? ORDER BY seq LIMIT ?",
                            (last, _CHANGES_PER_READ),
                        ).fetchall()
                        resync = bool(rows) and rows[0][0] > last + 1  # trimmed past us: some are lost
                        if resync:
                            log.warning(
                                "changes missed: every match in memory catches up", extra={"db": self._store.path}
                            )
                        theirs = [(r[1], r[2]) for r in rows if r[3] != self._store.origin]
                        if follows is not None and theirs:
                            # the other workers' moves of matches not in memory: not worth waking the loop
                            kept = [c for c in theirs if not str(c[1]).isdigit() or follows(c[0])]
                            self._store.moves_passed_over += len(theirs) - len(kept)
                            theirs = kept
                        if rows:
                            last = rows[-1][0]
                        if theirs or resync:
                            loop.call_soon_threadsafe(heard.put_nowait, (resync, theirs))
                            told = True
                        if len(rows) < _CHANGES_PER_READ:
                            break
                    # only changes handed on keep the polls frequent: this worker's own commits and the
                    # others' moves of matches it does not hold back off like no change at all
                    if told:
                        pause, busy_until = POLL_SECONDS, time.monotonic() + BUSY_SECONDS
                    elif time.monotonic() >= busy_until:
                        pause = min(2 * pause, QUIET_POLL_SECONDS)
                    failing = False
                except sqlite3.Error as exc:  # the database away for a moment: look again later
                    if not failing:
                        log.warning("reading the other workers' changes failed", extra={"error": str(exc)})
                    failing, seen, pause = True, -1, QUIET_POLL_SECONDS
        except RuntimeError:  # the loop closed under us: the server is stopping
            pass
        finally:
            watch.close()
