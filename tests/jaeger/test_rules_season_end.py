"""Jäger und Sammler rules, §6 End of a season: every rule of that section of the rules
(docs/rules/jaeger-und-sammler.md) with a test on a hand-made position (see tests/jaeger/helpers.py)."""

from hunters.jaeger import Game

from .helpers import kinds, line, mv, shuttle


def test_season_ends_when_no_tile_is_left_to_reach():
    g = line("S berries tubers W | S S", [[0], [4]], edges=[(3, 0)], winter=["herbs"])
    g.play(mv((0, 1), (1, 2)))
    assert g.season == "summer"
    shuttle(g, 4, 5)
    ev = g.play(mv((2, 3), (3, 0)))  # the tubers were the last reachable tile
    assert [e.detail for e in ev if e.kind == "season_end"] == ["unreachable"]
    assert g.season == "winter"


def test_a_tile_under_a_character_keeps_the_season_going():
    g = line("S berries tubers W | S S", [[0], [4]])
    g.play(mv((0, 1), (1, 2)))  # only the tubers are left, under seat 0
    assert g.season == "summer"
    shuttle(g, 4, 5)
    g.play(mv((2, None)))
    assert g.season == "winter" or g.is_over


def test_a_tile_reachable_by_a_cave_jump_keeps_the_season_going():
    g = line("S cave | cave berries | S S", [[0], [4]])
    g.play(mv((0, 1), (1, 0)))
    assert g.season == "summer"  # berries only by the cave jump
    g2 = line("S path | cave berries | S S", [[0], [4]])
    assert g2.season == "winter" or g2.is_over  # no cave on seat 0's side: unreachable at once


def test_a_mammoth_nobody_can_pay_for_is_inaccessible():
    # Before issue 10 the engine counted this mammoth as reachable: summer ran on until the stall
    # rule (off here: for ever). §6: a mammoth is accessible only to a character whose owner holds
    # a weapon, or if some weapon tile is accessible. Nobody has one: summer ends at set-up.
    g = line("S mammoth5 | S S", [[0], [2]], winter=["berries"])
    assert all(m.first.dst != 1 for m in g.legal_moves())
    assert g.season != "summer"
    assert (g.events[0].kind, g.events[0].turn, g.events[0].detail) == ("season_end", None, "unreachable")
    assert [(e.kind, e.space, e.tile) for e in g.events if e.kind == "remove"][0] == ("remove", 1, "mammoth5")
    g = line("S path | S S", [[0], [2]], winter=["berries"])
    assert g.season != "summer"  # nothing to take at all: summer ends at set-up


def test_an_accessible_weapon_tile_makes_a_mammoth_accessible():
    g = line("S weapon mammoth5 | S S", [[0], [3]])  # nobody armed, but the weapon can be reached
    assert g.season == "summer"
    ev = g.play(mv((0, 1), (1, 2)))  # take it and kill with it in one turn
    assert kinds(ev) == [("take", 0, 1, "weapon"), ("spend_weapon", 0, 2, "mammoth5")]


def test_a_mammoth_stays_accessible_to_a_character_whose_owner_holds_a_weapon():
    # 0 S, 1 weapon, 2 path, 3 mammoth5 (0 - 2 also adjacent); seat 1 parks on 4, 5
    g = line("S weapon path mammoth5 | S S", [[0], [4]], edges=[(0, 2)], winter=["herbs"])
    g.play(mv((0, 1), (1, 0)))  # seat 0 takes the weapon: only the mammoth is left
    assert g.season == "summer" and g.collection(0).weapons == 1
    shuttle(g, 4, 5)
    g.play(mv((0, 2), (2, 3)))  # the kill: standing on it keeps the season going
    assert g.season == "summer"
    shuttle(g, 4, 5)
    ev = g.play(mv((3, 2), (2, 0)))
    assert [(e.season, e.detail) for e in ev if e.kind == "season_end"][0] == ("summer", "unreachable")
    assert g.collection(0).mammoths == (5,)


def test_the_weapon_must_belong_to_the_owner_of_a_character_that_reaches_the_mammoth():
    # 0 S, 1 weapon, 2 S | 3 S, 4 path, 5 mammoth5: seat 0 gets armed on its own line, the mammoth
    # is reachable by seat 1 only, which holds no weapon. The old engine went on; §6 ends summer.
    g = line("S weapon S | S path mammoth5", [[0], [3]], winter=["herbs"])
    assert g.season == "summer"
    ev = g.play(mv((0, 1), (1, 2)))
    assert g.collection(0).weapons == 1 and g.collection(1).weapons == 0
    assert [(e.season, e.detail) for e in ev if e.kind == "season_end"][0] == ("summer", "unreachable")
    assert ("remove", 5, "mammoth5") in [(e.kind, e.space, e.tile) for e in ev]


def test_season_ends_when_nobody_is_on_the_board():
    g = line("S berries tubers herbs | S S", [[0], [4]], edges=[(3, 4)], winter=["jug"])
    g.play(mv((0, None)))
    ev = g.play(mv((4, None)))
    assert [(e.season, e.detail) for e in ev if e.kind == "season_end"] == [
        ("summer", "no_characters"),
        ("winter", "no_characters"),
    ]  # nobody reached a winter camp either


def test_stall_limit_ends_a_season_after_ten_full_rounds_without_a_taken_tile():
    g = line("S S berries | S S", [[0], [3]], stall_rounds=10, winter=["herbs"])
    for turn in range(19):
        shuttle(g, 0, 1) if g.player == 0 else shuttle(g, 3, 4)
        assert g.season == "summer", turn
    assert g.idle_turns == 19
    shuttle(g, 3, 4)  # the 20th turn: 10 rounds of 2 players
    assert [(e.season, e.detail) for e in g.events if e.kind == "season_end"][0] == ("summer", "stall")


def test_stall_limit_counts_rounds_of_the_players_still_on_the_board():
    g = line("S S berries | S S", [[0], [3]], edges=[(2, 3)], stall_rounds=3)
    g.play(mv((0, None)))  # seat 0 leaves (from a camp: no tile taken)
    shuttle(g, 3, 4)
    assert g.season == "summer" and g.idle_turns == 2
    shuttle(g, 3, 4)  # 3 idle turns = 3 rounds of the one player left
    assert g.season != "summer"


def test_taking_a_tile_resets_the_stall_count():
    g = line("S S berries tubers | S S", [[0], [4]], edges=[(3, 4)], stall_rounds=2)
    shuttle(g, 0, 1)
    shuttle(g, 4, 5)
    shuttle(g, 0, 1)
    assert g.idle_turns == 3 and g.season == "summer"
    g.play(mv((4, 3), (3, 4)))  # seat 1 takes the tubers
    assert g.idle_turns == 0 and g.season == "summer"
    for _ in range(3):
        shuttle(g, 0, 1) if g.player == 0 else shuttle(g, 4, 5)
    assert g.season == "summer"
    shuttle(g, 4, 5)
    assert g.season != "summer"


def test_stall_limit_can_be_turned_off():
    g = line("S S berries | S S", [[0], [3]], stall_rounds=None)
    for _ in range(200):
        shuttle(g, 0, 1) if g.player == 0 else shuttle(g, 3, 4)
    assert g.season == "summer" and g.idle_turns == 200
    assert Game.new(players=2).options["stall_rounds"] == 10


def test_leftover_tiles_are_removed_and_characters_go_home():
    g = line("S berries path tubers cave herbs W | S S", [[5, 0], [7]], winter=["jug", "pelt", "skull"])
    g.play(mv((0, 1), (1, 2)))  # seat 0 takes the berries, stands on the path
    g.play(mv((7, None)))
    ev = g.play(mv((5, 6), (6, None)))  # herbs taken; the tubers are still reachable
    assert g.season == "summer"
    ev = g.play(mv((2, None)))  # from the path: nobody is left on the board
    assert [(e.kind, e.season, e.seat, e.space, e.tile, e.detail) for e in ev] == [
        ("leave", "summer", 0, 2, None, None),
        ("season_end", "summer", None, None, None, "no_characters"),
        ("remove", "summer", None, 3, "tubers", None),  # the leftover; path and cave stay
        ("place", "winter", 0, 6, None, None),  # everyone went home; winter set-up
        ("winter_start", "winter", 1, None, None, "after_last"),
    ]
    assert g.tiles[:7] == [None, "jug", "path", "pelt", "cave", "skull", None]
    assert g.characters == [(0, 6)] and g.player == 0


def test_tiles_under_characters_are_removed_too():
    g = line("S S | berries | S S", [[0, 2], [3]], stall_rounds=1)
    assert g.season == "summer"  # the berries are under seat 0's character
    shuttle(g, 0, 1)
    ev = g.play(mv((3, 4), (4, 3)))  # the second idle turn: 1 round of 2 players
    assert [(e.kind, e.space, e.tile, e.detail) for e in ev if e.season == "summer"] == [
        ("season_end", None, None, "stall"),
        ("remove", 2, "berries", None),
    ]
    assert g.tile_counts()["removed"]["berries"] == 1
