"""The conformance suite of jaeger_sammler (docs/conformance.md): the positions and replays its
published vectors are made of, and the rules each replay exercises.

The shared generator (`hunters conformance --generate`) plays `scenarios()` on the core and writes
`vectors/v1/*.jsonl` beside this module. The replays are the rule tests' hand-made positions on tiny
boards (a line of spaces, the board as data in the record's options: the stall rule, a mammoth
nobody can pay for, cave jumps, jumps, a weapon taken and spent in one turn, each winter start,
a seat that sits winter out, packs and idle turns in winter, options such as straight jumps and
ties), finished by seeded random moves, and whole seeded games on the default board for 2 to 4
seats; the perft positions are seeded layouts, turns deep in summer, the last turns of summer
(depth crossing the winter deal, in both modes) and winter. `CONTRACT` lists the rules of the
coverage map (hunters.conformance.coverage)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .game import Game

__all__ = ["CONTRACT", "RULES", "VECTORS", "covered", "scenarios", "step_info"]

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

CONTRACT: tuple[tuple[str, str, str], ...] = (
    # (section, rule, the rule in the words of docs/jaeger-engine-contract.md and the rules)
    ("Board and set-up", "grid_neighbours", "A grid cell's neighbours are those of its layout (odd-r or even-r)."),
    ("Board and set-up", "explicit_adjacency", "An explicit board's adjacency pairs join both ways."),
    (
        "Board and set-up",
        "start_characters",
        "Without a start, each seat has a character on each of the first 4 summer camps.",
    ),
    ("Board and set-up", "first_seat", "Seat 0 moves first (the first seat with a character)."),
    ("Steps", "step_to_neighbour", "A step goes to a neighbouring space."),
    ("Steps", "holes", "A space whose tile was taken is a hole, never entered."),
    ("Steps", "one_character_per_tile", "A tile other than a cave holds one character at the end of a step."),
    ("Steps", "caves_hold_many", "A camp or a cave holds any number."),
    ("Steps", "jump", "A jump: a step onto an occupied tile, and the same character on to a free tile, cave or camp."),
    ("Steps", "jump_lands", "Leaving the board from the jumped tile is no jump."),
    ("Steps", "jumped_tile_not_taken", "The jumped tile is not taken."),
    ("Steps", "jumped_mammoth_free", "Jumping over a mammoth spends no weapon."),
    ("Steps", "cave_jump", "A character on a cave may step to any other cave."),
    ("Steps", "leave", "A character may leave the board from any space, in one step."),
    ("Steps", "turn_of_two_steps", "A turn is two steps, or one that takes the seat's last character off."),
    ("Steps", "straight_jumps", "With straight_jumps, a jump goes on in a straight line."),
    ("Weapons and mammoths", "mammoth_needs_weapon", "Entering an unoccupied mammoth needs a weapon."),
    ("Weapons and mammoths", "weapon_spent", "The weapon goes back to the box: one per mammoth entered."),
    ("Weapons and mammoths", "weapon_underfoot", "A weapon taken by the step itself pays for the mammoth it enters."),
    ("Weapons and mammoths", "weapon_taken_this_turn", "A weapon taken by the turn's first step pays in its second."),
    ("Taking and supply packs", "take", "A character moving off a takeable tile takes it, by either step."),
    ("Taking and supply packs", "take_when_leaving", "Leaving the board takes the tile left."),
    ("Taking and supply packs", "paths_and_caves_stay", "Paths and caves are never taken."),
    (
        "Taking and supply packs",
        "supply_pack",
        "Entering a camp of the other season drops one of the seat's packs there.",
    ),
    ("Taking and supply packs", "supply_pack_once_per_camp", "Only if none of its colour lies there."),
    ("Taking and supply packs", "supply_pack_passing_through", "Passing through as the first of two steps counts."),
    ("Taking and supply packs", "four_supply_packs", "A seat has 4 packs."),
    ("End of a season", "season_end_no_characters", "A season ends when nobody has a character on the board."),
    ("End of a season", "season_end_reason_order", "Nobody on the board is the reason before nothing left to take."),
    (
        "End of a season",
        "season_end_unreachable",
        "A season ends when no takeable tile is under or accessible to a character.",
    ),
    ("End of a season", "inaccessible_mammoth", "A mammoth nobody can pay for is not accessible."),
    ("End of a season", "mammoth_needs_owners_weapon", "It is accessible to a character whose owner holds a weapon."),
    ("End of a season", "season_end_stall", "With stall_rounds R, a season ends after R rounds without a taken tile."),
    ("End of a season", "stall_counts_seats_on_the_board", "A round is a turn of each seat still on the board."),
    ("End of a season", "season_end_at_set_up", "Summer's end is checked at set-up too."),
    ("End of a season", "remove_leftovers", "Leftover tiles leave the game, those under characters too."),
    ("Winter", "winter_deal", "The winter deck is dealt onto the empty tile spaces by ascending space."),
    ("Winter", "winter_setup", "A seat has a character on each winter camp holding one of its packs."),
    ("Winter", "packs_return", "Then every pack goes back to its owner."),
    ("Winter", "idle_restart", "Idle turns count from 0 in winter."),
    ("Winter", "winter_start_mammoth", "The killer of the most valuable summer mammoth starts winter."),
    ("Winter", "winter_start_kill", "A kill is entering the mammoth, though the killer never moves off it."),
    ("Winter", "winter_start_earlier_kill", "Of equal mammoths, the earlier kill."),
    ("Winter", "winter_start_after_last", "Without a kill, the seat after the last summer turn starts."),
    ("Winter", "winter_start_seat0", "With winter_start seat0, seat 0 starts instead."),
    (
        "Winter",
        "winter_first_with_characters",
        "A starter without characters hands the first turn to the next seat with one.",
    ),
    ("Turns and the end", "turn_order", "Turns go round in increasing seat order."),
    ("Turns and the end", "skip_seats_without_characters", "A seat without a character on the board is skipped."),
    ("Turns and the end", "game_end", "The game ends when winter ends."),
    ("Scoring", "food", "Berries 1, tubers 2, herbs 3."),
    ("Scoring", "mammoth_points", "A mammoth its printed value."),
    ("Scoring", "goods", "Each kind of goods by count: 1, 3, 6, 10, 15, 20 for 6 or more."),
    ("Scoring", "pack_points", "5 per own pack on a summer camp."),
    ("Scoring", "weapons_score_nothing", "Weapons score nothing."),
    ("Scoring", "winners", "The highest total wins; tied seats share the victory."),
    ("Scoring", "ties_no_winner", "With ties no_winner, a tie has no winner."),
    ("Scoring", "event_order", "A step's events: take, then leave or spend_weapon and/or supply_pack."),
)
"""Every rule of the engine contract the conformance protocol can observe, in order: the rows of
the coverage map (docs/conformance.md#coverage)."""

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
        (
            "equal-mammoths-earlier-kill",
            "of two mammoths of equal value the earlier kill starts winter, though its killer takes it last",
            line_game("mammoth8 weapon S S weapon mammoth8", [[1, 2], [4]]),
            [_mv((1, 0), (2, 3)), _mv((4, 5), (5, None)), _mv((0, None), (3, None))],
        ),
        (
            "weapon-of-another-seat",
            "seat 0 takes a weapon on its own line; the mammoth only seat 1 reaches is inaccessible: summer ends",
            line_game("S weapon S | S path mammoth5", [[0], [3]], winter=("herbs",)),
            [_mv((0, 1), (1, 2))],
        ),
        (
            "stall-rounds-of-seats-on-the-board",
            "with stall_rounds 3, once seat 0 has left, three idle turns of seat 1 alone end the season",
            line_game("S S berries | S S", [[0], [3]], edges=((2, 3),), stall_rounds=3),
            [_mv((0, None)), shuttle1, shuttle1],
        ),
        (
            "fifth-winter-camp",
            "a seat's 4 supply packs lie on 4 winter camps: the fifth camp gets none",
            line_game("S W W W W W berries | S S", [[0], [7]]),
            [_mv((0, 1), (1, 2)), _mv((7, 8), (8, 7)), _mv((2, 3), (3, 4)), _mv((7, 8), (8, 7)), _mv((4, 5), (5, 6))],
        ),
        (
            "packs-return",
            "seat 0 lays all 4 packs in summer; back in hand for winter, one goes on the summer camp it enters",
            line_game("S W W W W berries | S S", [[0], [6]], winter=("tubers",)),
            [
                _mv((0, 1), (1, 2)),
                _mv((6, 7), (7, 6)),
                _mv((2, 3), (3, 4)),
                _mv((6, 7), (7, 6)),
                _mv((4, 5), (5, None)),
                _mv((1, 0), (0, 1)),
            ],
        ),
        (
            "idle-restart",
            "summer ends by the stall rule (stall_rounds 1); winter counts idle turns from 0 again",
            line_game("S W berries | S S", [[0], [3]], stall_rounds=1, winter=("herbs",)),
            [_mv((0, 1), (1, 0)), _mv((3, 4), (4, 3))],
        ),
        (
            "tie-no-winner",
            "with ties no_winner, a tie at the end has no winner",
            line_game("S berries | S S", [[0], [2]], edges=((1, 2),), ties="no_winner"),
            [_mv((0, None)), _mv((2, None))],
        ),
        (
            "straight-jumps",
            "with straight_jumps a jump goes straight on (a 3 x 3 grid: over the centre from W to E, not NE)",
            Game.new(
                players=2,
                board={"grid": {"rows": 3, "cols": 3}, "camps": {"summer": [[0, 0]], "winter": [[2, 0]]}},
                summer={1: "berries", 2: "tubers", 3: "herbs", 4: "jug", 5: "necklace", 7: "berries", 8: "berries"},
                start=[[3], [4]],
                straight_jumps=True,
            ),
            [_mv((3, 4), (4, 5))],
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
        if name == "straight-jumps":
            yield position(f"{name}-start", f"the start of: {description}", game, 3)


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
