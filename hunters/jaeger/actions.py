"""The dense integer action encoding: a fixed action space with a legal mask, for bots and RL.

    step   = src * SLOTS + slot
    action = step1 * (STEPS + 1) + (0 if the move has one step else step2 + 1)

where STEPS = spaces * SLOTS and SLOTS = D + C + 1 for a board with D neighbour slots and C caves:
slot 0..D-1 is a step to the neighbour in that slot (default grid: directions W, E, NW, NE, SW, SE),
slot D + k a cave jump to the k-th cave (caves by ascending space), slot D + C leaving the board.
A step onto a neighbouring cave always uses the neighbour slot. The action code is the core's own
turn code, so legal actions come straight from the core, in legal_moves() order.

On the default board (120 spaces, 6 directions, 5 caves) SLOTS = 12 and the space has
`ACTION_SPACE_SIZE` = 1440 * 1441 = 2,075,040 actions; a game on another board (or with another
number of caves) has `game.actions.size`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hunters.game_base import ActionSpace
from hunters.info import integer

from .board import default_board
from .errors import IllegalMoveError, refusal
from .moves import Event, Move
from .tiles import data

if TYPE_CHECKING:
    from .game import Game


def _default_size() -> int:
    board = default_board()
    caves: int = data()["tiles"]["summer"].get("cave", 0)
    slots = board.ndir + caves + 1
    steps = board.n * slots
    return steps * (steps + 1)


ACTION_SPACE_SIZE: int = _default_size()

__all__ = ["ACTION_SPACE_SIZE", "DenseActions"]


class DenseActions(ActionSpace[Move, Event]):
    """The dense encoding of jaeger_sammler (see the module docstring): the core's own turn codes."""

    __slots__ = ()
    game: Game

    @property
    def size(self) -> int:
        """ACTION_SPACE_SIZE on the default board; another board has a size of its own."""
        return self.game.config.action_space_size

    def legal(self) -> list[int]:
        """Action codes of every legal move, ascending (= legal_moves() order); none while a chance
        node is pending."""
        game = self.game
        return [] if game.chance_pending else game.core.legal_codes()

    def from_move(self, move: Any) -> int:
        """The action code of a move that is legal now (IllegalMoveError otherwise)."""
        return self.game.encode(move)

    def to_move(self, code: int) -> Move:
        """The move an action code stands for on this game's board (it may still be illegal now)."""
        size = self.size
        value = integer(code)
        if value is None or not 0 <= value < size:
            raise IllegalMoveError("MALFORMED", f"action must be an integer from 0 to {size - 1}", code)
        code = value
        try:
            return self.game.decode(code)
        except ValueError:
            raise refusal("NOT_ADJACENT", code, "that action's step leads nowhere on this board") from None

    def pairs(self) -> list[tuple[Move, int]]:
        """(move, action code) of every legal move, in legal_moves() order (= ascending codes)."""
        decode = self.game.decode
        return [(decode(c), c) for c in self.legal()]

    def keys(self) -> tuple[object, list[int]]:
        """(the game's configuration, the legal codes): a code is a turn's steps on the
        configuration's board (shared by the game's clones)."""
        return self.game.config, self.legal()
