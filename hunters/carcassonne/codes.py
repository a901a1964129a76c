"""The core's codes of moves and events as the game API's objects (shared by the game and its
learning surface)."""

from __future__ import annotations

from typing import Any

from hunters.memo import remember

from . import _core
from . import actions as _actions
from .moves import Move, Occupant, ScoreEvent

__all__ = ["REASONS", "events_of", "move_of"]

REASONS = ("forest", "river", "logboat", "hunting_trap", "river_system", "raft", "meadow")
"""Score-event reasons, by the core's event code."""
_decoded: dict[tuple[int, int], Move] = {}


def move_of(tile: int, code: int) -> Move:
    """The Move of an internal core code for `tile` (memoised: codes repeat across decisions)."""
    key = (tile, code)
    move = _decoded.get(key)
    if move is None:
        x, y, rot, slot, retake = _core.decode(code)
        occupant = None
        if slot:
            hut = slot >= _actions.HUT_SLOT
            local = slot - (_actions.HUT_SLOT if hut else _actions.MEEPLE_SLOT)
            occupant = Occupant("hut" if hut else "meeple", tile * 10 + local)
        move = remember(_decoded, key, Move(x, y, rot, occupant, None if retake < 0 else retake))
    return move


def events_of(raw: list[Any]) -> list[ScoreEvent]:
    """The ScoreEvents of the core's raw event tuples."""
    return [ScoreEvent(d, REASONS[r], seats, pts, feat) for d, r, seats, pts, feat in raw]
