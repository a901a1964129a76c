"""What a game is before any game is made: `GameInfo` and its `Option`s (OpenSpiel's GameType), the
seed range, and `JSON`, the shape of records and views. The shared layers read these instead of
keeping tables of their own."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, overload

from hunters.errors import InvalidOptionError

__all__ = [
    "CHANCE_MODES",
    "JSON",
    "MAX_SEED",
    "UTILITIES",
    "GameInfo",
    "Option",
    "check_int",
    "check_seed",
    "integer",
    "plain",
]

JSON: TypeAlias = dict[str, Any]
"""JSON-ready data: a record, a view, a move's or an event's JSON form."""

MAX_SEED = 2**64 - 1
"""Seeds are ints in 0..MAX_SEED (the cores' splitmix64 state)."""

CHANCE_MODES = ("deterministic", "sampled", "explicit")
UTILITIES = ("general_sum", "zero_sum", "constant_sum", "identical")


def integer(value: object) -> int | None:
    """`value` as a Python int when it is an integer, Python's or numpy's (not a bool, not a float);
    else None. The games' checks of counts, seats, seeds, codes and outcomes go through this (and
    `plain` for lists), so numpy's integers work where ints do (numpy itself is not imported)."""
    if type(value) is int:
        return value
    if type(value).__module__ != "numpy":
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # numpy integers (numpy's bools refuse)
    except TypeError:
        return None


def check_int(value: object, low: int, high: int | None, message: str) -> int:
    """`value` as a Python int if it is an integer (Python's or numpy's) from `low` to `high` (None:
    no upper bound), else ValueError(`message`)."""
    n = integer(value)
    if n is None or n < low or (high is not None and n > high):
        raise ValueError(message)
    return n


PLAIN_DEPTH = 16
"""Levels of lists, tuples and dicts `plain` looks into (deeper data is left as it is, for the caller's
checks, which refuse data nested that deep)."""


def plain(value: Any, _depth: int = 0) -> Any:
    """`value` with numpy integer arrays made lists of ints and numpy integers made ints, in lists,
    tuples and dict values up to PLAIN_DEPTH levels (tuples stay tuples); anything else as it is, for
    the caller's own checks to accept or refuse. So a numpy array works wherever a list of ints does,
    and a record or option made from it holds plain JSON-ready ints."""
    kind = type(value)
    if kind in (list, tuple, dict) and _depth >= PLAIN_DEPTH:
        return value
    if kind in (list, tuple):
        out = [plain(v, _depth + 1) for v in value]
        return out if kind is list else tuple(out)
    if kind is dict:
        return {k: plain(v, _depth + 1) for k, v in value.items()}
    if kind.__module__ == "numpy":
        dtype = getattr(value, "dtype", None)
        if getattr(value, "ndim", 0) and dtype is not None and dtype.kind in "iu":
            return value.tolist()
        n = integer(value)
        return value if n is None else n
    return value


@overload
def check_seed(seed: object, *, optional: Literal[False]) -> int: ...
@overload
def check_seed(seed: object, *, optional: bool = True) -> int | None: ...
def check_seed(seed: object, *, optional: bool = True) -> int | None:
    """`seed` as a Python int if it is an integer (Python's or numpy's) in 0..MAX_SEED (or None when
    optional), else ValueError."""
    if seed is None and optional:
        return None
    n = integer(seed)
    if n is None or not 0 <= n <= MAX_SEED:
        raise ValueError(f"seed must be an integer from 0 to {MAX_SEED}")
    return n


@dataclass(frozen=True)
class Option:
    """One option of `Game.new`: what the schema says of it (validation stays the game's own, in
    its core's words; the schema is what `--help`, GetGameInfo and the docs show)."""

    name: str
    type: str
    """``bool``, ``int``, ``str``, ``ints`` (a list of integers), or ``json`` (structured data)."""
    default: object = None
    doc: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """What a game is, before any game is made (OpenSpiel's GameType)."""

    id: str
    """Registry id (lower case, underscores); records and the service name the game by it."""
    name: str
    """Human name."""
    min_players: int
    max_players: int
    action_space_size: int
    """Size of the dense action space of the default configuration."""
    record_format: int
    """Version of `to_record()`'s layout; `from_record` refuses other versions."""
    perfect_information: bool = True
    """Whether every seat sees the whole state (chance aside): OpenSpiel's information type."""
    chance: str = "deterministic"
    """``deterministic`` (no chance), ``sampled`` (drawn from the seed inside the game) or
    ``explicit`` (also offered as chance nodes with ``chance="external"``: the `ExplicitChance`
    capability)."""
    utility: str = "general_sum"
    """OpenSpiel's utility: the seats' final scores are ``general_sum`` in both built-in games."""
    reward_scale: float = 10.0
    """Points that make a clear margin between two seats (search rewards are smoothed by it)."""
    short_name: str = ""
    """CamelCase name for Gymnasium ids (``hunters/<short_name>-v0``); default: the id in CamelCase."""
    max_game_length: int = 10_000
    """An upper bound on the decisions of one game with the default options, and on its chance nodes
    with ``chance="external"`` (OpenSpiel's max_game_length, which bounds both for a Python game)."""
    options: tuple[Option, ...] = ()
    """The options of `Game.new` besides players and seed."""

    def __post_init__(self) -> None:
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {CHANCE_MODES}")
        if self.utility not in UTILITIES:
            raise ValueError(f"utility must be one of {UTILITIES}")

    @property
    def gym_name(self) -> str:
        return self.short_name or "".join(part.title() for part in self.id.split("_"))

    def check_players(self, players: object) -> int:
        """`players` as a Python int if it is an integer (Python's or numpy's) in the game's range,
        else ValueError."""
        n = integer(players)
        if n is None or not self.min_players <= n <= self.max_players:
            raise ValueError(f"players must be an integer from {self.min_players} to {self.max_players}")
        return n

    def check_option_names(self, options: Iterable[str]) -> None:
        """InvalidOptionError naming the options of the schema when `options` holds another name."""
        known = {o.name for o in self.options}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidOptionError(
                f"unknown option(s) {unknown} of {self.id}; the options are {sorted(known) or 'none'}"
            )
