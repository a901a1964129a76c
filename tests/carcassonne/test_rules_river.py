"""River scoring (section 5): 1 per tile + fish of its river zones + fish of each lake at its
ends (each lake once); closed by lakes, by ending on a tile, or by forming a loop."""

from tests.carcassonne.scenario import as_tuples, ev, mv, new_game, play_all


def test_river_ending_on_a_tile_is_closed():
    """Start lake (1 fish) -> 14, whose river touches one side and has no lake: 2 tiles + 1 = 3."""
    g = new_game([14, 62])
    events = g.play(mv(-1, 0, 1, meeple=141))
    assert as_tuples(events) == [ev(0, "river", (0,), 3, 141)]


def test_a_lake_ends_a_river_and_separates_it_from_the_next():
    """Tile 1: two rivers into a lake of 3 fish. Its east river closes the start river:
    start lake 1 + lake 3 + 2 tiles = 6. Its west river is a different river, still open."""
    g = new_game([1, 62])
    events = g.play(mv(-1, 0, 0, meeple=11))
    assert as_tuples(events) == [ev(0, "river", (0,), 6, 11)]
    assert g.feature_id(15) == 15 and g.feature_id(11) == 11
    assert g.system_id(15) == g.system_id(563) == 11


def test_river_from_a_lake_back_into_the_same_lake_counts_it_once():
    """24 (two rivers into one lake of 1 fish) and three curves make a loop out of 24's lake and
    back into it: 4 tiles + 1 fish = 5 (the lake counted once)."""
    g = new_game([24, 15, 16, 18])
    play_all(g, [mv(0, -1, 1, meeple=241), mv(0, -2, 0), mv(1, -2, 1)])
    events = g.play(mv(1, -1, 2))
    assert as_tuples(events) == [ev(3, "river", (0,), 5, 151)]
    assert g.feature_id(245) == g.feature_id(241) == 151


def test_river_loop_without_lake_is_closed():
    """Four curves (19 has 1 fish) make a ring: 4 tiles + 1 fish = 5."""
    g = new_game([19, 15, 16, 18])
    play_all(g, [mv(0, -1, 3, meeple=191), mv(0, -2, 0), mv(1, -1, 2)])
    events = g.play(mv(1, -2, 1))
    assert as_tuples(events) == [ev(3, "river", (0,), 5, 151)]


def test_river_open_at_one_end_is_not_scored():
    g = new_game([51, 59, 62])
    assert g.play(mv(-1, 0, 0, meeple=511)) == []
    assert g.meeples == [4, 5]
    events = g.play(mv(-2, 0, 1))  # 59's lake closes it: 3 tiles + 1 + 1 = 5
    assert as_tuples(events) == [ev(1, "river", (0,), 5, 511)]
