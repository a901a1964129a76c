"""Values the core and the Python layer share come from the core: refusal reasons, player range,
position bound, occupant slots and the dense action layout."""

import random

import pytest

from hunters.carcassonne import INFO, Game, IllegalMoveError, Move, Occupant
from hunters.carcassonne import _core as core
from hunters.carcassonne.actions import ACTION_SPACE_SIZE, BOUND, HUT_SLOT, MEEPLE_SLOT, OCCUPANT_SLOTS, RETAKE_SLOTS
from hunters.carcassonne.errors import MESSAGES, core_error
from hunters.carcassonne.tiles import ZONE_TYPES


def test_every_core_refusal_is_worded():
    assert set(core.REFUSALS.values()) == set(MESSAGES)
    for code, reason in core.REFUSALS.items():
        err = core_error(code, None)
        assert err.reason == reason and err.message == MESSAGES[reason]


def test_player_range_and_action_space_from_the_core():
    assert (INFO.min_players, INFO.max_players) == (core.MIN_PLAYERS, core.MAX_PLAYERS) == (2, 5)
    side = 2 * BOUND + 1
    assert ACTION_SPACE_SIZE == INFO.action_space_size == side * side * 4 * OCCUPANT_SLOTS * RETAKE_SLOTS
    assert ACTION_SPACE_SIZE == 16_288_776


def test_occupant_slots_cover_every_zone_once():
    seen = {}
    for zone, kind in ZONE_TYPES.items():
        local = zone % 10
        if kind != "lake":
            seen.setdefault(core.occupant_slot(False, local), set()).add(("meeple", local))
            assert MEEPLE_SLOT <= core.occupant_slot(False, local) < HUT_SLOT
        if kind in ("river", "lake"):
            seen.setdefault(core.occupant_slot(True, local), set()).add(("hut", local))
            assert HUT_SLOT <= core.occupant_slot(True, local) < OCCUPANT_SLOTS
    assert all(len(v) == 1 for v in seen.values())
    assert core.occupant_slot(False, 8) == 0 and core.occupant_slot(True, 10) == 0


def _encode(game, move):
    """The documented action formula, written independently of the core."""
    own = [z for z, s, k in game.occupants if s == game.player and k == "meeple"]
    occ = move.occupant
    slot = 0 if occ is None else (1 + occ.zone % 10 if occ.kind == "meeple" else 9 + occ.zone % 10)
    ret = 0 if move.retake is None else 1 + own.index(move.retake)
    return ((((move.y + 94) * 189 + move.x + 94) * 4 + move.rotation) * 19 + slot) * 6 + ret


@pytest.mark.parametrize("seed", range(6))
def test_core_actions_match_the_documented_formula(seed):
    g = Game.new(players=3, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        moves = g.legal_moves()
        actions = g.actions.legal()
        assert actions == sorted(_encode(g, m) for m in moves)
        if len(g.moves) % 9 == 0:
            mask = g.actions.mask()
            assert bytes(mask).count(1) == len(actions) and all(mask[a] for a in actions)
        g.play(rng.choice(moves))


def test_meeple_on_a_lake_is_a_bad_zone_type_not_a_hut():
    g = Game.new(players=2, seed=3)
    while not any(ZONE_TYPES[z] == "lake" for z in ZONE_TYPES if z // 10 == g.tile):
        g.play(g.legal_moves()[0])
    lake = next(z for z in ZONE_TYPES if z // 10 == g.tile and ZONE_TYPES[z] == "lake")
    place = g.legal_moves()[0]
    with pytest.raises(IllegalMoveError) as exc:
        g.play(Move(place.x, place.y, place.rotation, Occupant("meeple", lake)))
    assert exc.value.reason == "BAD_ZONE_TYPE"


def test_positions_beyond_the_bound_are_refused_before_the_core():
    g = Game.new(players=2, seed=1)
    for x in (BOUND + 1, 10**30, -(10**30)):
        with pytest.raises(IllegalMoveError) as exc:
            g.play(Move(x, 0, 0))
        assert exc.value.reason == "NOT_ADJACENT"
