"""A review's plot as a standalone SVG: every seat's estimated final margin over the match (one
line a seat, in its colour), the zero line (level), the final margins at the end, and the costly
moves marked on the mover's line (a blunder: a large ring, a mistake: a small one).

Points carry data attributes for tools and the viewer: ``<circle class="point" data-index
data-moves-played data-seat data-margin>`` per seat and searched decision (`data-index`: the
decision's position in `Review.decisions`), ``<g class="mark" data-index data-band data-seat
data-cost>`` per marked move.

>>> from hunters.review.bands import Thresholds
>>> from hunters.review.match import Review
>>> empty = Review(1, "g", 2, "strong", Thresholds(1, 2, 3), [], [3, 1], [])
>>> plot_svg(empty).startswith("<svg")
True
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from hunters._svg import SEAT_COLOURS, SEAT_NAMES, attr, num, text
from hunters.bots.search import margins

from .match import Review

__all__ = ["plot_svg"]

WIDTH, HEIGHT = 880.0, 360.0
_LEFT, _RIGHT, _TOP, _BOTTOM = 64.0, 20.0, 52.0, 44.0
_MARKS = {"blunder": 7.0, "mistake": 4.5}


def _step(span: float) -> float:
    """A round tick step giving about five ticks over `span`."""
    raw = max(span, 1e-9) / 5
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw)


def plot_svg(review: Review, title: str | None = None) -> str:
    """The plot of `review` (see the module docstring); `title` above it (default: the game)."""
    players = review.players
    series: list[tuple[int, int, list[float]]] = [  # (decision index, moves played, margins)
        (i, d.moves_played, d.before.margins) for i, d in enumerate(review.decisions) if d.before is not None
    ]
    end = max([d.moves_played + (d.kind != "chance") for d in review.decisions], default=0)
    finals = margins([float(s) for s in review.scores]) if review.scores else [0.0] * players
    peak = max([abs(m) for _, _, ms in series for m in ms] + [abs(m) for m in finals] + [1.0])
    step = _step(2 * peak)
    top = step * math.ceil(peak / step)
    w, h = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM

    def x(moves: float) -> float:
        return _LEFT + w * (moves / end if end else 0.0)

    def y(margin: float) -> float:
        return _TOP + h * (top - margin) / (2 * top)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(WIDTH)}" height="{num(HEIGHT)}" '
        f'viewBox="0 0 {num(WIDTH)} {num(HEIGHT)}" class="review-plot">',
        f'<rect width="{num(WIDTH)}" height="{num(HEIGHT)}" fill="#fff"/>',
        text(_LEFT, 20, title or f"{review.game}: estimated final margin", 13, weight="bold"),
        text(_LEFT, 36, f"by {review.analyst}, each decision from its mover's view", 10, fill="#666"),
    ]
    tick = -top
    while tick <= top + 1e-9:
        colour = "#888" if abs(tick) < 1e-9 else "#e4e4e4"
        out.append(
            f'<line x1="{num(_LEFT)}" x2="{num(WIDTH - _RIGHT)}" y1="{num(y(tick))}" y2="{num(y(tick))}" '
            f'stroke="{colour}"/>'
        )
        out.append(text(_LEFT - 6, y(tick) + 4, f"{tick:+g}" if tick else "0", 10, anchor="end", fill="#555"))
        tick += step
    xstep = _step(end or 1)
    t = 0.0
    while t <= end + 1e-9:
        out.append(text(x(t), HEIGHT - _BOTTOM + 16, f"{t:g}", 10, anchor="middle", fill="#555"))
        t += xstep
    out.append(text(_LEFT + w / 2, HEIGHT - 8, "moves played", 11, anchor="middle", fill="#333"))
    out.append(
        text(
            16,
            _TOP + h / 2,
            "estimated final margin (points)",
            11,
            anchor="middle",
            fill="#333",
            extra=f' transform="rotate(-90 16 {num(_TOP + h / 2)})"',
        )
    )
    for seat in range(players):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        points = [(x(mp), y(ms[seat])) for _, mp, ms in series] + [(x(end), y(finals[seat]))]
        path = " ".join(f"{num(px)},{num(py)}" for px, py in points)
        out.append(
            f'<polyline class="seat-line" data-seat="{seat}" points="{path}" fill="none" stroke="{colour}" '
            'stroke-width="2"/>'
        )
        for i, mp, ms in series:
            out.append(
                f'<circle class="point" data-index="{i}" data-moves-played="{mp}" data-seat="{seat}" '
                f'data-margin="{num(ms[seat])}" cx="{num(x(mp))}" cy="{num(y(ms[seat]))}" r="2.2" fill="{colour}">'
                f"<title>{escape(f'{mp} moves played: {_name(seat)} {ms[seat]:+.1f}')}</title></circle>"
            )
    for i, d in enumerate(review.decisions):
        radius = _MARKS.get(d.band or "")
        if radius is None or d.before is None:
            continue
        cx, cy = x(d.moves_played), y(d.before.margins[d.seat])
        label = f"move {d.index + 1}, {_name(d.seat)}: {d.band}, cost {d.cost or 0:.1f} points"
        out.append(
            f'<g class="mark" data-index="{i}" data-band={attr(d.band)} data-seat="{d.seat}" '
            f'data-cost="{num(d.cost or 0)}">'
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(radius)}" fill="none" stroke="#111" stroke-width="2"/>'
            f"<title>{escape(label)}</title></g>"
        )
    lx = WIDTH - _RIGHT
    for seat in reversed(range(players)):
        label = f"{_name(seat)} {review.scores[seat]}"
        out.append(text(lx, 20, label, 12, anchor="end", fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)], weight="bold"))
        lx -= 10 + 7.5 * len(label)
    out.append("</svg>")
    return "\n".join(out)


def _name(seat: int) -> str:
    return f"seat {seat} ({SEAT_NAMES[seat % len(SEAT_NAMES)]})"
