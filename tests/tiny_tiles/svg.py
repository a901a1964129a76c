"""The picture of a tiny_tiles game: the 3×3 board, each tile in its owner's colour with its value,
and the tile in hand (drawn from `view()` only)."""

from __future__ import annotations

from typing import Any

from hunters.game_base import AnyGame

from .game import TinyGame

COLOURS = ("#d7263d", "#1b6fd1", "#f4c20d")
CELL = 60


def svg(game_or_record: AnyGame | dict[str, Any], at: int | None = None) -> str:
    game = TinyGame.from_record(game_or_record) if isinstance(game_or_record, dict) else game_or_record
    if at is not None:
        record = game.to_record()
        if not isinstance(at, int) or not 0 <= at <= len(record["moves"]):
            raise ValueError(f"at must be an integer from 0 to {len(record['moves'])}")
        game = TinyGame.from_record(dict(record, moves=record["moves"][:at]))
    view = game.view()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{3 * CELL + 90}" height="{3 * CELL}" data-game="tiny_tiles">'
    ]
    for cell, (owner, kind) in enumerate(zip(view["owner"], view["kind"], strict=True)):
        x, y = cell % 3 * CELL, cell // 3 * CELL
        fill = COLOURS[owner % len(COLOURS)] if owner >= 0 else "#eee"
        parts.append(
            f'<g data-cell="{cell}" data-owner="{owner}"><rect x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" '
            f'fill="{fill}"/>' + (f'<text x="{x + 22}" y="{y + 36}">{kind + 1}</text>' if kind >= 0 else "") + "</g>"
        )
    if view["hand"] >= 0:
        parts.append(f'<text x="{3 * CELL + 10}" y="30" data-hand="{view["hand"]}">hand {view["hand"] + 1}</text>')
    parts.append("</svg>")
    return "".join(parts)
