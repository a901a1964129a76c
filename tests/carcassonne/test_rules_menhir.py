"""The menhir extra turn (section 4.5): granted when a normal tile closes a forest holding a menhir;
never from an extra turn; at most one per turn; none when the menhir pile is empty; still played
after the last normal tile; it goes to the placer."""

from tests.carcassonne.scenario import as_tuples, ev, mv, new_game, play_all


def test_one_extra_turn_for_two_menhir_forests_and_it_goes_to_the_placer():
    """41 (two separate forests, E and W) closes two menhir forests at once: the start forest
    (start + 37, seat 0's gatherer) and 36 + 33 (no meeple). Seat 0 scores 6; seat 1, the placer,
    takes exactly one extra turn, and then seat 0 plays on with the next normal tile."""
    g = new_game([37, 62, 61, 36, 33, 41, 35], [90, 81])
    play_all(
        g,
        [
            mv(0, 1, 0, meeple=370),  # seat 0
            mv(0, -1, 0),  # seat 1
            mv(1, -1, 0),  # seat 0
            mv(2, -1, 0),  # seat 1: 36, forest facing S
            mv(2, 0, 0),  # seat 0: 33 (menhir), forest N and W
        ],
    )
    assert not g.extra_turn and g.player == 1 and g.tile == 41
    events = g.play(mv(1, 0, 0))
    assert as_tuples(events) == [ev(5, "forest", (0,), 6, 370)]
    assert g.feature_id(411) == 330 and g.feature_id(412) == 370
    assert g.extra_turn and g.player == 1 and g.tile == 90
    assert g.play(mv(0, -2, 2)) == []
    assert not g.extra_turn and g.player == 0 and g.tile == 35
    assert g.piles == (0, 1)


def test_no_extra_turn_when_the_menhir_pile_is_empty():
    g = new_game([34, 37, 62], [])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0)])  # seat 1 closes the start forest
    assert not g.extra_turn and g.player == 0 and g.tile == 62


def test_extra_turn_is_still_played_after_the_last_normal_tile():
    g = new_game([34, 37], [90])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0)])
    assert not g.is_over
    assert g.extra_turn and g.player == 1 and g.tile == 90
    g.play(mv(0, -1, 2))
    assert g.is_over and g.tile is None


def test_unplaceable_menhir_tile_is_discarded_and_the_next_one_drawn():
    """No river side is open once 59 closes the start river: 83 (four river sides) is discarded."""
    g = new_game([59, 34, 37, 62], [83, 90])
    play_all(g, [mv(-1, 0, 1), mv(1, 0, 0), mv(0, 1, 0)])
    assert g.discards == [83]
    assert g.extra_turn and g.player == 0 and g.tile == 90


def test_no_extra_turn_when_every_menhir_tile_left_is_unplaceable():
    g = new_game([59, 34, 37, 62], [83])
    play_all(g, [mv(-1, 0, 1), mv(1, 0, 0), mv(0, 1, 0)])
    assert g.discards == [83]
    assert not g.extra_turn and g.player == 1 and g.tile == 62


def test_extra_turn_decisions_are_counted_as_decisions():
    """The extra turn is a decision of its own: events carry its index, and the final-scoring
    decision number counts it."""
    g = new_game([34, 37], [90])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0)])
    g.play(mv(0, -1, 2, meeple=900))  # hunter on 90's meadow (mammoth + aurochs) + start meadow
    assert g.is_over
    assert as_tuples(g.events) == [ev(3, "meadow", (1,), 7, 560)]
