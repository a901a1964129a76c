"""Explicit layouts of a game (for tests and hand-made positions): the summer tiles by space, the
winter deck, the characters' start spaces. Each is checked against the board; refusals are
`ValueError` saying what is wrong."""

from __future__ import annotations

from typing import Any

from hunters.errors import InvalidOptionError

from . import _core
from .board import Board
from .tiles import STAYING, code_of

_LIMITS = _core.LIMITS

__all__ = ["start_positions", "summer_layout", "winter_deck"]


def _is_int(v: Any) -> bool:
    return type(v) is int


def summer_layout(board: Board, summer: Any) -> list[str | None]:
    """An explicit summer layout (dict space -> token, or list by space) as a list by space."""
    n = board.n
    if isinstance(summer, dict):
        out: list[str | None] = [None] * n
        for space, token in summer.items():
            if isinstance(space, str) and space.isdigit():
                space = int(space)
            if not _is_int(space) or not 0 <= space < n:
                raise InvalidOptionError(f"summer layout: no space {space!r}")
            out[space] = token
    elif isinstance(summer, (list, tuple)):
        if len(summer) != n:
            raise InvalidOptionError(f"summer layout: a list needs one entry per space ({n})")
        out = list(summer)
    else:
        raise InvalidOptionError("summer layout must be a dict {space: tile} or a list by space")
    for v, token in enumerate(out):
        if token is None:
            continue
        code_of(token)
        if board.kinds[v] != "tile":
            raise InvalidOptionError(f"summer layout: space {v} is a camp")
    if sum(1 for t in out if t == "cave") > _LIMITS["caves"]:
        raise InvalidOptionError(f"at most {_LIMITS['caves']} caves")
    return out


def winter_deck(winter: Any) -> list[str]:
    if not isinstance(winter, (list, tuple)):
        raise InvalidOptionError("winter deck must be a list of tiles")
    out = list(winter)
    if len(out) > _LIMITS["spaces"]:
        raise InvalidOptionError("winter deck too long")
    for token in out:
        code_of(token)
        if token in STAYING:
            raise InvalidOptionError("winter deck: paths and caves are summer tiles")
    return out


def start_positions(board: Board, summer: list[str | None], players: int, start: Any) -> list[list[int]]:
    if not isinstance(start, (list, tuple)) or len(start) != players:
        raise InvalidOptionError("start must list the characters' spaces of every seat")
    seen: dict[int, int] = {}
    out = []
    for seat, spaces in enumerate(start):
        if not isinstance(spaces, (list, tuple)) or len(spaces) > _LIMITS["characters"]:
            raise InvalidOptionError(f"start: seat {seat} needs a list of at most {_LIMITS['characters']} spaces")
        for v in spaces:
            if not _is_int(v) or not 0 <= v < board.n:
                raise InvalidOptionError(f"start: no space {v!r}")
            if board.kinds[v] == "tile":
                if summer[v] is None:
                    raise InvalidOptionError(f"start: space {v} holds no tile")
                if summer[v] != "cave" and seen.get(v):
                    raise InvalidOptionError(f"start: space {v} holds at most one character")
            seen[v] = seen.get(v, 0) + 1
        out.append(list(spaces))
    return out
