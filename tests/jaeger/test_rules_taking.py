"""Jäger und Sammler rules, §5 Taking tiles (and supply packs): every rule of that section of the rules
(docs/rules/jaeger-und-sammler.md) with a test on a hand-made position (see tests/jaeger/helpers.py)."""

from .helpers import kinds, line, mv, shuttle


def test_paths_caves_and_camps_are_never_taken():
    g = line("S path cave berries | S S", [[0], [4]])
    assert g.play(mv((0, 1), (1, 2))) == []
    shuttle(g, 4, 5)
    ev = g.play(mv((2, 3), (3, 2)))
    assert kinds(ev) == [("take", 0, 3, "berries")] and g.tiles[1:3] == ["path", "cave"]


def test_taken_tiles_are_kept_by_their_owner():
    g = line("S jug weapon mammoth4 | S S", [[0], [4]])
    g.play(mv((0, 1), (1, 2)))
    shuttle(g, 4, 5)
    g.play(mv((2, 3), (3, None)))
    c = g.collection(0)
    assert (c.jug, c.weapons, c.weapons_spent, c.mammoths) == (1, 0, 1, (4,))
    assert g.view()["collections"][0]["mammoths"] == [4]


def test_supply_pack_when_entering_a_camp_of_the_other_season():
    g = line("S berries W tubers S | S S", [[0], [5]])
    ev = g.play(mv((0, 1), (1, 2)))
    assert kinds(ev, "supply_pack") == [("supply_pack", 0, 2, None)]
    assert g.supply_packs == [(2, 0)] and g.collection(0).supply_packs == 3
    shuttle(g, 5, 6)
    ev = g.play(mv((2, 3), (3, 4)))  # a summer camp in summer: no pack
    assert kinds(ev, "supply_pack") == []


def test_passing_through_a_camp_counts():
    g = line("S berries W tubers herbs | S S", [[1], [5]])
    ev = g.play(mv((1, 2), (2, 3)))
    assert kinds(ev) == [("take", 0, 1, "berries"), ("supply_pack", 0, 2, None)]


def test_one_supply_pack_per_colour_per_camp():
    g = line("S W berries | S S", [[0], [0]], edges=[(1, 3)])
    g.play(mv((0, 1), (1, 0)))
    assert g.supply_packs == [(1, 0)]
    g.play(mv((0, 1), (1, 0)))  # seat 1: its own pack on the same camp
    assert g.supply_packs == [(1, 0), (1, 1)]
    ev = g.play(mv((0, 1), (1, 0)))  # seat 0 again: none of its colour may be added
    assert kinds(ev, "supply_pack") == [] and g.collection(0).supply_packs == 3


def test_no_supply_pack_when_none_is_left():
    g = line("S W W W W W berries | S S", [[0], [7]])
    g.play(mv((0, 1), (1, 2)))
    shuttle(g, 7, 8)
    g.play(mv((2, 3), (3, 4)))
    shuttle(g, 7, 8)
    ev = g.play(mv((4, 5), (5, 6)))  # the fifth winter camp: all 4 packs are out
    assert kinds(ev, "supply_pack") == [] and g.supply_packs == [(1, 0), (2, 0), (3, 0), (4, 0)]
    assert g.collection(0).supply_packs == 0


FACE_DOWN = ("berries", "tubers", "herbs", "jug", "necklace", "pelt", "skull")


def test_taken_tiles_lie_face_down_until_the_end():
    # 0 S, 1 berries, 2 jug, 3 weapon, 4 mammoth6, 5 herbs, 6 tubers; seat 1 parks on 7, 8.
    # Before issue 10, view() showed every collection and the scores at all times. §5: weapons and
    # mammoths face up, the rest face down (only their number shows) until the end of the game.
    g = line("S berries jug weapon mammoth6 herbs tubers | S S", [[0], [7]])
    g.play(mv((0, 1), (1, 2)))  # berries
    shuttle(g, 7, 8)
    g.play(mv((2, 3), (3, 4)))  # jug, weapon, spent on the mammoth6
    shuttle(g, 7, 8)
    g.play(mv((4, 5), (5, 6)))  # mammoth6, herbs
    v = g.view()
    assert g.season == "summer" and v["scores"] is None and v["score_breakdown"] is None
    mine = v["collections"][0]
    assert {k: mine[k] for k in FACE_DOWN} == dict.fromkeys(FACE_DOWN)
    assert (mine["face_down"], mine["mammoths"], mine["weapons"], mine["weapons_spent"]) == (3, [6], 0, 1)
    assert v["collections"][1]["face_down"] == 0
    # the engine keeps the full state: the attributes are complete (for analysis, not for showing)
    assert (g.collection(0).berries, g.collection(0).jug, g.collection(0).herbs) == (1, 1, 1)
    assert g.scores == [1 + 1 + 3 + 6, 0]
    shuttle(g, 7, 8)
    g.play(mv((6, None)))  # tubers; nothing reachable: summer ends, then winter
    assert g.is_over
    v = g.view()
    assert v["scores"] == g.scores == [13, 0] and [b["total"] for b in v["score_breakdown"]] == [13, 0]
    mine = v["collections"][0]
    assert {k: mine[k] for k in FACE_DOWN} == {
        **dict.fromkeys(FACE_DOWN, 0),
        "berries": 1,
        "tubers": 1,
        "herbs": 1,
        "jug": 1,
    }
    assert mine["face_down"] == 4 and mine["mammoths"] == [6]


def test_the_view_does_not_tell_which_face_down_tiles_were_taken():
    a = line("S herbs tubers | S S", [[0], [3]], edges=[(0, 2)])
    b = line("S skull tubers | S S", [[0], [3]], edges=[(0, 2)])
    for g in (a, b):
        g.play(mv((0, 1), (1, 0)))
    va, vb = a.view(), b.view()
    assert a.season == b.season == "summer" and a.scores != b.scores
    assert va["collections"] == vb["collections"] and va["scores"] == vb["scores"] is None
    assert va["collections"][0]["face_down"] == 1


def test_open_collections_option_shows_everything_before_the_end():
    g = line("S berries jug | S S", [[0], [3]], open_collections=True)
    g.play(mv((0, 1), (1, 2)))
    v = g.view()
    assert not g.is_over and v["scores"] == g.scores == [1, 0]
    assert v["score_breakdown"] == g.score_breakdown()
    assert (v["collections"][0]["berries"], v["collections"][0]["face_down"]) == (1, 1)
    assert g.options["open_collections"] is True and g.to_record()["options"]["open_collections"] is True
