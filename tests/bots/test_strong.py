"""The `strong` bot: legal moves through whole games, determinism, options, the strategy lookup and
the games' estimates, and a strength sanity check that cannot be flaky (fixed iterations)."""

import pytest

from hunters.bots import BOTS, Observation, StrongBot, StrongBot1, make_bot, strategy_for
from hunters.bots.base import _mix, decision_seed
from hunters.bots.search import _options, _rewards
from hunters.carcassonne import Game as HG
from hunters.carcassonne import strategy as hg_strategy
from hunters.jaeger import Game as JS
from hunters.jaeger import strategy as js_strategy


def _match(cls, bots, seed, players=2):
    game = cls.new(players=players, seed=seed)
    while not game.is_over:
        move = bots[game.player](game)
        assert game.is_legal(move)
        game.play(move)
    return game


@pytest.mark.parametrize(("cls", "players"), [(HG, 2), (HG, 3), (JS, 2)])
def test_strong_plays_whole_games_legally(cls, players):
    bots = [make_bot("strong:iterations=8,seed=1"), make_bot("random:seed=2"), make_bot("greedy:seed=3")]
    assert _match(cls, bots[:players], 5, players).is_over


@pytest.mark.parametrize("cls", [HG, JS])
def test_strong_is_deterministic_for_a_seed_and_iterations(cls):
    game = cls.new(players=2, seed=3)
    for _ in range(7):
        game.play(make_bot("greedy:seed=1")(game))
    a, b = make_bot("strong:iterations=60,seed=4"), make_bot("strong:iterations=60,seed=4")
    assert a(game) == b(game)
    assert a.last_stats == b.last_stats and a.last_iterations == 60
    assert sum(v for _, v, _, _ in a.last_stats) == 60


def test_strong_options_and_spec():
    assert "strong" in BOTS and BOTS["strong"] is StrongBot
    bot = make_bot("strong:time=0.5,iterations=100,c=0.2,bias=2,widen=3,alpha=0.4,dets=8,reply=1,playout=5,seed=3")
    assert isinstance(bot, StrongBot)
    options = (bot.time, bot.iterations, bot.c, bot.bias, bot.widen, bot.alpha, bot.dets, bot.reply, bot.playout)
    assert (*options, bot.seed) == (0.5, 100, 0.2, 2.0, 3.0, 0.4, 8, 1, 5, 3)
    assert make_bot(bot.spec).spec == bot.spec
    assert make_bot("strong").iterations is None and make_bot("strong").time == 0.0  # the game's default
    assert make_bot("strong:time=1").iterations == 0
    # the playout: the spec's, else the game's (none without a reply)
    assert make_bot("strong").playout_in(hg_strategy) == hg_strategy.PLAYOUT > 0
    assert make_bot("strong:reply=0").playout_in(hg_strategy) == 0
    assert make_bot("strong:playout=0").playout_in(hg_strategy) == 0
    assert make_bot("strong").playout_in(js_strategy) == getattr(js_strategy, "PLAYOUT", 0)
    bad_specs = ("iterations=-1", "time=0,iterations=0", "c=-1", "dets=0", "reply=2", "playout=-1", "reply=0,playout=2")
    for bad in (f"strong:{spec}" for spec in bad_specs):
        with pytest.raises(ValueError):
            make_bot(bad)


@pytest.mark.parametrize("cls", [HG, JS])
@pytest.mark.parametrize("playout", [0, 3])
def test_a_new_move_is_valued_after_the_reply_and_the_playout(cls, playout):
    """One iteration expands the root's best move by prior, in the first determinization, and values
    it by the estimate after the next mover's best reply and `playout` further best moves by
    estimate: the same walk done here by hand gives the same reward."""
    game = cls.new(players=2, seed=3)
    for _ in range(7):
        game.play(make_bot("greedy:seed=1")(game))
    obs = Observation.of(game)
    bot = make_bot(f"strong:iterations=1,playout={playout},seed=4")
    bot(game)
    ((code, visits, mean, _),) = bot.last_stats
    strat = strategy_for(cls)
    state = obs.determinized(_mix(decision_seed(4, obs) ^ 1)).search_state()
    legal = state.legal_codes()
    _, order, _ = strat.child_estimates(state, legal, strat.SCALE)
    assert code == legal[order[0]] and visits == 1
    mover = state.player
    state.play_code(code)
    for _ in range(1 + playout):
        if state.over:
            break
        legal = state.legal_codes()
        _, order, _ = strat.child_estimates(state, legal, strat.SCALE)
        state.play_code(legal[order[0]])
    assert mean == pytest.approx(_rewards(strat.estimates(state), strat.SCALE)[mover])


def test_strong_time_limit():
    game = HG.new(players=2, seed=1)
    bot = make_bot("strong:time=0.05,seed=1")
    assert game.is_legal(bot(game)) and bot.last_iterations > 0


def test_strategy_lookup():
    assert strategy_for(HG) is hg_strategy and strategy_for(JS.new(players=2, seed=1)) is js_strategy

    class NoStrategy:
        pass

    with pytest.raises(LookupError):
        strategy_for(NoStrategy)


@pytest.mark.parametrize("cls", [HG, JS])
def test_estimates_are_the_scores_at_the_end(cls):
    game = _match(cls, [make_bot("random:seed=1"), make_bot("random:seed=2")], 2)
    assert strategy_for(cls).estimates(game.search_state()) == [float(s) for s in game.scores]


def test_hg_estimate_values_a_held_forest_and_meeples_in_supply():
    game = HG.new(players=2, seed=3)
    est = hg_strategy.estimates(game.core)
    assert est[0] == est[1] > 0  # the same pieces in supply, no points yet
    codes = game.core.legal_codes()
    flat, order, priors = hg_strategy.child_estimates(game.core, codes, hg_strategy.SCALE)
    assert len(flat) == 2 * len(codes) and sorted(order) == list(range(len(codes)))
    margins = [flat[2 * i] - flat[2 * i + 1] for i in order]
    assert margins == sorted(margins, reverse=True)
    assert all(0.0 < p < 1.0 for p in priors)


def test_strong_beats_random_by_a_wide_margin():
    """Four seeded H&G games, seats alternated: with fixed iterations the games are fixed, so this
    cannot be flaky; the margins are wide (random scores a few tens)."""
    for seed in range(4):
        seat = seed % 2
        bots = [make_bot("random:seed=7"), make_bot("random:seed=7")]
        bots[seat] = make_bot("strong:iterations=20,seed=7")
        game = _match(HG, bots, 100 + seed)
        assert game.scores[seat] - game.scores[1 - seat] >= 40


def test_strong_plays_a_server_bot_seat():
    """A bot seat of the service takes the strong bot by spec (iterations only: time is refused)."""
    from hunters.service.botseats import bot_seats
    from hunters.v1 import matches_pb2

    seats = bot_seats([matches_pb2.BotSeat(seat=1, bot="strong:iterations=5")], 2, 7)
    game = HG.new(players=2, seed=7)
    game.play(game.legal_moves()[0])
    assert isinstance(seats[1], StrongBot) and game.is_legal(seats[1](game))


@pytest.mark.parametrize("cls", [HG, JS])
def test_a_set_stop_byte_ends_the_search_with_the_best_move_by_estimate(cls):
    game = cls.new(players=2, seed=3)
    for _ in range(5):
        game.play(make_bot("greedy:seed=1")(game))
    bot = make_bot("strong:iterations=500,seed=1")
    bot.stop = bytearray(b"\x01")
    move = bot(game)
    assert bot.last_iterations == 0 and bot.last_stats == []
    assert move == make_bot("strong:iterations=1,seed=1")(game)  # one iteration expands the best by estimate


def test_strong1_is_the_previous_strong_under_its_own_name():
    """`strong1` keeps the version before transpositions and the progress rule, with its options;
    in H&G (no transpositions declared) the two play alike, visit for visit."""
    assert BOTS["strong1"] is StrongBot1
    old = make_bot("strong1:iterations=40,playout=2,seed=3")
    assert old.spec.startswith("strong1:") and "merge" not in old.spec and make_bot(old.spec).spec == old.spec
    with pytest.raises(ValueError, match="no option 'merge'"):
        make_bot("strong1:merge=1")
    assert make_bot("strong").merge == 1 and make_bot("strong:merge=0,steps=1").steps == 1
    game = HG.new(players=2, seed=3)
    for _ in range(5):
        game.play(make_bot("greedy:seed=1")(game))
    new = make_bot("strong:iterations=40,playout=2,seed=3")
    assert new(game) == old(game) and new.last_stats == old.last_stats


def _jaeger_after(moves, seed=3):
    game = JS.new(players=2, seed=seed)
    bot = make_bot("strong1:iterations=10,seed=1")
    for _ in range(moves):
        game.play(bot(game))
    return game


def test_jaeger_transpositions_share_one_child():
    """Turns reaching the same position (the same steps in another order) are one root move: the
    ranking keeps one turn per estimated position, and a search's root moves differ in estimate."""
    game = _jaeger_after(4)
    state = game.search_state()
    full = _options(js_strategy, state, js_strategy.SCALE)
    merged = _options(js_strategy, state, js_strategy.SCALE, merge=True)
    order, _, flat, players, legal = merged
    after = [tuple(flat[i * players : (i + 1) * players]) for i in range(len(legal))]
    assert len(full[0]) == len(legal) > len(order) == len(set(after)) == len({after[i] for i in order})
    assert order[0] == full[0][0]  # the best move is kept
    bot = make_bot("strong:iterations=60,seed=2")
    bot(game)
    searched = [after[legal.index(code)] for code, *_ in bot.last_stats]
    assert len(searched) == len(set(searched)) > 1


def test_jaeger_a_character_alone_with_nothing_to_gain_leaves():
    """Seat 0 alone on the board in winter, every turn worth the same by the estimate: the previous
    bot walks (and would walk until the stall bound ends the season); `strong` leaves."""
    game = _jaeger_after(211)
    state = game.search_state()
    assert {seat for seat, _ in state.characters()} == {game.player} == {0}
    codes = state.legal_codes()
    flat, _, _ = js_strategy.child_estimates(state, codes, js_strategy.SCALE)
    assert len({tuple(flat[i * 2 : i * 2 + 2]) for i in range(len(codes))}) == 1
    new, old = make_bot("strong:iterations=30,seed=1"), make_bot("strong1:iterations=30,seed=1")
    before = len(state.characters())
    moved = new(game)
    code = codes[game.legal_moves().index(moved)]
    assert js_strategy.progress(state, code)
    assert not js_strategy.progress(state, codes[game.legal_moves().index(old(game))])
    after = state.clone()
    after.play_code(code)
    assert len(after.characters()) < before or after.season != state.season


def test_jaeger_steps_group_turns_by_their_first_step():
    """`first_step` names a turn's first step (the search's `steps=1` chooses it first): turns with
    the same first step, and only those, share it; such a search is deterministic and legal."""
    game = _jaeger_after(4)
    state = game.search_state()
    codes = state.legal_codes()
    firsts = {}
    for code in codes:
        firsts.setdefault(js_strategy.first_step(state, code), set()).add(state.config.decode(code)[:2])
    assert len(firsts) > 1 and all(len(pairs) == 1 for pairs in firsts.values())
    a, b = make_bot("strong:iterations=40,steps=1,seed=2"), make_bot("strong:iterations=40,steps=1,seed=2")
    assert a(game) == b(game) and a.last_stats == b.last_stats and game.is_legal(a(game))


@pytest.mark.parametrize("cls", [HG, JS])
def test_halving_spends_the_budget_on_the_moves_still_in_contention(cls):
    """Sequential halving at the root: the budget is spent exactly, deterministically; each round
    halves the moves still searched, so the move played has the most visits, more than any move
    dropped in the first round; the choice comes from the root's figures as without halving."""
    game = cls.new(players=2, seed=3)
    for _ in range(7):
        game.play(make_bot("greedy:seed=1")(game))
    a, b = make_bot("strong:iterations=120,halving=1,seed=4"), make_bot("strong:iterations=120,halving=1,seed=4")
    assert a(game) == b(game) and a.last_stats == b.last_stats
    assert a.last_iterations == 120 and sum(v for _, v, _, _ in a.last_stats) == 120
    visits = sorted((v for _, v, _, _ in a.last_stats), reverse=True)
    assert visits[0] > visits[1] >= visits[-1]
    assert len(a.last_stats) == min(len(game.legal_moves()), int(2 * 120**0.5))
    assert visits[0] >= 4 * visits[-1]  # the finalists got the budget, not the first round's moves
    codes = game.search_state().legal_codes()
    played = codes[game.legal_moves().index(a(game))]
    assert max(a.last_stats, key=lambda s: s[1])[0] == played
    assert "halving=1" in a.spec and make_bot(a.spec).spec == a.spec
    with pytest.raises(ValueError):
        make_bot("strong:halving=2")
    with pytest.raises(ValueError, match="no option 'halving'"):
        make_bot("strong1:halving=1")


def test_halving_with_a_time_budget_and_the_stop_byte():
    game = JS.new(players=2, seed=3)
    for _ in range(7):
        game.play(make_bot("greedy:seed=1")(game))
    bot = make_bot("strong:time=0.2,halving=1,seed=4")
    assert game.is_legal(bot(game)) and bot.last_iterations > 0
    visits = sorted((v for _, v, _, _ in bot.last_stats), reverse=True)
    assert visits[0] > visits[1]  # the last move standing is the most visited
    bot = make_bot("strong:iterations=500,halving=1,seed=1")
    bot.stop = bytearray(b"\x01")
    assert game.is_legal(bot(game)) and bot.last_iterations == 0


@pytest.mark.parametrize("iterations", [1, 2, 3, 5, 8, 13, 40])
def test_halving_never_runs_past_a_small_budget(iterations):
    game = HG.new(players=2, seed=3)
    for _ in range(5):
        game.play(make_bot("greedy:seed=1")(game))
    bot = make_bot(f"strong:iterations={iterations},halving=1,seed=2")
    assert game.is_legal(bot(game)) and bot.last_iterations == iterations
    assert sum(v for _, v, _, _ in bot.last_stats) == iterations
