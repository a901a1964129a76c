"""Jäger und Sammler rules, §4 A turn: two steps (moves, jumps, caves, leaving, weapons and mammoths):
every rule of that section of the rules (docs/rules/jaeger-und-sammler.md) with a test on a hand-made
position (see tests/jaeger/helpers.py)."""

import pytest

from hunters.jaeger import Game, Move, default_board

from .helpers import kinds, line, mv, refused, shuttle


def test_one_character_twice_takes_two_tiles():
    g = line("S berries tubers herbs W | S S", [[0], [5]])
    ev = g.play(mv((0, 1), (1, 2)))  # off the camp (nothing), off the berries
    assert kinds(ev) == [("take", 0, 1, "berries")]
    shuttle(g, 5, 6)
    ev = g.play(mv((2, 3), (3, 4)))  # off the tubers, off the herbs, into the winter camp
    assert kinds(ev) == [("take", 0, 2, "tubers"), ("take", 0, 3, "herbs"), ("supply_pack", 0, 4, None)]
    c = g.collection(0)
    assert (c.berries, c.tubers, c.herbs) == (1, 1, 1)
    assert g.scores[0] == 1 + 2 + 3
    assert g.tiles[1:4] == [None, None, None]


def test_two_characters_once_each():
    g = line("berries S tubers herbs | S S", [[1, 1], [4]], edges=[(1, 3)])
    assert g.play(mv((1, 0), (1, 2))) == []  # both leave the camp: nothing taken
    assert g.characters == [(0, 0), (0, 2), (1, 4)]
    shuttle(g, 4, 5)
    ev = g.play(mv((0, 1), (2, 1)))  # both come back: each takes its tile
    assert kinds(ev) == [("take", 0, 0, "berries"), ("take", 0, 2, "tubers")]
    assert g.characters == [(0, 1), (0, 1), (1, 4)] and g.season == "summer"


def test_a_turn_has_exactly_two_steps():
    g = line("berries S tubers | S S", [[1, 1], [3]])
    refused(g, mv((1, 0)), "STEP_COUNT")
    with pytest.raises(TypeError):
        Move.of((1, 0), (0, 1), (1, 2))
    with pytest.raises(TypeError):
        Move.from_json({"steps": [{"src": 1, "dst": 0}] * 3})
    assert all(m.second is not None for m in g.legal_moves())


def test_steps_go_to_neighbours_only():
    g = line("S berries tubers herbs | S S", [[0], [4]])
    refused(g, mv((0, 2), (2, 3)), "NOT_ADJACENT")
    refused(g, mv((0, 0), (0, 1)), "NOT_ADJACENT")
    refused(g, mv((0, 1), (1, 3)), "NOT_ADJACENT")
    refused(g, mv((0, 1), (1, 99)), "UNKNOWN_SPACE")


def test_holes_can_never_be_entered():
    g = line("S berries tubers - herbs | S S", [[0], [5]])
    g.play(mv((0, 1), (1, 2)))  # the berries are taken: space 1 is a hole
    shuttle(g, 5, 6)
    refused(g, mv((2, 1), (1, 0)), "HOLE")
    refused(g, mv((2, 3), (3, 4)), "HOLE")  # a space that never held a tile
    assert {m.first.dst for m in g.legal_moves()} == {None}


def test_a_tile_holds_at_most_one_character():
    g = line("S berries tubers herbs | S S", [[0, 3], [2]])
    refused(g, mv((0, 1), (1, 2)), "OCCUPIED")  # a rival's tile
    refused(g, mv((0, 1), (3, 2)), "OCCUPIED")  # the second step may not end there
    refused(g, mv((3, 2), (0, 1)), "OCCUPIED")  # the first may, only to jump on from it
    assert mv((3, 2), (2, 1)) in g.legal_moves()  # (that jump)
    g2 = line("S berries tubers | S S", [[0, 2], [3]])
    refused(g2, mv((0, 1), (1, 2)), "OCCUPIED")  # own characters too


def test_camps_and_caves_hold_any_number_of_characters():
    g = line("S cave berries | S S", [[0, 0, 1], [1]])
    g.play(mv((0, 1), (0, 1)))  # two more onto the cave holding two already
    assert g.characters == [(0, 1), (0, 1), (0, 1), (1, 1)]
    shuttle(g, 1, 0)  # seat 1 from the cave to the camp and back
    assert g.characters == [(0, 1), (0, 1), (0, 1), (1, 1)]
    g.play(mv((1, 0), (1, 0)))
    assert g.characters == [(0, 0), (0, 0), (0, 1), (1, 1)]
    big = Game.new(players=4, seed=2)
    camp = default_board().summer_camps[0]
    assert sum(1 for _, v in big.characters if v == camp) == 4


def test_jump_takes_the_start_tile_not_the_jumped_one():
    g = line("S berries tubers herbs | S S", [[1], [2]])
    ev = g.play(mv((1, 2), (2, 3)))
    assert kinds(ev) == [("take", 0, 1, "berries")]
    assert g.tiles[1:4] == [None, "tubers", "herbs"]
    assert g.characters == [(0, 3), (1, 2)]


def test_jump_over_own_character_and_onto_cave_or_camp():
    g = line("S berries tubers cave W | S S", [[1, 2, 0], [5]])
    assert mv((1, 2), (2, 3)) in g.legal_moves()  # over an own character onto a cave
    g.play(mv((1, 2), (2, 3)))
    assert g.tiles[1:4] == [None, "tubers", "cave"]
    g2 = line("berries tubers S | S S", [[0], [1]])
    g2.play(mv((0, 1), (1, 2)))  # onto a camp
    assert g2.characters == [(0, 2), (1, 1)]


def test_jump_must_end_on_a_free_tile_cave_or_camp():
    g = line("S berries tubers herbs jug | S S", [[1], [2, 3]])
    refused(g, mv((1, 2), (2, 3)), "OCCUPIED")  # the landing tile is occupied
    refused(g, mv((1, 2), (2, None)), "OCCUPIED")  # leaving from the jumped tile is no jump
    refused(g, mv((1, 2)), "OCCUPIED")  # one step onto it
    g2 = line("S berries tubers herbs | S S", [[1, 0], [2]])
    refused(g2, mv((1, 2), (0, 1)), "OCCUPIED")  # the second step must be the jumper's
    refused(g2, mv((1, 2), (2, 1)), "HOLE")  # the start tile was taken


def test_jump_need_not_be_straight_unless_the_option_says_so():
    # 3 x 3 odd-r grid; centre (1, 1) = space 4: W 3, E 5, NW 1, NE 2, SW 7, SE 8
    board = {"grid": {"rows": 3, "cols": 3}, "camps": {"summer": [[0, 0]], "winter": [[2, 0]]}}
    summer = {1: "berries", 2: "tubers", 3: "herbs", 4: "jug", 5: "necklace", 7: "berries", 8: "berries"}
    bent, straight = mv((3, 4), (4, 2)), mv((3, 4), (4, 5))
    g = Game.new(players=2, board=board, summer=summer, start=[[3], [4]])
    assert bent in g.legal_moves() and straight in g.legal_moves()
    g = Game.new(players=2, board=board, summer=summer, start=[[3], [4]], straight_jumps=True)
    assert straight in g.legal_moves()
    refused(g, bent, "NOT_STRAIGHT")
    g.play(straight)
    assert g.tiles[3] is None and g.tiles[4] == "jug"


def test_straight_jumps_need_coordinates():
    with pytest.raises(ValueError):
        Game.new(
            players=2,
            board={"spaces": [{"kind": "summer_camp"}, {"kind": "tile"}], "adjacency": [[0, 1]]},
            summer={1: "berries"},
            straight_jumps=True,
        )


def test_cave_jump_is_one_step_to_any_other_cave():
    g = line("S cave berries tubers cave herbs | S S", [[0], [6]])
    assert g.caves == [1, 4]
    ev = g.play(mv((0, 1), (1, 4)))  # onto a cave, then a cave jump: nothing taken
    assert ev == [] and g.characters == [(0, 4), (1, 6)]
    shuttle(g, 6, 7)
    ev = g.play(mv((4, 5), (5, 4)))
    assert kinds(ev) == [("take", 0, 5, "herbs")]
    g2 = line("S cave berries tubers cave herbs | S S", [[2, 1], [6]])
    refused(g2, mv((2, 4), (1, 0)), "NOT_ADJACENT")  # only from a cave
    refused(g2, mv((1, 1), (2, 3)), "NOT_ADJACENT")  # to another cave


def test_leaving_the_board_takes_the_tile_and_is_for_the_season():
    g = line("S berries tubers herbs | S S", [[2, 0], [4]])
    ev = g.play(mv((2, None), (0, 1)))  # one step each: leave from the tubers, enter the berries
    assert kinds(ev) == [("take", 0, 2, "tubers"), ("leave", 0, 2, None)]
    assert g.characters == [(0, 1), (1, 4)] and g.characters_on_board == [1, 1]
    shuttle(g, 4, 5)
    refused(g, mv((2, 3), (3, None)), "NOT_YOUR_CHARACTER")  # it cannot come back
    assert all(m.first.src == 1 for m in g.legal_moves())
    g = line("S path cave berries | S S", [[1, 2, 0], [4]])
    ev = g.play(mv((1, None), (2, None)))  # from a path and a cave: nothing is taken
    assert kinds(ev) == [("leave", 0, 1, None), ("leave", 0, 2, None)]
    assert g.tiles[1:3] == ["path", "cave"]


def test_first_step_removing_the_last_character_ends_the_turn():
    g = line("S berries tubers | S S", [[1], [3]])
    refused(g, mv((1, None), (1, 2)), "STEP_COUNT")
    assert mv((1, None)) in g.legal_moves()
    ev = g.play(mv((1, None)))
    assert kinds(ev) == [("take", 0, 1, "berries"), ("leave", 0, 1, None)]


def test_a_player_without_characters_is_skipped():
    g = line("S berries tubers herbs jug | S S", [[0], [5]], edges=[(4, 5)])
    g.play(mv((0, None)))  # seat 0's only character leaves (from a camp: no tile)
    assert g.characters_on_board == [0, 1] and g.player == 1
    for _ in range(3):
        shuttle(g, 5, 6)
        assert g.player == 1 and not g.is_over


def test_the_characters_moved_must_be_your_own():
    g = line("S berries tubers | S S", [[0], [3]])
    refused(g, mv((3, 4), (4, 3)), "NOT_YOUR_CHARACTER")
    refused(g, mv((1, 2), (2, 1)), "NOT_YOUR_CHARACTER")


# -- weapons and mammoths --


def test_entering_a_mammoth_needs_a_weapon():
    g = line("S berries mammoth6 tubers | S S", [[1], [4]])
    refused(g, mv((1, 2), (2, 3)), "NO_WEAPON")
    assert all(m.first.dst != 2 for m in g.legal_moves())


def test_a_held_weapon_is_spent():
    g = line("S weapon berries mammoth6 tubers | S S", [[0], [5]])
    g.play(mv((0, 1), (1, 2)))
    assert g.collection(0).weapons == 1
    shuttle(g, 5, 6)
    ev = g.play(mv((2, 3), (3, 4)))
    assert kinds(ev) == [("take", 0, 2, "berries"), ("spend_weapon", 0, 3, "mammoth6"), ("take", 0, 3, "mammoth6")]
    c = g.collection(0)
    assert (c.weapons, c.weapons_spent, c.mammoths) == (0, 1, (6,))
    assert g.scores[0] == 1 + 6  # the weapon scores nothing
    assert g.tile_counts()["taken"]["weapon"] == 1  # it was taken, then went back to the box


def test_a_weapon_gained_earlier_in_the_same_turn_can_be_spent():
    g = line("weapon S mammoth6 berries | S S", [[0, 1], [4]])
    refused(g, mv((1, 2), (0, 1)), "NO_WEAPON")  # the other order: no weapon yet
    ev = g.play(mv((0, 1), (1, 2)))  # one character takes the weapon, the other uses it
    assert kinds(ev) == [("take", 0, 0, "weapon"), ("spend_weapon", 0, 2, "mammoth6")]
    assert g.collection(0).weapons == 0


def test_the_weapon_a_character_stands_on_can_be_spent_by_its_own_step():
    g = line("S weapon mammoth6 berries | S S", [[1], [4]])
    ev = g.play(mv((1, 2), (2, 3)))  # contract: the tile is taken as it moves off
    assert kinds(ev) == [("take", 0, 1, "weapon"), ("spend_weapon", 0, 2, "mammoth6"), ("take", 0, 2, "mammoth6")]


def test_each_mammoth_needs_its_own_weapon():
    g = line("S weapon mammoth6 mammoth4 | S S", [[1], [4]])
    refused(g, mv((1, 2), (2, 3)), "NO_WEAPON")
    g.play(mv((1, 2), (2, None)))
    assert g.collection(0).mammoths == (6,)


def test_jumping_over_an_occupied_mammoth_needs_no_weapon():
    g = line("S berries mammoth8 tubers | S S", [[1], [2]])
    ev = g.play(mv((1, 2), (2, 3)))
    assert kinds(ev) == [("take", 0, 1, "berries")]
    assert g.tiles[2] == "mammoth8"


def test_a_jump_may_end_on_a_mammoth_with_the_weapon_of_its_start_tile():
    g = line("S weapon berries mammoth8 | S S", [[1], [2]])
    ev = g.play(mv((1, 2), (2, 3)))
    assert kinds(ev) == [("take", 0, 1, "weapon"), ("spend_weapon", 0, 3, "mammoth8")]
    g2 = line("S herbs berries mammoth8 | S S", [[1], [2]])
    refused(g2, mv((1, 2), (2, 3)), "NO_WEAPON")
