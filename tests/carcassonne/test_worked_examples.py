"""The nine worked examples of section 8 of the rules (docs/rules/carcassonne-hunters-gatherers.md),
each rebuilt on a real board from the shipped tiles with explicit decks.

Geometry reminders (docs/carcassonne-engine-contract.md): start tile 56 at (0, 0): N meadow 560
(aurochs), E and S the menhir forest 561, W a river 563 running into the start lake 568 (1 fish).
x grows east, y south. Zone ids are tile * 10 + local.
"""

from tests.carcassonne.scenario import as_tuples, ev, mv, new_game, play_all


def test_example_1_river_of_three_tiles_closed_by_lakes():
    """River start-lake(1 fish) -> 51 (no fish) -> lake of 59 (1 fish): 3 tiles + 2 fish = 5 to
    the fisher, who gets the meeple back."""
    g = new_game([51, 59])
    e0 = g.play(mv(-1, 0, 0, meeple=511))  # seat 0: fisher on the middle tile
    assert e0 == [] and g.meeples == [4, 5]
    e1 = g.play(mv(-2, 0, 1))  # seat 1: 59 turned so its river faces E
    assert as_tuples(e1) == [ev(1, "river", (0,), 5, 511)]
    assert g.scores == [5, 0]
    assert g.meeples == [5, 5] and g.occupants == []
    assert g.is_over and g.winners == [0]
    assert as_tuples(g.events) == [ev(1, "river", (0,), 5, 511)]


def test_example_2_two_fishers_share_a_river():
    """Seat 0 fishes on 19 (1 fish) west of the start, seat 1 on 57 (lake, 2 fish) south of it;
    28 (1 fish) joins them into one river start-lake - 19 - 28 - 57-lake: 4 tiles and
    1 + 1 + 1 + 2 = 5 fish: both fishers score 9."""
    g = new_game([19, 57, 28])
    play_all(g, [mv(-1, 0, 0, meeple=191), mv(0, 1, 3, meeple=571)])
    assert g.feature_id(191) != g.feature_id(571)  # still two rivers
    events = g.play(mv(-1, 1, 1))
    assert as_tuples(events) == [ev(2, "river", (0, 1), 9, 191)]
    assert g.scores == [9, 9]
    assert g.meeples == [5, 5]
    assert g.is_over and g.winners == [0, 1]


def test_example_3_three_forests_joined_majority_and_menhir_extra_turn():
    """Forest A (start forest + 34, seat 0), forest C (35, seat 0) and forest B (27, seat 1, 'blue')
    are three separate forests; 63 (forest N, E, W) joins all three into one closed forest of 5
    tiles: seat 0 (2 meeples) scores 10, blue nothing, all three meeples go home, and because the
    forest holds a menhir, seat 0 takes an extra turn with a menhir tile.
    (The real tiles need one filler, 51, to reach the position of forest C, so the order is
    yours, yours, blue's rather than yours, blue's, yours.)"""
    g = new_game([34, 51, 35, 27, 63, 62], [90])
    play_all(
        g,
        [
            mv(1, 0, 0, meeple=343),  # seat 0: forest A = start forest + 34
            mv(-1, 0, 0),  # seat 1: filler river tile
            mv(-1, 1, 0, meeple=351),  # seat 0: forest C
            mv(1, 1, 0, meeple=273),  # seat 1 (blue): forest B
        ],
    )
    assert len({g.feature_id(343), g.feature_id(351), g.feature_id(273)}) == 3
    assert g.meeples == [3, 4]
    events = g.play(mv(0, 1, 0))  # seat 0: 63 joins them
    assert as_tuples(events) == [ev(4, "forest", (0,), 10, 273)]
    assert g.scores == [10, 0]
    assert g.meeples == [5, 5] and g.occupants == []
    assert g.extra_turn and g.player == 0 and g.tile == 90
    g.play(mv(0, -1, 2))  # the extra turn: 90 north of the start
    assert not g.extra_turn and g.player == 1 and g.tile == 62


def test_example_4_menhir_forest_then_no_second_extra_turn():
    """33 closes the forest start + 76 + 78 + 33 (4 tiles, menhir): 8 points and an extra turn.
    In that extra turn the menhir tile 90 closes 39 (menhir) + 35 + 90, a forest of 3 tiles with a
    menhir: 6 points and no further turn, although the menhir pile still holds a tile."""
    g = new_game([76, 39, 35, 78, 33, 62], [90, 81])
    play_all(
        g,
        [
            mv(1, 0, 0, meeple=761),  # seat 0 on the start forest
            mv(0, -1, 0),  # seat 1: 39, menhir forest E-W north of the start
            mv(1, -1, 2, meeple=351),  # seat 0 on the 39 + 35 forest
            mv(0, 1, 0),  # seat 1: 78
        ],
    )
    events = g.play(mv(1, 1, 0))  # seat 0: 33 closes the 4-tile forest
    assert as_tuples(events) == [ev(4, "forest", (0,), 8, 330)]
    assert g.extra_turn and g.player == 0 and g.tile == 90
    events = g.play(mv(-1, -1, 3))  # extra turn: 90 closes the 3-tile forest
    assert as_tuples(events) == [ev(5, "forest", (0,), 6, 351)]
    assert g.scores == [14, 0]
    assert not g.extra_turn and g.player == 1 and g.tile == 62
    assert g.meeples == [5, 5]


def test_example_5_hut_majorities():
    """Three players: 0 = you, 1 = blue, 2 = green.
    System A (start lake 1 + 19: 1 + 59 lake 1 + 9 lake 2 + 0 lake 2 + 28: 1 = 8 fish) gets huts of
    you (on 19), blue (on 59) and you (on 0) while still three separate systems; 9 and 28 join them.
    System B (1 lake 3 + 57 lake 2 + 13 lake 2 + 71 lake 2 + 74: 1 = 10 fish) gets huts of green (on 1)
    and blue (on 57), then 13 joins them. At the end you score 8, green and blue 10 each."""
    g = new_game([19, 59, 1, 0, 57, 9, 28, 13, 71, 74], players=3)
    play_all(
        g,
        [
            mv(-1, 0, 3, hut=191),  # you: system of the start lake
            mv(0, -1, 3, hut=598),  # blue: a separate system (59's lake)
            mv(1, 0, 1, hut=18),  # green: system B, part 1 (lake of tile 1)
            mv(-2, 0, 0, hut=8),  # you: a third separate system (lake of tile 0)
            mv(0, 1, 1, hut=578),  # blue: system B, part 2 (lake of 57)
        ],
    )
    assert len({g.system_id(191), g.system_id(598), g.system_id(8)}) == 3
    assert g.system_id(18) != g.system_id(578)
    play_all(
        g,
        [
            mv(-1, -1, 1),  # 9 joins the start system and 59's
            mv(-2, -1, 2),  # 28 joins tile 0's system
            mv(1, 1, 0),  # 13 joins tile 1's system and 57's
            mv(1, 2, 2),  # 71 adds its lake to B
            mv(2, 1, 1),  # 74 adds a fish to B
        ],
    )
    assert g.is_over
    assert g.system_id(191) == g.system_id(598) == g.system_id(8) == 1
    assert g.system_id(18) == g.system_id(578) == 11
    assert as_tuples(g.events) == [
        ev(10, "river_system", (0,), 8, 1),
        ev(10, "river_system", (1, 2), 10, 11),
    ]
    assert g.scores == [8, 10, 10]
    assert g.winners == [1, 2]
    assert g.huts == [1, 1, 2]


def test_example_6_meadows():
    """Four meadows, each in its own game."""
    # (a) 1 aurochs -> 2: a hunter on 33's meadow joins the start meadow (aurochs).
    g = new_game([33])
    g.play(mv(0, -1, 0, meeple=331))
    assert g.is_over
    assert as_tuples(g.events) == [ev(1, "meadow", (0,), 2, 331)]
    assert g.scores == [2, 0]

    # (b) deer (37) + mammoth (35) + tiger (31) -> 3 each for two tied hunters.
    g = new_game([37, 35, 31])
    play_all(g, [mv(0, 1, 0, meeple=371), mv(1, 0, 2, meeple=350), mv(1, 1, 2)])
    assert as_tuples(g.events) == [ev(3, "meadow", (0, 1), 3, 311)]
    assert g.scores == [3, 3] and g.winners == [0, 1]

    # (c) deer (37) + 2 tigers (31, 32) -> 0 (the event is still reported).
    g = new_game([37, 31, 32])
    play_all(g, [mv(0, 1, 0, meeple=371), mv(1, 1, 2), mv(0, 2, 2)])
    assert as_tuples(g.events) == [ev(3, "meadow", (0,), 0, 311)]
    assert g.scores == [0, 0]

    # (d) 2 mammoths (35, 61) + 2 aurochs (36, 76) + 2 deer (37, 30) + 1 tiger (65); seat 0 ("red")
    # has 2 hunters (36, 65), seat 1 one (35): 6 + 4 + 2 - 1 = 11 to red alone.
    g = new_game([36, 37, 65, 35, 61, 76, 30])
    play_all(
        g,
        [
            mv(0, 1, 2, meeple=360),  # red
            mv(0, 2, 1),
            mv(1, 2, 2, meeple=651),  # red, a separate meadow (tiger)
            mv(1, 0, 2, meeple=350),  # the other player
            mv(1, 1, 0),  # 61 joins the three meadows
            mv(2, 1, 2),
            mv(2, 2, 0),
        ],
    )
    assert as_tuples(g.events) == [ev(7, "meadow", (0,), 11, 300)]
    assert g.scores == [11, 0]


def test_example_7_logboat():
    """River system start lake - 1 (lake) - 4 (lake) - 51 (fisher) - logboat 93: the logboat lake
    makes 4 lakes in the system -> 8 points to the placer; it also closes the fisher's river
    (4's lake - 51 - logboat lake: 3 tiles + 1 + 1 fish = 5), which scores normally afterwards.
    The logboat comes in a menhir extra turn earned by 37 closing the start forest."""
    g = new_game([1, 4, 51, 34, 37], [93])
    play_all(g, [mv(-1, 0, 0), mv(-2, 0, 1), mv(-3, 0, 0, meeple=511), mv(1, 0, 0)])
    events = g.play(mv(0, 1, 0))  # seat 0 closes the start forest (menhir, no meeple)
    assert events == [] and g.extra_turn and g.player == 0 and g.tile == 93
    events = g.play(mv(-4, 0, 0))
    assert as_tuples(events) == [
        ev(5, "logboat", (0,), 8, 11),
        ev(5, "river", (0,), 5, 45),
    ]
    assert g.scores == [13, 0]
    assert g.meeples == [5, 5]


def test_example_8_hunting_trap():
    """The hunting trap 94 at (1, 1) joins a meadow with a mammoth (35), a deer (37), a tiger (32)
    and a deer (30), all within its 3x3 area; the mammoth of 53 at (2, 2) is in range but across a
    river (another meadow), the start's aurochs likewise. The tiger cancels a deer: 3 + 1 = 4.
    Those four animals are then covered: at the end, with an aurochs (36) added outside the area,
    the hunter on the trap's meadow scores only that aurochs (2)."""
    g = new_game([37, 32, 30, 53, 35, 36], [94])
    play_all(g, [mv(0, 1, 0), mv(0, 2, 2), mv(1, 2, 0), mv(2, 2, 3)])
    events = g.play(mv(1, 0, 2))  # seat 0: 35 closes the start forest -> extra turn
    assert events == [] and g.extra_turn and g.player == 0 and g.tile == 94
    events = g.play(mv(1, 1, 1, meeple=941))
    assert as_tuples(events) == [ev(5, "hunting_trap", (0,), 4, 300)]
    assert g.scores == [4, 0]
    g.play(mv(-1, 1, 0))  # seat 1: aurochs outside the 3x3 area
    assert g.is_over
    assert as_tuples(g.events)[1:] == [ev(7, "meadow", (0,), 2, 300)]
    assert g.scores == [6, 0]


def test_example_9_pit_trap():
    """The pit trap 92 at (1, 1) (placed in an extra turn earned by 36 closing the start forest).
    Its meadow holds, all within the 3x3 area: mammoths on 35 and 61, aurochs on 36 and 76, a deer on
    37 and a tiger on 32. The tiger cancels the deer, the rest scores double: (3+3+2+2) * 2 = 20."""
    g = new_game([35, 36, 61, 76, 32, 37], [92])
    g.play(mv(1, 0, 2))
    g.play(mv(0, 1, 2))
    assert g.extra_turn and g.player == 1 and g.tile == 92
    g.play(mv(1, 1, 1, meeple=921))
    play_all(g, [mv(2, 0, 0), mv(0, 2, 0), mv(2, 1, 3), mv(1, 2, 0)])
    assert g.is_over
    assert as_tuples(g.events) == [ev(7, "meadow", (1,), 20, 321)]
    assert g.scores == [0, 20]
