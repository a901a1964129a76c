"""Per-caller limits shared by the processes of one database: the workers of `hunters serve
--workers N` on one SQLite file, or replicas on one PostgreSQL.

Each process decides alone, on what it holds in memory, so that a refusal costs no database round
trip; once a second it publishes what its callers use and reads what the others published (a
`usage` table in the store, one row per process, kind and caller). What the others' callers used
since the last reading is then charged to the same callers here. A caller who spreads its calls
over N processes so gets, within a second, the limits of one process rather than N times them. This
is the design of global rate limiters that decide locally and reconcile asynchronously (e.g.
Gubernator's GLOBAL behaviour), traded for no round trip on the hot path.

A `Shareable` is one kind of usage (a lane's engine seconds and calls at once, the bot seats of a
caller's matches). It gives `counters` (amounts that only grow: engine seconds spent) and `gauges`
(amounts now: calls under way, bot seats held), and takes the others' counters' growth and their
gauges' sums.

A process whose own heartbeat row is older than `STALE_SECONDS` is gone (killed, partitioned): its
rows no longer count and the next process to share deletes them."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol

from .store_base import OtherRow, Row, StoreUnavailable

log = logging.getLogger("hunters.service")
SHARE_SECONDS = 1.0  # how often a process publishes and reads
STALE_SECONDS = 30.0  # a process silent this long is gone: its usage no longer counts
HEARTBEAT = ("", "")  # (kind, key) of a process's heartbeat row: its amount is unused, its time is what counts


class Shareable(Protocol):
    """One kind of per-caller usage that the processes of one database share."""

    def counters(self) -> dict[str, float]:
        """Caller -> an amount that only grows while this process lives (engine seconds spent)."""
        ...

    def gauges(self) -> dict[str, float]:
        """Caller -> an amount now (calls under way, bot seats held); callers at 0 may be left out."""
        ...

    def absorb(self, grown: dict[str, float], elsewhere: dict[str, float]) -> None:
        """What the other processes' callers used since the last call (`grown`, by caller), and the
        sum of their gauges now (`elsewhere`, by caller: a caller absent has 0 elsewhere)."""
        ...


class UsageStore(Protocol):
    async def share_usage(self, process: str, rows: Sequence[Row], gone: Sequence[tuple[str, str]]) -> list[OtherRow]:
        """Write `rows` as this process's (and drop its rows `gone`), its heartbeat now; delete the
        rows of processes gone stale; return every row of the other live processes."""
        ...


def process_id() -> str:
    """A name for this process's rows: unique even across machines and restarts."""
    return f"{os.getpid()}-{secrets.token_hex(6)}"


class SharedUsage:
    """The usage kinds of this process, published and reconciled through the store."""

    def __init__(self, store: UsageStore, kinds: dict[str, Shareable]):
        self.store = store
        self.kinds = kinds
        self.process = process_id()
        self._published: dict[tuple[str, str], float] = {}  # what the store holds of ours
        self._seen: dict[tuple[str, str, str], float] = {}  # (process, kind, key) -> the others' counters as last read
        self._known: set[str] = set()  # the other processes as of the last reading

    def _mine(self) -> tuple[list[Row], list[tuple[str, str]]]:
        """Our rows that changed since the last exchange, and those that went to 0."""
        now: dict[tuple[str, str], float] = {}
        for kind, source in self.kinds.items():
            for key, amount in source.counters().items():
                now[(f"{kind}:counter", key)] = amount
            for key, amount in source.gauges().items():
                if amount:
                    now[(f"{kind}:gauge", key)] = amount
        changed = [
            (kind, key, amount) for (kind, key), amount in now.items() if self._published.get((kind, key)) != amount
        ]
        gone = [pair for pair in self._published if pair not in now]
        self._published = now
        return changed, gone

    async def share(self) -> None:
        """One exchange: publish ours, read theirs, tell each kind what the others used. A store
        fault leaves everything as it was (the next exchange publishes the same changes again)."""
        before = dict(self._published)
        rows, gone = self._mine()
        try:
            others = await self.store.share_usage(self.process, rows, gone)
        except BaseException:
            self._published = before
            raise
        self._absorb(others)

    def _absorb(self, others: Iterable[OtherRow]) -> None:
        grown: dict[str, dict[str, float]] = {kind: {} for kind in self.kinds}
        elsewhere: dict[str, dict[str, float]] = {kind: {} for kind in self.kinds}
        seen: dict[tuple[str, str, str], float] = {}
        processes = set()
        for process, kind_name, key, amount in others:
            processes.add(process)
            kind, _, what = kind_name.rpartition(":")
            if kind not in self.kinds:
                continue
            if what == "gauge":
                elsewhere[kind][key] = elsewhere[kind].get(key, 0.0) + amount
            elif what == "counter":
                seen[(process, kind, key)] = amount
                # A process first heard of: its past is not charged (it may predate this one). A row
                # new in a process already heard of: all of it is new since the last reading.
                before = self._seen.get((process, kind, key), 0.0 if process in self._known else amount)
                if amount > before:
                    grown[kind][key] = grown[kind].get(key, 0.0) + amount - before
        self._seen = seen
        self._known = processes
        for kind, source in self.kinds.items():
            source.absorb(grown[kind], elsewhere[kind])

    async def run(self, every: float = SHARE_SECONDS) -> None:
        """Exchange every `every` seconds until cancelled; a store fault (logged by the store) or a
        surprise only skips a turn."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.share()
            except StoreUnavailable:
                continue
            except Exception:
                log.exception("sharing callers' usage failed")
