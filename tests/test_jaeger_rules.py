"""Every rule of the specification (shared/rules/jaeger-und-sammler.md), each with a test, section by
section. Most scenarios are played on tiny boards written as a line of cells (the board is data), so
that each test shows exactly the situation its rule is about; expected results are worked out by hand
from the rules, not computed.

Cells: S summer camp, W winter camp, - an empty tile space, else a tile token (berries, tubers,
herbs, jug, necklace, pelt, skull, weapon, mammoth<value>, path, cave). Space ids are cell positions
(| starts a separate line and takes no id).
"""
import pytest

from hunters.jaeger import Game, IllegalMoveError, Move, default_board

CAMPS = {"S": "summer_camp", "W": "winter_camp"}


def line(cells: str, start, *, edges=(), winter=(), stall_rounds=None, **options) -> Game:
    """A game on a board given as text (see the module docstring); `start` lists each seat's spaces,
    `edges` adds adjacencies, `winter` is the winter deck. The stall limit is off unless given."""
    spaces, adjacency, summer = [], [], {}
    row = col = 0
    prev = None
    for cell in cells.split():
        if cell == "|":
            row, col, prev = row + 2, 0, None
            continue
        i = len(spaces)
        spaces.append({"kind": CAMPS.get(cell, "tile"), "pos": [col - row // 2, row]})
        if cell not in CAMPS and cell != "-":
            summer[i] = cell
        if prev is not None:
            adjacency.append([prev, i])
        prev, col = i, col + 1
    adjacency.extend([list(e) for e in edges])
    return Game.new(players=len(start), board={"spaces": spaces, "adjacency": adjacency}, summer=summer,
                    winter=list(winter), start=start, stall_rounds=stall_rounds, **options)


def mv(*steps) -> Move:
    return Move.of(*steps)


def refused(g: Game, move: Move, reason: str) -> None:
    """The move is refused with `reason` and nothing changes."""
    before = (g.to_record(), g.tiles, g.characters, g.scores, g.player, g.events)
    with pytest.raises(IllegalMoveError) as exc:
        g.play(move)
    assert exc.value.reason == reason, exc.value
    assert (g.to_record(), g.tiles, g.characters, g.scores, g.player, g.events) == before
    assert move not in g.legal_moves()


def kinds(events, *names):
    """(kind, seat, space, tile) of the events of the given kinds; by default of the steps' events."""
    return [(e.kind, e.seat, e.space, e.tile) for e in events
            if (e.kind in names if names else e.step is not None)]


# Seat 1 parks on a pair of camps ("| S S" at the end of a board) and shuttles between them.
def shuttle(g: Game, a: int, b: int) -> None:
    here = [v for s, v in g.characters if s == g.player][0]
    other = b if here == a else a
    g.play(mv((here, other), (other, here)))


# ---------------------------------------------------------------------------------------------
# §1 Components, §2 the board, §3 set-up

def test_default_board_is_the_documented_odd_r_grid():
    b = default_board()
    assert b.n == 120 and b.ndir == 6
    assert sorted(b.summer_camps) == sorted(r * 12 + c for r, c in [(1, 3), (2, 9), (8, 8), (7, 2)])
    assert sorted(b.winter_camps) == sorted(r * 12 + c for r, c in [(1, 6), (5, 8), (8, 5), (4, 3)])
    assert len(b.tile_spaces) == 112
    for r in range(10):
        for c in range(12):
            if r % 2 == 0:
                want = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
            else:
                want = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
            want = sorted(rr * 12 + cc for rr, cc in want if 0 <= rr < 10 and 0 <= cc < 12)
            assert list(b.neighbours(r * 12 + c)) == want, (r, c)


def _distances(b, src):
    dist, todo = {src: 0}, [src]
    while todo:
        nxt = []
        for v in todo:
            for w in b.neighbours(v):
                if w not in dist:
                    dist[w] = dist[v] + 1
                    nxt.append(w)
        todo = nxt
    return dist


def test_default_board_properties_claimed_by_the_spec():
    b = default_board()
    half_turn = {r * 12 + c: (9 - r) * 12 + (11 - c) for r in range(10) for c in range(12)}
    assert {half_turn[v] for v in b.summer_camps} == set(b.summer_camps)
    assert {half_turn[v] for v in b.winter_camps} == set(b.winter_camps)
    for v in range(b.n):
        assert {half_turn[w] for w in b.neighbours(v)} == set(b.neighbours(half_turn[v]))
    for camp, others in [(c, b.winter_camps) for c in b.summer_camps] + [(c, b.summer_camps) for c in b.winter_camps]:
        d = _distances(b, camp)
        assert sorted(d[o] for o in others) == [3, 3, 7, 7]
    camps = b.summer_camps + b.winter_camps
    dists = [_distances(b, c) for c in camps]
    assert max(min(d[v] for d in dists) for v in range(b.n)) == 4


def test_components_and_summer_set_up():
    g = Game.new(players=4, seed=3)
    rec = g.to_record()
    summer = [t for t in rec["summer"] if t is not None]
    assert len(summer) == 112
    assert [v for v, t in enumerate(rec["summer"]) if t is not None] == list(default_board().tile_spaces)
    counts = {k: sum(1 for t in summer if t == k) for k in set(summer)}
    assert counts == {"berries": 30, "tubers": 18, "herbs": 5, "jug": 10, "necklace": 10, "weapon": 12,
                      "mammoth4": 1, "mammoth6": 1, "mammoth8": 1, "path": 19, "cave": 5}
    winter = rec["winter"]
    assert len(winter) == 88
    wcounts = {k: winter.count(k) for k in set(winter)}
    assert wcounts == {"berries": 30, "tubers": 18, "herbs": 5, "pelt": 10, "skull": 10, "weapon": 3,
                       **{f"mammoth{v}": 2 for v in range(3, 9)}}
    # face up: the view shows every tile
    assert [s["tile"] for s in g.view()["board"]] == rec["summer"]
    # one character of each player on each summer camp; 4 supply packs each; seat 0 starts
    assert g.characters == sorted((p, c) for p in range(4) for c in default_board().summer_camps)
    assert [c.supply_packs for c in g.collections] == [4, 4, 4, 4]
    assert g.player == 0 and g.season == "summer" and g.supply_packs == []


def test_mammoth_values_are_an_option():
    g = Game.new(players=2, seed=1, mammoths_summer=[3, 3, 8], mammoths_winter=[5] * 12)
    assert sorted(t for t in g.tiles if t and t.startswith("mammoth")) == ["mammoth3", "mammoth3", "mammoth8"]
    assert [t for t in g.to_record()["winter"] if t.startswith("mammoth")] == ["mammoth5"] * 12
    for bad in ([4, 6], [4, 6, 0], [4, 6, 99], "468"):
        with pytest.raises(ValueError):
            Game.new(players=2, mammoths_summer=bad)


def test_another_layout_loads_without_code_changes():
    # a 6 x 7 even-r grid with two missing cells and one camp of each season per corner pair
    board = {"grid": {"type": "hex", "orientation": "pointy", "offset": "even-r", "rows": 6, "cols": 7,
                      "missing": [[0, 0], [5, 6]]},
             "camps": {"summer": [[0, 1], [5, 5]], "winter": [[2, 3], [3, 3]]}}
    g = Game.new(players=3, seed=4, board=board, stall_rounds=5)
    assert g.board.n == 40 and len(g.board.summer_camps) == 2
    # even-r: row 0 is shifted right, so (0, 1) touches (1, 1) and (1, 2)
    assert set(g.board.neighbours(0)) == {1, 7, 8}          # space 0 is cell (0, 1); row 1 starts at 6
    while not g.is_over:
        g.play(g.legal_moves()[len(g.legal_moves()) // 2])
    assert Game.from_record(g.to_record()).to_record() == g.to_record()
    # an explicit list of spaces and adjacencies
    g = line("S berries tubers W", [[0], [0]])
    assert g.board.neighbours(1) == (0, 2)


@pytest.mark.parametrize("board", [
    {"grid": {"rows": 0, "cols": 3}},
    {"grid": {"rows": 3, "cols": 3, "offset": "odd-q"}},
    {"grid": {"rows": 3, "cols": 3}, "camps": {"summer": [[5, 5]]}},
    {"grid": {"rows": 3, "cols": 3}, "camps": {"summer": [[1, 1]], "winter": [[1, 1]]}},
    {"spaces": [{"kind": "tile"}, {"kind": "lake"}]},
    {"spaces": [{"kind": "tile"}], "adjacency": [[0, 0]]},
    {"spaces": [{"kind": "tile"}], "adjacency": [[0, 3]]},
    {"spaces": [{"kind": "tile"}] * 10, "adjacency": [[0, i] for i in range(1, 10)]},
    {"spaces": []},
    {"nothing": 1},
    "grid",
])
def test_bad_boards_are_refused(board):
    with pytest.raises(ValueError):
        Game.new(players=2, board=board)


# ---------------------------------------------------------------------------------------------
# §4 A turn: two steps

def test_one_character_twice_takes_two_tiles():
    g = line("S berries tubers herbs W | S S", [[0], [5]])
    ev = g.play(mv((0, 1), (1, 2)))                    # off the camp (nothing), off the berries
    assert kinds(ev) == [("take", 0, 1, "berries")]
    shuttle(g, 5, 6)
    ev = g.play(mv((2, 3), (3, 4)))                    # off the tubers, off the herbs, into the winter camp
    assert kinds(ev) == [("take", 0, 2, "tubers"), ("take", 0, 3, "herbs"), ("supply_pack", 0, 4, None)]
    c = g.collection(0)
    assert (c.berries, c.tubers, c.herbs) == (1, 1, 1)
    assert g.scores[0] == 1 + 2 + 3
    assert g.tiles[1:4] == [None, None, None]


def test_two_characters_once_each():
    g = line("berries S tubers herbs | S S", [[1, 1], [4]], edges=[(1, 3)])
    assert g.play(mv((1, 0), (1, 2))) == []            # both leave the camp: nothing taken
    assert g.characters == [(0, 0), (0, 2), (1, 4)]
    shuttle(g, 4, 5)
    ev = g.play(mv((0, 1), (2, 1)))                    # both come back: each takes its tile
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
    g.play(mv((0, 1), (1, 2)))                         # the berries are taken: space 1 is a hole
    shuttle(g, 5, 6)
    refused(g, mv((2, 1), (1, 0)), "HOLE")
    refused(g, mv((2, 3), (3, 4)), "HOLE")             # a space that never held a tile
    assert {m.first.dst for m in g.legal_moves()} == {None}


def test_a_tile_holds_at_most_one_character():
    g = line("S berries tubers herbs | S S", [[0, 3], [2]])
    refused(g, mv((0, 1), (1, 2)), "OCCUPIED")         # a rival's tile
    refused(g, mv((0, 1), (3, 2)), "OCCUPIED")         # the second step may not end there
    refused(g, mv((3, 2), (0, 1)), "OCCUPIED")         # the first may, only to jump on from it
    assert mv((3, 2), (2, 1)) in g.legal_moves()       # (that jump)
    g2 = line("S berries tubers | S S", [[0, 2], [3]])
    refused(g2, mv((0, 1), (1, 2)), "OCCUPIED")        # own characters too


def test_camps_and_caves_hold_any_number_of_characters():
    g = line("S cave berries | S S", [[0, 0, 1], [1]])
    g.play(mv((0, 1), (0, 1)))                         # two more onto the cave holding two already
    assert g.characters == [(0, 1), (0, 1), (0, 1), (1, 1)]
    shuttle(g, 1, 0)                                   # seat 1 from the cave to the camp and back
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
    assert mv((1, 2), (2, 3)) in g.legal_moves()       # over an own character onto a cave
    g.play(mv((1, 2), (2, 3)))
    assert g.tiles[1:4] == [None, "tubers", "cave"]
    g2 = line("berries tubers S | S S", [[0], [1]])
    g2.play(mv((0, 1), (1, 2)))                        # onto a camp
    assert g2.characters == [(0, 2), (1, 1)]


def test_jump_must_end_on_a_free_tile_cave_or_camp():
    g = line("S berries tubers herbs jug | S S", [[1], [2, 3]])
    refused(g, mv((1, 2), (2, 3)), "OCCUPIED")         # the landing tile is occupied
    refused(g, mv((1, 2), (2, None)), "OCCUPIED")      # leaving from the jumped tile is no jump
    refused(g, mv((1, 2)), "OCCUPIED")                 # one step onto it
    g2 = line("S berries tubers herbs | S S", [[1, 0], [2]])
    refused(g2, mv((1, 2), (0, 1)), "OCCUPIED")        # the second step must be the jumper's
    refused(g2, mv((1, 2), (2, 1)), "HOLE")            # the start tile was taken


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
        Game.new(players=2, board={"spaces": [{"kind": "summer_camp"}, {"kind": "tile"}],
                                   "adjacency": [[0, 1]]}, summer={1: "berries"}, straight_jumps=True)


def test_cave_jump_is_one_step_to_any_other_cave():
    g = line("S cave berries tubers cave herbs | S S", [[0], [6]])
    assert g.caves == [1, 4]
    ev = g.play(mv((0, 1), (1, 4)))                    # onto a cave, then a cave jump: nothing taken
    assert ev == [] and g.characters == [(0, 4), (1, 6)]
    shuttle(g, 6, 7)
    ev = g.play(mv((4, 5), (5, 4)))
    assert kinds(ev) == [("take", 0, 5, "herbs")]
    g2 = line("S cave berries tubers cave herbs | S S", [[2, 1], [6]])
    refused(g2, mv((2, 4), (1, 0)), "NOT_ADJACENT")    # only from a cave
    refused(g2, mv((1, 1), (2, 3)), "NOT_ADJACENT")    # to another cave


def test_leaving_the_board_takes_the_tile_and_is_for_the_season():
    g = line("S berries tubers herbs | S S", [[2, 0], [4]])
    ev = g.play(mv((2, None), (0, 1)))                 # one step each: leave from the tubers, enter the berries
    assert kinds(ev) == [("take", 0, 2, "tubers"), ("leave", 0, 2, None)]
    assert g.characters == [(0, 1), (1, 4)] and g.characters_on_board == [1, 1]
    shuttle(g, 4, 5)
    refused(g, mv((2, 3), (3, None)), "NOT_YOUR_CHARACTER")   # it cannot come back
    assert all(m.first.src == 1 for m in g.legal_moves())
    g = line("S path cave berries | S S", [[1, 2, 0], [4]])
    ev = g.play(mv((1, None), (2, None)))              # from a path and a cave: nothing is taken
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
    g.play(mv((0, None)))                              # seat 0's only character leaves (from a camp: no tile)
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
    assert kinds(ev) == [("take", 0, 2, "berries"), ("spend_weapon", 0, 3, "mammoth6"),
                         ("take", 0, 3, "mammoth6")]
    c = g.collection(0)
    assert (c.weapons, c.weapons_spent, c.mammoths) == (0, 1, (6,))
    assert g.scores[0] == 1 + 6                        # the weapon scores nothing
    assert g.tile_counts()["taken"]["weapon"] == 1     # it was taken, then went back to the box


def test_a_weapon_gained_earlier_in_the_same_turn_can_be_spent():
    g = line("weapon S mammoth6 berries | S S", [[0, 1], [4]])
    refused(g, mv((1, 2), (0, 1)), "NO_WEAPON")        # the other order: no weapon yet
    ev = g.play(mv((0, 1), (1, 2)))                    # one character takes the weapon, the other uses it
    assert kinds(ev) == [("take", 0, 0, "weapon"), ("spend_weapon", 0, 2, "mammoth6")]
    assert g.collection(0).weapons == 0


def test_the_weapon_a_character_stands_on_can_be_spent_by_its_own_step():
    g = line("S weapon mammoth6 berries | S S", [[1], [4]])
    ev = g.play(mv((1, 2), (2, 3)))                    # contract: the tile is taken as it moves off
    assert kinds(ev) == [("take", 0, 1, "weapon"), ("spend_weapon", 0, 2, "mammoth6"),
                         ("take", 0, 2, "mammoth6")]


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


# ---------------------------------------------------------------------------------------------
# §5 Taking tiles

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
    ev = g.play(mv((2, 3), (3, 4)))                    # a summer camp in summer: no pack
    assert kinds(ev, "supply_pack") == []


def test_passing_through_a_camp_counts():
    g = line("S berries W tubers herbs | S S", [[1], [5]])
    ev = g.play(mv((1, 2), (2, 3)))
    assert kinds(ev) == [("take", 0, 1, "berries"), ("supply_pack", 0, 2, None)]


def test_one_supply_pack_per_colour_per_camp():
    g = line("S W berries | S S", [[0], [0]], edges=[(1, 3)])
    g.play(mv((0, 1), (1, 0)))
    assert g.supply_packs == [(1, 0)]
    g.play(mv((0, 1), (1, 0)))                         # seat 1: its own pack on the same camp
    assert g.supply_packs == [(1, 0), (1, 1)]
    ev = g.play(mv((0, 1), (1, 0)))                    # seat 0 again: none of its colour may be added
    assert kinds(ev, "supply_pack") == [] and g.collection(0).supply_packs == 3


def test_no_supply_pack_when_none_is_left():
    g = line("S W W W W W berries | S S", [[0], [7]])
    g.play(mv((0, 1), (1, 2)))
    shuttle(g, 7, 8)
    g.play(mv((2, 3), (3, 4)))
    shuttle(g, 7, 8)
    ev = g.play(mv((4, 5), (5, 6)))                    # the fifth winter camp: all 4 packs are out
    assert kinds(ev, "supply_pack") == [] and g.supply_packs == [(1, 0), (2, 0), (3, 0), (4, 0)]
    assert g.collection(0).supply_packs == 0


# ---------------------------------------------------------------------------------------------
# §6 End of a season

def test_season_ends_when_no_tile_is_left_to_reach():
    g = line("S berries tubers W | S S", [[0], [4]], edges=[(3, 0)], winter=["herbs"])
    g.play(mv((0, 1), (1, 2)))
    assert g.season == "summer"
    shuttle(g, 4, 5)
    ev = g.play(mv((2, 3), (3, 0)))                    # the tubers were the last reachable tile
    assert [e.detail for e in ev if e.kind == "season_end"] == ["unreachable"]
    assert g.season == "winter"


def test_a_tile_under_a_character_keeps_the_season_going():
    g = line("S berries tubers W | S S", [[0], [4]])
    g.play(mv((0, 1), (1, 2)))                         # only the tubers are left, under seat 0
    assert g.season == "summer"
    shuttle(g, 4, 5)
    g.play(mv((2, None)))
    assert g.season == "winter" or g.is_over


def test_a_tile_reachable_by_a_cave_jump_keeps_the_season_going():
    g = line("S cave | cave berries | S S", [[0], [4]])
    g.play(mv((0, 1), (1, 0)))
    assert g.season == "summer"                        # berries only by the cave jump
    g2 = line("S path | cave berries | S S", [[0], [4]])
    assert g2.season == "winter" or g2.is_over         # no cave on seat 0's side: unreachable at once


def test_reachability_ignores_weapons():
    g = line("S mammoth5 | S S", [[0], [2]])           # nobody can enter the mammoth: no weapon
    assert g.season == "summer"
    assert all(m.first.dst != 1 for m in g.legal_moves())
    g = line("S path | S S", [[0], [2]], winter=["berries"])
    assert g.season != "summer"                        # nothing to take at all: summer ends at set-up
    assert (g.events[0].kind, g.events[0].turn, g.events[0].detail) == ("season_end", None, "unreachable")


def test_season_ends_when_nobody_is_on_the_board():
    g = line("S berries tubers herbs | S S", [[0], [4]], edges=[(3, 4)], winter=["jug"])
    g.play(mv((0, None)))
    ev = g.play(mv((4, None)))
    assert [(e.season, e.detail) for e in ev if e.kind == "season_end"] == [
        ("summer", "no_characters"), ("winter", "no_characters")]   # nobody reached a winter camp either


def test_stall_limit_ends_a_season_after_ten_full_rounds_without_a_taken_tile():
    g = line("S S berries | S S", [[0], [3]], stall_rounds=10, winter=["herbs"])
    for turn in range(19):
        shuttle(g, 0, 1) if g.player == 0 else shuttle(g, 3, 4)
        assert g.season == "summer", turn
    assert g.idle_turns == 19
    shuttle(g, 3, 4)                                   # the 20th turn: 10 rounds of 2 players
    assert [(e.season, e.detail) for e in g.events if e.kind == "season_end"][0] == ("summer", "stall")


def test_stall_limit_counts_rounds_of_the_players_still_on_the_board():
    g = line("S S berries | S S", [[0], [3]], edges=[(2, 3)], stall_rounds=3)
    g.play(mv((0, None)))                              # seat 0 leaves (from a camp: no tile taken)
    shuttle(g, 3, 4)
    assert g.season == "summer" and g.idle_turns == 2
    shuttle(g, 3, 4)                                   # 3 idle turns = 3 rounds of the one player left
    assert g.season != "summer"


def test_taking_a_tile_resets_the_stall_count():
    g = line("S S berries tubers | S S", [[0], [4]], edges=[(3, 4)], stall_rounds=2)
    shuttle(g, 0, 1)
    shuttle(g, 4, 5)
    shuttle(g, 0, 1)
    assert g.idle_turns == 3 and g.season == "summer"
    g.play(mv((4, 3), (3, 4)))                         # seat 1 takes the tubers
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
    g.play(mv((0, 1), (1, 2)))                         # seat 0 takes the berries, stands on the path
    g.play(mv((7, None)))
    ev = g.play(mv((5, 6), (6, None)))                 # herbs taken; the tubers are still reachable
    assert g.season == "summer"
    ev = g.play(mv((2, None)))                         # from the path: nobody is left on the board
    assert [(e.kind, e.season, e.seat, e.space, e.tile, e.detail) for e in ev] == [
        ("leave", "summer", 0, 2, None, None),
        ("season_end", "summer", None, None, None, "no_characters"),
        ("remove", "summer", None, 3, "tubers", None),     # the leftover; path and cave stay
        ("place", "winter", 0, 6, None, None),             # everyone went home; winter set-up
        ("winter_start", "winter", 1, None, None, "after_last"),
    ]
    assert g.tiles[:7] == [None, "jug", "path", "pelt", "cave", "skull", None]
    assert g.characters == [(0, 6)] and g.player == 0


def test_tiles_under_characters_are_removed_too():
    g = line("S S | berries | S S", [[0, 2], [3]], stall_rounds=1)
    assert g.season == "summer"                        # the berries are under seat 0's character
    shuttle(g, 0, 1)
    ev = g.play(mv((3, 4), (4, 3)))                    # the second idle turn: 1 round of 2 players
    assert [(e.kind, e.space, e.tile, e.detail) for e in ev if e.season == "summer"] == [
        ("season_end", None, None, "stall"), ("remove", 2, "berries", None)]
    assert g.tile_counts()["removed"]["berries"] == 1


# ---------------------------------------------------------------------------------------------
# §7 Winter

def test_winter_set_up():
    # 0 W, 1 berries, 2 S, 3 tubers, 4 W, 5 herbs, 6 S; seat 1 parks on 7, 8; camps 2 and 0 touch
    g = line("W berries S tubers W herbs S | S S", [[2, 2], [2]], edges=[(2, 0)],
             winter=["pelt", "skull", "mammoth7", "weapon"])
    g.play(mv((2, 3), (3, 4)))                         # seat 0: tubers, pack on W4
    g.play(mv((2, 1), (1, 0)))                         # seat 1: berries, pack on W0
    g.play(mv((2, 0), (0, 2)))                         # seat 0: pack on W0 (through it)
    g.play(mv((0, None)))                              # seat 1 leaves
    assert g.supply_packs == [(0, 0), (0, 1), (4, 0)]
    ev = g.play(mv((4, 5), (5, 6)))                    # seat 0 takes the herbs: nothing left to reach
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
    g.play(mv((0, 1), (1, 2)))                         # seat 0: pack on the winter camp
    g.play(mv((4, None)))                              # seat 1 never reached a winter camp
    g.play(mv((2, 3), (3, 2)))                         # last summer tile: summer ends
    assert g.season == "winter" and g.characters == [(0, 2)]
    assert g.characters_on_board == [1, 0]
    assert g.player == 0                               # seat 1 (after the last player) has nobody: skipped
    assert [e.seat for e in g.events if e.kind == "winter_start"] == [1]


def test_winter_start_player_took_the_most_valuable_summer_mammoth():
    # 0 S, 1 weapon, 2 mammoth4, 3 W, 4 berries; seat 0 parks on 5, 6
    g = line("S weapon mammoth4 W berries | S S", [[5], [1]], winter=["berries"] * 3)
    shuttle(g, 5, 6)
    g.play(mv((1, 2), (2, 3)))                         # seat 1: weapon, spent on the mammoth, taken
    assert g.summer_mammoth == (4, 1)
    shuttle(g, 5, 6)
    g.play(mv((3, 4), (4, 3)))                         # seat 1 plays the last summer turn
    assert g.season == "winter"
    assert [(e.seat, e.detail) for e in g.events if e.kind == "winter_start"] == [(1, "mammoth")]
    assert g.player == 1


def test_equal_mammoths_the_first_taker_starts_winter():
    g = line("mammoth8 weapon S weapon mammoth8", [[1], [3]])
    g.play(mv((1, 0), (0, None)))                      # seat 0 first
    g.play(mv((3, 4), (4, None)))
    assert g.summer_mammoth == (8, 0) and g.is_over
    assert [(e.seat, e.detail) for e in g.events if e.kind == "winter_start"] == [(0, "mammoth")]


@pytest.mark.parametrize("rule, seat", [("after_last", 1), ("seat0", 0)])
def test_winter_start_when_nobody_took_a_summer_mammoth(rule, seat):
    g = line("S berries W tubers | S S", [[0], [4]], winter=["herbs", "jug"], winter_start=rule)
    g.play(mv((0, 1), (1, 2)))
    g.play(mv((4, 5), (5, 4)))
    g.play(mv((2, 3), (3, 2)))                         # seat 0 plays the last summer turn
    assert [(e.seat, e.detail) for e in g.events if e.kind == "winter_start"] == [(seat, rule)]
    with pytest.raises(ValueError):
        Game.new(players=2, winter_start="loser")


def test_weapons_from_summer_are_used_in_winter_and_packs_go_to_summer_camps():
    # 0 S, 1 weapon, 2 W, 3 berries, 4 S; seat 1 parks on 5, 6
    g = line("S weapon W berries S | S S", [[0], [5]], winter=["mammoth6", "pelt"])
    g.play(mv((0, 1), (1, 2)))                         # weapon; pack on the winter camp
    shuttle(g, 5, 6)
    g.play(mv((2, 3), (3, 4)))                         # berries; a summer camp in summer: no pack
    assert g.season == "winter" and g.tiles[:5] == [None, "mammoth6", None, "pelt", None]
    assert g.collection(0).weapons == 1
    ev = g.play(mv((2, 1), (1, 0)))                    # the summer weapon for a winter mammoth
    assert [(e.kind, e.season, e.space, e.tile, e.detail) for e in ev] == [
        ("spend_weapon", "winter", 1, "mammoth6", None),
        ("take", "winter", 1, "mammoth6", None),
        ("supply_pack", "winter", 0, None, None),      # in winter packs go into summer camps
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


# ---------------------------------------------------------------------------------------------
# §8 Final scoring

def test_food_mammoths_and_weapons():
    g = line("S berries tubers herbs weapon mammoth7 W | S S", [[0], [7]])
    g.play(mv((0, 1), (1, 2)))
    assert g.scores == [1, 0]
    shuttle(g, 7, 8)
    g.play(mv((2, 3), (3, 4)))
    assert g.scores == [1 + 2 + 3, 0]
    shuttle(g, 7, 8)
    g.play(mv((4, 5), (5, 6)))                         # weapon (0 points, spent) and the mammoth
    assert g.score_breakdown()[0] == {"food": 6, "mammoths": 7, "goods": 0, "supply_packs": 0, "total": 13}


def test_goods_score_by_how_many_of_a_kind():
    g = line("S " + "jug " * 8 + "W | S S", [[0], [10]])     # jugs on 1..8, W on 9
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
    summer_line = ["berries"] * 10 + ["tubers"] * 5 + ["herbs"] * 4 + ["jug"] * 7      # spaces 26 .. 1
    spaces = [{"kind": "winter_camp"}] + [{"kind": "tile"}] * 26 + [{"kind": "summer_camp"}] * 2
    adjacency = [[v, v + 1] for v in range(0, 27)] + [[27, 0], [28, 0]]
    summer = {26 - i: t for i, t in enumerate(summer_line)}
    winter = ["weapon", "weapon", "weapon", "pelt", "mammoth8", "mammoth8", "mammoth7"] + ["skull"] * 4
    g = Game.new(players=2, board={"spaces": spaces, "adjacency": adjacency}, summer=summer, winter=winter,
                 start=[[27], [28]])
    g.play(mv((27, 26), (26, 25)))
    g.play(mv((28, None)))                             # seat 1 is out for the season (and the winter)
    here = 25
    while here > 1:
        g.play(mv((here, here - 1), (here - 1, here - 2)))
        here -= 2
    g.play(mv((1, 0), (0, 27)))                        # into W (pack), on to A
    assert g.season == "winter" and g.characters == [(0, 0)]
    c = g.collection(0)
    assert (c.berries, c.tubers, c.herbs, c.jug) == (10, 5, 4, 7)
    g.play(mv((0, 28), (28, 0)))                       # pack on B
    g.play(mv((0, 27), (27, 0)))                       # pack on A
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
    assert g.score_breakdown()[0] == {"food": 10 + 10 + 12, "mammoths": 23, "goods": 20 + 1 + 10,
                                      "supply_packs": 10, "total": 96}
    assert g.scores == [96, 0] and g.winners == [0]


@pytest.mark.parametrize("ties, winners", [("shared", [0, 1]), ("no_winner", [])])
def test_tied_players(ties, winners):
    g = line("S berries | S S", [[0], [2]], edges=[(1, 2)], ties=ties)
    g.play(mv((0, None)))
    g.play(mv((2, None)))
    assert g.is_over and g.scores == [0, 0] and g.winners == winners
    with pytest.raises(ValueError):
        Game.new(players=2, ties="coin_flip")
