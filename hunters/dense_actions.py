"""The dense action encoding every game offers (bots, reinforcement learning), in one place.

A game class mixes in `DenseActions` and names its encoding module in `_ACTIONS`; that module
provides legal_actions, action_mask, move_to_action and action_to_move for the game."""
from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar


class DenseActions:
    __slots__ = ()
    _ACTIONS: ClassVar[ModuleType]

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
