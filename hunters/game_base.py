"""What every game's `Game` shares: move checks and the dense action encoding (bots, RL).

A game class derives from `GameBase`, implements `_code(move)` (the core's code of a legal move, or
IllegalMoveError saying why not) and names its encoding module in `_ACTIONS`; that module provides
legal_actions, action_mask, move_to_action and action_to_move for the game."""
from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from hunters.errors import IllegalMoveError


class GameBase:
    __slots__ = ()
    _ACTIONS: ClassVar[ModuleType]

    def _code(self, move: Any) -> int:
        raise NotImplementedError

    def check(self, move: Any) -> None:
        """Raise IllegalMoveError if `move` is not legal now; change nothing."""
        self._code(move)

    def is_legal(self, move: Any) -> bool:
        try:
            self._code(move)
        except IllegalMoveError:
            return False
        return True

    def legal_actions(self) -> list[int]:
        """Action codes of every legal move, ascending."""
        return self._ACTIONS.legal_actions(self)

    def action_mask(self) -> bytearray:
        """One byte per action of the game's action space, 1 where the action is legal
        (`numpy.frombuffer`-ready)."""
        return self._ACTIONS.action_mask(self)

    def move_to_action(self, move: Any) -> int:
        """The action code of a move that is legal now (IllegalMoveError otherwise)."""
        return self._ACTIONS.move_to_action(self, move)

    def action_to_move(self, action: int) -> Any:
        """The move an action code stands for now (it may still be illegal)."""
        return self._ACTIONS.action_to_move(self, action)

    def play_action(self, action: int) -> list:
        """Play the move of an action code."""
        return self.play(self.action_to_move(action))  # type: ignore[attr-defined]
