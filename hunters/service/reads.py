"""Reads of long matches, off the event loop: one thread (`Reads`) where history is replayed and
encoded a chunk at a time, records built and matches loaded from the store, so that no read holds
the loop for longer than it takes to hand the work over; and `ByteCache`, an LRU cache bounded in
bytes (the records built)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

K = TypeVar("K")
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


class ByteCache(Generic[K]):
    """Byte strings by key, least recently used first out once they hold more than `limit` bytes
    (a value larger than the limit is not kept)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.size = 0
        self._items: OrderedDict[K, bytes] = OrderedDict()

    def get(self, key: K) -> bytes | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: bytes) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= len(old)
        if len(value) > self.limit:
            return
        self._items[key] = value
        self.size += len(value)
        while self.size > self.limit:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)
