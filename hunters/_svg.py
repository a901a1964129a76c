"""What the pictures of both games share: seat colours, escaping, number formatting, the game (or the
record and decision number) a picture is drawn from, and the optional PNG conversion. No rule here."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

SEAT_COLOURS = ("#d7263d", "#1b6fd1", "#f4c20d", "#7b3fbf", "#f07f16")
"""Fill colour of each seat's pieces (red, blue, yellow, purple, orange): none of them is a zone colour."""
SEAT_NAMES = ("red", "blue", "yellow", "purple", "orange")
FONT = 'font-family="DejaVu Sans, Verdana, sans-serif"'

__all__ = ["FONT", "SEAT_COLOURS", "SEAT_NAMES", "attr", "game_at", "num", "text", "to_png"]


def num(v: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (compact, stable output)."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def attr(value: object) -> str:
    """An XML attribute value, quoted."""
    return quoteattr(str(value))


def text(
    x: float,
    y: float,
    content: object,
    size: float = 12,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = "#222",
    extra: str = "",
) -> str:
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}" {FONT}{extra}>{escape(str(content))}</text>'
    )


def game_at(game_or_record: Any, cls: type[Any], at: int | None) -> Any:
    """The game to draw: `game_or_record` itself (a `cls` game) or replayed from its record, after
    `at` decisions when given (0..number of moves; ValueError otherwise)."""
    if isinstance(game_or_record, cls):
        if at is None:
            return game_or_record
        record = game_or_record.to_record()
    elif isinstance(game_or_record, dict):
        record = game_or_record
    else:
        raise TypeError(f"expected a {cls.__module__}.{cls.__name__} or its record (a dict)")
    moves = record.get("moves", [])
    if at is not None:
        if type(at) is not int or not isinstance(moves, list) or not 0 <= at <= len(moves):
            raise ValueError(f"at must be an int from 0 to {len(moves) if isinstance(moves, list) else 0}")
        record = dict(record, moves=moves[:at])
    return cls.from_record(record)


def to_png(svg_text: str) -> bytes:
    """PNG bytes of an SVG picture (needs the optional extra ``hunters-engine[png]``: cairosvg)."""
    try:
        import cairosvg  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        raise RuntimeError("PNG output needs cairosvg: pip install 'hunters-engine[png]'") from None
    png: bytes = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"))
    return png
