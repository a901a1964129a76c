"""End of the game and final scoring (section 7): unfinished forests and rivers give nothing and
their meeples go back; river systems by hut majority (finished or not); meadows by hunter
majority; river systems are reported before meadows; shared victories."""

from tests.carcassonne.scenario import as_tuples, ev, mv, new_game, play_all


def test_unfinished_forest_and_river_score_nothing_and_meeples_go_back():
    g = new_game([34, 51])
    play_all(g, [mv(1, 0, 0, meeple=343), mv(-1, 0, 0, meeple=511)])
    assert g.is_over
    assert g.events == [] and g.scores == [0, 0]
    assert g.meeples == [5, 5]
    assert not any(kind == "meeple" for _, _, kind in g.occupants)
    assert g.winners == [0, 1]


def test_river_systems_then_meadows_each_by_feature_id():
    """Hut of seat 0 on 48's river (a system of 48 + 16, no fish); hut of seat 1 on 51's river
    (the start system, 1 fish). Seat 1's hunter on 16 holds the meadow 48(tiger) + start (aurochs)
    + 51 (aurochs) = 4; seat 0's hunter on 62 holds start's south-west meadow + 51 + 62 (deer) = 1.
    The meadow 160 has a smaller id than the system 161 but systems come first."""
    g = new_game([48, 51, 62, 16])
    play_all(
        g,
        [
            mv(0, -1, 0, hut=481),
            mv(-1, 0, 0, hut=511),
            mv(-1, 1, 0, meeple=620),
            mv(-1, -1, 3, meeple=160),
        ],
    )
    assert g.is_over
    assert as_tuples(g.events) == [
        ev(4, "river_system", (0,), 0, 161),
        ev(4, "river_system", (1,), 1, 511),
        ev(4, "meadow", (1,), 4, 160),
        ev(4, "meadow", (0,), 1, 512),
    ]
    assert g.scores == [1, 5] and g.winners == [1]
    assert g.huts == [2, 2]


def test_unfinished_river_system_scores_by_huts():
    """Hut on 51's river (start system); 19 (1 fish) continues it southwards, still open:
    the system scores its fish, start lake 1 + 1 = 2."""
    g = new_game([51, 19])
    play_all(g, [mv(-1, 0, 0, hut=511), mv(-2, 0, 0)])
    assert g.feature_id(191) == 191 and g.system_id(563) == 191
    assert as_tuples(g.events) == [ev(2, "river_system", (0,), 2, 191)]


def test_meadow_without_hunter_and_system_without_hut_are_not_reported():
    g = new_game([62, 51])
    play_all(g, [mv(0, -1, 0), mv(-1, 0, 0)])
    assert g.is_over and g.events == []


def test_meadows_are_scored_only_at_the_end():
    g = new_game([61, 62, 33])
    assert g.play(mv(0, -1, 0, meeple=610)) == []  # mammoth + start aurochs
    assert g.play(mv(0, -2, 0)) == []  # + deer
    assert g.scores == [0, 0]
    events = g.play(mv(0, -3, 0))  # last tile: final scoring
    assert as_tuples(events) == [ev(3, "meadow", (0,), 6, 331)]
    assert g.scores == [6, 0] and g.winners == [0]


def test_shared_victory():
    g = new_game([37, 35, 31])
    play_all(g, [mv(0, 1, 0, meeple=371), mv(1, 0, 2, meeple=350), mv(1, 1, 2)])
    assert g.scores == [3, 3] and g.winners == [0, 1]
