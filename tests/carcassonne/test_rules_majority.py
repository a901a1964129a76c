"""Majorities and ties (section 5): the player(s) with the most pieces on a feature score its full
value; tied players each score the full value; the others nothing."""

from tests.carcassonne.scenario import as_tuples, ev, mv, new_game, play_all


def test_tied_gatherers_both_score_the_full_value():
    """Seat 0 on the start forest (via 34), seat 1 on 27's separate forest; 42 joins and closes
    them: start + 34 + 27 + 42 = 4 tiles = 8 to each."""
    g = new_game([34, 27, 42])
    play_all(g, [mv(1, 0, 0, meeple=343), mv(1, 1, 0, meeple=273)])
    events = g.play(mv(0, 1, 0))
    assert as_tuples(events) == [ev(2, "forest", (0, 1), 8, 273)]
    assert g.scores == [8, 8] and g.meeples == [5, 5]


def test_tie_between_two_of_three_players_leaves_the_third_out():
    """As above with three players: seat 2 closes the forest; seats 0 and 1 score, seat 2 doesn't
    (but it gets the menhir extra turn: the start forest holds a menhir)."""
    g = new_game([34, 27, 42, 62], [90], players=3)
    play_all(g, [mv(1, 0, 0, meeple=343), mv(1, 1, 0, meeple=273)])
    events = g.play(mv(0, 1, 0))
    assert as_tuples(events) == [ev(2, "forest", (0, 1), 8, 273)]
    assert g.scores == [8, 8, 0]
    assert g.extra_turn and g.player == 2 and g.tile == 90


def test_two_meeples_beat_one():
    """Example-3 board with three players: seat 0 has two gatherers, seat 2 one: only seat 0
    scores; a player without a meeple (seat 1) scores nothing."""
    g = new_game([34, 51, 35, 27, 63], [], players=3)
    play_all(
        g,
        [
            mv(1, 0, 0, meeple=343),  # seat 0
            mv(-1, 0, 0),  # seat 1
            mv(-1, 1, 0, meeple=351),  # seat 2
            mv(1, 1, 0, meeple=273),  # seat 0
        ],
    )
    events = g.play(mv(0, 1, 0))  # seat 1 joins all three
    assert as_tuples(events) == [ev(4, "forest", (0,), 10, 273)]
    assert g.scores == [10, 0, 0]
    assert g.meeples == [5, 5, 5]
    assert not g.extra_turn  # empty menhir pile
