"""Bad input is refused with a reason and leaves the game exactly as it was (record, scores,
supplies, occupants, current tile and seat, board, discards)."""

import pytest

from hunters.carcassonne import IllegalMoveError, Move, Occupant
from tests.carcassonne.scenario import all_huts_down, all_meeples_down, mv, new_game, reject, state


def fresh():
    """Seat 1 to place 37 south of the start; seat 0 has a gatherer on the start forest (via 34);
    the menhir pile holds the shaman."""
    g = new_game([34, 37, 51, 48, 62], [88])
    g.play(mv(1, 0, 0, meeple=343))
    return g


CASES = [
    ("NOT_ADJACENT", mv(3, 3, 0)),
    ("POSITION_OCCUPIED", mv(1, 0, 0)),
    ("POSITION_OCCUPIED", mv(0, 0, 0)),
    ("SIDE_MISMATCH", mv(0, 1, 1)),
    ("BAD_ROTATION", mv(0, 1, 4)),
    ("BAD_ROTATION", mv(0, 1, -1)),
    ("FEATURE_OCCUPIED", mv(0, 1, 0, meeple=370)),
    ("ZONE_NOT_ON_TILE", mv(0, 1, 0, meeple=343)),
    ("ZONE_NOT_ON_TILE", mv(0, 1, 0, meeple=341)),
    ("BAD_ZONE_TYPE", mv(0, 1, 0, hut=370)),
    ("BAD_ZONE_TYPE", mv(0, 1, 0, hut=371)),
    ("RETAKE_NOT_ALLOWED", mv(0, 1, 0, retake=343)),
    ("MALFORMED", Move("0", 1, 0)),
    ("MALFORMED", Move(0, 1, 0.5)),
    ("MALFORMED", Move(0, 1, 0, Occupant("dragon", 371))),
    ("MALFORMED", Move(0, 1, 0, Occupant("meeple", "371"))),
    ("MALFORMED", (0, 1, 0, None, None)),
]


@pytest.mark.parametrize("reason,move", CASES, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CASES)])
def test_refused_with_reason_and_nothing_changed(reason, move):
    g = fresh()
    twin = g.clone()
    assert reject(g, move) == reason
    # the game goes on exactly as one that never saw the bad move
    good = mv(0, 1, 0, meeple=371)
    g.play(good)
    twin.play(good)
    assert state(g) == state(twin)


def test_error_carries_reason_attribute():
    g = fresh()
    with pytest.raises(IllegalMoveError) as info:
        g.play(mv(3, 3, 0))
    assert info.value.reason == "NOT_ADJACENT"


def test_system_occupied_refused():
    g = new_game([51, 48, 62])
    g.play(mv(-1, 0, 0, hut=511))
    assert reject(g, mv(-2, 0, 0, hut=481)) == "SYSTEM_OCCUPIED"


def test_no_meeple_left_refused():
    g = all_meeples_down()
    assert reject(g, mv(0, 1, 0, meeple=370)) in ("NO_MEEPLE_LEFT",)


def test_no_hut_left_refused():
    g = all_huts_down()
    assert reject(g, mv(0, -7, 0, hut=521)) == "NO_HUT_LEFT"


def test_not_your_meeple_refused():
    g = all_meeples_down()
    g.play(mv(0, 1, 0))
    assert g.tile == 88
    assert reject(g, mv(-1, 0, 0, retake=340)) == "NOT_YOUR_MEEPLE"


def test_game_over_refused():
    g = new_game([62])
    g.play(mv(0, -1, 0))
    assert reject(g, mv(0, -2, 0)) == "GAME_OVER"
    assert reject(g, mv(0, -1, 0)) == "GAME_OVER"


def test_legal_moves_are_all_accepted_and_refusals_are_not_offered():
    g = fresh()
    offered = list(g.legal_moves())
    for move in offered:
        g.clone().play(move)  # none raises
    for _, bad in CASES:
        if isinstance(bad, Move):
            assert bad not in offered
