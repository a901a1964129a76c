"""Placement rules (section 4.1 of the rules): adjacency, side matching (forest/meadow/river),
occupied positions, discarding unplaceable tiles, the end of the game when the pile runs out,
and turn order."""

import pytest

from hunters.carcassonne import Game
from tests.carcassonne.scenario import TILES, Sketch, mv, new_game, placements, play_all, reject, side_types

NORMAL = [t for t in range(79) if t != 56]


def test_start_state_with_explicit_decks():
    g = new_game([62, 61], [90])
    assert g.board == [(0, 0, 56, 0)]
    assert g.tile == 62 and g.player == 0 and not g.extra_turn and not g.is_over
    assert g.scores == [0, 0] and g.events == [] and g.discards == [] and g.occupants == []
    assert g.meeples == [5, 5] and g.huts == [3, 3]


def test_rotation_turns_sides_clockwise():
    # Unrotated 34: N meadow, E meadow, S meadow, W forest.
    assert side_types(34, 0) == "MMMF"
    assert side_types(34, 1) == "FMMM"  # the W side now faces N
    assert side_types(56, 0) == "MFFR"
    # 34's single forest side must touch the start forest: E of the start (forest facing W, r0)
    # or S of it (forest facing N, r1); N of the start any rotation whose S side is a meadow
    # (all but r3, where the forest faces S); W of the start it would need a river side.
    legal = placements(new_game([34]))
    assert {r for (x, y, r) in legal if (x, y) == (1, 0)} == {0}
    assert {r for (x, y, r) in legal if (x, y) == (0, 1)} == {1}
    assert {r for (x, y, r) in legal if (x, y) == (0, -1)} == {0, 1, 2}
    assert {r for (x, y, r) in legal if (x, y) == (-1, 0)} == set()  # no river side


@pytest.mark.parametrize("tile", NORMAL)
def test_legal_placements_next_to_the_start_tile(tile):
    """Every placement offered is adjacent and matches every touching side, and every such
    placement is offered (checked against an independent geometry model)."""
    g = new_game([tile])
    assert placements(g) == Sketch().legal_placements(tile)


def test_legal_placements_on_a_larger_board():
    deck = [51, 59, 34, 37, 36, 13, 30, 17, 62]
    moves = [mv(-1, 0, 0), mv(-2, 0, 1), mv(1, 0, 0), mv(0, 1, 0), mv(1, 1, 0)]
    g = new_game(deck)
    sk = Sketch()
    for tile, m in zip(deck, moves):
        assert g.tile == tile
        assert placements(g) == sk.legal_placements(tile)
        g.play(m)
        sk.place(tile, m.x, m.y, m.rotation)
    # tile 13 (rivers on all four sides) fits nowhere on this board: discarded; 30 comes next
    assert g.discards == [13] and g.tile == 30
    assert placements(g) == sk.legal_placements(30)


def test_not_adjacent():
    g = new_game([62])
    assert reject(g, mv(2, 0, 0)) == "NOT_ADJACENT"
    assert reject(g, mv(1, 1, 0)) == "NOT_ADJACENT"  # diagonal only
    assert reject(g, mv(0, -5, 0)) == "NOT_ADJACENT"


def test_position_occupied():
    g = new_game([62, 61])
    assert reject(g, mv(0, 0, 0)) == "POSITION_OCCUPIED"
    g.play(mv(0, -1, 0))
    assert reject(g, mv(0, -1, 0)) == "POSITION_OCCUPIED"


def test_forest_must_meet_forest_and_meadow_meadow():
    g = new_game([34])
    # r1: 34's W side is a meadow, against the start's forest
    assert reject(g, mv(1, 0, 1)) == "SIDE_MISMATCH"
    # r3: the forest faces S, against the start's north meadow
    assert reject(g, mv(0, -1, 3)) == "SIDE_MISMATCH"
    g.play(mv(1, 0, 0))
    assert g.board[-1] == (1, 0, 34, 0)


def test_river_must_meet_river():
    g = new_game([51, 14])
    # 51 r1: its E side is a meadow, against the start's river
    assert reject(g, mv(-1, 0, 1)) == "SIDE_MISMATCH"
    # 51 r1: its S side is a river, against the start's north meadow
    assert reject(g, mv(0, -1, 1)) == "SIDE_MISMATCH"
    g.play(mv(0, -1, 0))
    # 14 r3: its W side is a river, against the start's east forest
    assert reject(g, mv(1, 0, 3)) == "SIDE_MISMATCH"
    # 14 r1: the river faces E, against the start's west river: fine
    g.play(mv(-1, 0, 1))


def test_every_touching_side_must_match():
    g = new_game([34, 37, 36])
    play_all(g, [mv(1, 0, 0), mv(0, 1, 0)])
    # (1, 1) touches 34's south meadow and 37's east meadow
    assert reject(g, mv(1, 1, 1)) == "SIDE_MISMATCH"  # N meadow ok, W forest not
    assert reject(g, mv(1, 1, 2)) == "SIDE_MISMATCH"  # N forest not, W meadow ok
    g.play(mv(1, 1, 0))


def test_unplaceable_tile_is_discarded_and_the_player_draws_again():
    # After 59 (lake, river facing E) closes the start's river, no river side is open:
    # 13 (four river sides) fits nowhere.
    g = new_game([59, 13, 62, 61])
    g.play(mv(-1, 0, 1))
    assert g.discards == [13]
    assert g.tile == 62 and g.player == 1 and not g.is_over
    assert [t for _, _, t, _ in g.board] == [56, 59]


def test_game_ends_when_the_pile_runs_out_by_discards():
    g = new_game([59, 13, 17])
    events = g.play(mv(-1, 0, 1))
    assert events == []
    assert g.discards == [13, 17]
    assert g.is_over and g.tile is None
    assert list(g.legal_moves()) == []
    assert g.winners == [0, 1]
    assert reject(g, mv(0, -1, 0)) == "GAME_OVER"


def test_game_ends_after_the_last_normal_tile():
    g = new_game([62, 61])
    g.play(mv(0, -1, 0))
    assert not g.is_over and g.tile == 61 and g.player == 1
    g.play(mv(0, -2, 0))
    assert g.is_over and g.tile is None
    assert reject(g, mv(0, -3, 0)) == "GAME_OVER"
    assert g.board == [(0, 0, 56, 0), (0, -1, 62, 0), (0, -2, 61, 0)]


def test_turn_order_cycles_through_the_seats():
    g = new_game([62, 61, 35, 36, 33], players=3)
    seats = []
    for y in range(1, 6):
        seats.append(g.player)
        tile = g.tile
        # each of these tiles has a meadow on its S side at some rotation; stack them northwards
        r = next(r for r in range(4) if side_types(tile, r)[2] == "M")
        g.play(mv(0, -y, r))
    assert seats == [0, 1, 2, 0, 1]
    assert g.is_over


def test_seeded_shuffle_is_reproducible_and_a_whole_game_places_every_tile():
    a = new_game_seeded(7)
    b = new_game_seeded(7)
    assert a.tile == b.tile and a.to_record() == b.to_record()
    assert a.tile in NORMAL
    g = a
    while not g.is_over:
        moves = g.legal_moves()
        assert len(moves) > 0
        g.play(moves[len(moves) // 2])
    placed = [t for _, _, t, _ in g.board]
    assert placed[0] == 56
    normal_seen = [t for t in placed[1:] + list(g.discards) if t in NORMAL]
    assert sorted(normal_seen) == NORMAL  # every normal tile placed or discarded
    assert len(set(placed)) == len(placed)
    assert all(TILES[t]["kind"] in ("normal", "menhir") for t in placed[1:])


def new_game_seeded(seed):
    return Game.new(players=2, seed=seed)
