"""The learning surface of H&G (#14): compact codes <-> moves, masks, observations (no hidden
information), the batch stepped in the core, external chance and its records."""

import random

import numpy as np
import pytest

from hunters.carcassonne import Game, IllegalMoveError, Move, learn
from hunters.carcassonne.tiles import MENHIR_TILES, NORMAL_TILES
from hunters.learn import MAX_LEARN_ACTIONS, terminal_rewards

SEEDS = range(12)


def random_game(seed, moves=None):
    """A game advanced by `moves` random moves (to the end when None)."""
    g = Game.new(players=2 + seed % 4, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (moves is None or n < moves):
        g.play(rng.choice(g.legal_moves()))
        n += 1
    return g


def snapshot(g):
    return g.to_record(), g.view(), g.events, g.core.undrawn()


def obs_equal(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


# -- the action space ---------------------------------------------------------------------------
def test_layout_size_and_docs():
    for players in range(2, 6):
        lay = Game.new(players=players).learn_layout()
        assert lay.actions == learn.ACTIONS == 192 * 4 * 19 * 6 <= MAX_LEARN_ACTIONS
        assert [f.name for f in lay.fields] == list(learn.FIELD_DOCS)
        assert all(f.doc for f in lay.fields) and lay.action_doc
        assert lay.field("board").shape == (7 + 2 * players, 31, 31)
        assert lay.field("pieces").shape == (8 * players, 5)


@pytest.mark.parametrize("seed", SEEDS)
def test_codes_and_moves_round_trip_over_whole_games(seed):
    g = Game.new(players=2 + seed % 4, seed=seed)
    rng = random.Random(seed)
    mask = np.zeros(learn.ACTIONS, dtype=np.uint8)
    while not g.is_over:
        moves = list(g.legal_moves())
        codes = g.compact.legal()
        assert codes == sorted(g.compact.from_move(m) for m in moves)
        assert codes == sorted(set(codes))  # distinct, ascending: the legal_moves() order
        assert [g.compact.from_move(m) for m in moves] == codes
        assert [g.compact.to_move(c) for c in codes] == moves
        assert g.compact.mask(out=mask) is mask
        assert np.flatnonzero(mask).tolist() == codes
        assert np.array_equal(g.compact.mask(), mask)
        code = rng.choice(codes)
        expect = g.clone()
        expect.play(g.compact.to_move(code))
        g.compact.play(code)
        assert snapshot(g) == snapshot(expect)
    assert g.compact.legal() == [] and not g.compact.mask().any()


def test_frontier_index_names_the_position():
    """Code k's position is row k of the `frontier` field, and the board's channel 6 marks k + 1."""
    g = random_game(3, moves=20)
    obs = g.observe(g.player)
    for code in g.compact.legal():
        k, rot, slot, ret = learn.code_parts(code)
        m = g.compact.to_move(code)
        assert obs["frontier"][k, 0] == 1 and tuple(obs["frontier"][k, 1:3]) == (m.x, m.y)
        assert obs["board"][6, m.y + learn.RADIUS, m.x + learn.RADIUS] == k + 1
        assert m.rotation == rot and (ret == 0) == (m.retake is None)
        assert (slot == 0) == (m.occupant is None)


def test_retake_codes_on_the_shaman():
    """Find a shaman decision with meeples on the board: its retake codes name own meeples by zone."""
    for seed in range(300):
        g = Game.new(players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            own = [z for z, s, k in g.occupants if s == g.player and k == "meeple"]
            if g.tile == 88 and own:
                retakes = [c for c in g.compact.legal() if learn.code_parts(c)[3]]
                assert retakes
                for c in retakes:
                    assert g.compact.to_move(c).retake == own[learn.code_parts(c)[3] - 1]
                return
            g.play(rng.choice(g.legal_moves()))
    pytest.fail("no shaman decision with a meeple on the board in 300 games")


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (-1, "MALFORMED"),
        (learn.ACTIONS, "MALFORMED"),
        ("7", "MALFORMED"),
        (1.0, "MALFORMED"),
        (191 * 4 * 19 * 6, "NO_POSITION"),
        (1, "RETAKE_NOT_ALLOWED"),  # the tile in hand is not the shaman
    ],
)
def test_illegal_code_raises_and_changes_nothing(code, reason):
    g = random_game(5, moves=10)
    assert g.tile != 88
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as err:
        g.compact.play(code)
    assert err.value.reason == reason and err.value.message
    with pytest.raises(IllegalMoveError):
        g.compact.to_move(code)
    assert snapshot(g) == before


def test_every_illegal_code_is_refused_with_a_reason():
    """Sweep a whole frontier index range: codes outside the legal set all raise, nothing changes."""
    g = random_game(7, moves=15)
    legal = set(g.compact.legal())
    before = snapshot(g)
    reasons = set()
    for code in range(0, 6 * 4 * 19 * 6):
        if code in legal:
            continue
        with pytest.raises(IllegalMoveError) as err:
            g.compact.play(code)
        reasons.add(err.value.reason)
    assert snapshot(g) == before
    assert {"SIDE_MISMATCH", "ZONE_NOT_ON_TILE"} <= reasons


def test_over_and_bad_moves():
    g = random_game(2)
    with pytest.raises(IllegalMoveError) as err:
        g.compact.play(0)
    assert err.value.reason == "GAME_OVER"
    g = Game.new(seed=1)
    with pytest.raises(IllegalMoveError):
        g.compact.from_move(Move(40, 40, 0))


# -- observations -------------------------------------------------------------------------------
def hg_twins(seed, moves):
    """Two games with the same moves and draws, different orders of the undrawn tiles."""
    a = random_game(seed, moves)
    drawn, undrawn = a.core.drawn(), a.core.undrawn()
    b = Game.new(players=a.players, normal_deck=drawn[0] + undrawn[0][::-1], menhir_deck=drawn[1] + undrawn[1][::-1])
    for m in a.moves:
        b.play(m)
    assert a.core.undrawn() != b.core.undrawn()
    return a, b


@pytest.mark.parametrize(("seed", "moves"), [(11, 0), (11, 24), (4, 40), (9, 60)])
def test_observation_hides_the_pile_order(seed, moves):
    a, b = hg_twins(seed, moves)
    for seat in range(a.players):
        assert obs_equal(a.observe(seat), b.observe(seat))
    # and it changes with what is public
    c = a.clone()
    c.play(c.legal_moves()[0])
    assert not obs_equal(a.observe(0), c.observe(0))


@pytest.mark.parametrize("seed", range(6))
def test_observation_fields_agree_with_the_game(seed):
    g = Game.new(players=2 + seed % 4, seed=seed)
    rng = random.Random(seed)
    lay = g.learn_layout()
    P = g.players
    out = learn.empty_observation(P)
    while True:
        for seat in range(P):
            o = g.observe(seat, out=out)
            assert o is out
            for f in lay.fields:
                a = o[f.name]
                assert a.shape == f.shape and a.dtype == f.dtype
                assert f.low <= a.min() and a.max() <= f.high, f.name
            rel = [(seat + r) % P for r in range(P)]
            assert o["scores"].tolist() == [g.scores[p] for p in rel]
            assert o["supplies"].tolist() == [[g.meeples[p], g.huts[p]] for p in rel]
            st = o["status"].tolist()
            assert st[0] == (-1 if g.tile is None else g.tile) and st[1] == g.extra_turn
            assert st[2] == (-1 if g.is_over else (g.player - seat) % P)
            assert (st[3], st[4]) == g.piles and st[5] == g.is_over and st[6] == g.moves_played
            normal, menhir = g.core.undrawn()
            undrawn = sorted(normal + menhir)
            assert np.flatnonzero(o["remaining"]).tolist() == undrawn
            placed = {t: (x, y, r) for x, y, t, r in g.board}
            for t in range(95):
                row = o["tiles"][t].tolist()
                assert row == ([1, *placed[t]] if t in placed else [0, 0, 0, 0])
                if t in placed and max(abs(placed[t][0]), abs(placed[t][1])) <= learn.RADIUS:
                    x, y, r = placed[t]
                    assert o["board"][0, y + 15, x + 15] == t + 1 and o["board"][1, y + 15, x + 15] == r
                    assert o["board"][2:6, y + 15, x + 15].tolist() == [side_type(t, r, d) for d in range(4)]
            assert int(o["board"][0].astype(bool).sum()) == sum(
                1 for x, y, _, _ in g.board if max(abs(x), abs(y)) <= learn.RADIUS
            )
            pieces = sorted((z, (s - seat) % P, 1 if k == "meeple" else 2) for z, s, k in g.occupants)
            rows = [r for r in o["pieces"].tolist() if r[0]]
            assert sorted((r[3], r[4], r[0]) for r in rows) == pieces
            planes = np.zeros((2 * P, 31, 31), dtype=np.uint8)
            for kind, x, y, z, r in rows:
                assert placed[z // 10][:2] == (x, y)
                if max(abs(x), abs(y)) <= learn.RADIUS:
                    planes[(kind - 1) * P + r, y + 15, x + 15] += 1
            assert np.array_equal(o["board"][7:], planes)
            assert o["frontier"].tolist() == expected_frontier(g)
        if g.is_over:
            break
        g.play(rng.choice(g.legal_moves()))


def expected_frontier(g):
    """The frontier field from the board alone: open positions by (y, x), required sides N E S W."""
    tiles = {(x, y): (t, r) for x, y, t, r in g.board}
    rows = []
    steps = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    open_ = sorted({(x + dx, y + dy) for x, y in tiles for dx, dy in steps} - set(tiles), key=lambda p: (p[1], p[0]))
    for x, y in open_:
        req = []
        for d, (dx, dy) in enumerate(steps):
            n = tiles.get((x + dx, y + dy))
            req.append(0 if n is None else side_type(n[0], n[1], (d + 2) % 4))
        rows.append([1, x, y, *req])
    return rows + [[0] * 7] * (192 - len(rows))


def side_type(tile, rot, direction):
    """The side type (1 forest, 2 meadow, 3 river) tile `tile` turned `rot` shows towards `direction`."""
    from hunters.carcassonne.tiles import tile_data

    return {"forest": 1, "meadow": 2, "river": 3}[tile_data()[tile]["sides"][(direction - rot) % 4]["type"]]


def test_observe_rejects_bad_arguments():
    g = Game.new(seed=1)
    with pytest.raises(ValueError):
        g.observe(2)
    out = learn.empty_observation(2)
    out["board"] = np.zeros((3, 3), dtype=np.uint8)
    with pytest.raises(ValueError):
        g.observe(0, out=out)
    with pytest.raises(ValueError):
        g.compact.mask(out=np.zeros(10, dtype=np.uint8))


# -- the batch ----------------------------------------------------------------------------------
def pick(mask, rng):
    """A random legal code per row, as a user would pick it."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


@pytest.mark.parametrize(("games", "players", "seed"), [(5, 2, 0), (3, 4, 100)])
def test_batch_equals_stepping_games_one_by_one(games, players, seed):
    batch = Game.learn_batch(games, players=players, seed=seed)
    assert batch.games == games and batch.players == players
    epochs = [0] * games
    singles = [Game.new(players, seed=seed + i) for i in range(games)]
    rng = np.random.default_rng(seed)
    finished = 0
    for _ in range(260):
        for i, g in enumerate(singles):
            assert batch.player[i] == g.player
            assert np.flatnonzero(batch.mask[i]).tolist() == g.compact.legal()
            assert batch.legal[i, : batch.legal_count[i]].tolist() == g.compact.legal()
            assert obs_equal({k: v[i] for k, v in batch.obs.items()}, g.observe(g.player))
        actions = pick(batch.mask, rng)
        batch.step(actions)
        for i, g in enumerate(singles):
            g.compact.play(int(actions[i]))
            assert batch.done[i] == g.is_over
            if g.is_over:
                finished += 1
                assert batch.final_scores[i].tolist() == g.scores
                assert batch.rewards[i].tolist() == terminal_rewards(g.scores)
                epochs[i] += 1
                singles[i] = Game.new(players, seed=seed + epochs[i] * games + i)
            else:
                assert not batch.rewards[i].any() and not batch.final_scores[i].any()
        g = batch.game(games - 1)
        assert g.to_record() == singles[-1].to_record() and g.events == singles[-1].events
    assert finished >= games


def test_batch_illegal_code_changes_no_game():
    batch = Game.learn_batch(4, seed=9)
    rng = np.random.default_rng(1)
    for _ in range(5):
        batch.step(pick(batch.mask, rng))
    before = [batch.game(i).to_record() for i in range(4)]
    bufs = {k: v.copy() for k, v in batch.obs.items()}
    mask = batch.mask.copy()
    good = pick(batch.mask, rng)
    for slot, bad in [(2, int(np.flatnonzero(batch.mask[2] == 0)[0])), (3, -5), (0, learn.ACTIONS)]:
        actions = good.copy()
        actions[slot] = bad
        with pytest.raises(IllegalMoveError) as err:
            batch.step(actions)
        assert f"slot {slot}" in str(err.value)
        assert [batch.game(i).to_record() for i in range(4)] == before
        assert np.array_equal(batch.mask, mask) and obs_equal(batch.obs, bufs)
    with pytest.raises(ValueError):
        batch.step(good[:3])
    batch.step(good)  # still playable
    with pytest.raises(ValueError):
        Game.learn_batch(0)


def test_batch_threads_do_not_change_the_games():
    one, two = Game.learn_batch(16, players=3, seed=2), Game.learn_batch(16, players=3, seed=2, threads=2)
    rng = np.random.default_rng(3)
    for _ in range(120):
        actions = pick(one.mask, rng)
        one.step(actions)
        two.step(actions)
        assert np.array_equal(one.mask, two.mask) and obs_equal(one.obs, two.obs)
        assert np.array_equal(one.done, two.done) and np.array_equal(one.rewards, two.rewards)
    with pytest.raises(ValueError):
        Game.learn_batch(2, threads=0)
    with pytest.raises(TypeError):
        Game.learn_batch(2, colour="red")


def test_batch_random_actions_are_legal_and_cover_the_moves():
    batch = Game.learn_batch(6, players=2, seed=3)
    rng = np.random.default_rng(0)
    seen = [set() for _ in range(6)]
    first = [np.flatnonzero(batch.mask[i]).tolist() for i in range(6)]
    for _ in range(2000):
        actions = batch.random_actions(rng)
        assert all(batch.mask[i, a] for i, a in enumerate(actions))
        for i, a in enumerate(actions):
            seen[i].add(int(a))
    assert all(seen[i] == set(first[i]) for i in range(6))  # 2000 uniform draws: every code comes up
    for _ in range(100):
        batch.step(batch.random_actions(rng))


def test_batch_reset_is_deterministic():
    a, b = Game.learn_batch(3, seed=4), Game.learn_batch(3, seed=7)
    b.reset(4)
    assert np.array_equal(a.mask, b.mask) and obs_equal(a.obs, b.obs)


# -- external chance ----------------------------------------------------------------------------
def drive(game, rng, outcome=None):
    """Play to the end: chance nodes by `outcome(game)` (default: random), moves at random."""
    while not game.is_over:
        if game.player == -1:
            outs = game.chance_outcomes()
            assert outs and game.legal_moves() == [] and game.tile is None
            game.apply_chance(outcome(game) if outcome else rng.choice(outs)[0])
        else:
            assert game.chance_outcomes() == []
            game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("seed", range(4))
def test_chance_outcomes_are_the_remaining_tiles(seed):
    g = Game.new(players=2, seed=seed, chance="external")
    rng = random.Random(seed)
    nodes = 0
    while not g.is_over:
        if g.player == -1:
            outs = g.chance_outcomes()
            normal, menhir = g.core.undrawn()
            pile = normal if g.observe(0)["status"][7] == 1 else menhir
            assert [t for t, _ in outs] == sorted(pile)
            assert all(p == 1 / len(pile) for _, p in outs)
            assert abs(sum(p for _, p in outs) - 1) < 1e-12
            rem = g.observe(0)["remaining"]
            assert all(rem[t] == 1 for t, _ in outs)
            g.apply_chance(rng.choice(outs)[0])
            nodes += 1
        else:
            g.play(rng.choice(g.legal_moves()))
    assert nodes >= g.moves_played


@pytest.mark.parametrize("seed", range(6))
def test_chance_with_the_piles_own_outcomes_is_the_seeded_game(seed):
    players = 2 + seed % 3
    seeded = random_game_with(Game.new(players, seed=seed), seed)

    def own(game):
        normal, menhir = game.core.undrawn()
        return (normal if game.core.pending == 1 else menhir)[0]

    chance = drive(Game.new(players, seed=seed, chance="external"), random.Random(seed), own)
    assert chance.moves == seeded.moves and chance.events == seeded.events
    assert chance.scores == seeded.scores and chance.discards == seeded.discards


def random_game_with(game, seed):
    return drive(game, random.Random(seed))


@pytest.mark.parametrize("seed", range(6))
def test_chance_game_equals_its_piles_replayed(seed):
    """Random outcomes (discards included): the same game as an internal-chance game dealt the piles
    in the order they were drawn."""
    g = drive(Game.new(3, seed=seed, chance="external"), random.Random(seed))
    drawn = g.to_record()["outcomes"]
    piles = [[t for t in drawn if t in tiles] for tiles in (NORMAL_TILES, MENHIR_TILES)]
    normal, menhir = (p + sorted(set(tiles) - set(p)) for p, tiles in zip(piles, (NORMAL_TILES, MENHIR_TILES)))
    h = Game.new(3, normal_deck=normal, menhir_deck=menhir)
    for m in g.moves:
        h.play(m)
    assert h.is_over and h.events == g.events and h.discards == g.discards


def test_a_discarded_draw_is_another_chance_node():
    """Draw the tiles until one fits nowhere: it is discarded and another draw is pending."""
    for seed in range(200):
        g = Game.new(2, seed=seed, chance="external")
        rng = random.Random(seed)
        while not g.is_over:
            if g.player != -1:
                g.play(rng.choice(g.legal_moves()))
                continue
            for t, _ in g.chance_outcomes():
                c = g.clone()
                c.apply_chance(t)
                if c.discards != g.discards:
                    assert c.discards == [*g.discards, t] and c.player == -1 and not c.is_over
                    assert t not in [u for u, _ in c.chance_outcomes()]
                    return
            g.apply_chance(rng.choice(g.chance_outcomes())[0])
    pytest.fail("no unplaceable draw found")


def test_bad_chance_outcomes_change_nothing():
    g = Game.new(2, seed=3, chance="external")
    assert g.player == -1 and g.observe(0)["status"][2] == -1
    before = snapshot(g)
    for bad in (-1, 95, 56, "3", None, True, 3.0, 2**70):
        with pytest.raises(IllegalMoveError):
            g.apply_chance(bad)
    assert snapshot(g) == before
    with pytest.raises(IllegalMoveError) as err:
        g.play(Move(0, -1, 0))
    assert err.value.reason == "CHANCE_PENDING"
    with pytest.raises(IllegalMoveError):
        g.compact.play(0)
    assert "a draw from the normal pile is pending" in g.summary()
    g.apply_chance(np.int64(g.chance_outcomes()[0][0]))
    assert g.player == 0 and obs_equal(g.observe(np.int32(1)), g.observe(1))
    with pytest.raises(IllegalMoveError) as err:
        g.apply_chance(g.tile)
    assert err.value.reason == "NO_CHANCE_PENDING"
    assert Game.new(seed=3).chance_outcomes() == []
    with pytest.raises(ValueError):
        Game.new(chance="sometimes")


@pytest.mark.parametrize("seed", range(3))
def test_chance_records_round_trip_at_every_point(seed):
    g = Game.new(2 + seed, seed=seed, chance="external")
    rng = random.Random(seed)
    while True:
        rec = g.to_record()
        r = Game.from_record(rec)
        assert r.to_record() == rec and r.view() == g.view() and r.player == g.player
        assert r.events == g.events and r.chance_outcomes() == g.chance_outcomes()
        if g.is_over:
            break
        if g.player == -1:
            g.apply_chance(rng.choice(g.chance_outcomes())[0])
        else:
            g.play(rng.choice(g.legal_moves()))
    assert Game.from_record(Game.new(seed=1).to_record()).to_record() == Game.new(seed=1).to_record()


def test_chance_observation_hides_the_pile_order():
    a = Game.new(2, seed=5, chance="external")
    b = Game.new(2, normal_deck=a.record_decks[0][::-1], menhir_deck=a.record_decks[1], chance="external")
    rng = random.Random(2)
    for _ in range(30):
        assert obs_equal(a.observe(0), b.observe(0)) and a.chance_outcomes() == b.chance_outcomes()
        if a.player == -1:
            t = rng.choice(a.chance_outcomes())[0]
            a.apply_chance(t)
            b.apply_chance(t)
        else:
            m = rng.choice(a.legal_moves())
            a.play(m)
            b.play(m)
