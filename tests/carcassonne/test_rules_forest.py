"""Forest scoring (section 5): 2 per distinct tile + 3 per mushroom forest zone, scored when closed;
meeples go home."""

from tests.carcassonne.scenario import as_tuples, ev, mv, new_game, play_all


def test_tile_crossed_twice_counts_once():
    """Ring start - 30 - 67 - 42: 67 (two separate forest zones, N and W after r3) carries the
    forest twice; the forest covers 4 distinct tiles (5 zones): 8 points, not 10."""
    g = new_game([30, 42, 67])
    play_all(g, [mv(1, 0, 0, meeple=301), mv(0, 1, 0)])
    events = g.play(mv(1, 1, 3))
    assert as_tuples(events) == [ev(2, "forest", (0,), 8, 301)]
    assert g.feature_id(670) == g.feature_id(671) == 301


def test_plain_forest_of_two_tiles_and_no_extra_turn():
    """35 (forest E only) north of the start and 34 (forest W only) beside it: a closed plain
    forest of 2 tiles = 4; no menhir, so no extra turn although the menhir pile is not empty."""
    g = new_game([35, 34, 62], [90])
    g.play(mv(0, -1, 0, meeple=351))
    events = g.play(mv(1, -1, 0))
    assert as_tuples(events) == [ev(1, "forest", (0,), 4, 343)]
    assert not g.extra_turn and g.player == 0 and g.tile == 62


def test_meeple_placed_on_the_closing_tile_scores_at_once():
    """34 then 37 close the start forest (3 tiles); seat 1 puts its gatherer on 37 itself."""
    g = new_game([34, 37, 62], [90])
    g.play(mv(1, 0, 0))
    events = g.play(mv(0, 1, 0, meeple=370))
    assert as_tuples(events) == [ev(1, "forest", (1,), 6, 343)]
    assert g.meeples == [5, 5] and g.occupants == []
    assert g.extra_turn and g.player == 1


def test_mushroom_forest_zone_adds_three():
    """37 closes the start forest -> extra turn: seat 1 places 87 (mushroom forest facing N and W)
    north of the start with a gatherer; 36 and 35 close it: 3 tiles * 2 + 3 = 9."""
    g = new_game([34, 37, 36, 35], [87, 79])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0)])
    assert g.extra_turn and g.player == 1 and g.tile == 87
    play_all(g, [mv(0, -1, 2, meeple=871), mv(0, -2, 0)])
    events = g.play(mv(-1, -1, 0))
    assert as_tuples(events) == [ev(4, "forest", (1,), 9, 351)]
    assert g.scores == [0, 9]
    assert g.is_over  # the mushroom forest holds no menhir: no extra turn


def test_closed_forest_without_meeple_scores_nothing():
    g = new_game([35, 34])
    g.play(mv(0, -1, 0))
    assert g.play(mv(1, -1, 0)) == []
    assert g.scores == [0, 0] and g.events == []
