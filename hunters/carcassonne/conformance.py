"""The conformance suite of carcassonne_hg (docs/conformance.md): the positions and replays its
published vectors are made of, and the rules each replay exercises.

The shared generator (`hunters conformance --generate`) plays `scenarios()` on the core and writes
`vectors/v1/*.jsonl` beside this module. The replays are the rule tests' exact situations (explicit
piles and moves: each special tile, menhir extra turns and the extra turn an extra turn does not
earn, discards, rivers closed by lakes, by their own end and by a loop, a majority), finished by
seeded random moves, and whole seeded games for 2 to 5 seats; the perft positions are seeded starts,
positions deep in seeded games, short piles to the game's end, menhir extra turns, a discard, and
chance mode. `CONTRACT` lists the rules of the coverage map (hunters.conformance.coverage)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .game import GAME_ID, RECORD_FORMAT, Game

__all__ = ["CONTRACT", "RULES", "VECTORS", "covered", "scenarios", "step_info"]

VECTORS = Path(__file__).resolve().parent / "vectors"
"""The folder of the published vectors, one subfolder per version (``v1``)."""

SHAMAN, LOGBOAT, HUNTING_TRAP, PIT_TRAP, WILD_FIRE, RAFT, MUSHROOMS = 88, 93, 94, 92, 85, 91, (79, 87)

RULES = (
    "forest",
    "forest_mushrooms",
    "river",
    "river_system",
    "meadow",
    "majority_tie",
    "menhir_extra_turn",
    "extra_turn_after_last_normal_tile",
    "discard_normal",
    "discard_menhir",
    "shaman_retake",
    "logboat",
    "hunting_trap",
    "pit_trap",
    "wild_fire",
    "raft",
    "hut",
    "game_end",
)
"""What the replays exercise together (`covered`): every rule of the specification, the rare ones
included."""

CONTRACT: tuple[tuple[str, str, str], ...] = (
    # (section, rule, the rule in the words of docs/carcassonne-engine-contract.md and the rules)
    ("Placing", "placement_adjacent", "A tile goes on an empty position orthogonally next to a placed tile."),
    ("Placing", "sides_match", "Every side touching a placed tile matches it: forest, meadow or river alike."),
    ("Placing", "rotation", "Turned r quarter turns clockwise, the side facing d is the unrotated side (d - r) mod 4."),
    ("Placing", "river_banks", "Across two river sides, the first meadow of one touches the last of the other."),
    ("Placing", "start_tile", "The start tile 56 lies at (0, 0), rotation 0."),
    ("Placing", "first_seat", "Seat 0 decides first."),
    ("Placing", "discard_normal", "A normal tile that fits nowhere is discarded and the next one drawn."),
    ("Occupying", "occupant_optional", "A tile may always be placed without an occupant."),
    (
        "Occupying",
        "meeple_zones",
        "A meeple goes on a forest, river or meadow zone of the tile placed, never on a lake.",
    ),
    (
        "Occupying",
        "meeple_feature_free",
        "A meeple only on a feature that, after the placement's merges, holds no meeple of anyone.",
    ),
    ("Occupying", "meeple_supply", "A meeple comes from the seat's supply of 5."),
    ("Occupying", "hut_zones", "A hut goes on a river or lake zone."),
    ("Occupying", "hut_system_free", "A hut only on a river system that, after the merges, holds no hut."),
    ("Occupying", "hut_supply", "A hut comes from the seat's supply of 3."),
    ("Occupying", "pieces_independent", "Meeples and huts never block each other."),
    ("The shaman", "shaman_retake", "With the shaman (88) the placer may take one of their meeples back."),
    ("The shaman", "retake_own_meeple", "Only one of their own meeples."),
    ("The shaman", "retake_not_hut", "Never a hut."),
    ("The shaman", "retake_refills_supply", "The meeple taken back is in supply for the occupy step."),
    ("The shaman", "retake_frees_feature", "The feature it left is free for the occupy step."),
    ("Immediate effects", "logboat", "The logboat (93) scores its placer 2 per lake of its river system."),
    (
        "Immediate effects",
        "hunting_trap",
        "The hunting trap (94) scores the uncovered animals of its meadow on its 3x3 tiles, tigers cancelling deer.",
    ),
    ("Immediate effects", "hunting_trap_event_for_zero", "The hunting trap gives its event even for 0 points."),
    (
        "Immediate effects",
        "hunting_trap_covers",
        "The animals in its area (tigers and cancelled deer too) are covered: they count for nothing afterwards.",
    ),
    ("Closed features", "forest", "A closed forest scores 2 per tile."),
    ("Closed features", "tile_counts_once", "A tile counts once for a feature that crosses it twice."),
    ("Closed features", "forest_mushrooms", "Each mushroom forest zone adds 3."),
    ("Closed features", "river", "A closed river scores 1 per tile, its fish and the fish of the lakes at its ends."),
    ("Closed features", "river_lake_once", "Each lake once."),
    ("Closed features", "river_ends_on_tile", "A river touching one side without a lake ends (closed) on its tile."),
    ("Closed features", "score_needs_meeple", "Only a closed feature holding meeples scores (an event)."),
    ("Closed features", "majority", "The seats with the most meeples on it score; the others nothing."),
    ("Closed features", "majority_tie", "Tied seats each score the full value."),
    ("Closed features", "meeples_go_home", "The meeples of a scored feature go back to supply."),
    ("Closed features", "score_order", "Features closed together are scored by ascending feature id."),
    ("Closed features", "feature_id", "A feature's id is its smallest zone id."),
    (
        "Extra turns and turn order",
        "menhir_extra_turn",
        "A normal tile closing a forest with a menhir gives the same seat an extra turn with a menhir tile.",
    ),
    ("Extra turns and turn order", "extra_turn_needs_menhir_forest", "Only a forest with a menhir earns it."),
    ("Extra turns and turn order", "no_extra_turn_from_an_extra_turn", "An extra turn earns no further extra turn."),
    ("Extra turns and turn order", "one_extra_turn_per_turn", "One extra turn however many menhir forests close."),
    ("Extra turns and turn order", "extra_turn_to_the_placer", "The extra turn is the placer's, whoever scored."),
    (
        "Extra turns and turn order",
        "discard_menhir",
        "A menhir tile that fits nowhere is discarded and the next one drawn.",
    ),
    ("Extra turns and turn order", "no_menhir_tile_no_extra_turn", "No menhir tile left: no extra turn."),
    (
        "Extra turns and turn order",
        "extra_turn_after_last_normal_tile",
        "An extra turn earned with the last normal tile is still played.",
    ),
    ("Extra turns and turn order", "next_seat", "Then the next seat, in increasing order, cyclically."),
    ("The end", "game_end", "The game ends when the normal pile is used up (placed or discarded)."),
    ("The end", "unfinished_features_score_nothing", "Unfinished forests and rivers score nothing."),
    (
        "The end",
        "river_system",
        "A river system with huts scores its hut majority the fish of all its river and lake zones.",
    ),
    ("The end", "final_events_for_zero", "A river system or meadow scored at the end gives its event even for 0."),
    ("The end", "raft", "The raft (91) adds 1 per lake of its system to the system's scorers."),
    ("The end", "meadow", "A meadow with hunters scores its majority mammoth 3, aurochs 2, deer 1."),
    ("The end", "tiger_cancels_deer", "Each tiger cancels one deer."),
    ("The end", "wild_fire", "The wild fire (85) removes its meadow's tigers first."),
    ("The end", "pit_trap", "The pit trap (92) doubles the animals of its meadow on its 3x3 tiles."),
    ("The end", "pit_trap_cancels_outside_first", "There the deer cancelled are those outside its area first."),
    ("The end", "final_order", "Final scoring: river systems, then meadows, each by ascending feature id."),
    ("The end", "final_event_decision", "Final scoring's events carry the number of decisions played."),
    ("The end", "winners", "The highest total wins; tied seats share the victory."),
)
"""Every rule of the engine contract the conformance protocol can observe, in order: the rows of
the coverage map (docs/conformance.md#coverage)."""


def _mv(
    x: int, y: int, rotation: int = 0, meeple: int | None = None, hut: int | None = None, retake: int | None = None
) -> dict[str, Any]:
    occupant = None
    if meeple is not None:
        occupant = {"kind": "meeple", "zone": meeple}
    elif hut is not None:
        occupant = {"kind": "hut", "zone": hut}
    return {"x": x, "y": y, "rotation": rotation, "occupant": occupant, "retake": retake}


def _record(normal: list[int], menhir: list[int], moves: list[dict[str, Any]], players: int = 2) -> dict[str, Any]:
    return {
        "game": GAME_ID,
        "format": RECORD_FORMAT,
        "players": players,
        "seed": None,
        "normal_deck": normal,
        "menhir_deck": menhir,
        "moves": moves,
    }


_ALL_MEEPLES_DOWN = [
    _mv(0, -1, 0, meeple=381),
    _mv(1, 0, 0, meeple=340),
    _mv(0, -2, 0, meeple=391),
    _mv(0, -3, 0),
    _mv(0, -4, 0, meeple=401),
    _mv(0, -5, 0),
    _mv(0, -6, 0, meeple=601),
    _mv(0, -7, 0),
    _mv(0, -8, 0, meeple=411),
    _mv(0, -9, 1),
    _mv(0, 1, 0),  # 37 closes the start forest (menhir): seat 0's extra turn draws the shaman
]

# (name, description, normal pile, menhir pile, moves the situation needs); seeded random moves
# finish each game
_SITUATIONS = [
    (
        "shaman-retake",
        "seat 0 has every meeple out, closes a menhir forest and retakes a meeple with the shaman (88) "
        "before putting it on the shaman tile",
        [38, 34, 39, 61, 40, 62, 60, 35, 41, 36, 37, 33],
        [SHAMAN],
        [*_ALL_MEEPLES_DOWN, _mv(-1, 0, 0, meeple=883, retake=381)],
    ),
    (
        "logboat",
        "the logboat (93) scores 2 per lake of its system, then the river it closes",
        [34, 37],
        [LOGBOAT],
        [_mv(1, 0, 0), _mv(0, 1, 0), _mv(-1, 0, 0, meeple=933)],
    ),
    (
        "logboat-huts-raft-free",
        "the logboat ignores huts; the hut's system is scored at the end of the game",
        [1, 34, 62, 37],
        [LOGBOAT],
        [_mv(-1, 0, 0, hut=18), _mv(1, 0, 0), _mv(0, -1, 0), _mv(0, 1, 0), _mv(-2, 0, 0)],
    ),
    (
        "hunting-trap",
        "the hunting trap (94) scores its 3x3 area of its meadow, even for 0 points",
        [34, 28],
        [HUNTING_TRAP],
        [_mv(1, 0, 0), _mv(0, 1, 2), _mv(2, 0, 0)],
    ),
    (
        "pit-trap",
        "the pit trap (92) doubles its area at the end; the tiger cancels the deer outside it first",
        [35, 37, 62, 31, 36],
        [PIT_TRAP],
        [_mv(1, 0, 2), _mv(0, 1, 0), _mv(1, 1, 1, meeple=921), _mv(-1, 1, 0), _mv(-2, 1, 0), _mv(-1, 2, 0)],
    ),
    (
        "wild-fire",
        "the wild fire (85) removes its meadow's tigers before they cancel deer",
        [34, 37, 31, 32],
        [WILD_FIRE],
        [_mv(1, 0, 0), _mv(0, 1, 0), _mv(1, 1, 0, meeple=850), _mv(2, 1, 2), _mv(1, 2, 2)],
    ),
    (
        "raft",
        "the raft (91) adds one per lake of its system to the hut majority",
        [34, 37, 1],
        [RAFT],
        [_mv(1, 0, 0), _mv(0, 1, 0), _mv(-1, 0, 0, hut=918), _mv(-2, 0, 0)],
    ),
    (
        "mushrooms",
        "a mushroom forest zone (87) adds 3 when its forest is scored",
        [34, 37, 36, 35],
        [87, 79],
        [_mv(1, 0, 0), _mv(0, 1, 0), _mv(0, -1, 2, meeple=871), _mv(0, -2, 0), _mv(-1, -1, 0)],
    ),
    (
        "two-menhir-forests-one-extra-turn",
        "one tile closes two menhir forests: one extra turn, to the placer, whoever scored",
        [37, 62, 61, 36, 33, 41, 35],
        [90, 81],
        [_mv(0, 1, 0, meeple=370), _mv(0, -1, 0), _mv(1, -1, 0), _mv(2, -1, 0), _mv(2, 0, 0), _mv(1, 0, 0)],
    ),
    (
        "extra-turn-after-the-last-normal-tile",
        "the last normal tile closes a menhir forest: the extra turn is still played, then the end",
        [34, 37],
        [90],
        [_mv(1, 0, 0), _mv(0, 1, 0), _mv(0, -1, 2, meeple=900)],
    ),
    (
        "menhir-discard",
        "no river side is open: the menhir tile 83 is discarded and the next one drawn",
        [59, 34, 37, 62],
        [83, 90],
        [_mv(-1, 0, 1), _mv(1, 0, 0), _mv(0, 1, 0)],
    ),
    (
        "river-closed-by-lakes",
        "a lake ends a river: both lakes' fish count",
        [1, 62],
        [],
        [_mv(-1, 0, 0, meeple=11)],
    ),
    (
        "river-ends-on-a-tile",
        "a river touching one side without a lake ends on its tile",
        [14, 62],
        [],
        [_mv(-1, 0, 1, meeple=141)],
    ),
    (
        "river-loop-through-a-lake",
        "a river from a lake back into the same lake counts the lake once",
        [24, 15, 16, 18],
        [],
        [_mv(0, -1, 1, meeple=241), _mv(0, -2, 0), _mv(1, -2, 1), _mv(1, -1, 2)],
    ),
    (
        "river-ring",
        "four curves make a ring: a closed river without a lake",
        [19, 15, 16, 18],
        [],
        [_mv(0, -1, 3, meeple=191), _mv(0, -2, 0), _mv(1, -1, 2), _mv(1, -2, 1)],
    ),
    (
        "extra-turn-earns-no-extra-turn",
        "33 closes a 4-tile forest with the start's menhir: 8 points and an extra turn; in it the menhir "
        "tile 90 closes a 3-tile forest with a menhir: 6 points and no further extra turn, though 81 is left",
        [76, 39, 35, 78, 33, 62],
        [90, 81],
        [
            _mv(1, 0, 0, meeple=761),
            _mv(0, -1, 0),
            _mv(1, -1, 2, meeple=351),
            _mv(0, 1, 0),
            _mv(1, 1, 0),
            _mv(-1, -1, 3),
        ],
    ),
    (
        "no-menhir-tile-no-extra-turn",
        "37 closes the start forest (menhir) while the menhir pile is empty: no extra turn, the next seat plays",
        [34, 37, 62],
        [],
        [_mv(1, 0, 0), _mv(0, 1, 0)],
    ),
    (
        "three-forests-joined-majority",
        "63 joins three forests: seat 0 (two meeples) scores 10, seat 1 (one) nothing, every meeple goes "
        "home, and the menhir gives the placer an extra turn",
        [34, 51, 35, 27, 63, 62],
        [90],
        [
            _mv(1, 0, 0, meeple=343),
            _mv(-1, 0, 0),
            _mv(-1, 1, 0, meeple=351),
            _mv(1, 1, 0, meeple=273),
            _mv(0, 1, 0),
        ],
    ),
    (
        "hunting-trap-area-and-cover",
        "the hunting trap scores the animals of its meadow on its 3x3 tiles only (the aurochs of 36 lies "
        "outside); its hunter's meadow later scores only the animals the trap did not cover",
        [37, 32, 30, 53, 36, 35],
        [HUNTING_TRAP],
        [
            _mv(0, 1, 0),
            _mv(0, 2, 2),
            _mv(1, 2, 0),
            _mv(2, 2, 3),
            _mv(-1, 1, 0),
            _mv(1, 0, 2),
            _mv(1, 1, 1, meeple=941),
        ],
    ),
    (
        "shaman-leaves-huts",
        "seat 0 has a hut on the board and no meeple when it draws the shaman: a hut is never taken back",
        [51, 34, 37, 62],
        [SHAMAN],
        [_mv(-1, 0, 0, hut=511), _mv(1, 0, 0), _mv(0, 1, 0), _mv(0, -1, 3)],
    ),
]


# Normal tiles that fit nowhere (found by a search over seeded random play on short piles): the
# discard in the middle of a game, and the last normal tile discarded, which ends the game.
_DISCARDS = [
    (
        "discard-normal",
        "a normal tile fits nowhere and is discarded; the next one is drawn",
        [16, 20, 42, 17, 29, 18],
        44,
    ),
    (
        "discard-ends-the-game",
        "the last normal tile fits nowhere: discarded, the game ends",
        [49, 20, 6, 19, 13, 41],
        2931,
    ),
]


def scenarios() -> Iterator[dict[str, Any]]:
    """What the generator plays (replays: the record's moves, then moves drawn by
    ``random.Random(seed).choice(legal_moves)`` to the end) and counts (perft), in file order."""
    for i, (name, description, normal, menhir, moves) in enumerate(_SITUATIONS):
        yield {
            "type": "replay",
            "name": name,
            "description": description,
            "record": _record(normal, menhir, moves),
            "seed": i,
        }
    for name, description, normal, seed in _DISCARDS:
        yield {
            "type": "replay",
            "name": name,
            "description": description,
            "record": _record(normal, [], []),
            "seed": seed,
        }
    for seed, players in ((1, 2), (2, 3), (3, 4), (4, 5), (5, 2), (6, 3)):
        yield {
            "type": "replay",
            "name": f"seeded-{players}p-{seed}",
            "description": f"a whole seeded random game of {players} seats",
            "record": Game.new(players=players, seed=seed).to_record(),
            "seed": seed,
        }
    yield from _perft_positions()


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

    yield position("start-2p-seed1", "the seeded start of 2 seats", Game.new(players=2, seed=1), 3)
    yield position("start-5p-seed7", "the seeded start of 5 seats", Game.new(players=5, seed=7), 3)
    for plies, seed in ((20, 2), (40, 3), (70, 4)):
        game = Game.new(players=2 + seed % 4, seed=seed)
        _advance(game, plies, seed)
        yield position(f"decision{plies}-seed{seed}", f"decision {plies} of a seeded random game", game, 3)
    for name, description, normal, menhir, moves in _SITUATIONS:
        if name in (
            "shaman-retake",
            "menhir-discard",
            "two-menhir-forests-one-extra-turn",
            "extra-turn-earns-no-extra-turn",
            "shaman-leaves-huts",
        ):
            game = Game.from_record(_record(normal, menhir, moves[:-1]))
            yield position(f"{name}-before", f"one decision before: {description}", game, 3)
    for normal, menhir in ([3, 17, 5, 40, 22], [88, 85, 94]), ([0, 1, 2, 10, 11, 12], [80, 91]):
        game = Game.from_record(_record(normal, menhir, []))
        yield position(f"short-piles-{normal[0]}-{menhir[0]}", "short piles: lines reach the game's end", game, 4)
        yield position(
            f"short-piles-{normal[0]}-{menhir[0]}-chance", "the same, branching over every draw", game, 3, True
        )
    yield position(
        "start-2p-seed1-chance", "the seeded start, branching over every draw", Game.new(players=2, seed=1), 2, True
    )
    for name, description, normal, _seed in _DISCARDS:
        game = Game.from_record(_record(normal, [], []))
        yield position(f"{name}-start", f"the start of: {description}", game, 4)


def _advance(game: Game, plies: int, seed: int) -> Game:
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_moves())))
    return game


def step_info(game: Game) -> dict[str, Any]:
    """What a replay step records of its position (before the move; `final`: at the end), besides
    the shared fields: the tile to place, whether it is a menhir extra turn, the tiles discarded so
    far and the tiles left in the normal and menhir piles."""
    return {"tile": game.tile, "extra_turn": game.extra_turn, "discards": game.discards, "piles": list(game.piles)}


def covered(vector: dict[str, Any]) -> set[str]:
    """The rules (names of `RULES`) a replay vector exercises, read from what it records: event
    reasons and their seats, the moves, and the steps' `info`. (Which river ends closed a river is
    geometry: tests/carcassonne/test_conformance.py checks those vectors' events against the rule
    tests' hand-worked numbers.)"""
    found: set[str] = set()
    steps = vector["steps"]
    normal = set(vector["record"]["normal_deck"])
    placed: set[int] = set()
    for step in steps:
        info, move = step["info"], step["move"]
        placed.add(info["tile"])
        if info["extra_turn"]:
            found.add("menhir_extra_turn")
            if info["piles"][0] == 0:
                found.add("extra_turn_after_last_normal_tile")
        if move.get("retake") is not None:
            found.add("shaman_retake")
        if move.get("occupant") and move["occupant"]["kind"] == "hut":
            found.add("hut")
        for ev in step["events"]:
            reason = ev["reason"]
            found.add(reason)
            if len(ev["seats"]) > 1:
                found.add("majority_tie")
            if reason == "forest" and placed & set(MUSHROOMS):
                found.add("forest_mushrooms")
            if reason == "meadow" and PIT_TRAP in placed:
                found.add("pit_trap")
            if reason == "meadow" and WILD_FIRE in placed:
                found.add("wild_fire")
    discarded = vector["final"]["info"]["discards"]
    if any(t in normal for t in discarded):
        found.add("discard_normal")
    if any(t not in normal for t in discarded):
        found.add("discard_menhir")
    if vector["final"]["over"]:
        found.add("game_end")
    return found
