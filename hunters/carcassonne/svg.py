"""Pictures of a Hunters & Gatherers game as SVG, drawn from the tile data (the original art is lost).

Each tile is drawn unrotated from its sides and zones, then turned by its rotation: meadows are light
green with grass tufts, forests dark green with little trees, rivers blue bands with flow dashes,
lakes deep-blue discs with waves; forest menhirs, mushrooms, animals, fish and the six special
tiles have their own marks. Pieces stand upright in seat colours (meeples; huts are little houses).
The last placed tile has an orange frame; the tile in hand, the supplies and scores are beside the
board. Everything comes from `Game.view()` (what a spectator may see).

The root carries ``data-x0 data-y0 data-tile-size``: board cell (x, y) has its top-left corner at
``((x - x0) * size, (y - y0) * size)``, with a free cell all round the placed tiles (the play page
draws the legal placements there). Groups carry data attributes so that tests and tools can read the
picture back:
``<g class="tile" data-x data-y data-tile data-rotation>`` for every placed tile,
``<g class="occupant" data-zone data-seat data-kind>`` for every piece, ``<g class="hand"
data-tile>`` for the tile to place and ``<g class="score" data-seat data-score>`` per seat.

>>> from hunters.carcassonne import Game
>>> picture = svg(Game.new(players=2, seed=1))
>>> picture.startswith("<svg") and 'class="tile"' in picture
True
"""

from __future__ import annotations

from functools import cache
from typing import Any

from hunters._svg import SEAT_COLOURS, SEAT_NAMES, game_at, num, text

from .game import Game
from .tiles import tile_data

__all__ = ["TILE", "svg", "svg_of_view", "tile_svg", "zone_anchor"]

TILE = 64
"""Side of a tile in SVG units."""
PIECE_OFFSET = (7.0, -6.0)
"""Where a piece stands from its zone's anchor (SVG units, upright): beside the zone's marks, not on them."""
_PANEL = 230
_C = (0.5, 0.5)
# corners of each unrotated side (N, E, S, W), clockwise: a river side's [m1, r, m2] runs A -> B
_SIDE = (((0.0, 0.0), (1.0, 0.0)), ((1.0, 0.0), (1.0, 1.0)), ((1.0, 1.0), (0.0, 1.0)), ((0.0, 1.0), (0.0, 0.0)))
_MEADOW, _FOREST, _RIVER, _LAKE = "#b9dc8a", "#2f6b34", "#4aa3e8", "#1d55a3"
_DEFS = f"""<defs>
<pattern id="hg-meadow" width="10" height="10" patternUnits="userSpaceOnUse">
<rect width="10" height="10" fill="{_MEADOW}"/><path d="M2 7l1-3 1 3M7 3l1-2 1 2" stroke="#7fae4e" fill="none"
 stroke-width="0.8"/></pattern>
<pattern id="hg-forest" width="12" height="12" patternUnits="userSpaceOnUse">
<rect width="12" height="12" fill="{_FOREST}"/><path d="M3 1l3 5h-6zM9 7l3 5h-6z" fill="#4f9a48"/></pattern>
<pattern id="hg-lake" width="10" height="8" patternUnits="userSpaceOnUse">
<rect width="10" height="8" fill="{_LAKE}"/><path d="M0 4q2.5-2 5 0t5 0" stroke="#9cc9f5" fill="none"
 stroke-width="0.9"/></pattern>
</defs>"""


def _lerp(p: tuple[float, float], q: tuple[float, float], t: float) -> tuple[float, float]:
    return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t


def _on_side(d: int, t: float) -> tuple[float, float]:
    a, b = _SIDE[d]
    return _lerp(a, b, t)


def _pt(p: tuple[float, float], s: float) -> str:
    return f"{num(p[0] * s)},{num(p[1] * s)}"


def _mean(points: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


@cache
def _layout(tile: int) -> dict[str, Any]:
    """Where each zone of an unrotated tile lies (unit square, y down): for each local zone its
    sides, an anchor point for its marks and pieces, and the position of each lake."""
    data = tile_data()[tile]
    zones = {z["local"]: z for z in data["zones"]}
    sides: dict[int, list[int]] = {z: [] for z in zones}
    points: dict[int, list[tuple[float, float]]] = {z: [] for z in zones}
    for d, side in enumerate(data["sides"]):
        if side["type"] == "river":
            m1, r, m2 = side["zones"]
            sides[r].append(d)
            points[m1].append(_lerp(_on_side(d, 0.2), _C, 0.3))
            points[m2].append(_lerp(_on_side(d, 0.8), _C, 0.3))
        else:
            sides[side["zone"]].append(d)
            points[side["zone"]].append(_lerp(_on_side(d, 0.5), _C, 0.4 if side["type"] == "forest" else 0.35))
    lakes = [z for z, zone in zones.items() if zone["type"] == "lake"]
    lake_at: dict[int, tuple[float, float]] = {}
    for lake in lakes:
        feeding = [
            d for z, zone in zones.items() if zone["type"] == "river" and zone.get("lake") == lake for d in sides[z]
        ]
        if len(lakes) > 1 and feeding:
            lake_at[lake] = _lerp(_C, _mean([_on_side(d, 0.5) for d in feeding]), 0.45)
        else:
            lake_at[lake] = _C
    anchors: dict[int, tuple[float, float]] = {}
    for z, zone in zones.items():
        if zone["type"] == "lake":
            anchors[z] = lake_at[z]
        elif zone["type"] == "river":
            ds = sides[z]
            mids = [_on_side(d, 0.5) for d in ds]
            if len(ds) == 2:
                anchors[z] = _lerp(_C, _mean(mids), 0.5) if (ds[0] - ds[1]) % 2 else _C
            else:
                anchors[z] = _lerp(mids[0], _C, 0.4 if zone.get("lake") is not None else 0.25)
        else:
            anchors[z] = _mean(points[z]) if points[z] else _C
    # a meadow or forest averaged onto a lake moves off it, towards its first side
    for z, zone in zones.items():
        if zone["type"] in ("meadow", "forest"):
            for lake_pos in lake_at.values():
                if abs(anchors[z][0] - lake_pos[0]) + abs(anchors[z][1] - lake_pos[1]) < 0.2 and points[z]:
                    anchors[z] = _lerp(lake_pos, points[z][0], 1.15)
    return {"data": data, "zones": zones, "sides": sides, "anchors": anchors, "lakes": lake_at}


def zone_anchor(tile: int, local: int, rotation: int = 0) -> tuple[float, float]:
    """Where a zone's marks and pieces go on a tile turned `rotation` quarter turns clockwise (unit
    square, y down)."""
    u, v = _layout(tile)["anchors"][local]
    for _ in range(rotation % 4):
        u, v = 1 - v, u
    return u, v


# -- marks ---------------------------------------------------------------------------------------
def _fish(x: float, y: float) -> str:
    return (
        f'<g transform="translate({num(x)},{num(y)})"><ellipse rx="3.6" ry="2" fill="#ff9f43" '
        f'stroke="#7a3d00" stroke-width="0.5"/><path d="M3 0l3-2v4z" fill="#ff9f43" stroke="#7a3d00" '
        f'stroke-width="0.5"/></g>'
    )


_ANIMALS = {
    # body colour, size, extra marks (drawn around the origin)
    "deer": (
        "#c98b4b",
        3.6,
        '<path d="M-2-3l-1.5-3M2-3l1.5-3M-3.2-4.6l1 0M3.2-4.6l-1 0" stroke="#5b3a1a" stroke-width="0.8"/>',
    ),
    "aurochs": ("#3b2a1e", 4.0, '<path d="M-3-2q-3-1-2-4M3-2q3-1 2-4" stroke="#eee" fill="none" stroke-width="0.9"/>'),
    "mammoth": (
        "#7b5a45",
        5.4,
        '<path d="M-2 2q-1 3 2 4M2 2q1 3-2 4" stroke="#fff8e0" fill="none" stroke-width="1.1"/>',
    ),
    "tiger": ("#f28a1c", 4.0, '<path d="M-2-3.5v3M0-4v3M2-3.5v3" stroke="#111" stroke-width="0.9"/>'),
}


def _animal(kind: str, x: float, y: float) -> str:
    colour, r, marks = _ANIMALS[kind]
    return (
        f'<g class="animal" data-animal="{kind}" transform="translate({num(x)},{num(y)}) scale(1.3)"><title>'
        f"{kind}</title>"
        f'<circle r="{r}" fill="{colour}" stroke="#111" stroke-width="0.6"/>{marks}</g>'
    )


_POWERS = {
    "wild_fire": '<path d="M0-8c5 4 6 8 0 10c-6-2-5-6-1-8c0 3 2 3 1 0z" fill="#ff4b1f" stroke="#7a1200" '
    'stroke-width="0.7"/>',
    "pit_trap": '<circle r="6" fill="#3b2412" stroke="#000" stroke-width="0.6"/><path d="M-4 3l1-7M0 4v-8M4 3l-1-7" '
    'stroke="#e0c090" stroke-width="1"/>',
    "hunting_trap": '<rect x="-6" y="-6" width="12" height="12" fill="#d9b36c" stroke="#3b2412" stroke-width="0.8"/>'
    '<path d="M-6-2h12M-6 2h12M-2-6v12M2-6v12" stroke="#3b2412" stroke-width="0.7"/>',
    "shaman": '<circle r="6.5" fill="#6a2c91" stroke="#fff" stroke-width="0.8"/><path d="M0-4l1.2 2.6 2.8.3-2.1 1.9'
    '.6 2.8L0 2.2l-2.5 1.4.6-2.8-2.1-1.9 2.8-.3z" fill="#ffd84a"/>',
    "logboat": '<path d="M-8-1h16l-3 4h-10z" fill="#8b5a2b" stroke="#3b2412" stroke-width="0.7"/>'
    '<path d="M0-1v-6l4 3z" fill="#f4efe0" stroke="#3b2412" stroke-width="0.5"/>',
    "raft": '<rect x="-7" y="-5" width="14" height="10" fill="#c8903f" stroke="#3b2412" stroke-width="0.7"/>'
    '<path d="M-3.5-5v10M0-5v10M3.5-5v10" stroke="#3b2412" stroke-width="0.7"/>',
}


def _power(name: str, x: float, y: float) -> str:
    return (
        f'<g class="power" data-power="{name}" transform="translate({num(x)},{num(y)}) scale(1.5)"><title>'
        f"{name.replace('_', ' ')}</title>{_POWERS[name]}</g>"
    )


def _menhir(x: float, y: float) -> str:
    return (
        f'<g class="menhir" transform="translate({num(x)},{num(y)})"><title>menhir</title>'
        '<path d="M-3 5l-1-7q0-4 3-5q3 1 3 5l-1 7z" fill="#a7a7a7" stroke="#333" stroke-width="0.7"/></g>'
    )


def _mushrooms(x: float, y: float) -> str:
    return (
        f'<g class="mushrooms" transform="translate({num(x)},{num(y)})"><title>mushrooms</title>'
        '<rect x="-1.2" y="-1" width="2.4" height="5" fill="#f4efe0"/><path d="M-5 0a5 4.5 0 0 1 10 0z" '
        'fill="#d7263d" stroke="#600" stroke-width="0.6"/><circle cx="-2" cy="-1.6" r="0.9" fill="#fff"/>'
        '<circle cx="1.6" cy="-2.4" r="0.8" fill="#fff"/></g>'
    )


def tile_svg(tile: int, s: float = TILE, rotation: int = 0) -> str:
    """The inside of one unrotated tile, `s` units wide, its top-left corner at the origin; the marks
    (animals, fish, powers...) are turned back by `rotation` so that they stand upright once the tile
    is turned."""
    lay = _layout(tile)
    data, zones, sides, anchors, lakes = lay["data"], lay["zones"], lay["sides"], lay["anchors"], lay["lakes"]
    out = [f'<rect width="{num(s)}" height="{num(s)}" fill="url(#hg-meadow)"/>']
    for z, zone in zones.items():  # forests: a trapezoid per side, joined through the middle
        if zone["type"] != "forest":
            continue
        inner = []
        for d in sides[z]:
            a, b = _SIDE[d]
            ia, ib = _lerp(a, _C, 0.62), _lerp(b, _C, 0.62)
            inner += [ia, ib]
            out.append(f'<polygon points="{_pt(a, s)} {_pt(b, s)} {_pt(ib, s)} {_pt(ia, s)}" fill="url(#hg-forest)"/>')
        if len(sides[z]) > 1:
            out.append(f'<polygon points="{" ".join(_pt(p, s) for p in inner)}" fill="url(#hg-forest)"/>')
        if len(sides[z]) == 1:
            out.append(
                f'<polyline points="{_pt(inner[0], s)} {_pt(inner[1], s)}" stroke="#1a3d1d" '
                f'stroke-width="{num(s / 40)}" fill="none"/>'
            )
    for z, zone in zones.items():  # rivers
        if zone["type"] != "river":
            continue
        ds = sides[z]
        m0 = _on_side(ds[0], 0.5)
        if len(ds) == 2:
            d = f"M{_pt(m0, s)}Q{_pt(_C, s)} {_pt(_on_side(ds[1], 0.5), s)}"
        elif zone.get("lake") is not None:
            d = f"M{_pt(m0, s)}L{_pt(_lerp(m0, _C, 0.3), s)}L{_pt(lakes[zone['lake']], s)}"
        else:  # a river that ends on its tile: a spring
            d = f"M{_pt(m0, s)}L{_pt(_lerp(m0, _C, 0.55), s)}"
        out.append(
            f'<path d="{d}" stroke="{_RIVER}" stroke-width="{num(s * 0.17)}" fill="none"'
            f'/><path d="{d}" stroke="#d8eeff" stroke-width="{num(s * 0.025)}" '
            f'fill="none" stroke-dasharray="{num(s * 0.06)} {num(s * 0.08)}"/>'
        )
        if len(ds) == 1 and zone.get("lake") is None:
            end = _lerp(m0, _C, 0.55)
            out.append(
                f'<circle cx="{num(end[0] * s)}" cy="{num(end[1] * s)}" r="{num(s * 0.07)}" fill="#2c7fc4" '
                f'stroke="#0d3b66" stroke-width="{num(s / 60)}"/>'
            )
    for u, v in lakes.values():
        r = 0.2 if len(lakes) == 1 else 0.15
        out.append(
            f'<circle cx="{num(u * s)}" cy="{num(v * s)}" r="{num(r * s)}" fill="url(#hg-lake)" '
            f'stroke="#0d3b66" stroke-width="{num(s / 50)}"/>'
        )
    k = s / 64  # marks are drawn for a 64-unit tile
    for z, zone in zones.items():
        u, v = anchors[z]
        x, y = u * s, v * s
        marks: list[str] = []
        if zone["type"] == "forest" and zone.get("kind") == "menhir":
            marks.append(_menhir(0, 0))
        elif zone["type"] == "forest" and zone.get("kind") == "mushrooms":
            marks.append(_mushrooms(0, 0))
        elif zone["type"] == "meadow":
            animals = zone.get("animals", [])
            for i, a in enumerate(animals):
                marks.append(_animal(a, (i - (len(animals) - 1) / 2) * 13, 0))
            if zone.get("power"):
                marks.append(_power(zone["power"], 0, 11 if animals else 0))
        elif zone["type"] in ("river", "lake"):
            n = zone.get("fish", 0)
            for i in range(n):
                marks.append(_fish((i - (n - 1) / 2) * 8, -7 if zone["type"] == "lake" and zone.get("power") else 0))
            if zone.get("power"):
                marks.append(_power(zone["power"], 0, 4 if n else 0))
        if marks:
            out.append(
                f'<g transform="translate({num(x)},{num(y)}) rotate({-90 * (rotation % 4)}) scale({num(k)})">'
                f"{''.join(marks)}</g>"
            )
    if data["kind"] == "menhir":  # tiles of the menhir pile: a grey folded corner
        c = num(s * 0.16)
        out.append(
            f'<path class="menhir-tile" d="M0 0h{c}l-{c} {c}z" fill="#6d6d6d" stroke="#333" stroke-width="0.6">'
            "<title>menhir tile</title></path>"
        )
    out.append(f'<rect width="{num(s)}" height="{num(s)}" fill="none" stroke="#4a4a3a" stroke-width="0.8"/>')
    return "".join(out)


def _anchors(tile: int, s: float) -> str:
    """Invisible marks of where each zone's piece would stand on an unrotated tile `s` units wide,
    with the piece's role there: the play page draws the occupant choices of a placement on them."""
    lay = _layout(tile)
    marks = []
    for z, zone in lay["zones"].items():
        u, v = lay["anchors"][z]
        marks.append(
            f'<circle class="anchor" data-local="{z}" data-role="{_ROLE[zone["type"]]}" cx="{num(u * s)}" '
            f'cy="{num(v * s)}" r="0"/>'
        )
    return f'<g class="anchors">{"".join(marks)}</g>'


# -- pieces --------------------------------------------------------------------------------------
_MEEPLE = (
    "M0-9a3 3 0 0 1 3 3c0 1-.5 1.6-.5 2.3l5 2.2c1 .6.6 2-.5 2l-3-.4 3.5 6.9h-4.5l-3-4-3 4h-4.5"
    "l3.5-6.9-3 .4c-1.1 0-1.5-1.4-.5-2l5-2.2c0-.7-.5-1.3-.5-2.3a3 3 0 0 1 3-3z"
)
_HUT = "M-7 6v-7l7-6 7 6v7z"
_ROLE = {"meadow": "hunter", "forest": "gatherer", "river": "fisher", "lake": "hut"}


def _piece(kind: str, seat: int, zone: int, zone_type: str, x: float, y: float, k: float) -> str:
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    role = "hut" if kind == "hut" else _ROLE[zone_type]
    shape = (
        f'<path d="{_HUT}" fill="{colour}" stroke="#111" stroke-width="1.2"/><rect x="-2" y="1" width="4" '
        f'height="5" fill="#111"/>'
        if kind == "hut"
        else f'<path d="{_MEEPLE}" fill="{colour}" stroke="#111" stroke-width="1.2"/>'
    )
    if role == "fisher":  # a fishing rod
        shape += '<path d="M6-1l5-9" stroke="#111" stroke-width="1"/>'
    elif role == "hunter":  # a spear
        shape += '<path d="M-9 9l4-17" stroke="#111" stroke-width="1"/><path d="M-5-8l-1.5 2.5 2.5.5z" fill="#111"/>'
    elif role == "gatherer":  # a basket
        shape += '<path d="M6 2h5l-1 4h-3z" fill="#c8903f" stroke="#111" stroke-width="0.6"/>'
    return (
        f'<g class="occupant" data-zone="{zone}" data-seat="{seat}" data-kind="{kind}" data-role="{role}" '
        f'transform="translate({num(x)},{num(y)}) scale({num(k)})"><title>{SEAT_NAMES[seat % 5]} {role} on '
        f"zone {zone}</title>{shape}</g>"
    )


# -- the picture ---------------------------------------------------------------------------------
def svg(game_or_record: Game | dict[str, Any], at: int | None = None) -> str:
    """An SVG picture of a game (or of a record, after `at` decisions when given): the board, the
    pieces, the last tile framed, and beside it the tile to place, supplies and scores."""
    return svg_of_view(game_at(game_or_record, Game, at).view())


def svg_of_view(view: dict[str, Any]) -> str:
    """The picture of a `Game.view()`."""
    s = TILE
    board = view["board"]
    xs = [t["x"] for t in board]
    ys = [t["y"] for t in board]
    # a free cell all round: where the next tile may go (the play page highlights them there)
    x0, y0 = min(xs) - 1, min(ys) - 1
    width_b = (max(xs) - min(xs) + 3) * s
    height_b = (max(ys) - min(ys) + 3) * s
    height = max(height_b, 330 + 22 * view["players"])
    width = width_b + _PANEL
    where = {t["tile"]: t for t in board}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
        f'width="{num(width)}" height="{num(height)}" data-game="carcassonne_hg" '
        f'data-moves="{view["moves_played"]}" data-x0="{num(x0)}" data-y0="{num(y0)}" data-tile-size="{s}">',
        _DEFS,
        f'<defs><path id="hg-meeple" d="{_MEEPLE}"/><path id="hg-hut" d="{_HUT}"/></defs>',  # the play page's choices
        f'<rect width="{num(width)}" height="{num(height)}" fill="#efe6d2"/>',
        '<g class="board">',
    ]
    for t in board:
        px, py = (t["x"] - x0) * s, (t["y"] - y0) * s
        out.append(
            f'<g class="tile" data-x="{t["x"]}" data-y="{t["y"]}" data-tile="{t["tile"]}" '
            f'data-rotation="{t["rotation"]}" transform="translate({num(px)},{num(py)}) '
            f'rotate({90 * t["rotation"]} {num(s / 2)} {num(s / 2)})"><title>tile {t["tile"]} at '
            f"({t['x']}, {t['y']}), rotation {t['rotation']}</title>{tile_svg(t['tile'], s, t['rotation'])}</g>"
        )
    if len(board) > 1:
        last = board[-1]
        px, py = (last["x"] - x0) * s, (last["y"] - y0) * s
        out.append(
            f'<rect class="last" data-tile="{last["tile"]}" x="{num(px + 1.5)}" y="{num(py + 1.5)}" '
            f'width="{num(s - 3)}" height="{num(s - 3)}" fill="none" stroke="#ff7b00" stroke-width="3"/>'
        )
    data = tile_data()
    for occ in view["occupants"]:
        tile, local = divmod(occ["zone"], 10)
        t = where[tile]
        u, v = zone_anchor(tile, local, t["rotation"])
        ztype = next(z["type"] for z in data[tile]["zones"] if z["local"] == local)
        out.append(
            _piece(
                occ["kind"],
                occ["seat"],
                occ["zone"],
                ztype,
                (t["x"] - x0 + u) * s + PIECE_OFFSET[0],
                (t["y"] - y0 + v) * s + PIECE_OFFSET[1],
                0.8,
            )
        )
    out.append("</g>")
    out.append(_panel(view, width_b))
    out.append("</svg>")
    return "".join(out)


def _panel(view: dict[str, Any], left: float) -> str:
    x = left + 12
    out = [
        f'<g class="panel"><rect x="{num(left)}" width="{_PANEL}" height="100%" fill="#f8f3e6" stroke="#c9bfa6"/>',
        text(x, 24, "Hunters & Gatherers", 15, weight="bold"),
    ]
    y = 44
    if view["is_over"]:
        winners = ", ".join(SEAT_NAMES[w % 5] for w in view["winners"])
        out.append(text(x, y, f"Game over: {winners} won", 13, weight="bold", fill="#8a1c00"))
        y += 18
    else:
        who = view["player"]
        out.append(
            text(
                x,
                y,
                f"{SEAT_NAMES[who % 5]} to place" + (" (extra turn)" if view["extra_turn"] else ""),
                13,
                fill=SEAT_COLOURS[who % 5],
                weight="bold",
            )
        )
        y += 8
        hand = view["tile"]
        out.append(
            f'<g class="hand" data-tile="{hand}" transform="translate({num(x)},{num(y)})"><title>tile in '
            f"hand: {hand}</title>{tile_svg(hand, 96)}{_anchors(hand, 96)}</g>"
        )
        out.append(text(x + 108, y + 16, f"tile {hand}", 12))
        y += 110
    out.append(text(x, y, f"move {view['moves_played']} · piles {view['normal_pile']} + {view['menhir_pile']}", 12))
    y += 16
    if view["discards"]:
        out.append(text(x, y, f"discarded: {len(view['discards'])}", 12))
        y += 16
    y += 8
    out.append(
        text(x, y, "seat", 11, fill="#555")
        + text(x + 118, y, "score", 11, fill="#555")
        + text(x + 160, y, "supply", 11, fill="#555")
    )
    y += 6
    for seat, score in enumerate(view["scores"]):
        y += 22
        colour = SEAT_COLOURS[seat % 5]
        mark = "▶ " if seat == view["player"] and not view["is_over"] else ""
        out.append(
            f'<g class="score" data-seat="{seat}" data-score="{score}">'
            f'<rect x="{num(x)}" y="{num(y - 12)}" width="14" height="14" fill="{colour}" stroke="#111"/>'
            + text(x + 20, y, f"{mark}{SEAT_NAMES[seat % 5]}", 13)
            + text(x + 150, y, score, 14, anchor="end", weight="bold")
            + text(x + 160, y, f"{view['meeples'][seat]}m {view['huts'][seat]}h", 12)
            + "</g>"
        )
    y += 26
    legend = [("meadow", _MEADOW), ("forest", _FOREST), ("river", _RIVER), ("lake", _LAKE)]
    for i, (name, colour) in enumerate(legend):
        lx = x + (i % 2) * 100
        ly = y + (i // 2) * 18
        out.append(
            f'<rect x="{num(lx)}" y="{num(ly - 10)}" width="12" height="12" fill="{colour}"/>'
            + text(lx + 16, ly, name, 11)
        )
    out.append("</g>")
    return "".join(out)
