"""Jäger und Sammler rules, §1 Components, §2 the board, §3 set-up: every rule of that section of the rules
(docs/rules/jaeger-und-sammler.md) with a test on a hand-made position (see tests/jaeger/helpers.py)."""

import pytest

from hunters.jaeger import Game, default_board

from .helpers import line


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
            spaces = sorted(rr * 12 + cc for rr, cc in want if 0 <= rr < 10 and 0 <= cc < 12)
            assert list(b.neighbours(r * 12 + c)) == spaces, (r, c)


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
    assert counts == {
        "berries": 30,
        "tubers": 18,
        "herbs": 5,
        "jug": 10,
        "necklace": 10,
        "weapon": 12,
        "mammoth4": 1,
        "mammoth6": 1,
        "mammoth8": 1,
        "path": 19,
        "cave": 5,
    }
    winter = rec["winter"]
    assert len(winter) == 88
    wcounts = {k: winter.count(k) for k in set(winter)}
    assert wcounts == {
        "berries": 30,
        "tubers": 18,
        "herbs": 5,
        "pelt": 10,
        "skull": 10,
        "weapon": 3,
        **{f"mammoth{v}": 2 for v in range(3, 9)},
    }
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
    board = {
        "grid": {
            "type": "hex",
            "orientation": "pointy",
            "offset": "even-r",
            "rows": 6,
            "cols": 7,
            "missing": [[0, 0], [5, 6]],
        },
        "camps": {"summer": [[0, 1], [5, 5]], "winter": [[2, 3], [3, 3]]},
    }
    g = Game.new(players=3, seed=4, board=board, stall_rounds=5)
    assert g.board.n == 40 and len(g.board.summer_camps) == 2
    # even-r: row 0 is shifted right, so (0, 1) touches (1, 1) and (1, 2)
    assert set(g.board.neighbours(0)) == {1, 7, 8}  # space 0 is cell (0, 1); row 1 starts at 6
    while not g.is_over:
        g.play(g.legal_moves()[len(g.legal_moves()) // 2])
    assert Game.from_record(g.to_record()).to_record() == g.to_record()
    # an explicit list of spaces and adjacencies
    g = line("S berries tubers W", [[0], [0]])
    assert g.board.neighbours(1) == (0, 2)


@pytest.mark.parametrize(
    "board",
    [
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
    ],
)
def test_bad_boards_are_refused(board):
    with pytest.raises(ValueError):
        Game.new(players=2, board=board)
