"""Errors are values with reasons: a machine-readable `reason` and a human message."""
from __future__ import annotations

from typing import Any

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


class IllegalMoveError(ValueError):
    """A move that the rules refuse (or that is malformed). The game is left unchanged."""

    def __init__(self, reason: str, message: str, move: Any = None):
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message
        self.move = move

    @classmethod
    def from_code(cls, code: int, move: Any = None) -> "IllegalMoveError":
        reason, message = _CORE_REASONS[code]
        return cls(reason, message, move)


class InvalidRecordError(ValueError):
    """A game record that is malformed or does not replay."""
