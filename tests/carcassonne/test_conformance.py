"""carcassonne_hg's published conformance vectors against the reference oracle (tests/reference/:
flood fill, naive enumeration): perft counts of small depth, and every replay decision's legal-move
count, events and scores. Also: the suite names every rule of the specification, and the river
vectors show the closings they are named after (the rule tests' hand-worked numbers)."""

import copy

import pytest

from hunters.carcassonne import Game
from hunters.carcassonne import conformance as suite
from hunters.conformance import vectors
from tests.carcassonne.test_crosscheck import as_tuple
from tests.reference.carcassonne_ref import RefGame
from tests.reference.perft import ref_perft

GAME = "carcassonne_hg"
REPLAYS = {v["name"]: v for v in vectors.load(GAME, "replay")}


def ref_of(record: dict) -> RefGame:
    ref = RefGame(record["players"], list(record["normal_deck"]), list(record["menhir_deck"]))
    for move in Game.from_record(record).moves:
        ref.play(as_tuple(move))
    return ref


def test_the_suite_names_every_rule_of_the_specification():
    assert set(suite.RULES) == {
        "forest", "forest_mushrooms", "river", "river_system", "meadow", "majority_tie", "hut",
        "menhir_extra_turn", "extra_turn_after_last_normal_tile", "discard_normal", "discard_menhir",
        "shaman_retake", "logboat", "hunting_trap", "pit_trap", "wild_fire", "raft", "game_end",
    }  # fmt: skip


# The oracle has no chance mode: the chance-mode vectors are checked against the core and the
# generic perft only (tests/conformance/test_vectors.py).
@pytest.mark.parametrize("vector", [v for v in vectors.load(GAME, "perft") if not v["chance"]], ids=lambda v: v["name"])
def test_perft_counts_agree_with_the_reference_oracle(vector):
    ref = ref_of(vector["record"])
    depths = [d for d in range(1, vector["depth"] + 1) if vector["counts"][d - 1] <= 3_000]
    assert depths
    for d in depths:
        assert ref_perft(ref, d, copy.deepcopy, lambda r: r.is_over) == vector["counts"][d], d


@pytest.mark.parametrize("name", sorted(REPLAYS))
def test_replays_agree_with_the_reference_oracle(name):
    v = REPLAYS[name]
    record = v["record"]
    ref = RefGame(record["players"], list(record["normal_deck"]), list(record["menhir_deck"]))
    done = 0
    for i, step in enumerate(v["steps"]):
        assert ref.player == step["player"] and ref.tile == step["info"]["tile"], i
        assert len(ref.legal_moves()) == step["legal"], i
        ref.play(as_tuple(Game.move_from_json(step["move"])))
        new = ref.events[done:]
        done = len(ref.events)
        assert [[*e[:2], list(e[2]), *e[3:]] for e in new] == [
            [e["decision"], e["reason"], e["seats"], e["points"], e["feature"]] for e in step["events"]
        ], i
        assert ref.scores == step["scores"], i
    assert ref.is_over and ref.discards == v["final"]["info"]["discards"]


@pytest.mark.parametrize(
    "name, decision, points",
    [
        ("river-closed-by-lakes", 0, 6),  # start lake 1 + lake 3 + 2 tiles
        ("river-ends-on-a-tile", 0, 3),  # 2 tiles + 1 fish: the river ends on tile 14
        ("river-loop-through-a-lake", 3, 5),  # 4 tiles + the lake's fish once
        ("river-ring", 3, 5),  # a ring of 4 curves without a lake
    ],
)
def test_the_river_vectors_close_their_rivers_as_named(name, decision, points):
    events = REPLAYS[name]["steps"][decision]["events"]
    assert [(e["reason"], e["points"]) for e in events] == [("river", points)]


def test_special_tiles_and_discards_are_where_their_vectors_say():
    by_reason = {n: {e["reason"] for s in v["steps"] for e in s["events"]} for n, v in REPLAYS.items()}
    for name in ("logboat", "hunting-trap", "raft"):
        assert name.replace("-", "_") in by_reason[name], name
    assert any(s["move"]["retake"] is not None for s in REPLAYS["shaman-retake"]["steps"])
    assert REPLAYS["discard-ends-the-game"]["final"]["info"]["discards"][-1] == 41  # the last normal tile
    assert REPLAYS["menhir-discard"]["final"]["info"]["discards"] == [83]
