"""Tests of the reference oracle (tests/reference/carcassonne_ref.py) itself."""

import pytest

try:  # `python -m pytest` from the repo root, or a tests/ package
    from tests.reference.carcassonne_ref import (
        HUTS_PER_SEAT,
        MEEPLES_PER_SEAT,
        TILES,
        RefGame,
        near,
        random_game,
        side_facing,
        step,
        zone_type,
    )
except ImportError:  # plain `pytest`: rootdir-relative import of tests/ (no __init__.py)
    from reference.carcassonne_ref import (
        HUTS_PER_SEAT,
        MEEPLES_PER_SEAT,
        TILES,
        RefGame,
        near,
        random_game,
        side_facing,
        step,
        zone_type,
    )


def test_first_decision_hand_checked():
    # Tile 61 is all meadow (one zone, a mammoth). The start tile 56 shows N meadow, E forest,
    # S forest, W river, so 61 fits only north of it, in any rotation.
    g = RefGame(2, [61], [])
    assert (g.tile, g.player, g.is_over) == (61, 0, False)
    expected = {(0, -1, r, None, None, None) for r in range(4)}
    expected |= {(0, -1, r, "meeple", 610, None) for r in range(4)}
    assert g.legal_moves() == expected
    with pytest.raises(ValueError):
        g.play((1, 0, 0, None, None, None))
    g.play((0, -1, 0, "meeple", 610, None))
    # Normal pile empty -> final scoring: the hunter's meadow is 560 (aurochs) + 610 (mammoth).
    assert g.is_over and g.tile is None
    assert g.events == [(1, "meadow", (0,), 5, 560)]
    assert g.scores == [5, 0]
    assert g.legal_moves() == set()


def test_river_closed_by_two_lakes():
    # Tile 59: N river [0, 1, 2] into lake 8 (1 fish). Rotated once, its river faces east onto the
    # start tile's river 563 (which runs into lake 568, 1 fish).
    g = RefGame(2, [59], [])
    moves = g.legal_moves()
    occ = {(k, z) for (x, y, r, k, z, rt) in moves if (x, y, r) == (-1, 0, 1)}
    assert occ == {
        (None, None),
        ("meeple", 590),
        ("meeple", 591),
        ("meeple", 592),
        ("meeple", 593),
        ("hut", 591),
        ("hut", 598),
    }
    g.play((-1, 0, 1, "meeple", 591, None))
    # 2 tiles + 0 fish in the rivers + 1 + 1 fish in the two lakes.
    assert g.events == [(0, "river", (0,), 4, 563)]
    assert g.meeples == [MEEPLES_PER_SEAT, MEEPLES_PER_SEAT]
    assert g.is_over


def test_hut_on_lake_scores_river_system_at_end():
    g = RefGame(3, [59], [])
    g.play((-1, 0, 1, "hut", 598, None))
    assert g.huts == [HUTS_PER_SEAT - 1, HUTS_PER_SEAT, HUTS_PER_SEAT]
    # system {563, 568, 591, 598}: fish 0 + 1 + 0 + 1
    assert g.events == [(1, "river_system", (0,), 2, 563)]
    assert g.scores == [2, 0, 0]


def test_forests_closed_menhir_extra_turn_not_chained():
    # d0 seat 0: 33 (menhir forest N+W) north of the start, gatherer on it.
    # d1 seat 1: 37 (plain forest N only) closes its west side.
    # d2 seat 0: 34 (plain forest W only) closes the start forest's east side.
    # d3 seat 1: 36 (plain forest S only) closes the start forest (menhir) -> extra turn for seat 1.
    # d4 seat 1 (extra): 94 (hunting trap, plain forest N only) closes forest 330 (menhir),
    #    but no further extra turn comes from an extra turn.
    g = RefGame(2, [33, 37, 34, 36], [94, 81])
    g.play((0, -1, 0, "meeple", 330, None))
    g.play((-1, -1, 1, None, None, None))
    g.play((1, 0, 0, None, None, None))
    assert (g.player, g.tile, g.is_extra) == (1, 36, False)
    g.play((0, 1, 2, "meeple", 361, None))
    assert g.events == [(3, "forest", (1,), 6, 343)]
    assert (g.player, g.tile, g.is_extra, g.is_over) == (1, 94, True, False)
    assert g.meeples == [4, 5]
    g.play((0, -2, 2, None, None, None))
    assert g.events == [
        (3, "forest", (1,), 6, 343),
        (4, "hunting_trap", (1,), 0, 941),
        (4, "forest", (0,), 6, 330),
    ]
    assert g.is_over and g.menhir_pile == [81]
    assert g.scores == [6, 6]
    assert g.meeples == [5, 5]


def test_shaman_retake():
    # d0 seat 0: 37 east of the start, gatherer on the forest.
    # d1 seat 1: 34 south of the start with a hunter on meadow 340; closes the start's menhir
    #     forest (seat 0 scores 6) -> seat 1 takes an extra turn with the shaman (88).
    g = RefGame(2, [37, 34], [88])
    g.play((1, 0, 3, "meeple", 370, None))
    g.play((0, 1, 1, "meeple", 340, None))
    assert g.events == [(1, "forest", (0,), 6, 343)]
    assert (g.player, g.tile, g.is_extra) == (1, 88, True)
    moves = g.legal_moves()
    assert {m[5] for m in moves} == {None, 340}
    # every move without retake also exists with the retake
    assert {m[:5] for m in moves if m[5] is None} <= {m[:5] for m in moves if m[5] == 340}
    m = min((m for m in moves if m[5] == 340 and m[3] is None), key=lambda m: m[:3])
    g.play(m)
    assert 340 not in g.board_meeples
    assert g.meeples == [5, 5]
    assert g.is_over


def _check_links_symmetric(g):
    b = g.board
    for tile in b.where:
        for loc, z in TILES[tile]["zones"].items():
            gid = tile * 10 + loc
            kinds = {"forest": ["forest"], "river": ["river", "system"], "meadow": ["meadow"], "lake": ["system"]}[
                z["type"]
            ]
            for ftype in kinds:
                nbrs, _ = b.links(gid, ftype)
                for n in nbrs:
                    assert gid in b.links(n, ftype)[0], (gid, n, ftype)
                    assert (
                        n == gid or zone_type(n) in ("river", "lake")
                        if ftype == "system"
                        else zone_type(n) == z["type"]
                    )


@pytest.mark.parametrize("players,seed", [(2, 0), (2, 1), (3, 7), (4, 11), (5, 3)])
def test_random_game_conserves_pieces(players, seed):
    g = random_game(players, seed)
    assert g.is_over and g.tile is None
    assert not g.normal_pile
    # pieces are conserved
    for s in range(players):
        assert g.meeples[s] + sum(1 for v in g.board_meeples.values() if v == s) == MEEPLES_PER_SEAT
        assert g.huts[s] + sum(1 for v in g.board_huts.values() if v == s) == HUTS_PER_SEAT
        assert g.meeples[s] >= 0 and g.huts[s] >= 0
    # every tile was placed or discarded exactly once
    placed = set(g.board.where)
    assert placed.isdisjoint(g.discards)
    assert set(g.normal_deck) <= placed | set(g.discards)
    assert len(placed) == 1 + len(g.history)
    # scores are the sum of the events; events are in decision order
    totals = [0] * players
    for dec, reason, seats, points, feature in g.events:
        assert seats == tuple(sorted(set(seats))) and points >= 0
        for s in seats:
            totals[s] += points
    assert totals == g.scores
    assert [e[0] for e in g.events] == sorted(e[0] for e in g.events)
    assert all(e[0] == len(g.history) for e in g.events if e[1] in ("river_system", "raft", "meadow"))
    # every pair of adjacent tiles matches, and zone links are symmetric
    for pos, (tile, rot) in g.board.cells.items():
        for d in range(4):
            nb = g.board.cells.get(step(pos, d))
            if nb:
                assert side_facing(tile, rot, d)["type"] == side_facing(*nb, (d + 2) % 4)["type"]
    _check_links_symmetric(g)


def test_replay_is_deterministic():
    g = random_game(2, 5)
    h = RefGame(2, g.normal_deck, g.menhir_deck)
    for m in g.history:
        assert m in h.legal_moves()
        h.play(m)
    assert h.events == g.events and h.scores == g.scores and h.discards == g.discards


def test_near():
    assert near((0, 0), (1, 1)) and near((0, 0), (0, 0)) and not near((0, 0), (2, 1))


def test_unplaceable_tile_is_discarded():
    # After 59 closes the start tile's river, no open position faces a river side, so the
    # all-river tile 13 cannot be placed: it is discarded and the normal pile runs out.
    g = RefGame(2, [59, 13], [])
    g.play((-1, 0, 1, None, None, None))
    assert g.discards == [13]
    assert g.is_over and g.events == []


def _brute_force_meadow_value(g, meadow):
    """Meadow value trying every choice of cancelled deer."""
    from itertools import combinations

    animals = [
        (z, i, a)
        for z in sorted(meadow)
        for i, a in enumerate(TILES[z // 10]["zones"][z % 10]["animals"])
        if (z, i) not in g.covered
    ]
    if 850 in meadow:  # wild fire
        animals = [t for t in animals if t[2] != "tiger"]
    pit = g.board.where[92] if 921 in meadow else None

    def mult(t):
        return 2 if pit is not None and near(g.board.where[t[0] // 10], pit) else 1

    tigers = sum(1 for t in animals if t[2] == "tiger")
    deer = [t for t in animals if t[2] == "deer"]
    base = sum(mult(t) * {"mammoth": 3, "aurochs": 2, "deer": 1, "tiger": 0}[t[2]] for t in animals)
    k = min(tigers, len(deer))
    return max(base - sum(mult(t) for t in c) for c in combinations(deer, k))


# seeds 59, 163, 166, 187 end with tigers and deer in the pit trap's meadow
@pytest.mark.parametrize("seed", [0, 1, 59, 163, 166, 187])
def test_meadow_value_matches_brute_force(seed):
    g = random_game(2 + seed % 4, seed)
    seen = set()
    for tile in g.board.where:
        for loc, z in TILES[tile]["zones"].items():
            gid = tile * 10 + loc
            if z["type"] != "meadow" or gid in seen:
                continue
            meadow, _ = g.board.feature(gid, "meadow")
            seen |= meadow
            assert g.meadow_value(meadow) == _brute_force_meadow_value(g, meadow)
