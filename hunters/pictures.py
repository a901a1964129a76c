"""Pictures of any registered game: `svg(game_or_record, at=None)` picks the game's own `svg` module
(``hunters.<package>.svg``) by the game id; `to_png` converts (optional extra ``hunters-engine[png]``)."""

from __future__ import annotations

import importlib
from typing import Any

import hunters
from hunters._svg import to_png

__all__ = ["svg", "svg_module", "to_png"]


def svg_module(game_id: str) -> Any:
    """The picture module of a registered game (KeyError for an unknown id, ValueError for a game
    without one: a game's pictures are optional)."""
    cls = hunters.games.get(game_id)
    package = cls.__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.svg")
    except ModuleNotFoundError:
        raise ValueError(f"{game_id} draws no pictures (no module {package}.svg)") from None


def svg(game_or_record: Any, at: int | None = None) -> str:
    """The SVG picture of a game object or of a record (after `at` decisions when given)."""
    game_id = game_or_record["game"] if isinstance(game_or_record, dict) else game_or_record.INFO.id
    picture: str = svg_module(game_id).svg(game_or_record, at=at)
    return picture
