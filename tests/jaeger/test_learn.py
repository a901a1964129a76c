"""The learning surface of Jäger und Sammler (hunters.jaeger.learn, #14): compact codes and masks,
observations and what they hide, the batch stepped in the core, external chance and records."""

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from hunters.jaeger import Game, IllegalMoveError, Move
from hunters.jaeger.learn import COLLECTION_COLUMNS, STATUS_ENTRIES, board_channels
from hunters.jaeger.sim import stays
from hunters.jaeger.tiles import FOOD, GOODS, KINDS, code_of, deck
from hunters.learn import MAX_LEARN_ACTIONS, terminal_rewards

from .helpers import line

FACE_DOWN = FOOD + GOODS


def play_random(g: Game, turns: int, seed: int, stay: float = 0.8) -> Game:
    """Play up to `turns` random turns; with probability `stay` a turn keeps every character on the
    board when it can (games then reach winter, as real play does)."""
    rng = random.Random(seed)
    for _ in range(turns):
        if g.is_over:
            break
        moves = list(g.legal_moves())
        kept = [m for m in moves if stays(m)] if rng.random() < stay else []
        g.play(rng.choice(kept or moves))
    return g


def decisions(players: int, seed: int, stay: float = 0.8, limit: int = 400):
    """Every decision of a random game (the game at each one, before its move)."""
    g = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over and g.turns < limit:
        yield g
        moves = list(g.legal_moves())
        kept = [m for m in moves if stays(m)] if rng.random() < stay else []
        g.play(rng.choice(kept or moves))


def snapshot(g: Game):
    return g.to_record(), g.view(), [g.collection(p) for p in range(g.players)], g.events


# -- the action space ----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_layout_sizes_and_docs(players):
    g = Game.new(players=players, seed=1)
    lay = g.learn_layout()
    assert lay.actions == 4 * 12 * (5 * 12 + 1) == 2928 <= MAX_LEARN_ACTIONS
    shapes = {f.name: f.shape for f in lay.fields}
    assert shapes == {
        "board": (120, 17 + 2 * players),
        "characters": (players, 4),
        "collections": (players, 18),
        "tiles": (3, 11),
        "pool": (7,),
        "status": (10,),
    }
    assert len(board_channels(players)) == 17 + 2 * players
    assert len(COLLECTION_COLUMNS) == 18 and len(STATUS_ENTRIES) == 10
    assert all(len(f.doc) > 80 and f.low < f.high for f in lay.fields)
    obs = g.observe(0)
    assert {k: (v.shape, str(v.dtype)) for k, v in obs.items()} == {f.name: (f.shape, f.dtype) for f in lay.fields}
    assert all(((obs[f.name] >= f.low) & (obs[f.name] <= f.high)).all() for f in lay.fields)


@pytest.mark.parametrize("players,seed,stay", [(2, 1, 0.9), (2, 2, 0.0), (3, 3, 0.9), (4, 4, 0.9), (2, 5, 0.97)])
def test_every_legal_move_has_one_code_and_back(players, seed, stay):
    seen_winter = False
    mask = np.zeros(2928, dtype=np.uint8)
    for g in decisions(players, seed, stay):
        moves = list(g.legal_moves())
        codes = [g.compact.from_move(m) for m in moves]
        assert len(set(codes)) == len(codes)  # one code per move
        assert sorted(codes) == g.compact.legal()
        assert all(g.compact.to_move(c) == m for c, m in zip(codes, moves))
        assert np.flatnonzero(g.compact.mask(mask)).tolist() == g.compact.legal()
        seen_winter |= g.season == "winter"
    assert seen_winter or stay == 0.0


def test_codes_worked_out_by_hand():
    # a line: 0 summer camp, 1 cave, 2 berries, 3 cave; seat 0 on the cave 1, seat 1 on the berries.
    # Two neighbour slots (0: toward 0, 1: toward 3), cave slots 2 (cave 1) and 3 (cave 3) of K = 5,
    # leave = 7: S = 8; C = 4 character indices; W2 = 5 * 8 + 1 = 41.
    g = line("S cave berries cave", start=[[1], [2]])
    assert g.learn_layout().actions == 4 * 8 * 41
    by_code = {g.compact.from_move(m): m for m in g.legal_moves()}
    assert by_code[1 * 41 + 1 + 4 * 8 + 1] == Move.of((1, 2), (2, 3))  # the jump over seat 1: k = C
    assert by_code[3 * 41 + 1 + 4 * 8 + 7] == Move.of((1, 3), (3, None))  # cave jump, then leave
    assert by_code[0 * 41 + 1 + 4 * 8 + 7] == Move.of((1, 0), (0, None))
    assert by_code[7 * 41] == Move.of((1, None))  # the last character leaves: one step, second = 0
    assert sorted(by_code) == g.compact.legal()
    for code, move in by_code.items():
        assert g.compact.to_move(code) == move
    with pytest.raises(IllegalMoveError) as e:
        g.compact.to_move(1 * 8 * 41)  # character index 1: seat 0 has one occupied space
    assert e.value.reason == "NO_CHARACTER"
    with pytest.raises(IllegalMoveError) as e:
        g.compact.to_move(5 * 41)  # cave slot 3 of 5: there are two caves
    assert e.value.reason == "NOWHERE"
    with pytest.raises(IllegalMoveError) as e:
        g.compact.to_move(7 * 41 + 1 + 4 * 8 + 0)  # a second step after leaving
    assert e.value.reason == "NO_CHARACTER"


def test_second_step_from_where_the_first_ended_is_written_with_index_c():
    # seat 0 on the camp 0 (rank 0) and the berries 1 (rank 1); 1 -> 0 ends on its own camp
    g = line("S berries tubers herbs", start=[[0, 1], [3]])
    m = Move.of((1, 0), (0, None))  # home, then a character leaves from the camp
    canon = 1 * 8 * 41 + 0 + 1 + 4 * 8 + 7
    assert g.compact.from_move(m) == canon and g.compact.to_move(canon) == m
    other = 1 * 8 * 41 + 0 + 1 + 0 * 8 + 7  # the same steps written with k = 0 (the camp's rank)
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as e:
        g.compact.to_move(other)
    assert e.value.reason == "NOT_CANONICAL"
    with pytest.raises(IllegalMoveError):
        g.compact.play(other)
    assert snapshot(g) == before
    g.compact.play(canon)
    assert g.moves == [m]


@pytest.mark.parametrize(
    "bad,reason",
    [
        (-1, "UNKNOWN_CODE"),
        (2928, "UNKNOWN_CODE"),
        (2**70, "UNKNOWN_CODE"),
        ("7", "UNKNOWN_CODE"),
        (1.0, "UNKNOWN_CODE"),
    ],
)
def test_malformed_codes_are_refused(bad, reason):
    g = Game.new(players=2, seed=3)
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as e:
        g.compact.play(bad)
    assert e.value.reason == reason and e.value.message
    assert snapshot(g) == before


def test_every_illegal_code_is_refused_with_a_reason_and_changes_nothing():
    reasons: Counter[str] = Counter()
    for seed, turns in [(1, 0), (2, 15), (3, 40)]:
        g = play_random(Game.new(players=3, seed=seed), turns, seed)
        legal = set(g.compact.legal())
        before = snapshot(g)
        for code in range(g.learn_layout().actions):
            if code in legal:
                continue
            with pytest.raises(IllegalMoveError) as e:
                g.compact.play(code)
            reasons[e.value.reason] += 1
        assert snapshot(g) == before
    assert {"NO_CHARACTER", "NOWHERE", "HOLE", "OCCUPIED", "STEP_COUNT"} <= set(reasons)


def test_numpy_codes_and_mask_buffer():
    g = Game.new(players=2, seed=4)
    code = np.int64(g.compact.legal()[3])
    move = g.compact.to_move(code)  # type: ignore[arg-type]
    out = np.full(2928, 7, dtype=np.uint8)
    assert g.compact.mask(out) is out and set(np.unique(out)) == {0, 1}
    with pytest.raises(ValueError):
        g.compact.mask(np.zeros(10, dtype=np.uint8))
    g.compact.play(code)  # type: ignore[arg-type]
    assert g.moves == [move]


# -- observations --------------------------------------------------------------------------------
def _twins(seed=5):
    """Three-player games alike to seat 0, differing in the hidden parts: the winter deck's order
    and which of two face-down tiles seats 1 and 2 took (as tests/bots/test_observation.py)."""
    for s in range(seed, seed + 200):
        a = Game.new(players=3, seed=s)
        rng = random.Random(s)
        takes: dict[int, tuple[Any, Any]] = {}
        while not a.is_over and a.season == "summer" and a.turns < 30:
            for e in a.play(rng.choice(a.legal_moves())):
                if e.kind == "take" and e.seat in (1, 2) and e.tile in FACE_DOWN:
                    takes.setdefault(e.seat, (e.space, e.tile))
            if len(takes) == 2 and takes[1][1] != takes[2][1] and a.player == 0 and a.season == "summer":
                break
        if len(takes) < 2 or takes[1][1] == takes[2][1] or a.player != 0 or a.season != "summer":
            continue
        layout = list(a.to_record()["summer"])
        (s1, t1), (s2, t2) = takes[1], takes[2]
        layout[s1], layout[s2] = t2, t1
        b = Game.new(players=3, summer=layout, winter=a.to_record()["winter"][::-1])
        for m in a.moves:
            b.play(m)
        assert a.collection(1) != b.collection(1)
        return a, b
    raise AssertionError("no suitable game found")


def _equal(x, y):
    return x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)


def test_observation_does_not_depend_on_hidden_information():
    a, b = _twins()
    assert a.collection(1) != b.collection(1)  # the twins differ in what seats 1 and 2 took face down
    for seat in range(3):  # and nobody is shown it, the taker included (spec §5)
        assert _equal(a.observe(seat), b.observe(seat))
    for seat in range(3):
        for s in range(6):
            d = a.determinized(seat, s)  # the hidden parts redrawn for `seat`
            assert _equal(d.observe(seat), a.observe(seat))


def test_winter_deck_order_is_hidden_until_winter():
    a = Game.new(players=2, seed=8)
    rec = a.to_record()
    b = Game.new(players=2, summer=rec["summer"], winter=rec["winter"][::-1])
    rng = random.Random(8)
    while a.season == "summer":
        for seat in range(2):
            assert _equal(a.observe(seat), b.observe(seat))
        moves = list(a.legal_moves())
        m = rng.choice([x for x in moves if stays(x)] or moves)
        a.play(m)
        b.play(m)
    assert a.season == "winter" and not _equal(a.observe(0), b.observe(0))  # now it lies face up


def test_observation_fields_follow_the_state():
    g = play_random(Game.new(players=3, seed=11), 60, 11)
    assert not g.is_over
    tiles, kinds = g.tiles, g.board.kinds
    on = Counter(v for _, v in g.characters)
    for seat in range(3):
        o = g.observe(seat)
        rel = [(seat + r) % 3 for r in range(3)]
        board = o["board"]
        for v in range(g.board.n):
            row = board[v]
            assert row[:3].tolist() == [kinds[v] == k for k in ("tile", "summer_camp", "winter_camp")]
            t = tiles[v]
            kind = None if t is None else ("mammoth" if t.startswith("mammoth") else t)
            assert row[4:15].tolist() == [kind == k for k in KINDS]
            assert row[3] == (kinds[v] == "tile" and t is None)
            assert row[15] == (int(str(t)[7:]) if kind == "mammoth" else 0)
            assert row[16:19].tolist() == [sum(1 for p, w in g.characters if p == q and w == v) for q in rel]
            assert row[19:22].tolist() == [int((v, q) in g.supply_packs) for q in rel]
        own = sorted({v for p, v in g.characters if p == seat})
        assert [v for v in range(g.board.n) if board[v, 22]] == own
        assert [board[v, 22] for v in own] == list(range(1, len(own) + 1))
        assert sum(board[:, 16:19].sum(0)) == sum(on.values())
        for r, p in enumerate(rel):
            c = g.collection(p)
            spaces = sorted({v for q, v in g.characters if q == p})
            assert o["characters"][r].tolist() == (spaces + [-1] * 4)[:4]
            row = dict(zip(COLLECTION_COLUMNS, o["collections"][r].tolist()))
            # spec §5: nobody looks at face-down tiles before the end, the owner included
            assert [row[k] for k in FACE_DOWN] == [0] * 7
            assert row["face_down"] == sum(getattr(c, k) for k in FACE_DOWN)
            assert (row["weapons"], row["weapons_spent"], row["supply_packs"]) == (
                c.weapons,
                c.weapons_spent,
                c.supply_packs,
            )
            assert (row["mammoths"], row["mammoth_points"]) == (len(c.mammoths), sum(c.mammoths))
            assert row["characters_on_board"] == g.characters_on_board[p]
            packs_summer = sum(1 for v, q in g.supply_packs if q == p and kinds[v] == "summer_camp")
            assert row["packs_on_summer_camps"] == packs_summer
            assert row["score"] == sum(c.mammoths) + 5 * packs_summer
        assert o["pool"].tolist() == [sum(getattr(g.collection(p), k) for p in range(3)) for k in FACE_DOWN]
        counts = g.tile_counts()
        assert o["tiles"][0].tolist() == [counts["on_board"][k] for k in KINDS]
        assert o["tiles"][2].tolist() == [counts["removed"][k] for k in KINDS]
        status = dict(zip(STATUS_ENTRIES, o["status"].tolist()))
        assert status["season"] == ("summer", "winter").index(g.season)
        assert status["to_move"] == (g.player - seat) % 3
        assert (status["turns"], status["idle_turns"], status["players"]) == (g.turns, g.idle_turns, 3)
        assert status["collections_open"] == 0 and status["chance_pending"] == 0
        if g.season == "summer":
            winter = Counter(t if not t.startswith("mammoth") else "mammoth" for t in g.to_record()["winter"])
            assert o["tiles"][1].tolist() == [winter[k] for k in KINDS]


def test_open_collections_and_the_end_show_everything():
    g = play_random(Game.new(players=2, seed=12, open_collections=True), 30, 12)
    o = g.observe(0)
    c = g.collection(1)
    assert o["collections"][1, :7].tolist() == [getattr(c, k) for k in FACE_DOWN]
    assert o["collections"][1, 17] == g.scores[1] and o["status"][7] == 1
    g = play_random(Game.new(players=2, seed=13), 5000, 13, stay=0.5)
    assert g.is_over
    o = g.observe(1)
    assert o["collections"][1, :7].tolist() == [getattr(g.collection(0), k) for k in FACE_DOWN]
    assert o["collections"][:, 17].tolist() == [g.scores[1], g.scores[0]]
    assert o["status"][0] == 2 and o["status"][1] == -1


def test_observe_fills_given_buffers_and_checks_the_seat():
    g = Game.new(players=2, seed=1)
    out = g.observe(0)
    again = g.observe(1, out)
    assert again is out and out["status"][1] == 1
    with pytest.raises(ValueError):
        g.observe(2)


# -- the batch ------------------------------------------------------------------------------------
def _pick(mask: np.ndarray, rng: np.random.Generator, stay: float = 0.0) -> np.ndarray:
    """A random legal code per row; with probability `stay` one without a step off the board
    (slot S - 1 = 11 in either step) when there is one."""
    out = []
    for row in mask:
        codes = np.flatnonzero(row)
        if rng.random() < stay:
            first, second = codes // 61, codes % 61
            kept = codes[(first % 12 != 11) & ((second == 0) | ((second - 1) % 12 != 11))]
            codes = kept if len(kept) else codes
        out.append(rng.choice(codes))
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("players,stay,steps", [(2, 0.0, 300), (3, 0.97, 400)])
def test_batch_equals_stepping_games_one_by_one(players, stay, steps):
    n, seed = 6, 40
    b = Game.learn_batch(n, players, seed=seed)
    shadow = [Game.new(players=players, seed=seed + i) for i in range(n)]
    episode = [0] * n
    rng = np.random.default_rng(0)
    ends = winter = 0
    for step in range(steps):
        for i, g in enumerate(shadow):
            assert np.flatnonzero(b.mask[i]).tolist() == g.compact.legal()
            assert b.player[i] == g.player
            o = g.observe(g.player)
            assert all(np.array_equal(b.obs[k][i], o[k]) for k in o)
            winter += g.season == "winter"
        if step % 50 == 0:
            i = step % n
            assert b.game(i).to_record() == shadow[i].to_record()
        acts = _pick(b.mask, rng, stay)
        b.step(acts)
        for i, g in enumerate(shadow):
            g.compact.play(int(acts[i]))
            if g.is_over:
                ends += 1
                assert b.done[i]
                assert b.final_scores[i].tolist() == g.scores
                assert b.rewards[i].tolist() == terminal_rewards(g.scores)
                episode[i] += 1
                shadow[i] = Game.new(players=players, seed=seed + episode[i] * n + i)
            else:
                assert not b.done[i] and not b.rewards[i].any()
    assert ends >= 3 and winter > 50


def test_batch_illegal_code_changes_no_game():
    b = Game.learn_batch(5, 3, seed=7)
    rng = np.random.default_rng(1)
    for _ in range(10):
        b.step(_pick(b.mask, rng))
    keep = (b.mask.copy(), {k: v.copy() for k, v in b.obs.items()}, b.player.copy())
    records = [b.game(i).to_record() for i in range(5)]
    acts = _pick(b.mask, rng)
    acts[3] = np.flatnonzero(b.mask[3] == 0)[0]
    with pytest.raises(IllegalMoveError) as e:
        b.step(acts)
    assert "slot 3" in str(e.value)
    assert np.array_equal(b.mask, keep[0]) and np.array_equal(b.player, keep[2])
    assert all(np.array_equal(b.obs[k], keep[1][k]) for k in keep[1])
    assert [b.game(i).to_record() for i in range(5)] == records
    with pytest.raises(ValueError):
        b.step(acts[:4])


def test_batch_reset_is_deterministic():
    a = Game.learn_batch(4, 2, seed=3)
    b = Game.learn_batch(4, 2, seed=99)
    b.reset(3)
    assert np.array_equal(a.mask, b.mask) and all(np.array_equal(a.obs[k], b.obs[k]) for k in a.obs)
    assert a.game(2).to_record() == Game.new(players=2, seed=5).to_record()


# -- external chance ------------------------------------------------------------------------------
def test_summer_layout_is_chance_with_the_decks_probabilities():
    g = Game.new(players=2, seed=1, chance="external")
    assert g.player == -1 and g.chance_pending and not g.is_over
    assert list(g.legal_moves()) == [] and g.compact.legal() == [] and not g.compact.mask().any()
    assert g.actions.legal() == [] and not any(g.actions.mask()) and g.actions.pairs() == []
    with pytest.raises(IllegalMoveError) as e:
        g.play(Move.of((15, 14), (15, 16)))
    assert e.value.reason == "CHANCE_PENDING"
    summer = Counter(code_of(t) for t in deck("summer", (4, 6, 8)))
    outcomes = dict(g.chance_outcomes())
    assert outcomes == {c: n / 112 for c, n in summer.items()}
    assert sum(outcomes.values()) == pytest.approx(1.0)
    before = snapshot(g)
    with pytest.raises(ValueError):
        g.apply_chance(0)
    assert snapshot(g) == before
    berries = code_of("berries")
    g.apply_chance(berries)
    assert g.tiles[0] == "berries" and dict(g.chance_outcomes())[berries] == 29 / 111
    assert g.observe(0)["status"][9] == 111 and g.observe(0)["tiles"][0, 0] == 1
    # deal everything: the mammoths last, each mammoth once
    rng = random.Random(2)
    while g.chance_pending:
        outs = g.chance_outcomes()
        assert sum(p for _, p in outs) == pytest.approx(1.0)
        g.apply_chance(rng.choices([c for c, _ in outs], [p for _, p in outs])[0])
    assert g.player == 0 and g.season == "summer" and len(g.legal_moves()) > 0  # type: ignore[unreachable]
    assert Counter(code_of(t) for t in g.tiles if t) == summer


def _drive_like(seeded: Game, seed: int, players: int) -> Game:
    """An external-chance game driven with the seeded game's own outcomes and moves."""
    e = Game.new(players=players, seed=seed, chance="external")
    rec = seeded.to_record()
    for t in rec["summer"]:
        if t is not None:
            e.apply_chance(code_of(t))
    winter = [code_of(t) for t in rec["winter"]]
    moves = list(seeded.moves)
    for m in moves:
        while e.chance_pending:
            outs = dict(e.chance_outcomes())
            assert sum(outs.values()) == pytest.approx(1.0)
            e.apply_chance(winter.pop(0))
        e.play(m)
    while e.chance_pending:
        e.apply_chance(winter.pop(0))
    return e


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 4), (4, 6)])
def test_driving_chance_with_the_seeded_outcomes_reproduces_the_game(players, seed):
    g = play_random(Game.new(players=players, seed=seed), 5000, seed)
    assert g.is_over
    e = _drive_like(g, seed, players)
    assert e.is_over and e.events == g.events and e.scores == g.scores and e.tiles == g.tiles
    assert [m.to_json() for m in e.moves] == g.to_record()["moves"]
    assert _equal(e.observe(0), g.observe(0))
    assert e.to_record()["outcomes"] == [code_of(t) for t in g.to_record()["summer"] if t] + [
        code_of(t) for t in g.to_record()["winter"]
    ]


def test_winter_deal_is_chance_when_summer_ends():
    g = play_random(Game.new(players=2, seed=3), 5000, 3)
    e = Game.new(players=2, seed=3, chance="external")
    rec = g.to_record()
    for t in rec["summer"]:
        if t is not None:
            e.apply_chance(code_of(t))
    for m in g.moves:
        if e.chance_pending:
            break
        e.play(m)
    assert e.chance_pending and e.season == "winter" and e.player == -1
    winter = Counter(code_of(t) for t in deck("winter", (3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8)))
    assert dict(e.chance_outcomes()) == {c: n / 88 for c, n in winter.items()}
    o = e.observe(0)
    assert o["status"][9] == 88 and o["status"][1] == -1 and o["tiles"][1].sum() == 88
    assert e.characters == [] and not e.compact.mask().any()
    first = rec["winter"][0]
    e.apply_chance(code_of(first))
    left = dict(e.chance_outcomes())
    assert left[code_of(first)] == pytest.approx((winter[code_of(first)] - 1) / 87)


def test_external_records_round_trip_at_every_stage():
    g = play_random(Game.new(players=3, seed=4), 5000, 4)
    e = Game.new(players=3, seed=4, chance="external")
    rng = random.Random(0)
    stages = 0
    while not e.is_over:
        if rng.random() < 0.05 or (e.chance_pending and rng.random() < 0.02):
            r = Game.from_record(e.to_record())
            assert r.to_record() == e.to_record() and r.view() == e.view() and r.player == e.player
            assert _equal(r.observe(1), e.observe(1))
            stages += 1
        if e.chance_pending:
            outs = e.chance_outcomes()
            e.apply_chance(rng.choices([c for c, _ in outs], [p for _, p in outs])[0])
        else:
            e.play(rng.choice(e.legal_moves()))
    r = Game.from_record(e.to_record())
    assert r.to_record() == e.to_record() and r.scores == e.scores and stages > 3
    assert g.is_over  # (the seeded twin only served to pick the seed)


def test_external_chance_refuses_explicit_layouts_and_bad_records():
    with pytest.raises(ValueError):
        Game.new(players=2, seed=1, chance="external", summer={5: "berries"})
    with pytest.raises(ValueError):
        Game.new(players=2, seed=1, chance="sometimes")
    rec = Game.new(players=2, seed=1, chance="external").to_record()
    from hunters.errors import InvalidRecordError

    with pytest.raises(InvalidRecordError):
        Game.from_record({**rec, "outcomes": [0]})
    with pytest.raises(InvalidRecordError):
        Game.from_record({**rec, "moves": [{"steps": [{"src": 15, "dst": 14}]}]})


def test_seeded_games_have_no_chance_nodes_and_records_round_trip_with_codes():
    g = Game.new(players=2, seed=9)
    assert g.chance_outcomes() == [] and not g.chance_pending
    with pytest.raises(ValueError):
        g.apply_chance(code_of("berries"))
    rng = random.Random(9)
    while not g.is_over and g.turns < 80:
        g.compact.play(rng.choice(g.compact.legal()))
    r = Game.from_record(g.to_record())
    assert r.to_record() == g.to_record() and _equal(r.observe(0), g.observe(0))
    assert r.compact.legal() == g.compact.legal()


def test_external_games_with_other_seeds_look_alike_given_the_same_outcomes():
    """The seed of an external-chance game decides nothing a seat can see: the same outcomes and
    moves give the same observations (during the deals too) and the same record apart from the seed."""
    a = Game.new(players=2, seed=1, chance="external")
    b = Game.new(players=2, seed=2, chance="external")
    rng = random.Random(3)
    checked = deals = 0
    while not a.is_over:
        if rng.random() < 0.1:
            assert all(_equal(a.observe(s), b.observe(s)) for s in range(2))
            assert np.array_equal(a.compact.mask(), b.compact.mask())
            checked += 1
        if a.chance_pending:
            outs = a.chance_outcomes()
            assert outs == b.chance_outcomes()
            o = rng.choices([c for c, _ in outs], [p for _, p in outs])[0]
            a.apply_chance(o)
            b.apply_chance(o)
            deals += 1
        else:
            moves = list(a.legal_moves())
            m = rng.choice([x for x in moves if stays(x)] or moves) if rng.random() < 0.9 else rng.choice(moves)
            a.play(m)
            b.play(m)
    assert checked > 20 and deals == 112 + 88 and a.events == b.events and a.scores == b.scores
    assert {**a.to_record(), "seed": None} == {**b.to_record(), "seed": None}


# -- the information state -------------------------------------------------------------------------
def _info(game, seat):
    return game.observe(seat, view="information_state")


def test_information_state_shows_the_own_face_down_tiles_and_full_score():
    g = play_random(Game.new(players=3, seed=21), 40, 21)
    assert g.collections_hidden and any(g.collection(0).to_json()[k] for k in FACE_DOWN)
    for seat in range(3):
        obs, info = g.observe(seat), _info(g, seat)
        own = g.collection(seat)
        assert info["collections"][0, :7].tolist() == [getattr(own, k) for k in FACE_DOWN]
        assert info["collections"][0, 17] == g.scores[seat]
        assert not info["collections"][1:, :7].any() and not obs["collections"][:, :7].any()
        # everything else is the observation's, collections_open included
        assert info["status"][7] == 0 and np.array_equal(info["collections"][1:], obs["collections"][1:])
        assert all(np.array_equal(info[k], obs[k]) for k in obs if k != "collections")


def test_information_state_never_shows_another_seats_hidden_tiles():
    a, b = _twins()
    assert a.collection(1) != b.collection(1) and a.collection(0) == b.collection(0)
    assert _equal(_info(a, 0), _info(b, 0))  # seat 0 cannot tell the twins apart: the same info state
    for seat in (1, 2):  # the seats whose takes differ see their own, so they can
        assert not _equal(_info(a, seat), _info(b, seat))
    for seat in range(3):  # a determinization for the seat keeps what it knows
        for s in range(6):
            assert _equal(_info(a.determinized(seat, s), seat), _info(a, seat))


def test_information_state_is_what_the_bots_know():
    g = play_random(Game.new(players=3, seed=22), 35, 22)
    for seat in range(3):
        assert _equal(_info(g.observed_by(seat), seat), _info(g, seat))


def test_open_collections_information_state_is_the_observation():
    g = play_random(Game.new(players=2, seed=12, open_collections=True), 30, 12)
    assert _equal(_info(g, 0), g.observe(0))


def test_batch_information_state_equals_observe_one_by_one():
    n, seed, players = 4, 70, 3
    b = Game.learn_batch(n, players, seed=seed, view="information_state")
    shadow = [Game.new(players=players, seed=seed + i) for i in range(n)]
    rng = np.random.default_rng(1)
    shown = 0
    for _ in range(120):
        for i, g in enumerate(shadow):
            o = _info(g, g.player)
            assert all(np.array_equal(b.obs[k][i], o[k]) for k in o)
            shown += int(o["collections"][0, :7].any())
        acts = _pick(b.mask, rng)
        b.step(acts)
        for i, g in enumerate(shadow):
            g.compact.play(int(acts[i]))
            if g.is_over:
                shadow[i] = None  # type: ignore[call-overload]
        if any(g is None for g in shadow):
            break
    assert shown > 20


def test_view_names_are_checked():
    g = Game.new(players=2, seed=1)
    with pytest.raises(ValueError, match="view must be one of"):
        g.observe(0, view="infostate")
    with pytest.raises(ValueError, match="view must be one of"):
        Game.learn_batch(2, view="full")


def test_observed_events_are_kept_incrementally_and_equal_the_full_filter():
    g = Game.new(players=3, seed=31)
    rng = random.Random(31)

    def full(game, seat):  # (once the game is over, nothing is hidden)
        hidden = game.collections_hidden
        return [e for e in game.events if not (hidden and e.kind == "take" and e.seat != seat and e.tile in FACE_DOWN)]

    while not g.is_over and g.turns < 60:
        for seat in range(3):
            assert g.observed_by(seat).events == full(g, seat)
        c = g.clone()  # a copy starts its own record, and the original's is unchanged by it
        c.play(rng.choice(c.legal_moves()))
        assert c.observed_by(0).events == full(c, 0) and g.observed_by(0).events == full(g, 0)
        g.play(rng.choice(g.legal_moves()))
    assert any(e.kind == "take" and e.tile in FACE_DOWN for e in g.events)
