"""jaeger_sammler's published conformance vectors against the reference oracle (tests/reference/:
naive enumeration): perft counts of small depth, and every replay turn's legal-move count, events
and scores. Also: the suite names every rule of the specification."""

import pytest

from hunters.conformance import vectors
from hunters.jaeger import Game
from hunters.jaeger import conformance as suite
from tests.jaeger.test_crosscheck import as_tuple, ref_for
from tests.reference.perft import ref_perft

GAME = "jaeger_sammler"
REPLAYS = {v["name"]: v for v in vectors.load(GAME, "replay")}


def test_the_suite_names_every_rule_of_the_specification():
    assert set(suite.RULES) == {
        "take", "leave", "jump", "cave_jump", "spend_weapon", "weapon_taken_and_spent_in_one_turn",
        "supply_pack_summer", "supply_pack_winter", "season_end_no_characters", "season_end_unreachable",
        "season_end_stall", "inaccessible_mammoth", "remove", "winter_setup", "sits_out_winter",
        "winter_start_mammoth", "winter_start_after_last", "winter_start_seat0", "both_seasons", "game_end",
    }  # fmt: skip


def ref_at(record):
    game = Game.from_record(record)
    ref = ref_for(Game.from_record(dict(record, moves=[])))
    for move in game.moves:
        ref.play(as_tuple(move))
    return ref


# The oracle has no chance mode: the chance-mode vectors are checked against the core and the
# generic perft only (tests/conformance/test_vectors.py).
@pytest.mark.parametrize("vector", [v for v in vectors.load(GAME, "perft") if not v["chance"]], ids=lambda v: v["name"])
def test_perft_counts_agree_with_the_reference_oracle(vector):
    ref = ref_at(vector["record"])
    depths = [d for d in range(1, vector["depth"] + 1) if vector["counts"][d - 1] <= 1_000]
    assert depths
    for d in depths:
        assert ref_perft(ref, d, lambda r: r.clone(), lambda r: r.over) == vector["counts"][d], d


@pytest.mark.parametrize("name", sorted(REPLAYS))
def test_replays_agree_with_the_reference_oracle(name):
    v = REPLAYS[name]
    ref = ref_for(Game.from_record(dict(v["record"], moves=[])))
    done = len(v["setup_events"])
    assert [list(e) for e in ref.events] == [list(e.values()) for e in v["setup_events"]]
    for i, step in enumerate(v["steps"]):
        assert ref.player == step["player"], i
        assert len(ref.legal_moves()) == step["legal"], i
        ref.play(as_tuple(Game.move_from_json(step["move"])))
        assert [list(e) for e in ref.events[done:]] == [list(e.values()) for e in step["events"]], i
        done = len(ref.events)
        assert ref.scores() == step["scores"], i
    assert ref.over and ref.scores() == v["final"]["scores"] and ref.winners() == v["final"]["winners"]
