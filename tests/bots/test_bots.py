"""The built-in bots: legal moves through whole games, determinism, options, and the core search."""

import random
import time

import pytest

import hunters
from hunters.bots import BOTS, GreedyBot, MctsBot, Observation, RandomBot, make_bot, parse_spec
from hunters.carcassonne import Game as HG
from hunters.carcassonne import Move, Occupant
from hunters.jaeger import Game as JS
from tests.tiny_tiles.plugin import PLUGIN as TINY

GAMES = [HG, JS]


def _match(cls, bots, seed, players=2):
    """Play a whole game between bots (seat i: bots[i]); return the game."""
    game = cls.new(players=players, seed=seed)
    while not game.is_over:
        move = bots[game.player](game)
        assert game.is_legal(move)
        game.play(move)
    return game


@pytest.mark.parametrize("cls", GAMES)
def test_random_and_greedy_play_whole_games(cls):
    game = _match(cls, [make_bot("random:seed=1"), make_bot("greedy:seed=2"), make_bot("random:seed=3")], 4, 3)
    assert game.is_over


@pytest.mark.parametrize("cls", GAMES)
def test_mcts_plays_a_whole_game_deterministically(cls):
    moves = [_match(cls, [make_bot("mcts:iterations=60,seed=9"), make_bot("greedy")], 2).moves for _ in range(2)]
    assert moves[0] == moves[1]
    other = _match(cls, [make_bot("mcts:iterations=60,seed=10"), make_bot("greedy")], 2).moves
    assert other != moves[0]


@pytest.mark.parametrize("cls", GAMES)
def test_bots_are_deterministic_per_seed(cls):
    game = cls.new(players=2, seed=8)
    for spec in ("random:seed=5", "greedy:seed=5", "mcts:iterations=100,seed=5"):
        assert make_bot(spec)(game) == make_bot(spec)(game)
    picks = {make_bot(f"random:seed={s}")(game) for s in range(10)}
    assert len(picks) > 1


def test_greedy_hg_prefers_the_immediate_points():
    """Seat 0 holds a tile that closes a forest it occupies: greedy closes it; random mostly not."""
    for seed in range(200):
        game = HG.new(players=2, seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            if game.is_over:
                break
            moves = list(game.legal_moves())
            gains = []
            for m in moves:
                g = game.clone()
                before = g.scores[g.player]
                g.play(m)
                gains.append(g.scores[game.player] - before)
            if max(gains) >= 4 and gains.count(max(gains)) < len(gains) // 4:
                pick = GreedyBot(seed=1)(game)
                g = game.clone()
                g.play(pick)
                assert g.scores[game.player] - game.scores[game.player] >= max(gains) - 3
                return
            game.play(rng.choice(moves))
    raise AssertionError("no position with a clear immediate gain found")


def test_greedy_beats_random_on_both_games():
    for cls in GAMES:
        wins = 0
        for seed in range(6):
            bots = [GreedyBot(seed), RandomBot(seed)] if seed % 2 == 0 else [RandomBot(seed), GreedyBot(seed)]
            game = _match(cls, bots, seed)
            greedy_seat = 0 if seed % 2 == 0 else 1
            wins += greedy_seat in game.winners
        assert wins >= 5, cls


def test_mcts_beats_random_on_hg():
    wins = 0
    for seed in range(4):
        bots = [MctsBot(iterations=150, seed=seed), RandomBot(seed)]
        if seed % 2:
            bots.reverse()
        game = _match(HG, bots, seed)
        wins += (seed % 2) in game.winners
    assert wins >= 4


def test_spec_parsing_and_errors():
    assert parse_spec("mcts:iterations=1000,c=0.5") == ("mcts", {"iterations": 1000, "c": 0.5})
    assert parse_spec("mcts:iterations=10:seed=3") == ("mcts", {"iterations": 10, "seed": 3})
    assert parse_spec("greedy") == ("greedy", {})
    bot = make_bot("mcts:iterations=10,seconds=0.5,c=1,seed=3")
    assert isinstance(bot, MctsBot) and (bot.iterations, bot.seconds, bot.c, bot.seed) == (10, 0.5, 1.0, 3)
    assert make_bot(bot.spec).spec == bot.spec
    assert make_bot("random", seed=7).seed == 7 and make_bot("random:seed=2", seed=7).seed == 2
    assert set(BOTS) == {"random", "greedy", "mcts", "strong", "strong1"}
    for bad in (
        "",
        "nobot",
        "mcts:iterations",
        "mcts:depth=3",
        "mcts:iterations=-1",
        "mcts:iterations=0",
        "mcts:c=-1",
        "mcts:margin=2",
        "greedy:x=1",
        "random:seed=18446744073709551616",
        "greedy:seed=-9223372036854775809",
        "mcts:c=1e308",
        "mcts:seconds=1e308",
        "strong:alpha=1e308",
        "strong:widen=1e308",
        "strong:bias=1e308",
    ):
        with pytest.raises(ValueError):
            make_bot(bad)


@pytest.mark.parametrize("cls", GAMES)
def test_core_search_counts(cls):
    game = cls.new(players=2, seed=1)
    for _ in range(6):
        game.play(game.legal_moves()[0])
    core = game.observed_by(game.player).core
    done, stats = core.mcts(500, 0.0, 0.7, 0.1, 10.0, 3)
    assert done == 500
    assert sum(v for _, v, _ in stats) == 500  # every iteration passes through one root move
    assert [c for c, _, _ in stats] == sorted(core.legal_codes())  # 500 > moves: all tried
    assert all(0.0 <= r <= 1.0 for _, _, r in stats)
    assert core.mcts(500, 0.0, 0.7, 0.1, 10.0, 3) == (done, stats)
    assert core.mcts(500, 0.0, 0.7, 0.1, 10.0, 4) != (done, stats)


def test_core_search_time_limit_and_refusals():
    core = HG.new(players=2, seed=1).core
    t = time.perf_counter()
    done, _ = core.mcts(0, 0.05, 0.7, 0.1, 20.0, 1)
    assert time.perf_counter() - t < 1.0 and done > 0
    with pytest.raises(ValueError):
        core.mcts(0, 0.0, 0.7, 0.1, 20.0, 1)
    over = _match(HG, [RandomBot(), RandomBot()], 1)
    with pytest.raises(ValueError):
        over.core.mcts(10, 0.0, 0.7, 0.1, 20.0, 1)


@pytest.mark.parametrize("cls", GAMES)
def test_core_playouts(cls):
    game = cls.new(players=2, seed=4)
    for _ in range(8):
        game.play(game.legal_moves()[len(game.legal_moves()) // 2])
    assert not game.is_over
    core = game.core
    totals, wins, decisions = core.playouts(200, 7)
    assert (totals, wins, decisions) == core.playouts(200, 7)
    assert sum(wins) >= 200 and decisions > 0 and all(t >= s * 200 for t, s in zip(totals, game.scores))
    assert core.playouts(200, 7, True) != (totals, wins, decisions)
    assert game.view() == cls.from_record(game.to_record()).view()  # playouts leave the game alone
    with pytest.raises(ValueError):
        core.playouts(-1, 0)


def test_hg_mcts_maps_codes_back_to_moves():
    game = HG.new(players=2, seed=3)
    bot = MctsBot(iterations=200, seed=1)
    move = bot(game)
    assert isinstance(move, Move) and game.is_legal(move)
    assert move.occupant is None or isinstance(move.occupant, Occupant)
    assert bot.last_iterations == 200 and len(bot.last_stats) == len(game.legal_moves())


def test_a_bot_gets_no_hidden_information():
    """The observation a bot gets holds a game whose undrawn tiles are sorted: the true order is not there."""
    game = HG.new(players=2, seed=3)
    obs = Observation.of(game)
    normal, _ = obs.observed().core.undrawn()
    assert normal == sorted(normal) != game.core.undrawn()[0]
    assert obs.game().seed is None


def test_hg_playout_policy_bare():
    core = HG.new(players=2, seed=6).core
    assert core.playouts(100, 1, True, 0.0) == core.playouts(100, 1, True)
    assert core.playouts(100, 1, True, 0.7) != core.playouts(100, 1, True)
    done, stats = core.mcts(100, 0.0, 0.25, 1.0, 20.0, 1, 0.7)
    assert done == 100 and sum(v for _, v, _ in stats) == 100
    with pytest.raises(ValueError):
        core.mcts(100, 0.0, 0.25, 1.0, 20.0, 1, 1.5)
    with pytest.raises(ValueError):
        make_bot("mcts:bare=2")


def test_mcts_searches_in_python_where_the_game_has_no_search_of_its_own():
    """The Python search over determinizations (python_search) plays a game without the CoreSearch
    capability (the plug-in tiny_tiles); `bare`, an option of the cores' search, is refused there."""
    hunters.games.register(TINY)
    try:
        game = hunters.games.get("tiny_tiles").new(players=2, seed=1)
        bot = MctsBot(iterations=30, seed=2)
        move = bot(game)
        assert game.is_legal(move) and bot.last_iterations == 30
        assert sum(v for _, v, _ in bot.last_stats) == 30 and len(bot.last_stats) == len(game.legal_moves())
        assert MctsBot(iterations=30, seed=2)(game) == move  # deterministic for a seed and iterations
        with pytest.raises(ValueError, match="bare"):
            MctsBot(iterations=10, bare=0.5)(game)
    finally:
        hunters.games.unregister("tiny_tiles")
