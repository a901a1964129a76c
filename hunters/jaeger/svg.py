"""Pictures of a Jäger und Sammler game as SVG: the hex board with camps (summer: a yellow sun,
winter: a blue snowflake), every tile by kind (colour and mark; mammoths with their value), holes
where tiles were taken, characters and supply packs in seat colours, and beside it the season, the
turn and each seat's face-up collection. Drawn from `Game.view()` only: before the end, face-down
tiles are only counted and the scores are hidden, as the view hides them.

Groups carry data attributes so that tests and tools can read the picture back:
``<g class="space" data-space data-kind data-tile>`` per space (``data-tile`` is empty for a hole or
a camp), ``<g class="character" data-seat data-space>`` per character and ``<g class="pack"
data-seat data-space>`` per supply pack on the board, ``<g class="score" data-seat data-score>`` per
seat (``data-score`` empty while hidden).

>>> from hunters.jaeger import Game
>>> picture = svg(Game.new(players=2, seed=1))
>>> picture.count('class="character"')
8
"""

from __future__ import annotations

import math
from typing import Any

from hunters._svg import SEAT_COLOURS, SEAT_NAMES, game_at, num, text

from .game import Game

__all__ = ["HEX", "svg", "svg_of_view"]

HEX = 30.0
"""Circumradius of a hex in SVG units."""
_W = math.sqrt(3) * HEX
_PANEL = 250
_HEX_POINTS = " ".join(
    f"{num(HEX * math.cos(math.radians(60 * i - 30)))},{num(HEX * math.sin(math.radians(60 * i - 30)))}"
    for i in range(6)
)
# fill, mark (drawn around the origin, for a hex of radius 30) of each tile kind
_KINDS: dict[str, tuple[str, str]] = {
    "berries": (
        "#b9407a",
        '<circle cx="-5" cy="2" r="4.5" fill="#5a0f34"/><circle cx="5" cy="2" r="4.5" '
        'fill="#5a0f34"/><circle cy="-6" r="4.5" fill="#5a0f34"/><path d="M0-10l3-5" stroke="#2d5a1d" '
        'stroke-width="2"/>',
    ),
    "tubers": (
        "#a8743f",
        '<ellipse cx="-4" cy="2" rx="8" ry="4.5" fill="#e1b37a" stroke="#4a2c10" '
        'transform="rotate(-25 -4 2)"/><ellipse cx="6" cy="-1" rx="5" ry="3.5" fill="#e1b37a" '
        'stroke="#4a2c10"/>',
    ),
    "herbs": (
        "#62a85a",
        '<path d="M0 11v-20M0-3q-9-2-9-9 8 0 9 9zM0 3q9-2 9-9-8 0-9 9z" fill="#d8f5c0" '
        'stroke="#1f4d1a" stroke-width="1.2"/>',
    ),
    "jug": (
        "#e2a26f",
        '<path d="M-4-11h8v4q7 4 6 11t-7 7h-6q-6 0-7-7t6-11z" fill="#b34a1e" stroke="#4a1a05" stroke-width="1.2"/>',
    ),
    "necklace": (
        "#ffe08a",
        '<circle r="9" fill="none" stroke="#6b4b00" stroke-width="1.2"/>'
        + "".join(
            f'<circle cx="{num(9 * math.cos(a))}" cy="{num(9 * math.sin(a))}" r="2.4" fill="#2b9bd6" stroke="#123"/>'
            for a in [i * math.pi / 4 for i in range(8)]
        ),
    ),
    "pelt": (
        "#d9c3a0",
        '<path d="M-10-8q5 3 10 0t10 0l-3 8 3 9q-5-3-10 0t-10 0l3-9z" fill="#8a5a32" '
        'stroke="#3b2412" stroke-width="1.2"/>',
    ),
    "skull": (
        "#b7a6d9",
        '<path d="M-8 0a8 8 0 1 1 16 0v5h-4v4h-8v-4h-4z" fill="#f6f1e4" stroke="#222" '
        'stroke-width="1.2"/><circle cx="-3.5" cy="0" r="2.2" fill="#222"/><circle cx="3.5" cy="0" r="2.2" '
        'fill="#222"/>',
    ),
    "weapon": (
        "#c7ccd4",
        '<path d="M-9 10l16-18" stroke="#5a3b1a" stroke-width="3"/><path d="M5-12l6-2-2 6z" '
        'fill="#444" stroke="#111"/><path d="M-6-9l4 4-3 3-4-4z" fill="#666"/>',
    ),
    "path": (
        "#ecdcad",
        '<g fill="#9b8052"><ellipse cx="-6" cy="6" rx="2.2" ry="3.4"/><ellipse cx="-1" cy="-1" '
        'rx="2.2" ry="3.4"/><ellipse cx="5" cy="-8" rx="2.2" ry="3.4"/></g>',
    ),
    "cave": ("#6e6a66", '<path d="M-12 10v-6a12 12 0 0 1 24 0v6z" fill="#1a1a1a" stroke="#000"/>'),
    "mammoth": ("#7a5540", ""),
}
_BACKGROUND = ("#e6edf3", "#e9f0da")  # winter, summer
_DASHED = ' stroke-dasharray="4 3"'
_CAMP = {
    "summer_camp": (
        "#ffd84d",
        '<circle r="7" fill="#ff9d00"/>'
        + "".join(
            f'<path d="M{num(9 * math.cos(a))},{num(9 * math.sin(a))}L{num(13 * math.cos(a))},{num(13 * math.sin(a))}" '
            f'stroke="#ff9d00" stroke-width="2.2"/>'
            for a in [i * math.pi / 4 for i in range(8)]
        ),
    ),
    "winter_camp": (
        "#cfe6ff",
        "".join(
            f'<path d="M0,0L{num(13 * math.cos(a))},{num(13 * math.sin(a))}" stroke="#2a6cb5" stroke-width="2.2"/>'
            for a in [i * math.pi / 3 for i in range(6)]
        )
        + '<circle r="3" fill="#2a6cb5"/>',
    ),
}


def _centres(view: dict[str, Any], board_data: dict[str, Any]) -> list[tuple[float, float]]:
    """The centre of each space: from grid (row, col) or axial (q, r) coordinates, else in rows."""
    spaces = view["board"]
    grid = board_data.get("grid")
    if grid is not None:
        shifted = 1 if grid.get("offset", "odd-r") == "odd-r" else 0
        return [
            (_W * (c + (0.5 if r % 2 == shifted else 0.0)), 1.5 * HEX * r) for r, c in (sp["coords"] for sp in spaces)
        ]
    if all(sp["coords"] is not None for sp in spaces):
        return [(_W * (q + r / 2), 1.5 * HEX * r) for q, r in (sp["coords"] for sp in spaces)]
    per_row = max(1, math.ceil(math.sqrt(len(spaces))))
    return [
        (_W * (i % per_row + (0.5 if (i // per_row) % 2 else 0)), 1.5 * HEX * (i // per_row))
        for i in range(len(spaces))
    ]


def _character(seat: int, space: int, x: float, y: float) -> str:
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    return (
        f'<g class="character" data-seat="{seat}" data-space="{space}" transform="translate({num(x)},{num(y)})">'
        f'<title>{SEAT_NAMES[seat % 5]} character</title><path d="M-6 9q0-10 6-10t6 10z" fill="{colour}" '
        f'stroke="#111" stroke-width="1.3"/><circle cy="-5" r="4.5" fill="{colour}" stroke="#111" '
        f'stroke-width="1.3"/></g>'
    )


def _pack(seat: int, space: int, x: float, y: float) -> str:
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    return (
        f'<g class="pack" data-seat="{seat}" data-space="{space}" transform="translate({num(x)},{num(y)})">'
        f'<title>{SEAT_NAMES[seat % 5]} supply pack</title><rect x="-4.5" y="-3.5" width="9" height="8" rx="1.5" '
        f'fill="{colour}" stroke="#111"/><path d="M-2.5-3.5q2.5-4 5 0" fill="none" stroke="#111"/></g>'
    )


def _ring(n: int, radius: float) -> list[tuple[float, float]]:
    if n == 1:
        return [(0.0, 0.0)]
    return [
        (radius * math.cos(2 * math.pi * i / n - math.pi / 2), radius * math.sin(2 * math.pi * i / n - math.pi / 2))
        for i in range(n)
    ]


def svg(game_or_record: Game | dict[str, Any], at: int | None = None) -> str:
    """An SVG picture of a game (or of a record, after `at` decisions when given): what `view()` shows."""
    game = game_at(game_or_record, Game, at)
    return svg_of_view(game.view(), game.board.to_json())


def svg_of_view(view: dict[str, Any], board_data: dict[str, Any] | None = None) -> str:
    """The picture of a `Game.view()` on the board `board_data` (default: the shipped board)."""
    if board_data is None:
        from .board import default_board

        board_data = default_board().to_json()
    centres = _centres(view, board_data)
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    ox, oy = HEX - min(xs) + 8, HEX - min(ys) + 8
    width_b = max(xs) - min(xs) + 2 * HEX + 16
    height = max(max(ys) - min(ys) + 2 * HEX + 16, 300 + 70 * view["players"])
    width = width_b + _PANEL
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" width="{num(width)}" '
        f'height="{num(height)}" data-game="jaeger_sammler" data-moves="{view["moves_played"]}">',
        f'<rect width="{num(width)}" height="{num(height)}" fill="{_BACKGROUND[view["season"] == "summer"]}"/>',
        '<g class="board">',
    ]
    pieces: list[str] = []
    for sp, (cx, cy) in zip(view["board"], centres, strict=True):
        x, y = cx + ox, cy + oy
        tile, kind = sp["tile"], sp["kind"]
        if kind in _CAMP:
            fill, mark = _CAMP[kind]
            label = kind.replace("_", " ")
        elif tile is None:
            fill, mark, label = "none", '<circle r="3" fill="#b3a990"/>', "hole (tile taken)"
        else:
            tkind = "mammoth" if tile.startswith("mammoth") else tile
            fill, mark = _KINDS[tkind]
            label = tile
            if tkind == "mammoth":
                mark = (
                    '<path d="M-13 9q-3-15 9-17q12 0 13 10l0 8h-4v-6l-4 6h-4l-2-6l-3 6z" fill="#4a2f22"/>'
                    '<path d="M9 2q5 6-1 9" stroke="#fff8e0" stroke-width="2" fill="none"/>'
                    + text(0, 2, tile[7:], 17, anchor="middle", weight="bold", fill="#fff")
                )
        out.append(
            f'<g class="space" data-space="{sp["space"]}" data-kind="{kind}" data-tile="{tile or ""}" '
            f'transform="translate({num(x)},{num(y)})"><title>space {sp["space"]}: {label}</title>'
            f'<polygon points="{_HEX_POINTS}" fill="{fill}" stroke="#5b5346" stroke-width="1.2"'
            f"{_DASHED if fill == 'none' else ''}/>"
            f'<g transform="scale(0.9)">{mark}</g></g>'
        )
        chars = sp["characters"]
        for seat, (dx, dy) in zip(chars, _ring(len(chars), 13 if kind in _CAMP or tile == "cave" else 0), strict=True):
            pieces.append(_character(seat, sp["space"], x + dx, y + dy + 2))
        packs = sp["supply_packs"]
        for seat, (dx, dy) in zip(packs, _ring(len(packs), 6), strict=True):
            pieces.append(_pack(seat, sp["space"], x + dx + (14 if kind in _CAMP else 0), y + dy + 14))
    out += pieces
    out.append("</g>")
    out.append(_panel(view, width_b))
    out.append("</svg>")
    return "".join(out)


def _panel(view: dict[str, Any], left: float) -> str:
    x = left + 12
    out = [
        f'<g class="panel"><rect x="{num(left)}" width="{_PANEL}" height="100%" fill="#f8f3e6" stroke="#c9bfa6"/>',
        text(x, 24, "Jäger und Sammler", 15, weight="bold"),
        text(x, 44, f"{view['season']} · turn {view['turn']} · move {view['moves_played']}", 12),
    ]
    y = 62
    if view["is_over"]:
        winners = ", ".join(SEAT_NAMES[w % 5] for w in view["winners"]) or "nobody"
        out.append(text(x, y, f"Game over: {winners} won", 13, weight="bold", fill="#8a1c00"))
    else:
        who = view["player"]
        out.append(text(x, y, f"{SEAT_NAMES[who % 5]} to move", 13, weight="bold", fill=SEAT_COLOURS[who % 5]))
    y += 18
    out.append(text(x, y, f"{view['tiles_left']} tiles to take · idle {view['idle_turns']}/{view['stall_rounds']}", 12))
    y += 16
    sm = view["summer_mammoth"]
    if sm is not None:
        out.append(text(x, y, f"summer mammoth {sm['value']}: {SEAT_NAMES[sm['seat'] % 5]}", 12))
        y += 16
    scores = view["scores"]
    for seat, col in enumerate(view["collections"]):
        y += 26
        colour = SEAT_COLOURS[seat % 5]
        score = "" if scores is None else scores[seat]
        out.append(
            f'<g class="score" data-seat="{seat}" data-score="{score}">'
            f'<rect x="{num(x)}" y="{num(y - 12)}" width="14" height="14" fill="{colour}" stroke="#111"/>'
            + text(x + 20, y, SEAT_NAMES[seat % 5], 13, weight="bold")
            + text(x + 220, y, "?" if scores is None else score, 14, anchor="end", weight="bold")
            + "</g>"
        )
        mammoths = ",".join(map(str, col["mammoths"])) or "–"
        lines = [
            f"on board {col['characters_on_board']} · packs {col['supply_packs']} · face down {col['face_down']}",
            f"weapons {col['weapons']} (spent {col['weapons_spent']}) · mammoths {mammoths}",
        ]
        if col["berries"] is not None:
            lines.append(
                " ".join(
                    f"{k[:3]} {col[k]}" for k in ("berries", "tubers", "herbs", "jug", "necklace", "pelt", "skull")
                )
            )
        for line in lines:
            y += 15
            out.append(text(x + 20, y, line, 10.5, fill="#333"))
    y += 28
    if scores is None:
        out.append(text(x, y, "scores hidden until the end", 11, fill="#666"))
        y += 18
    for i, name in enumerate(
        ("berries", "tubers", "herbs", "jug", "necklace", "pelt", "skull", "weapon", "path", "cave", "mammoth")
    ):
        lx, ly = x + (i % 2) * 112, y + (i // 2) * 17
        out.append(
            f'<rect x="{num(lx)}" y="{num(ly - 10)}" width="12" height="12" fill="{_KINDS[name][0]}" '
            f'stroke="#5b5346"/>' + text(lx + 16, ly, name, 11)
        )
    out.append("</g>")
    return "".join(out)
