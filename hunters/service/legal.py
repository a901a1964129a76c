"""Legal moves as serialized protobuf entries (`LegalMove`, as a repeated field of the message that
lists them): built by the game's core where it can (`GameAdapter.legal_entries`), else each (move,
action) encoded once here and reused as bytes.

A listing is what the seat streams offer every turn and what ListLegalMoves and Evaluate return:
tens to hundreds of moves a decision, many of them listed before (in earlier turns of the match,
or in other matches). A game that promises, with `ActionSpace.keys()`, that an action
code stands for one move within a context (what else its moves depend on) is listed straight from
its action codes: only the entries not listed before are encoded, each from the move its action
stands for (`action_to_move`), and no other move is built; any other is
listed from `legal_moves_with_actions()`, each entry reused while its action stands for an equal
move. Entries are encoded from `GameAdapter.move_bytes` without building LegalMove messages."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from hunters.wire import field_bytes, varint_bytes

__all__ = ["LegalEncoder", "legal_entries"]

CONTEXTS = 512
"""Contexts whose entries are kept (least recently listed dropped first)."""
ENTRIES = 200_000
"""Entries kept in all (about 25 MB): past it, the least recently listed contexts are dropped."""


_ACTION_TAG = varint_bytes(2 << 3)  # LegalMove.action, a varint


def _entry(ad: Any, move: Any, action: int, field: int) -> bytes:
    """The LegalMove of (move, action) as the field `field` of its listing: `LegalMove(move=...,
    action=...)` serialized, without building the message."""
    data = field_bytes(1, ad.move_bytes(move))
    if action:  # proto3 leaves a zero out
        data += _ACTION_TAG + varint_bytes(action)
    return field_bytes(field, data)


class LegalEncoder:
    """The cache of encoded entries, by (adapter, field number, context). Safe to share between the
    event loop and worker threads."""

    def __init__(self, contexts: int = CONTEXTS, entries: int = ENTRIES):
        self.contexts = contexts
        self.limit = entries
        self.size = 0
        """Entries held now (keyed tables)."""
        self._tables: OrderedDict[Any, dict[int, bytes]] = OrderedDict()
        self._pairs: dict[Any, dict[int, tuple[Any, bytes]]] = {}
        self._lock = threading.Lock()

    def _table(self, key: Any) -> dict[int, bytes]:
        with self._lock:
            table = self._tables.get(key)
            if table is None:
                table = self._tables[key] = {}
                if len(self._tables) > self.contexts:
                    self.size -= len(self._tables.popitem(last=False)[1])
            else:
                self._tables.move_to_end(key)
            return table

    def _grown(self, key: Any, table: dict[int, bytes], added: int) -> None:
        """Count `added` new entries of `table`; past the limit drop the least recently listed
        tables (this one last)."""
        with self._lock:
            if self._tables.get(key) is not table:
                return  # dropped meanwhile (another thread's listing): its entries are gone with it
            self.size += added
            while self.size > self.limit and self._tables:
                oldest, dropped = next(iter(self._tables.items()))
                if oldest == key and len(self._tables) > 1:
                    self._tables.move_to_end(key)
                    continue
                del self._tables[oldest]
                self.size -= len(dropped)
                dropped.clear()

    def entries(self, ad: Any, game: Any, field: int) -> bytes:
        """Every legal move of `game` (`ad`: its wire adapter) as entries of the repeated LegalMove
        field number `field`, in `legal_moves_with_actions()` order."""
        keyed = game.actions.keys()
        if keyed is None:
            return self._by_pairs(ad, game, field)
        context, actions = keyed
        key = (ad, field, context)
        table = self._table(key)
        out: list[bytes | None] = list(map(table.get, actions))
        if None in out:  # only the entries not listed before are built, each from its action
            to_move = game.actions.to_move
            added = 0
            for i, piece in enumerate(out):
                if piece is None:
                    action = actions[i]
                    out[i] = table[action] = _entry(ad, to_move(action), action, field)
                    added += 1
            self._grown(key, table, added)
        return b"".join(out)  # type: ignore[arg-type]  # every None was filled

    def _by_pairs(self, ad: Any, game: Any, field: int) -> bytes:
        """The listing of a game without action keys: an entry is reused while its action stands
        for the same move (the same object, as games that memoise their moves hand out, or an equal
        one)."""
        key = (ad, field)
        table = self._pairs.get(key)
        if table is None:
            table = self._pairs.setdefault(key, {})
        if len(table) > self.limit:
            table.clear()
        out = []
        for move, action in game.actions.pairs():
            hit = table.get(action)
            if hit is None or (hit[0] is not move and hit[0] != move):
                hit = table[action] = (move, _entry(ad, move, action, field))
            out.append(hit[1])
        return b"".join(out)


_SHARED = LegalEncoder()


def legal_entries(ad: Any, game: Any, field: int) -> bytes:
    """The listing as the game's core builds it (`GameAdapter.legal_entries`), else
    `LegalEncoder.entries` on the server's shared cache."""
    built: bytes | None = ad.legal_entries(game, field)
    if built is not None:
        return built
    return _SHARED.entries(ad, game, field)
