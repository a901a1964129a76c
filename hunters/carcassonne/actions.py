"""The dense integer action encoding: a fixed action space with a legal mask, for bots and RL.

action = ((((y + B) * SIDE + (x + B)) * 4 + rotation) * OCCUPANT_SLOTS + occupant slot) * RETAKE_SLOTS
         + retake slot

with B = 94 and SIDE = 189 (95 tiles can reach no further from the start tile), and:

- occupant slot: 0 none, 1 + local for a meeple on local zone 0..7, 9 + local for a hut on 0..9
  (the core's own occupant slots: `hunters.carcassonne._core`);
- retake slot: 0 none, 1 + k for the k-th of the current seat's meeples on the board, by zone id.

Every constant comes from the core, which also computes the legal actions and fills the mask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hunters.game_base import ActionSpace
from hunters.info import integer

from . import _core
from .errors import IllegalMoveError
from .moves import Move, Occupant, ScoreEvent
from .tiles import SHAMAN, ZONE_TYPES

if TYPE_CHECKING:
    from .game import Game

BOUND: int = _core.POSITION_BOUND
SIDE: int = _core.ACTION_POSITIONS
OCCUPANT_SLOTS: int = _core.OCCUPANT_SLOTS
MEEPLE_SLOT: int = _core.MEEPLE_SLOT_BASE
HUT_SLOT: int = _core.HUT_SLOT_BASE
RETAKE_SLOTS: int = _core.ACTION_RETAKE_SLOTS
ACTION_SPACE_SIZE: int = _core.ACTION_SPACE_SIZE

__all__ = ["ACTION_SPACE_SIZE", "ZONE_TYPES", "DenseActions"]


class DenseActions(ActionSpace[Move, ScoreEvent]):
    """The dense encoding of carcassonne_hg (see the module docstring), computed by the core."""

    __slots__ = ()
    game: Game

    @property
    def size(self) -> int:
        return ACTION_SPACE_SIZE

    def legal(self) -> list[int]:
        """Action codes of every legal move, ascending (computed in the core)."""
        return self.game.core.legal_actions()

    def mask(self, out: Any = None) -> Any:
        """A bytearray of ACTION_SPACE_SIZE entries, 1 for each legal action, filled by the core."""
        if out is None:
            return self.game.core.action_mask()
        return super().mask(out)

    def from_move(self, move: Any) -> int:
        """The action code of a move that is legal now (IllegalMoveError otherwise)."""
        return self.game.core.action_of(self.game.encode(move))

    def to_move(self, code: int) -> Move:
        """The move an action code stands for in the current decision (it may still be illegal)."""
        game = self.game
        value = integer(code)
        if value is None or not 0 <= value < ACTION_SPACE_SIZE:
            raise IllegalMoveError("MALFORMED", f"action must be an integer from 0 to {ACTION_SPACE_SIZE - 1}", code)
        code = value
        tile = game.tile
        if tile is None:
            raise IllegalMoveError("GAME_OVER", "the game is over", code)
        rest, ret = divmod(code, RETAKE_SLOTS)
        rest, slot = divmod(rest, OCCUPANT_SLOTS)
        pos, rot = divmod(rest, 4)
        y, x = divmod(pos, SIDE)
        retake = None
        if ret:
            seat = game.player
            own = [z for z, s, kind in game.occupants if s == seat and kind == "meeple"]
            if ret > len(own):
                raise IllegalMoveError("NOT_YOUR_MEEPLE", f"you have no meeple number {ret} on the board", code)
            retake = own[ret - 1]
        occupant = None
        if slot:
            kind, local = ("meeple", slot - MEEPLE_SLOT) if slot < HUT_SLOT else ("hut", slot - HUT_SLOT)
            occupant = Occupant(kind, tile * 10 + local)
        return Move(x - BOUND, y - BOUND, rot, occupant, retake)

    def pairs(self) -> list[tuple[Move, int]]:
        """(move, action code) of every legal move, in legal_moves() order (= ascending actions)."""
        return list(zip(self.game.legal_moves(), self.game.core.legal_actions(), strict=True))

    def keys(self) -> tuple[int, list[int]] | None:
        """(the tile in hand, the legal actions): an action fixes the move's place, turn and
        piece, and the tile its zone. Not on the shaman, whose retake names a meeple that the
        action counts among the seat's meeples on the board."""
        tile = self.game.core.tile
        if tile is None or tile == SHAMAN:
            return None
        return tile, self.game.core.legal_actions()
