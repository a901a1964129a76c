"""Occupying (section 4.3): meeples (gatherer / fisher / hunter) and huts, their limits, where they
may go, features occupied through merges, and meeples and huts not blocking each other."""

from hunters.carcassonne import Move, Occupant
from tests.carcassonne.scenario import all_huts_down, all_meeples_down, mv, new_game, play_all, reject


def test_occupant_choices_offered_for_a_placement():
    """51 (meadow 510, river 511, meadow 512, no lake) west of the start, r0: a meeple on any of its
    three zones, a hut on its river, or nothing."""
    g = new_game([51])
    offered = {m.occupant for m in g.legal_moves() if (m.x, m.y, m.rotation) == (-1, 0, 0)}
    assert offered == {
        None,
        Occupant("meeple", 510),
        Occupant("meeple", 511),
        Occupant("meeple", 512),
        Occupant("hut", 511),
    }
    assert all(m.retake is None for m in g.legal_moves())


def test_lake_takes_a_hut_but_never_a_meeple():
    g = new_game([59, 0])
    assert reject(g, mv(-1, 0, 1, meeple=598)) == "BAD_ZONE_TYPE"
    offered = {m.occupant for m in g.legal_moves() if (m.x, m.y, m.rotation) == (-1, 0, 1)}
    assert Occupant("hut", 598) in offered and Occupant("meeple", 598) not in offered
    g.play(mv(-1, 0, 1, hut=598))
    assert g.huts == [2, 3] and g.meeples == [5, 5]
    assert g.occupants == [(598, 0, "hut")]


def test_huts_only_on_rivers_and_lakes():
    g = new_game([59])
    assert reject(g, mv(-1, 0, 1, hut=590)) == "BAD_ZONE_TYPE"  # meadow
    assert reject(g, mv(-1, 0, 1, hut=593)) == "BAD_ZONE_TYPE"  # forest
    g.play(mv(-1, 0, 1, hut=591))  # river
    assert g.occupants == [(591, 0, "hut")]


def test_meeple_on_forest_river_and_meadow():
    g = new_game([59, 62, 33])
    g.play(mv(-1, 0, 1, meeple=593))  # gatherer
    g.play(mv(0, -1, 0, meeple=620))  # hunter
    assert g.occupants == [(593, 0, "meeple"), (620, 1, "meeple")]
    assert g.meeples == [4, 4]


def test_five_meeples_at_most():
    g = all_meeples_down()
    assert reject(g, mv(0, 1, 0, meeple=371)) == "NO_MEEPLE_LEFT"
    assert all(m.occupant is None for m in g.legal_moves())
    assert sorted(z for z, seat, kind in g.occupants if seat == 0) == [381, 391, 401, 411, 601]


def test_three_huts_at_most():
    g = all_huts_down()
    assert reject(g, mv(0, -7, 0, hut=521)) == "NO_HUT_LEFT"
    assert not any(m.occupant is not None and m.occupant.kind == "hut" for m in g.legal_moves())
    # a meeple is still fine
    g.play(mv(0, -7, 0, meeple=521))
    assert g.meeples == [4, 5] and g.huts == [0, 3]


def test_feature_occupied_through_the_placement_merge():
    # seat 0: gatherer on 34, which joins the start forest (open to the south)
    g = new_game([34, 37])
    g.play(mv(1, 0, 0, meeple=343))
    # seat 1: 37's forest joins that same forest -> refused; its meadow is free
    assert reject(g, mv(0, 1, 0, meeple=370)) == "FEATURE_OCCUPIED"
    g.play(mv(0, 1, 0, meeple=371))


def test_meadow_occupied_across_the_meadow_half_of_a_river_side():
    """A hunter on 33 (north of the start) holds the start meadow 560, which continues across the
    north half of the start's west river side into 51's north meadow 510; 51's south meadow 512
    joins the start's other meadow 562 and is free."""
    g = new_game([33, 51])
    g.play(mv(0, -1, 0, meeple=331))
    assert reject(g, mv(-1, 0, 0, meeple=510)) == "FEATURE_OCCUPIED"
    g.play(mv(-1, 0, 0, meeple=512))
    assert g.feature_id(510) == g.feature_id(331) == 331
    assert g.feature_id(512) == g.feature_id(562) == 512


def test_feature_occupied_when_joining_several_features():
    """63 joins the occupied start forest with a free forest: no meeple on it."""
    g = new_game([34, 51, 35, 63])
    play_all(g, [mv(1, 0, 0, meeple=343), mv(-1, 0, 0), mv(-1, 1, 0)])
    assert reject(g, mv(0, 1, 0, meeple=630)) == "FEATURE_OCCUPIED"


def test_river_system_occupied_by_a_hut():
    # seat 0: hut on 51's river, which joins the start's river system
    g = new_game([51, 1, 48])
    g.play(mv(-1, 0, 0, hut=511))
    # seat 1: tile 1 continues the system: neither its river nor its lake takes a hut
    assert reject(g, mv(-2, 0, 0, hut=11)) == "SYSTEM_OCCUPIED"
    assert reject(g, mv(-2, 0, 0, hut=18)) == "SYSTEM_OCCUPIED"
    assert reject(g, mv(-2, 0, 0, hut=15)) == "SYSTEM_OCCUPIED"  # through tile 1's lake
    g.play(mv(-2, 0, 0, meeple=15))  # a fisher is fine
    # seat 0: a separate system (48, north of the start) takes a hut again
    g.play(mv(0, -1, 0, hut=481))
    assert g.huts == [1, 3]


def test_huts_do_not_block_meeples_and_meeples_do_not_block_huts():
    g = new_game([51, 48, 62])
    g.play(mv(-1, 0, 0, meeple=511))  # seat 0: fisher on the start river
    g.play(mv(-2, 0, 0, hut=481))  # seat 1: hut on the same river (its system)
    assert g.occupants == [(481, 1, "hut"), (511, 0, "meeple")]
    # a river with a hut but no meeple takes a fisher
    g2 = new_game([51, 48, 62])
    g2.play(mv(-1, 0, 0, hut=511))
    g2.play(mv(-2, 0, 0, meeple=481))
    assert g2.occupants == [(481, 1, "meeple"), (511, 0, "hut")]


def test_occupant_must_be_on_the_tile_being_placed():
    g = new_game([51])
    assert reject(g, mv(-1, 0, 0, meeple=563)) == "ZONE_NOT_ON_TILE"
    assert reject(g, mv(-1, 0, 0, hut=568)) == "ZONE_NOT_ON_TILE"
    assert reject(g, mv(-1, 0, 0, meeple=591)) == "ZONE_NOT_ON_TILE"


def test_meeple_returns_after_scoring_but_hut_stays():
    """A fisher and (later) a hut on the river start-lake -> 14 (ends on its tile): the fisher
    scores 3 at once and goes home; the hut stays for good."""
    g = new_game([14, 62])
    events = g.play(mv(-1, 0, 1, meeple=141))
    assert [(e.reason, e.seats, e.points) for e in events] == [("river", (0,), 3)]
    assert g.meeples == [5, 5] and g.occupants == []
    g = new_game([14, 62])
    events = g.play(mv(-1, 0, 1, hut=141))
    assert events == []
    assert g.huts == [2, 3] and g.occupants == [(141, 0, "hut")]


def test_move_without_occupant_is_always_allowed():
    g = all_meeples_down()
    g.play(Move(0, 1, 0))
    assert g.extra_turn
