"""The core's refusals, worded: each becomes an IllegalMoveError with a reason and a message.

The reason names and their numbers come from the core (`hunters.carcassonne._core.REFUSALS`); only
the wording lives here, and a test checks that every reason the core knows is worded."""

from __future__ import annotations

from typing import Any

from hunters.errors import IllegalMoveError, InvalidRecordError

from . import _core

__all__ = ["MESSAGES", "IllegalMoveError", "InvalidRecordError", "core_error", "refusal"]

MESSAGES: dict[str, str] = {
    "GAME_OVER": "the game is over",
    "BAD_ROTATION": "rotation must be 0, 1, 2 or 3",
    "NOT_ADJACENT": "the position does not touch any placed tile",
    "POSITION_OCCUPIED": "a tile is already placed there",
    "SIDE_MISMATCH": "a side does not match its neighbour (forest/meadow/river)",
    "RETAKE_NOT_ALLOWED": "only the shaman tile (88) lets you take a meeple back",
    "NOT_YOUR_MEEPLE": "that zone holds none of your meeples",
    "ZONE_NOT_ON_TILE": "the occupant's zone is not on the tile being placed",
    "BAD_ZONE_TYPE": "meeples go on forests, rivers and meadows; huts on rivers and lakes",
    "NO_MEEPLE_LEFT": "you have no meeple left in your supply",
    "NO_HUT_LEFT": "you have no hut left in your supply",
    "FEATURE_OCCUPIED": "that feature already holds a meeple",
    "SYSTEM_OCCUPIED": "that river system already holds a hut",
    "UNKNOWN_ZONE": "no such zone",
    "CHANCE_PENDING": "a tile draw is pending (external chance): resolve it with apply_chance first",
    "NO_POSITION": "no open position has that frontier index (compact action code)",
}
"""Reason -> message, for every reason of the core."""

_REASON_OF: dict[int, str] = dict(_core.REFUSALS)


def core_error(code: int, move: Any = None) -> IllegalMoveError:
    """The IllegalMoveError for a core refusal code."""
    reason = _REASON_OF[code]
    return IllegalMoveError(reason, MESSAGES[reason], move)


def refusal(reason: str, move: Any = None) -> IllegalMoveError:
    """The IllegalMoveError for one of the core's reasons, found before asking the core."""
    return IllegalMoveError(reason, MESSAGES[reason], move)
