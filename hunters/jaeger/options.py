"""The game configuration: every option with its default, and its validation.

Options arrive from users (the service passes a request's options straight to `Game.new`), so they
are checked before anything is built: only known names, plain JSON-like data of bounded size and
nesting (no NaN or infinity, no integer the core could not hold), then each option's own range.
Every refusal is a `ValueError` saying what is wrong."""

from __future__ import annotations

import math
from typing import Any

from hunters.errors import InvalidOptionError
from hunters.info import plain

from . import _core
from .board import Board, board_of
from .tiles import data, mammoth_count

LIMITS = _core.LIMITS
WINTER_START = {name: code for code, name in _core.START_RULES.items() if name != "mammoth"}  # option -> core code
TIES = ("shared", "no_winner")
MAX_STALL_ROUNDS = 10_000
MAX_DEPTH = 8  # nesting of lists and objects in one argument
MAX_ITEMS = 20_000  # values in one argument, all levels
MAX_STRING = 200  # characters of one string
MAX_INT = 2**64  # no integer beyond this reaches any check (seeds are below it)

DEFAULT_OPTIONS: dict[str, Any] = {
    "board": None,
    "mammoths_summer": list(data()["mammoth_values"]["summer"]),
    "mammoths_winter": list(data()["mammoth_values"]["winter"]),
    "straight_jumps": False,
    "stall_rounds": 10,
    "winter_start": "after_last",
    "ties": "shared",
    "open_collections": False,
}
"""Every option of the game configuration with its default (one per [decision] of the spec):

- ``board``: None = the documented 10 x 12 odd-r grid; else board data (see `hunters.jaeger.board`);
- ``mammoths_summer`` / ``mammoths_winter``: the printed values of the mammoth tiles
  (default 4, 6, 8 / two each of 3..8); one value per mammoth tile of the season;
- ``straight_jumps``: a jump over an occupied tile must continue in a straight line (default False);
- ``stall_rounds``: a season also ends after this many full rounds in which no tile was taken
  (default 10; 0 or None = off);
- ``winter_start``: who starts winter when nobody killed a summer mammoth: "after_last" (the player
  after the one who played the last summer turn, default) or "seat0";
- ``ties``: "shared" (tied players share the victory, default) or "no_winner";
- ``open_collections``: `Game.view()` shows every collection and the scores before the end too
  (for analysis; default False: taken tiles other than weapons and mammoths lie face down, spec §5).
"""

__all__ = ["DEFAULT_OPTIONS", "check_plain", "validate_options"]


def check_plain(value: Any, what: str) -> None:
    """Refuse anything but plain bounded JSON-like data (a `Board` is accepted as is): None, bools,
    ints within +-2**64, finite floats, short strings, lists/tuples and objects with string or int
    keys, at most MAX_DEPTH levels deep and MAX_ITEMS values in all. Iterative: no recursion limit."""
    todo: list[tuple[Any, int]] = [(value, 0)]
    items = 0
    while todo:
        v, depth = todo.pop()
        items += 1
        if items > MAX_ITEMS:
            raise InvalidOptionError(f"{what}: more than {MAX_ITEMS} values")
        if v is None or isinstance(v, (bool, Board)):
            continue
        if type(v) is int:
            if not -MAX_INT <= v <= MAX_INT:
                raise InvalidOptionError(f"{what}: integer out of range")
        elif type(v) is float:
            if not math.isfinite(v):
                raise InvalidOptionError(f"{what}: numbers must be finite (no NaN or infinity)")
        elif type(v) is str:
            if len(v) > MAX_STRING:
                raise InvalidOptionError(f"{what}: a string longer than {MAX_STRING} characters")
        elif type(v) in (list, tuple, dict):
            if depth >= MAX_DEPTH:
                raise InvalidOptionError(f"{what}: nested deeper than {MAX_DEPTH} levels")
            if len(v) > MAX_ITEMS:
                raise InvalidOptionError(f"{what}: more than {MAX_ITEMS} values")
            if type(v) is dict:
                for k in v:
                    short_str = type(k) is str and len(k) <= MAX_STRING
                    if not short_str and not (type(k) is int and -MAX_INT <= k <= MAX_INT):
                        raise InvalidOptionError(f"{what}: object keys must be short strings or ints")
                todo.extend((x, depth + 1) for x in v.values())
            else:
                todo.extend((x, depth + 1) for x in v)
        else:
            raise InvalidOptionError(
                f"{what}: {type(v).__name__} is not plain data (null, bool, number, string, list, object)"
            )


def _mammoths(values: Any, season: str) -> list[int]:
    want = mammoth_count(season)
    if not isinstance(values, (list, tuple)):
        raise InvalidOptionError(f"mammoths_{season} must be a list of {want} ints")
    out = list(values)
    if len(out) != want or not all(type(v) is int and 1 <= v <= LIMITS["mammoth_value"] for v in out):
        raise InvalidOptionError(f"mammoths_{season} must list {want} values from 1 to {LIMITS['mammoth_value']}")
    return out


def validate_options(options: dict[str, Any]) -> tuple[Board, dict[str, Any]]:
    """The board and the full, JSON-ready configuration (defaults filled in) of user options, or
    ValueError naming the first bad one."""
    unknown = sorted(str(k)[:MAX_STRING] for k in options if k not in DEFAULT_OPTIONS)
    if unknown:
        raise InvalidOptionError(f"unknown option(s) {unknown}; the options are {sorted(DEFAULT_OPTIONS)}")
    options = {name: plain(value) for name, value in options.items()}  # (numpy integers: plain ints)
    for name, value in options.items():
        check_plain(value, name)
    o = {**DEFAULT_OPTIONS, **options}
    b = board_of(o["board"])
    straight_jumps = o["straight_jumps"]
    if type(straight_jumps) is not bool:
        raise InvalidOptionError("straight_jumps must be true or false")
    if straight_jumps and not b.straight_ok:
        raise InvalidOptionError("straight_jumps needs a board with coordinates on every space")
    stall_rounds = 0 if o["stall_rounds"] is None else o["stall_rounds"]
    if type(stall_rounds) is not int or not 0 <= stall_rounds <= MAX_STALL_ROUNDS:
        raise InvalidOptionError(
            f"stall_rounds must be an integer from 0 to {MAX_STALL_ROUNDS}; unset or 0 turns it off"
        )
    if not isinstance(o["winter_start"], str) or o["winter_start"] not in WINTER_START:
        raise InvalidOptionError(f"winter_start must be one of {sorted(WINTER_START)}")
    if not isinstance(o["ties"], str) or o["ties"] not in TIES:
        raise InvalidOptionError(f"ties must be one of {list(TIES)}")
    if type(o["open_collections"]) is not bool:
        raise InvalidOptionError("open_collections must be true or false")
    opts = {
        "board": None if b.is_default else b.to_json(),
        "mammoths_summer": _mammoths(o["mammoths_summer"], "summer"),
        "mammoths_winter": _mammoths(o["mammoths_winter"], "winter"),
        "straight_jumps": straight_jumps,
        "stall_rounds": stall_rounds,
        "winter_start": o["winter_start"],
        "ties": o["ties"],
        "open_collections": o["open_collections"],
    }
    return b, opts
