"""The dense integer action encoding: a fixed action space with a legal mask, for bots and RL.

action = ((((y + 94) * 189 + (x + 94)) * 4 + rotation) * 19 + occupant slot) * 6 + retake slot

- positions: x, y in -94..94 (95 tiles can reach no further from the start tile);
- occupant slot: 0 none, 1 + local for a meeple on local zone 0..7, 9 + local for a hut on 0..9;
- retake slot: 0 none, 1 + k for the k-th of the current seat's meeples on the board, by zone id.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalMoveError
from .moves import Move, Occupant
from .tiles import ZONE_TYPES

if TYPE_CHECKING:
    from .game import Game

BOUND = 94
SIDE = 2 * BOUND + 1
OCCUPANT_SLOTS = 19
RETAKE_SLOTS = 6
ACTION_SPACE_SIZE = SIDE * SIDE * 4 * OCCUPANT_SLOTS * RETAKE_SLOTS

__all__ = ["ACTION_SPACE_SIZE", "ZONE_TYPES", "action_mask", "action_to_move", "legal_actions", "move_to_action"]


def _own_meeples(game: "Game") -> list[int]:
    seat = game.player
    return [z for z, s, kind in game.occupants if s == seat and kind == "meeple"]


def _encode(move: Move, own: list[int]) -> int:
    if move.occupant is None:
        slot = 0
    elif move.occupant.kind == "meeple":
        slot = 1 + move.occupant.zone % 10
    else:
        slot = 9 + move.occupant.zone % 10
    ret = 0 if move.retake is None else 1 + own.index(move.retake)
    pos = (move.y + BOUND) * SIDE + (move.x + BOUND)
    return ((pos * 4 + move.rotation) * OCCUPANT_SLOTS + slot) * RETAKE_SLOTS + ret


def move_to_action(game: "Game", move: Move) -> int:
    """The action code of a move that is legal now (IllegalMoveError otherwise)."""
    game.check(move)
    return _encode(move, _own_meeples(game))


def action_to_move(game: "Game", action: int) -> Move:
    """The move an action code stands for in the current decision (it may still be illegal)."""
    if type(action) is not int or not 0 <= action < ACTION_SPACE_SIZE:
        raise IllegalMoveError("MALFORMED", f"action must be an int in [0, {ACTION_SPACE_SIZE})", action)
    if game.tile is None:
        raise IllegalMoveError("GAME_OVER", "the game is over", action)
    rest, ret = divmod(action, RETAKE_SLOTS)
    rest, slot = divmod(rest, OCCUPANT_SLOTS)
    pos, rot = divmod(rest, 4)
    y, x = divmod(pos, SIDE)
    retake = None
    if ret:
        own = _own_meeples(game)
        if ret > len(own):
            raise IllegalMoveError("NOT_YOUR_MEEPLE", f"you have no meeple number {ret} on the board", action)
        retake = own[ret - 1]
    occupant = None
    if slot:
        kind, local = ("meeple", slot - 1) if slot <= 8 else ("hut", slot - 9)
        occupant = Occupant(kind, game.tile * 10 + local)
    return Move(x - BOUND, y - BOUND, rot, occupant, retake)


def legal_actions(game: "Game") -> list[int]:
    """Action codes of every legal move, ascending."""
    own = _own_meeples(game)
    return sorted(_encode(m, own) for m in game.legal_moves())


def legal_pairs(game: "Game") -> list[tuple[Move, int]]:
    """(move, action code) of every legal move, in legal_moves() order."""
    own = _own_meeples(game)
    return [(m, _encode(m, own)) for m in game.legal_moves()]


def action_mask(game: "Game") -> bytearray:
    """A bytearray of ACTION_SPACE_SIZE entries, 1 for each legal action (numpy.frombuffer-ready)."""
    mask = bytearray(ACTION_SPACE_SIZE)
    for a in legal_actions(game):
        mask[a] = 1
    return mask
