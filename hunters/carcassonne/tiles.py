"""The 95 tiles of Hunters & Gatherers, shipped as package data and loaded once into the core."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from . import _core

START_TILE = 56
SHAMAN, LOGBOAT, HUNTING_TRAP, PIT_TRAP, WILD_FIRE, RAFT = 88, 93, 94, 92, 85, 91


@cache
def tile_data() -> list[dict[str, Any]]:
    """The parsed tile list (`hunters/carcassonne/tiles.json`), ids 0..94 in order."""
    text = resources.files(__package__).joinpath("tiles.json").read_text("utf-8")
    tiles: list[dict[str, Any]] = json.loads(text)["tiles"]
    return tiles


_core.load_tables(tile_data())

NORMAL_TILES: tuple[int, ...] = _core.NORMAL_TILES
MENHIR_TILES: tuple[int, ...] = _core.MENHIR_TILES
ZONE_TYPES: dict[int, str] = dict(_core.ZONE_TYPES)
"""Global zone id -> "forest" | "meadow" | "river" | "lake"."""
