"""The special menhir tiles (section 6): shaman (88), logboat (93), hunting trap (94), pit trap (92),
wild fire (85), raft (91). Mushrooms (79, 87) are in test_rules_forest.py."""

from tests.carcassonne.scenario import all_meeples_down, as_tuples, ev, mv, new_game, play_all, reject


def shaman_turn():
    """Seat 0 has all 5 meeples on the board (381, 391, 401, 411, 601), seat 1 a hunter on 340;
    seat 0 closes the start forest with 37 and draws the shaman 88 for its extra turn."""
    g = all_meeples_down()
    g.play(mv(0, 1, 0))
    assert g.extra_turn and g.player == 0 and g.tile == 88
    return g


def test_shaman_retake_happens_before_occupying():
    g = shaman_turn()
    # without a retake seat 0 has no meeple to put on the shaman tile
    assert reject(g, mv(-1, 0, 0, meeple=883)) == "NO_MEEPLE_LEFT"
    move = mv(-1, 0, 0, meeple=883, retake=381)
    assert move in list(g.legal_moves())
    events = g.play(move)
    assert events == [] and g.scores == [0, 0]  # the retaken meeple scores nothing
    assert g.meeples == [0, 4]
    assert sorted(z for z, seat, _ in g.occupants if seat == 0) == [391, 401, 411, 601, 883]


def test_shaman_retaken_meeple_may_go_back_onto_the_same_feature():
    """88 turned so its forest joins 38's forest (which held the retaken meeple 381)."""
    g = shaman_turn()
    assert reject(g, mv(-1, -1, 3, meeple=883, retake=391)) == "FEATURE_OCCUPIED"
    g.play(mv(-1, -1, 3, meeple=883, retake=381))
    assert g.feature_id(883) == g.feature_id(381)
    assert (883, 0, "meeple") in g.occupants and g.meeples[0] == 0


def test_shaman_retake_without_occupying_returns_the_meeple_to_supply():
    g = shaman_turn()
    g.play(mv(-1, 0, 0, retake=601))
    assert g.meeples == [1, 4]
    assert (601, 0, "meeple") not in g.occupants


def test_shaman_retakes_only_own_meeples():
    g = shaman_turn()
    assert reject(g, mv(-1, 0, 0, retake=340)) == "NOT_YOUR_MEEPLE"  # seat 1's hunter
    assert reject(g, mv(-1, 0, 0, retake=563)) == "NOT_YOUR_MEEPLE"  # an empty zone


def test_shaman_does_not_retake_huts():
    """Seat 0's hut on 51; seat 0 later draws the shaman: the hut cannot be taken back."""
    g = new_game([51, 34, 37, 62], [88])
    play_all(g, [mv(-1, 0, 0, hut=511), mv(1, 0, 0), mv(0, 1, 0)])
    assert g.extra_turn and g.player == 0 and g.tile == 88
    assert mv(0, -1, 3) in list(g.legal_moves())
    assert reject(g, mv(0, -1, 3, retake=511)) in ("NOT_YOUR_MEEPLE", "RETAKE_NOT_ALLOWED")
    assert not any(m.retake is not None for m in g.legal_moves())  # no meeple of seat 0 out


def test_retake_only_with_the_shaman_tile():
    g = new_game([38, 34, 39, 37, 62], [90])
    play_all(g, [mv(0, -1, 0, meeple=381), mv(1, 0, 0)])
    assert reject(g, mv(0, -2, 0, retake=381)) == "RETAKE_NOT_ALLOWED"
    play_all(g, [mv(0, -2, 0), mv(0, 1, 0)])  # seat 1 closes the start forest
    assert g.extra_turn and g.tile == 90
    assert reject(g, mv(1, -1, 1, retake=381)) == "RETAKE_NOT_ALLOWED"  # a menhir tile, not 88
    g.play(mv(1, -1, 1))


def test_logboat_scores_its_lake_system_and_then_the_closed_river():
    """The logboat 93 west of the start: its system holds the start lake and its own: 2 * 2 = 4.
    It closes the river start-lake -> logboat lake, where its placer put a fisher: 2 + 1 + 1 = 4,
    reported after the logboat."""
    g = new_game([34, 37], [93])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0)])
    assert g.extra_turn and g.player == 1 and g.tile == 93
    events = g.play(mv(-1, 0, 0, meeple=933))
    assert as_tuples(events) == [ev(2, "logboat", (1,), 4, 563), ev(2, "river", (1,), 4, 563)]
    assert g.scores == [0, 8]


def test_logboat_ignores_huts():
    """Seat 0 has the hut on the system (tile 1's lake); seat 1 places the logboat and scores
    2 * 3 lakes = 6; at the end seat 0's hut scores the system's fish 1 + 3 + 1 = 5."""
    g = new_game([1, 34, 62, 37], [93])
    play_all(g, [mv(-1, 0, 0, hut=18), mv(1, 0, 0), mv(0, -1, 0), mv(0, 1, 0)])
    assert g.extra_turn and g.player == 1 and g.tile == 93
    events = g.play(mv(-2, 0, 0))  # the last decision: final scoring follows at once
    assert g.is_over
    assert as_tuples(events) == [ev(4, "logboat", (1,), 6, 11), ev(5, "river_system", (0,), 5, 11)]
    assert as_tuples(g.events) == as_tuples(events)
    assert g.scores == [5, 6]


def test_hunting_trap_event_even_for_zero_points():
    """The trap at (2, 0) joins 34's empty east meadow; 34's deer is in range but in another
    meadow: 0 points, still reported."""
    g = new_game([34, 28], [94])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 2)])
    assert g.extra_turn and g.player == 1 and g.tile == 94
    events = g.play(mv(2, 0, 0))
    assert as_tuples(events) == [ev(2, "hunting_trap", (1,), 0, 341)]
    assert g.scores == [0, 0]


def test_pit_trap_cancels_deer_outside_its_area_first():
    """Pit trap 92 at (1, 1): in its area a mammoth (35) and a deer (37); outside it a deer (62),
    a tiger (31) and an aurochs (36), all in the same meadow. The tiger cancels the outside deer:
    (3 + 1) * 2 + 2 = 10 (cancelling the inside deer would give 9)."""
    g = new_game([35, 37, 62, 31, 36], [92])
    play_all(g, [mv(1, 0, 2), mv(0, 1, 0)])
    assert g.extra_turn and g.player == 1 and g.tile == 92
    play_all(g, [mv(1, 1, 1, meeple=921), mv(-1, 1, 0), mv(-2, 1, 0), mv(-1, 2, 0)])
    assert g.is_over
    assert as_tuples(g.events) == [ev(6, "meadow", (1,), 10, 311)]


def test_wild_fire_removes_the_tigers_of_its_meadow():
    """Wild fire 85 joins 34's deer, 37's deer and the tigers of 31 and 32: the tigers are removed
    first, so both deer count: 2 (without the fire: 0)."""
    g = new_game([34, 37, 31, 32], [85])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0)])
    assert g.extra_turn and g.player == 1 and g.tile == 85
    play_all(g, [mv(1, 1, 0, meeple=850), mv(2, 1, 2), mv(1, 2, 2)])
    assert g.is_over
    assert as_tuples(g.events) == [ev(5, "meadow", (1,), 2, 311)]


def test_raft_adds_one_per_lake_to_the_hut_majority():
    """Raft 91 west of the start with seat 1's hut; tile 1 adds its lake. System: lakes of the
    start (1 fish), the raft (1) and tile 1 (3): 5 fish, then the raft bonus of 3 lakes."""
    g = new_game([34, 37, 1], [91])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0)])
    assert g.extra_turn and g.player == 1 and g.tile == 91
    play_all(g, [mv(-1, 0, 0, hut=918), mv(-2, 0, 0)])
    assert g.is_over
    assert as_tuples(g.events) == [ev(4, "river_system", (1,), 5, 11), ev(4, "raft", (1,), 3, 11)]
    assert g.scores == [0, 8]


def test_raft_without_hut_scores_nothing():
    g = new_game([34, 37, 1], [91])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0), mv(-1, 0, 0), mv(-2, 0, 0)])
    assert g.is_over and g.events == [] and g.scores == [0, 0]
