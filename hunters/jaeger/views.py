"""What a seat may see of a Jäger und Sammler game: the public view (taken tiles other than weapons
and mammoths lie face down, spec §5), a seat's public collection, and the masked copies bots play
on. The functions behind `Game.view`, `Game.public_collection`, `Game.observed_by` and
`Game.determinized` (which make the masked copies from what these compute)."""

from __future__ import annotations

import random as _random
from typing import TYPE_CHECKING, Any

from .options import WINTER_START
from .tiles import FOOD, GOODS, STAYING, code_of

if TYPE_CHECKING:
    from ._core import CoreConfig
    from .board import Board
    from .game import Game
    from .moves import Event

__all__ = ["FACE_DOWN", "derive", "known_winter", "public_collection", "seat_events", "view"]

FACE_DOWN = FOOD + GOODS
"""Collection fields of the tiles that lie face down once taken (spec §5); weapons and mammoths lie face up."""


def public_collection(game: Game, seat: int) -> dict[str, Any]:
    """A seat's collection as anyone may see it (the `view()` entry): weapons held and spent,
    mammoth values, supply packs in hand, characters on the board and `face_down`, the number of
    taken tiles lying face down; the face-down kinds are None while `collections_hidden`."""
    c = game.collection(seat)
    out = dict(
        c.to_json(),
        seat=seat,
        characters_on_board=game.core.collection(seat)[5],
        face_down=sum(getattr(c, k) for k in FACE_DOWN),
    )
    if game.collections_hidden:
        out.update(dict.fromkeys(FACE_DOWN))
    return out


def view(game: Game, stall_rounds: int) -> dict[str, Any]:
    """The state as anyone may see it, JSON-ready: what the service, bots and pictures show
    (`stall_rounds`: the game's option).

    Taken tiles other than weapons and mammoths lie face down until the end (spec §5): before
    the end (unless the option `open_collections` is set) each collection gives berries, tubers,
    herbs, jug, necklace, pelt and skull as None and only their number as `face_down`, and
    `scores` and `score_breakdown` are None (they would reveal them). After the end everything
    is shown. The attributes `scores`, `collections`, `score_breakdown()` stay complete (the
    engine keeps the full state): they are for analysis, not for showing to a seat."""
    b = game.board
    tiles = game.tiles
    hidden = game.collections_hidden
    occupants: dict[int, list[int]] = {}
    for seat, v in game.characters:
        occupants.setdefault(v, []).append(seat)
    packs: dict[int, list[int]] = {}
    for v, seat in game.supply_packs:
        packs.setdefault(v, []).append(seat)
    coords = b.coords
    summer_mammoth = game.summer_mammoth
    return {
        "game": game.INFO.id,
        "players": game.players,
        "player": game.player,
        "season": game.season,
        "is_over": game.is_over,
        "winners": game.winners,
        "scores": None if hidden else game.scores,
        "turn": game.turns,
        "board": [
            {
                "space": v,
                "kind": b.kinds[v],
                "coords": None if coords is None else list(coords[v]),
                "tile": tiles[v],
                "characters": occupants.get(v, []),
                "supply_packs": packs.get(v, []),
            }
            for v in range(b.n)
        ],
        "characters": [{"seat": s, "space": v} for s, v in game.characters],
        "supply_packs": [{"space": v, "seat": s} for v, s in game.supply_packs],
        "collections": [public_collection(game, p) for p in range(game.players)],
        "score_breakdown": None if hidden else game.score_breakdown(),
        "tiles_left": sum(1 for t in tiles if t is not None and t not in STAYING),
        "idle_turns": game.idle_turns,
        "stall_rounds": stall_rounds,
        "summer_mammoth": None if summer_mammoth is None else {"value": summer_mammoth[0], "seat": summer_mammoth[1]},
        "moves_played": game.moves_played,
    }


def known_winter(winter: list[str], season: int, seed: int | None) -> list[str]:
    """The winter deck as a seat may know it (`Game.observed_by`): in canonical order (by tile code);
    with `seed` (`Game.determinized`) and before winter (`season` 0), shuffled from it."""
    known = sorted(winter, key=code_of)
    if seed is not None and season == 0:
        _random.Random(seed).shuffle(known)
    return known


def seat_events(events: list[Event], seat: int, cache: dict[int, tuple[list[Event], int, list[Event]]]) -> list[Event]:
    """The events `seat` may know while collections are hidden: all but the other seats' takes of
    face-down tiles. Kept per seat in `cache` (the game's own) and extended by the events since the
    last call (a game's events only grow), so observing every decision costs the new events, not
    the history."""
    entry = cache.get(seat)
    if entry is None or entry[0] is not events or entry[1] > len(events):
        entry = (events, 0, [])
    kept = entry[2]
    kept.extend(e for e in events[entry[1] :] if not (e.kind == "take" and e.seat != seat and e.tile in FACE_DOWN))
    cache[seat] = (events, len(events), kept)
    return kept.copy()


def derive(board: Board, options: dict[str, Any], summer: list[str | None], winter: list[str]) -> CoreConfig:
    """The core configuration of a game on `board` with `options`, the `summer` layout and the
    `winter` deck (the masked copies' configurations)."""
    return board.core.derive(
        [0 if t is None else code_of(t) for t in summer],
        [code_of(t) for t in winter],
        options["stall_rounds"],
        options["straight_jumps"],
        WINTER_START[options["winter_start"]],
        options["ties"] == "shared",
    )
