"""The components of Jäger und Sammler (tile kinds and counts, scoring data), shipped as package data
(`hunters/jaeger/board.json`) and loaded once into the core.

A tile is named by a *token*: its kind (``"berries"``, ``"tubers"``, ``"herbs"``, ``"jug"``,
``"necklace"``, ``"pelt"``, ``"skull"``, ``"weapon"``, ``"path"``, ``"cave"``) or, for a mammoth,
``"mammoth"`` followed by its value (``"mammoth8"``). Inside the core a tile is one byte,
``kind | value << 4``.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from . import _core

KINDS: tuple[str, ...] = tuple(_core.KINDS[1:])
"""Every tile kind, in core order."""
_KIND_INDEX = {name: i for i, name in enumerate(_core.KINDS) if name}
FOOD = ("berries", "tubers", "herbs")
GOODS = ("jug", "necklace", "pelt", "skull")
STAYING = ("path", "cave")
"""Kinds that are never taken and stay on the board for the whole game."""
MAX_MAMMOTH_VALUE: int = _core.LIMITS["mammoth_value"]
_MAMMOTH = re.compile(r"mammoth([0-9]{1,2})")

__all__ = ["FOOD", "GOODS", "KINDS", "STAYING", "code_of", "data", "deck", "kind_of", "token_of"]


@cache
def data() -> dict[str, Any]:
    """The parsed component and board data (`hunters/jaeger/board.json`)."""
    text = resources.files(__package__).joinpath("board.json").read_text("utf-8")
    parsed: dict[str, Any] = json.loads(text)
    return parsed


def code_of(token: object) -> int:
    """The core byte of a tile token; ValueError for anything else."""
    if isinstance(token, str):
        k = _KIND_INDEX.get(token)
        if k is not None and token != "mammoth":
            return k
        m = _MAMMOTH.fullmatch(token)
        if m and 1 <= int(m.group(1)) <= MAX_MAMMOTH_VALUE:
            return _KIND_INDEX["mammoth"] | int(m.group(1)) << 4
    raise ValueError(f"not a tile: {token!r} (a kind such as 'berries', or 'mammoth3' .. 'mammoth{MAX_MAMMOTH_VALUE}')")


@cache
def token_of(code: int) -> str | None:
    """The token of a core tile byte; None for 0 (no tile)."""
    if code == 0:
        return None
    kind = _core.KINDS[code & 15]
    return f"mammoth{code >> 4}" if kind == "mammoth" else kind


def kind_of(token: str) -> str:
    """The kind of a token ("mammoth8" -> "mammoth")."""
    return "mammoth" if token.startswith("mammoth") else token


def mammoth_value(token: str) -> int:
    return int(token[7:]) if token.startswith("mammoth") else 0


def deck(season: str, mammoth_values: tuple[int, ...]) -> list[str]:
    """The tiles of a season in canonical order (the data's kind order; mammoths with the given
    values, in that order): the list a seeded shuffle starts from."""
    out: list[str] = []
    for kind, count in data()["tiles"][season].items():
        if kind == "mammoth":
            out.extend(f"mammoth{v}" for v in mammoth_values)
        else:
            out.extend([kind] * count)
    return out


def mammoth_count(season: str) -> int:
    count: int = data()["tiles"][season].get("mammoth", 0)
    return count


def _load() -> None:
    d = data()
    _core.load_components(
        {_KIND_INDEX[k]: v for k, v in d["food_points"].items()},
        [_KIND_INDEX[k] for k in d["goods"]],
        list(d["goods_points_by_count"]),
        d["supply_pack_points"],
        d["characters_per_player"],
        d["supply_packs_per_player"],
    )


_load()
