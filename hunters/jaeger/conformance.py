"""The conformance suite of jaeger_sammler (docs/conformance.md): the positions and replays its
published vectors are made of, and the rules each replay exercises.

The shared generator (`hunters conformance --generate`) plays `scenarios()` on the core and writes
`vectors/v1/*.jsonl` beside this module. The replays are the rule tests' hand-made positions on tiny
boards (a line of spaces, the board as data in the record's options: the stall rule, a mammoth
nobody can pay for, cave jumps, jumps, a weapon taken and spent in one turn, each winter start,
a seat that sits winter out), finished by seeded random moves, and whole seeded games on the
default board for 2 to 4 seats; the perft positions are seeded layouts, turns deep in summer, the
last turns of summer (depth crossing the winter deal, in both modes) and winter."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .game import Game

__all__ = ["RULES", "VECTORS", "covered", "scenarios", "step_info"]

VECTORS = Path(__file__).resolve().parent / "vectors"
"""The folder of the published vectors, one subfolder per version (``v1``)."""

RULES = (
    "take",
    "leave",
    "jump",
    "cave_jump",
    "spend_weapon",
    "weapon_taken_and_spent_in_one_turn",
    "supply_pack_summer",
    "supply_pack_winter",
    "season_end_no_characters",
    "season_end_unreachable",
    "season_end_stall",
    "inaccessible_mammoth",
    "remove",
    "winter_setup",
    "sits_out_winter",
    "winter_start_mammoth",
    "winter_start_after_last",
    "winter_start_seat0",
    "both_seasons",
    "game_end",
)
"""What the replays exercise together (`covered`): every rule of the specification, the rare ones
included."""

_CAMPS = {"S": "summer_camp", "W": "winter_camp"}


def line_game(
    cells: str,
    start: list[list[int]],
    *,
    winter: tuple[str, ...] = (),
    edges: tuple[tuple[int, int], ...] = (),
    **options: Any,
) -> Game:
    """A game on a board written as a line of cells: S / W camps, - an empty tile space, else a tile
    token; | starts another line (space ids are cell positions); `start` lists each seat's spaces,
    `edges` adds adjacencies, `winter` is the winter deck; the stall rule off unless given. The
    rule tests' notation (tests/jaeger/helpers.py) and the replays' boards."""
    spaces: list[dict[str, Any]] = []
    adjacency: list[list[int]] = []
    summer: dict[int, str] = {}
    row = col = 0
    prev = None
    for cell in cells.split():
        if cell == "|":
            row, col, prev = row + 2, 0, None
            continue
        i = len(spaces)
        spaces.append({"kind": _CAMPS.get(cell, "tile"), "pos": [col - row // 2, row]})
        if cell not in _CAMPS and cell != "-":
            summer[i] = cell
        if prev is not None:
            adjacency.append([prev, i])
        prev, col = i, col + 1
    adjacency.extend([list(e) for e in edges])
    options.setdefault("stall_rounds", None)
    return Game.new(
        players=len(start),
        board={"spaces": spaces, "adjacency": adjacency},
        summer=summer,
        winter=list(winter),
        start=start,
        **options,
    )


def _mv(*steps: tuple[int, int | None]) -> dict[str, Any]:
    return {"steps": [{"src": a, "dst": b} for a, b in steps]}


# (name, description, game, moves the situation needs); seeded random moves finish each game
def _situations() -> list[tuple[str, str, Game, list[dict[str, Any]]]]:
    shuttle0, shuttle1 = _mv((0, 1), (1, 0)), _mv((3, 4), (4, 3))
    return [
        (
            "stall",
            "two rounds without a taken tile end the season (stall_rounds 2)",
            line_game("S S berries | S S", [[0], [3]], stall_rounds=2, winter=("herbs",)),
            [shuttle0, shuttle1, shuttle0, shuttle1],
        ),
        (
            "unpayable-mammoth",
            "a mammoth nobody can pay for is inaccessible: summer ends at set-up",
            line_game("S mammoth5 | S S", [[0], [2]], winter=("berries",)),
            [],
        ),
        (
            "weapon-then-mammoth",
            "a weapon taken in the first step pays for the mammoth of the second",
            line_game("S weapon mammoth5 | S S", [[0], [3]]),
            [_mv((0, 1), (1, 2))],
        ),
        (
            "cave-jump",
            "a character on a cave jumps to the other cave",
            line_game("S cave | cave berries | S S", [[0], [4]]),
            [_mv((0, 1), (1, 2))],
        ),
        (
            "jump",
            "a jump over an occupied tile takes the start tile, not the jumped one",
            line_game("S berries tubers herbs | S S", [[1], [2]]),
            [_mv((1, 2), (2, 3))],
        ),
        (
            "winter-start-after-last",
            "nobody killed a summer mammoth: the seat after the last summer turn starts winter",
            line_game("S berries W tubers | S S", [[0], [4]], winter=("herbs", "jug")),
            [_mv((0, 1), (1, 2)), _mv((4, 5), (5, 4)), _mv((2, 3), (3, 2))],
        ),
        (
            "winter-start-seat0",
            "the same with winter_start seat0",
            line_game("S berries W tubers | S S", [[0], [4]], winter=("herbs", "jug"), winter_start="seat0"),
            [_mv((0, 1), (1, 2)), _mv((4, 5), (5, 4)), _mv((2, 3), (3, 2))],
        ),
        (
            "sits-out-winter",
            "a seat without a supply pack on a winter camp sits winter out",
            line_game("S berries W tubers | S S", [[0], [4]], winter=("herbs", "jug")),
            [_mv((0, 1), (1, 2)), _mv((4, None)), _mv((2, 3), (3, 2))],
        ),
        (
            "killer-on-the-mammoth",
            "the killer of the most valuable mammoth starts winter though it never took it; the stall ends summer",
            line_game("S S weapon mammoth8 | S weapon mammoth4 S S", [[0, 1], [4]], stall_rounds=1),
            [
                _mv((1, 2), (2, 3)),
                _mv((4, 5), (5, 6)),
                shuttle0,
                _mv((6, 7), (7, 8)),
                shuttle0,
                _mv((8, 7), (7, 8)),
            ],
        ),
    ]


def scenarios() -> Iterator[dict[str, Any]]:
    """What the generator plays (replays: the record's moves, then moves drawn by
    ``random.Random(seed).choice(legal_moves)`` to the end) and counts (perft), in file order."""
    for i, (name, description, game, moves) in enumerate(_situations()):
        yield {
            "type": "replay",
            "name": name,
            "description": description,
            "record": dict(game.to_record(), moves=moves),
            "seed": i,
        }
    for seed, players in ((1, 2), (2, 3), (3, 4), (4, 2), (5, 3), (6, 4)):
        yield {
            "type": "replay",
            "name": f"seeded-{players}p-{seed}",
            "description": f"a whole seeded random game of {players} seats on the default board",
            "record": Game.new(players=players, seed=seed).to_record(),
            "seed": seed,
        }
    yield from _perft_positions()


def _line_of(seed: int, players: int) -> list[Game]:
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    out = [game.clone()]
    while not game.is_over:
        game.play(rng.choice(list(game.legal_moves())))
        out.append(game.clone())
    return out


def _perft_positions() -> Iterator[dict[str, Any]]:
    def position(name: str, description: str, game: Game, depth: int, chance: bool = False) -> dict[str, Any]:
        return {
            "type": "perft",
            "name": name,
            "description": description,
            "record": game.to_record(),
            "depth": depth,
            "chance": chance,
        }

    yield position("start-2p-seed1", "the seeded layout of 2 seats", Game.new(players=2, seed=1), 3)
    yield position("start-4p-seed2", "the seeded layout of 4 seats", Game.new(players=4, seed=2), 3)
    for seed, players in ((0, 2), (1, 3)):
        positions = _line_of(seed, players)
        winter = next(i for i, g in enumerate(positions) if g.season != positions[0].season)
        yield position(f"turn10-seed{seed}", "turn 10 of a seeded random game", positions[10], 3)
        last = positions[winter - 1]
        yield position(f"summer-end-seed{seed}", "the last turn of summer: depth crosses the winter deal", last, 3)
        yield position(
            f"summer-end-seed{seed}-chance", "the same, branching over every winter tile dealt", last, 1, True
        )
        yield position(f"winter-seed{seed}", "the first turn of winter", positions[winter], 3)
        yield position(
            f"winter-seed{seed}-chance", "the same in chance mode (no chance is left)", positions[winter], 2, True
        )
    for name, description, game, moves in _situations():
        if name in ("killer-on-the-mammoth", "sits-out-winter", "winter-start-seat0"):
            start = Game.from_record(dict(game.to_record(), moves=moves[:-1]))
            yield position(f"{name}-before", f"one turn before the end of summer: {description}", start, 4)
            yield position(f"{name}-before-chance", "the same, branching over every winter tile dealt", start, 4, True)


def step_info(game: Game) -> dict[str, Any]:
    """What a replay step records of its position (before the move; `final`: at the end), besides
    the shared fields: the season and the characters on the board, (seat, space) each."""
    return {"season": game.season, "characters": [list(c) for c in game.characters]}


def covered(vector: dict[str, Any]) -> set[str]:
    """The rules (names of `RULES`) a replay vector exercises: read from its events, and from its
    moves replayed on the board of its record (jumps, cave jumps)."""
    found: set[str] = set()
    game = Game.from_record(dict(vector["record"], moves=[]))
    caves = {v for v, t in enumerate(game.tiles) if t == "cave"}
    events = list(vector["setup_events"])
    for step in vector["steps"]:
        move = Game.move_from_json(step["move"])
        occupied = {space for _, space in game.characters}
        first, second = move.first, move.second
        if first.dst is None or (second is not None and second.dst is None):
            found.add("leave")
        for s in (first, second):
            if s is not None and s.dst in caves and s.src in caves and s.dst not in game.board.neighbours(s.src):
                found.add("cave_jump")
        tiles = game.tiles
        if (
            second is not None
            and first.dst is not None
            and second.src == first.dst
            and first.dst in occupied
            and game.board.kinds[first.dst] == "tile"
            and tiles[first.dst] != "cave"
        ):
            found.add("jump")
        played = step["events"]
        kinds = [e["kind"] for e in played]
        if "take" in kinds and "spend_weapon" in kinds:
            take = kinds.index("take")
            if played[take]["tile"] == "weapon" and kinds.index("spend_weapon") > take:
                found.add("weapon_taken_and_spent_in_one_turn")
        game.play(move)
        events += played
    seasons_ended = []
    placed_seats: set[int] = set()
    for e in events:
        kind, detail = e["kind"], e["detail"]
        if kind in ("take", "spend_weapon", "remove", "game_end"):
            found.add(kind)
        elif kind == "supply_pack":
            found.add(f"supply_pack_{e['season']}")
        elif kind == "season_end":
            found.add(f"season_end_{detail}")
            seasons_ended.append(e["season"])
        elif kind == "winter_start":
            found.add(f"winter_start_{detail}")
        elif kind == "place":
            found.add("winter_setup")
            placed_seats.add(e["seat"])
    for i, e in enumerate(events):
        if e["kind"] == "season_end" and e["detail"] == "unreachable":
            for r in events[i + 1 :]:
                if r["kind"] == "season_end":
                    break
                if r["kind"] == "remove" and str(r["tile"]).startswith("mammoth"):
                    found.add("inaccessible_mammoth")
    if "winter" in seasons_ended and "summer" in seasons_ended:
        found.add("both_seasons")
    if "winter_setup" in found and len(placed_seats) < game.players:
        found.add("sits_out_winter")
    return found
