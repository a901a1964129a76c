"""Reads of long matches, off the event loop: one thread (`Reads`) where history is replayed and
encoded a chunk at a time, records built and matches loaded from the store, so that no read holds
the loop for longer than it takes to hand the work over; and `ByteLRU`, an LRU cache bounded in
bytes (the records built, here as a `ByteCache`, and the viewer's histories)."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from hunters.v1 import matches_pb2

if TYPE_CHECKING:
    from .live import LiveMatch

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

RECORD_CACHE_BYTES = 64 * 1024 * 1024  # serialized GetRecord replies kept, in all


class Reads:
    """One thread for the long reads: jobs run one at a time, in the order asked for, so many
    readers of long matches take turns with each other rather than with everyone else's calls."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hunters-reads")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` on the reads thread."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        """No more jobs; those under way finish (each is short)."""
        self._pool.shutdown(wait=False)


def _record_response(game: Any) -> bytes:
    """A serialized GetRecordResponse of `game` (replaced, never mutated, once published: safe to
    read from the reads thread)."""
    record = json.dumps(game.to_record(), separators=(",", ":"))
    return matches_pb2.GetRecordResponse(record_json=record).SerializeToString()


class Records:
    """Serialized GetRecord replies by (match, version): built on the reads thread, and kept in at
    most `limit` bytes for the next callers."""

    def __init__(self, reads: Reads, limit: int = RECORD_CACHE_BYTES):
        self.reads = reads
        self.cache: ByteCache[tuple[str, int]] = ByteCache(limit)

    def __len__(self) -> int:
        return len(self.cache)

    async def reply(self, live: LiveMatch) -> bytes:
        key = (live.match_id, live.version)
        found = self.cache.get(key)
        if found is None:
            found = await self.reads.run(_record_response, live.game)
            self.cache.put(key, found)
        return found


class ByteLRU(Generic[K, V]):
    """Values by key with their sizes, least recently used out first while the total is over
    `budget` bytes (an entry larger than the whole budget is not kept at all)."""

    def __init__(self, budget: int):
        self.budget = budget
        self.nbytes = 0
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def get(self, key: K) -> V | None:
        """The value (now the most recently used), or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def forget(self, key: K) -> None:
        old = self._entries.pop(key, None)
        if old is not None:
            self.nbytes -= old[1]

    def put(self, key: K, value: V, size: int) -> None:
        """Keep `value` as `size` bytes (again, if it is kept already: its new size)."""
        self.forget(key)
        self._entries[key] = (value, size)
        self.nbytes += size
        while self.nbytes > self.budget and self._entries:
            _, (_, gone) = self._entries.popitem(last=False)
            self.nbytes -= gone


class ByteCache(ByteLRU[K, bytes]):
    """Byte strings by key, sized by their length; one larger than the whole budget is not kept,
    and the others stay."""

    def put(self, key: K, value: bytes, size: int | None = None) -> None:
        if len(value) > self.budget:
            self.forget(key)
            return
        super().put(key, value, len(value))
