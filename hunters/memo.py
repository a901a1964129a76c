"""The one memo policy of the games' move decoders: codes repeat across decisions, so decoding each
once pays; a memo that reaches `MEMO_LIMIT` is cleared whole, since a game's working set is far below
it and an LRU would cost more on every hit than it saves."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

__all__ = ["MEMO_LIMIT", "remember"]

MEMO_LIMIT = 200_000
"""Entries a decoded-move memo holds before it is cleared whole."""

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def remember(memo: dict[K, V], key: K, value: V) -> V:
    """Put `value` into `memo` under `key` (clearing the memo first when it is full); return it."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value
