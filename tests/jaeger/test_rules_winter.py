"""Jäger und Sammler rules, §7 Winter: every rule of that section of the rules
(docs/rules/jaeger-und-sammler.md) with a test on a hand-made position (see tests/jaeger/helpers.py)."""

import pytest

from hunters.jaeger import Game

from .helpers import kinds, line, mv, shuttle


def test_winter_set_up():
    # 0 W, 1 berries, 2 S, 3 tubers, 4 W, 5 herbs, 6 S; seat 1 parks on 7, 8; camps 2 and 0 touch
    g = line(
        "W berries S tubers W herbs S | S S",
        [[2, 2], [2]],
        edges=[(2, 0)],
        winter=["pelt", "skull", "mammoth7", "weapon"],
    )
    g.play(mv((2, 3), (3, 4)))  # seat 0: tubers, pack on W4
    g.play(mv((2, 1), (1, 0)))  # seat 1: berries, pack on W0
    g.play(mv((2, 0), (0, 2)))  # seat 0: pack on W0 (through it)
    g.play(mv((0, None)))  # seat 1 leaves
    assert g.supply_packs == [(0, 0), (0, 1), (4, 0)]
    ev = g.play(mv((4, 5), (5, 6)))  # seat 0 takes the herbs: nothing left to reach
    assert [(e.kind, e.season, e.seat, e.space, e.tile, e.detail) for e in ev] == [
        ("take", "summer", 0, 5, "herbs", None),
        ("season_end", "summer", None, None, None, "unreachable"),
        ("place", "winter", 0, 0, None, None),
        ("place", "winter", 1, 0, None, None),
        ("place", "winter", 0, 4, None, None),
        ("winter_start", "winter", 1, None, None, "after_last"),
    ]
    # the winter deck on the empty tile spaces in ascending order; extra tiles stay in the box
    assert g.tiles == [None, "pelt", None, "skull", None, "mammoth7", None, None, None]
    assert g.characters == [(0, 0), (0, 4), (1, 0)]
    assert g.supply_packs == [] and [c.supply_packs for c in g.collections] == [4, 4]
    assert g.season == "winter" and g.player == 1 and g.idle_turns == 0


def test_a_player_without_a_pack_in_a_winter_camp_sits_out_winter():
    g = line("S berries W tubers | S S", [[0], [4]], winter=["herbs", "jug"])
    g.play(mv((0, 1), (1, 2)))  # seat 0: pack on the winter camp
    g.play(mv((4, None)))  # seat 1 never reached a winter camp
    g.play(mv((2, 3), (3, 2)))  # last summer tile: summer ends
    assert g.season == "winter" and g.characters == [(0, 2)]
    assert g.characters_on_board == [1, 0]
    assert g.player == 0  # seat 1 (after the last player) has nobody: skipped
    assert [e.seat for e in g.events if e.kind == "winter_start"] == [1]


def test_winter_start_player_killed_the_most_valuable_summer_mammoth():
    # 0 S, 1 weapon, 2 mammoth4, 3 W, 4 berries; seat 0 parks on 5, 6
    g = line("S weapon mammoth4 W berries | S S", [[5], [1]], winter=["berries"] * 3)
    shuttle(g, 5, 6)
    g.play(mv((1, 2), (2, 3)))  # seat 1: weapon, spent on the mammoth, taken
    assert g.summer_mammoth == (4, 1)
    shuttle(g, 5, 6)
    g.play(mv((3, 4), (4, 3)))  # seat 1 plays the last summer turn
    assert g.season == "winter"
    assert [(e.seat, e.detail) for e in g.events if e.kind == "winter_start"] == [(1, "mammoth")]
    assert g.player == 1


def test_equal_mammoths_the_first_taker_starts_winter():
    g = line("mammoth8 weapon S weapon mammoth8", [[1], [3]])
    g.play(mv((1, 0), (0, None)))  # seat 0 first
    g.play(mv((3, 4), (4, None)))
    assert g.summer_mammoth == (8, 0) and g.is_over
    assert [(e.seat, e.detail) for e in g.events if e.kind == "winter_start"] == [(0, "mammoth")]


def test_the_killer_starts_winter_even_if_it_still_stands_on_the_mammoth():
    # 0 S, 1 S, 2 weapon, 3 mammoth8 | 4 S, 5 weapon, 6 mammoth4, 7 S, 8 S. Seat 0 kills the 8 and
    # stays on it; seat 1 kills the 4 and takes it; summer ends by the stall rule. The old engine
    # counted only mammoths taken (moved off): seat 1 started winter. §7: the killer of the 8 does.
    g = line("S S weapon mammoth8 | S weapon mammoth4 S S", [[0, 1], [4]], stall_rounds=1)
    g.play(mv((1, 2), (2, 3)))  # seat 0: weapon, spent on the mammoth8: a kill
    assert g.summer_mammoth == (8, 0) and g.collection(0).mammoths == ()
    g.play(mv((4, 5), (5, 6)))  # seat 1 kills the mammoth4 ...
    shuttle(g, 0, 1)
    g.play(mv((6, 7), (7, 8)))  # ... and takes it
    assert g.collection(1).mammoths == (4,) and g.summer_mammoth == (8, 0)
    shuttle(g, 0, 1)
    ev = g.play(mv((8, 7), (7, 8)))  # a round without a taken tile: stall
    assert [e.detail for e in ev if e.kind == "season_end"] == ["stall", "no_characters"]  # nobody in winter
    assert ("remove", 3, "mammoth8") in [(e.kind, e.space, e.tile) for e in ev]  # never taken by seat 0
    assert [(e.seat, e.detail) for e in g.events if e.kind == "winter_start"] == [(0, "mammoth")]
    assert g.collection(0).mammoths == () and g.summer_mammoth == (8, 0)


def test_equal_mammoths_the_earlier_kill_not_the_earlier_take_starts_winter():
    # 0 mammoth8, 1 weapon, 2 S, 3 S, 4 weapon, 5 mammoth8: seat 0 kills first and takes last
    g = line("mammoth8 weapon S S weapon mammoth8", [[1, 2], [4]])
    g.play(mv((1, 0), (2, 3)))  # seat 0 kills (and stays on the mammoth)
    g.play(mv((4, 5), (5, None)))  # seat 1 kills and takes its mammoth first
    assert g.collection(1).mammoths == (8,) and g.collection(0).mammoths == ()
    g.play(mv((0, None), (3, None)))  # seat 0 takes its mammoth: nobody left
    assert g.is_over and g.summer_mammoth == (8, 0)
    assert [(e.seat, e.detail) for e in g.events if e.kind == "winter_start"] == [(0, "mammoth")]


@pytest.mark.parametrize("rule, seat", [("after_last", 1), ("seat0", 0)])
def test_winter_start_when_nobody_killed_a_summer_mammoth(rule, seat):
    g = line("S berries W tubers | S S", [[0], [4]], winter=["herbs", "jug"], winter_start=rule)
    g.play(mv((0, 1), (1, 2)))
    g.play(mv((4, 5), (5, 4)))
    g.play(mv((2, 3), (3, 2)))  # seat 0 plays the last summer turn
    assert [(e.seat, e.detail) for e in g.events if e.kind == "winter_start"] == [(seat, rule)]
    with pytest.raises(ValueError):
        Game.new(players=2, winter_start="loser")


def test_weapons_from_summer_are_used_in_winter_and_packs_go_to_summer_camps():
    # 0 S, 1 weapon, 2 W, 3 berries, 4 S; seat 1 parks on 5, 6
    g = line("S weapon W berries S | S S", [[0], [5]], winter=["mammoth6", "pelt"])
    g.play(mv((0, 1), (1, 2)))  # weapon; pack on the winter camp
    shuttle(g, 5, 6)
    g.play(mv((2, 3), (3, 4)))  # berries; a summer camp in summer: no pack
    assert g.season == "winter" and g.tiles[:5] == [None, "mammoth6", None, "pelt", None]
    assert g.collection(0).weapons == 1
    ev = g.play(mv((2, 1), (1, 0)))  # the summer weapon for a winter mammoth
    assert [(e.kind, e.season, e.space, e.tile, e.detail) for e in ev] == [
        ("spend_weapon", "winter", 1, "mammoth6", None),
        ("take", "winter", 1, "mammoth6", None),
        ("supply_pack", "winter", 0, None, None),  # in winter packs go into summer camps
        ("season_end", "winter", None, None, "unreachable"),
        ("remove", "winter", 3, "pelt", None),
        ("game_end", "over", None, None, None),
    ]
    assert g.is_over and g.scores == [1 + 6 + 5, 0] and g.winners == [0]


def test_a_winter_camp_gives_no_pack_in_winter():
    g = line("S berries W tubers W | S S", [[0], [5]], winter=["herbs", "jug"])
    g.play(mv((0, 1), (1, 2)))
    g.play(mv((5, None)))
    g.play(mv((2, 3), (3, 2)))
    assert g.season == "winter" and g.supply_packs == []
    ev = g.play(mv((2, 3), (3, 4)))
    assert kinds(ev, "supply_pack") == []


def test_winter_tiles_are_laid_on_every_empty_tile_space():
    import random

    from hunters.jaeger.sim import stays

    rng = random.Random(5)
    g = Game.new(players=2, seed=5)
    while g.season == "summer":
        moves = [m for m in g.legal_moves() if stays(m)] or list(g.legal_moves())
        g.play(rng.choice(moves))
    assert g.season == "winter"
    tiles = g.tiles
    b = g.board
    assert sum(1 for v in b.tile_spaces if tiles[v] is not None) == 112
    assert sorted(t for t in tiles if t in ("path", "cave")) == ["cave"] * 5 + ["path"] * 19
    winter_on_board = [t for t in tiles if t is not None and t not in ("path", "cave")]
    assert len(winter_on_board) == 88 and sorted(winter_on_board) == sorted(g.to_record()["winter"])
    assert all(tiles[v] is None for v in b.summer_camps + b.winter_camps)
