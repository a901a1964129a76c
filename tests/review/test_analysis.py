"""The analysis of a position: it reads the `strong` bot's own search, so its first move is the
bot's move; a move searched afterwards (`extend`) has the figures the full search would have given
it; the figures are consistent; a game without a search is told "not supported"."""

import math
import random

import pytest

import hunters
from hunters.bots import Observation, StrongBot, make_bot, strategy_for
from hunters.bots.search import StrongSearch, margins
from hunters.carcassonne import Game as HG
from hunters.errors import NotSupportedError
from hunters.jaeger import Game as JS
from hunters.review import Analysis, AnalysisCancelled, analyze, win_chance


def _position(cls, seed, moves, players=2):
    game = cls.new(players=players, seed=seed)
    bot = make_bot("greedy:seed=1")
    for _ in range(moves):
        game.play(bot(game))
    return game


POSITIONS = [(HG, 3, 4), (HG, 5, 31), (HG, 8, 60), (JS, 3, 5), (JS, 4, 40), (JS, 6, 90)]


@pytest.mark.parametrize(("cls", "seed", "moves"), POSITIONS)
def test_the_first_move_is_the_strong_bots_move(cls, seed, moves):
    game = _position(cls, seed, moves)
    for iterations, bot_seed in ((30, 1), (90, 7)):
        found = analyze(game, iterations=iterations, seed=bot_seed, top=4)
        bot = StrongBot(iterations=iterations, seed=bot_seed)
        played = bot(game)
        assert found.moves[0].move == played.to_json()
        assert found.moves[0].action == game.actions.from_move(played)
        assert found.analyst == bot.spec and found.iterations == bot.last_iterations == iterations
        # ranked as the bot prefers: most visited first, each listed move with its own search figures
        stats = {code: (visits, prior) for code, visits, _, prior in bot.last_stats}
        assert [m.visits for m in found.moves] == sorted((v for v, _ in stats.values()), reverse=True)[:4]


def test_default_budget_agrees_too():
    game = _position(HG, 11, 20)
    assert analyze(game).moves[0].move == StrongBot()(game).to_json()


@pytest.mark.parametrize(("cls", "seed", "moves"), POSITIONS[1:2] + POSITIONS[4:5])
def test_analysis_is_deterministic_and_consistent(cls, seed, moves):
    game = _position(cls, seed, moves)
    a = analyze(game, iterations=60, seed=2, top=3)
    assert a == analyze(game, iterations=60, seed=2, top=3)
    assert Analysis.from_json(a.to_json()) == a
    assert a.seat == a.to_move == game.player and a.moves_played == game.moves_played
    first = a.moves[0].to_json()
    assert a.position.to_json() == {k: v for k, v in first.items() if k not in ("move", "action")}
    for m in a.moves:
        assert m.margin == m.margins[a.seat] and m.margins == pytest.approx(margins(m.scores))
        assert 0.0 <= m.win <= 1.0 and m.visits >= 1
        assert m.stderr is None if m.visits < 2 else m.stderr >= 0.0
    assert len(a.moves) == 3 and a.asked == []
    if cls is HG:  # another seed searches other orders of the piles: the figures change
        assert analyze(game, iterations=60, seed=3, top=3).position != a.position


def test_an_asked_move_gets_the_chosen_moves_visits():
    game = _position(HG, 5, 31)
    legal = list(game.legal_moves())
    base = analyze(game, iterations=80, seed=1, top=len(legal))
    listed = {m.action for m in base.moves}
    unsearched = next(m for m in legal if game.actions.from_move(m) not in listed)
    chosen = next(m for m in legal if game.actions.from_move(m) == base.moves[0].action)
    found = analyze(game, iterations=80, seed=1, moves=[unsearched, chosen])
    assert found.moves == base.moves[:5] and found.position == base.position  # asking changes nothing else
    first, second = found.asked
    assert first.move == unsearched.to_json() and first.visits == base.moves[0].visits
    assert second == base.moves[0]  # the chosen move already has its visits: nothing more searched
    assert found.iterations == base.iterations + base.moves[0].visits


@pytest.mark.parametrize(("cls", "seed", "moves"), [(HG, 5, 31), (JS, 4, 40)])
def test_extend_gives_the_figures_of_the_full_search(cls, seed, moves):
    """A root move's subtree grows from its own visits only: searching it alone up to v visits gives
    exactly the figures the full search gave it with v visits."""
    game = _position(cls, seed, moves)
    obs, strat, bot = Observation.of(game), strategy_for(cls), StrongBot(iterations=120, seed=3)
    full = bot.new_search(obs, strat)
    full.run(120)
    for target in full.moves()[:3] + full.moves()[-2:]:
        alone = bot.new_search(obs, strat)
        alone.extend(target.code, target.visits)
        assert alone.moves() == [target] and alone.iterations == target.visits
    top = StrongSearch.choice(full.moves())
    assert StrongSearch.ranked(full.moves())[0] == top


def test_another_seats_view_gives_the_estimate_only():
    game = _position(JS, 4, 40)
    other = 1 - game.player
    found = analyze(game, other, iterations=40, seed=1)
    assert found.seat == other and found.to_move == game.player and found.moves == []
    assert found.position.margin == found.position.margins[other]
    with pytest.raises(ValueError, match="not to move"):
        analyze(game, other, iterations=40, moves=[game.legal_moves()[0]])


def test_a_finished_game_gives_its_final_margins():
    game = _position(HG, 2, 0)
    rng = random.Random(2)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    for seat in (0, 1):
        found = analyze(game, seat, iterations=10)
        assert found.position.scores == [float(s) for s in game.scores] and found.moves == []
        assert found.position.margin == game.scores[seat] - game.scores[1 - seat]
        assert found.position.win == (1.0 if found.position.margin > 0 else 0.0 if found.position.margin < 0 else 0.5)
    with pytest.raises(ValueError, match="over"):
        analyze(game, iterations=10)


def test_bad_arguments_are_refused_in_words():
    game = _position(HG, 3, 4)
    for kwargs, words in (
        ({"top": 0}, "top"),
        ({"iterations": 0}, "iterations"),
        ({"time": 1.0}, "iterations, not time"),
        ({"dets": 0}, "dets"),
        ({"moves": ["not a move"]}, "not a legal move"),
    ):
        with pytest.raises(ValueError, match=words):
            analyze(game, **kwargs)
    with pytest.raises(ValueError):
        analyze(game, seat=2)
    pending = HG.new(players=2, seed=1, chance="external")
    assert pending.player == -1
    with pytest.raises(ValueError, match="chance node"):
        analyze(pending)


def test_a_stop_byte_cancels():
    game = _position(HG, 3, 4)
    with pytest.raises(AnalysisCancelled):
        analyze(game, iterations=50, stop=bytearray(b"\x01"))


def test_a_game_without_a_search_is_not_supported():
    from tests.tiny_tiles.plugin import PLUGIN

    hunters.games.register(PLUGIN)
    try:
        game = hunters.games.get("tiny_tiles").new(players=2, seed=1)
        with pytest.raises(NotSupportedError, match="tiny_tiles does not support analysis") as caught:
            analyze(game)
        assert caught.value.reason == "NOT_SUPPORTED" and isinstance(caught.value, LookupError)
    finally:
        hunters.games.unregister("tiny_tiles")


def test_win_chance():
    assert win_chance(0.0, 10.0) == 0.5
    assert win_chance(10.0, 10.0) == pytest.approx(0.8413, abs=1e-4)
    assert win_chance(-10.0, 10.0) == pytest.approx(1 - 0.8413, abs=1e-4)
    assert (win_chance(3.0, 0.0), win_chance(0.0, 0.0), win_chance(-1.0, 0.0)) == (1.0, 0.5, 0.0)
    assert math.isclose(win_chance(1.0, 1e9), 0.5, abs_tol=1e-6)


def test_three_players():
    game = _position(HG, 4, 12, players=3)
    found = analyze(game, iterations=60, seed=5)
    assert found.moves[0].move == StrongBot(iterations=60, seed=5)(game).to_json()
    assert len(found.position.scores) == 3 and max(found.position.margins) >= 0 >= min(found.position.margins)
