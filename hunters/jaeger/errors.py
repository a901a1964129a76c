"""The core's refusals, worded: each becomes an IllegalMoveError with a reason and a message.

The reason names and their numbers come from the core (`hunters.jaeger._core.REFUSALS`); only the
wording lives here (with the reasons found before asking the core), and a test checks that every
reason the core knows is worded."""

from __future__ import annotations

from typing import Any

from hunters.errors import IllegalMoveError, InvalidRecordError

from . import _core

__all__ = ["MESSAGES", "IllegalMoveError", "InvalidRecordError", "core_error", "refusal"]

MESSAGES = {
    "GAME_OVER": "the game is over",
    "UNKNOWN_SPACE": "no such space on this board",
    "NOT_YOUR_CHARACTER": "no character of the player to move is on that space",
    "NOT_ADJACENT": "a step goes to a neighbouring space, from a cave to another cave, or off the board",
    "HOLE": "that space holds no tile (it was taken or removed) and can never be entered",
    "OCCUPIED": "a tile other than a camp or cave holds at most one character; a step may end on an "
    "occupied tile only when the same character jumps on to a free tile, cave or camp",
    "NO_WEAPON": "entering an unoccupied mammoth needs a weapon (held, or taken earlier this turn)",
    "NOT_STRAIGHT": "with straight_jumps a jump must continue in a straight line",
    "STEP_COUNT": "a turn is two steps, or one step that takes the player's last character off the board",
    "CHANCE_PENDING": "a chance node is pending (chance='external'): apply_chance first",
    "MALFORMED": "expected Move(Step(src, dst), Step(src, dst) or None) with int spaces (dst None = leave)",
}
_REASON_OF: dict[int, str] = dict(_core.REFUSALS)


def core_error(code: int, move: Any = None) -> IllegalMoveError:
    """The IllegalMoveError for a core refusal code."""
    reason = _REASON_OF[code]
    return IllegalMoveError(reason, MESSAGES[reason], move)


def refusal(reason: str, move: Any = None, message: str | None = None) -> IllegalMoveError:
    """The IllegalMoveError for a reason found before asking the core."""
    return IllegalMoveError(reason, message or MESSAGES[reason], move)
