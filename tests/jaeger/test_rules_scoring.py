"""Jäger und Sammler rules, §8 Final scoring: every rule of that section of the rules
(docs/rules/jaeger-und-sammler.md) with a test on a hand-made position (see tests/jaeger/helpers.py)."""

import pytest

from hunters.jaeger import Game

from .helpers import line, mv, shuttle


def test_food_mammoths_and_weapons():
    g = line("S berries tubers herbs weapon mammoth7 W | S S", [[0], [7]])
    g.play(mv((0, 1), (1, 2)))
    assert g.scores == [1, 0]
    shuttle(g, 7, 8)
    g.play(mv((2, 3), (3, 4)))
    assert g.scores == [1 + 2 + 3, 0]
    shuttle(g, 7, 8)
    g.play(mv((4, 5), (5, 6)))  # weapon (0 points, spent) and the mammoth
    assert g.score_breakdown()[0] == {"food": 6, "mammoths": 7, "goods": 0, "supply_packs": 0, "total": 13}


def test_goods_score_by_how_many_of_a_kind():
    g = line("S " + "jug " * 8 + "W | S S", [[0], [10]])  # jugs on 1..8, W on 9
    goods = []
    for move in [mv((0, 1), (1, 2)), mv((2, 3), (3, 4)), mv((4, 5), (5, 6)), mv((6, 7), (7, 8)), mv((8, 9), (9, None))]:
        g.play(move)
        goods.append(g.score_breakdown()[0]["goods"])
        if not g.is_over:
            shuttle(g, 10, 11)
    # jugs held after each turn: 1, 3, 5, 7, 8 -> 1, 6, 15, 20 (6 or more), 20
    assert goods == [1, 6, 15, 20, 20]
    assert [c.jug for c in g.collections] == [8, 0]


def test_each_kind_of_goods_is_counted_apart():
    g = line("S jug necklace pelt skull jug W | S S", [[0], [7]])
    g.play(mv((0, 1), (1, 2)))
    shuttle(g, 7, 8)
    g.play(mv((2, 3), (3, 4)))
    shuttle(g, 7, 8)
    g.play(mv((4, 5), (5, 6)))
    c = g.collection(0)
    assert (c.jug, c.necklace, c.pelt, c.skull) == (2, 1, 1, 1)
    assert g.score_breakdown()[0]["goods"] == 3 + 1 + 1 + 1


def test_worked_example_96_points():
    """The rules' example, played: berries 10, tubers 10, herbs 12, mammoths 23, 7 jugs (20), 1 pelt
    (1), 4 skulls (10), 2 supply packs on summer camps (10): 96 points.

    Board: 0 = winter camp W, 1..26 a line of summer tiles, 27 = summer camp A (next to 26 and W),
    28 = summer camp B (next to W only). Seat 0 starts on A and walks 26 -> 1 into W; seat 1 starts
    on B and leaves at once. In winter seat 0 (on W) drops packs on B and A, then walks 1 -> 11 over
    the winter tiles and leaves."""
    summer_line = ["berries"] * 10 + ["tubers"] * 5 + ["herbs"] * 4 + ["jug"] * 7  # spaces 26 .. 1
    spaces = [{"kind": "winter_camp"}] + [{"kind": "tile"}] * 26 + [{"kind": "summer_camp"}] * 2
    adjacency = [[v, v + 1] for v in range(0, 27)] + [[27, 0], [28, 0]]
    summer = {26 - i: t for i, t in enumerate(summer_line)}
    winter = ["weapon", "weapon", "weapon", "pelt", "mammoth8", "mammoth8", "mammoth7"] + ["skull"] * 4
    g = Game.new(
        players=2, board={"spaces": spaces, "adjacency": adjacency}, summer=summer, winter=winter, start=[[27], [28]]
    )
    g.play(mv((27, 26), (26, 25)))
    g.play(mv((28, None)))  # seat 1 is out for the season (and the winter)
    here = 25
    while here > 1:
        g.play(mv((here, here - 1), (here - 1, here - 2)))
        here -= 2
    g.play(mv((1, 0), (0, 27)))  # into W (pack), on to A
    assert g.season == "winter" and g.characters == [(0, 0)]
    c = g.collection(0)
    assert (c.berries, c.tubers, c.herbs, c.jug) == (10, 5, 4, 7)
    g.play(mv((0, 28), (28, 0)))  # pack on B
    g.play(mv((0, 27), (27, 0)))  # pack on A
    g.play(mv((0, 1), (1, 2)))
    here = 2
    while here < 10:
        g.play(mv((here, here + 1), (here + 1, here + 2)))
        here += 2
    g.play(mv((10, 11), (11, None)))
    assert g.is_over
    c = g.collection(0)
    assert (c.pelt, c.skull, c.mammoths, c.weapons, c.weapons_spent) == (1, 4, (7, 8, 8), 0, 3)
    assert g.supply_packs == [(27, 0), (28, 0)]
    assert g.score_breakdown()[0] == {
        "food": 10 + 10 + 12,
        "mammoths": 23,
        "goods": 20 + 1 + 10,
        "supply_packs": 10,
        "total": 96,
    }
    assert g.scores == [96, 0] and g.winners == [0]


@pytest.mark.parametrize("ties, winners", [("shared", [0, 1]), ("no_winner", [])])
def test_tied_players(ties, winners):
    g = line("S berries | S S", [[0], [2]], edges=[(1, 2)], ties=ties)
    g.play(mv((0, None)))
    g.play(mv((2, None)))
    assert g.is_over and g.scores == [0, 0] and g.winners == winners
    with pytest.raises(ValueError):
        Game.new(players=2, ties="coin_flip")
