"""The core's refusal codes, named: each becomes an IllegalMoveError with a reason and a message."""
from __future__ import annotations

from typing import Any

from hunters.errors import IllegalMoveError, InvalidRecordError

__all__ = ["IllegalMoveError", "InvalidRecordError", "core_error", "refusal"]

# Core error codes (hunters/_core/carcassonne.pxd) -> (reason, message)
_CORE_REASONS = {
    1: ("GAME_OVER", "the game is over"),
    2: ("BAD_ROTATION", "rotation must be 0, 1, 2 or 3"),
    3: ("NOT_ADJACENT", "the position does not touch any placed tile"),
    4: ("POSITION_OCCUPIED", "a tile is already placed there"),
    5: ("SIDE_MISMATCH", "a side does not match its neighbour (forest/meadow/river)"),
    6: ("RETAKE_NOT_ALLOWED", "only the shaman tile (88) lets you take a meeple back"),
    7: ("NOT_YOUR_MEEPLE", "that zone holds none of your meeples"),
    8: ("ZONE_NOT_ON_TILE", "the occupant's zone is not on the tile being placed"),
    9: ("BAD_ZONE_TYPE", "meeples go on forests, rivers and meadows; huts on rivers and lakes"),
    10: ("NO_MEEPLE_LEFT", "you have no meeple left in your supply"),
    11: ("NO_HUT_LEFT", "you have no hut left in your supply"),
    12: ("FEATURE_OCCUPIED", "that feature already holds a meeple"),
    13: ("SYSTEM_OCCUPIED", "that river system already holds a hut"),
    14: ("UNKNOWN_ZONE", "no such zone"),
}


_MESSAGES = dict(_CORE_REASONS.values())


def core_error(code: int, move: Any = None) -> IllegalMoveError:
    """The IllegalMoveError for a core error code."""
    reason, message = _CORE_REASONS[code]
    return IllegalMoveError(reason, message, move)


def refusal(reason: str, move: Any = None) -> IllegalMoveError:
    """The IllegalMoveError for one of the core's reasons, found before asking the core."""
    return IllegalMoveError(reason, _MESSAGES[reason], move)
