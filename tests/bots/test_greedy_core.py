"""The greedy bot's fast path (`CoreSearch.greedy_best`, in each game's core) chooses exactly what its
definition does (every move played on a copy and valued by the plugin's `value` in Python): the
same tied best moves in the same order, so the same move, over seeded random games of every game."""

import random

import pytest

import hunters
from hunters.bots import GreedyBot, Observation

GAMES = [g for g in hunters.games.ids() if hunters.games.get(g).new(players=2, seed=0).greedy_best() is not None]


def positions(game_id: str, players: int, seed: int):
    """Every position of a game (the seat to move's observation): random moves for an even seed,
    for an odd one half of them greedy's (longer games, fuller collections and boards)."""
    game = hunters.games.get(game_id).new(players=players, seed=seed)
    rng = random.Random(seed)
    greedy = GreedyBot(seed=seed)
    while not game.is_over:
        yield Observation.of(game)
        game.play(greedy(game) if seed % 2 and rng.random() < 0.5 else rng.choice(game.legal_moves()))


def test_some_game_has_the_fast_path():
    assert GAMES, "no registered game offers greedy_best"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game_id", GAMES)
def test_core_and_python_greedy_choose_the_same_moves(game_id, players):
    bot = GreedyBot(seed=players)
    checked = ties = 0
    for seed in range(8):
        for obs in positions(game_id, players, seed=100 * players + seed):
            fast, slow = bot.best_moves(obs), GreedyBot.best_moves_python(obs)
            assert fast == slow, (game_id, seed, obs.moves_played)
            checked += 1
            ties += len(slow) > 1
    assert checked >= 200 and ties > 0  # many positions, ties among them (the tie order is checked too)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_fast_path_is_used_and_returns_legal_moves_in_order(game_id, monkeypatch):
    game = hunters.games.get(game_id).new(players=2, seed=3)
    best = list(game.greedy_best())
    legal = list(game.legal_moves())
    assert best and all(m in legal for m in best)
    assert [legal.index(m) for m in best] == sorted({legal.index(m) for m in best})
    monkeypatch.setattr(GreedyBot, "best_moves_python", staticmethod(lambda obs: pytest.fail("slow path used")))
    assert game.is_legal(GreedyBot(seed=1)(game))


def test_a_game_without_the_fast_path_falls_back_to_python(monkeypatch):
    game_id = GAMES[0]
    cls = hunters.games.get(game_id)
    game = cls.new(players=2, seed=5)
    expected = GreedyBot(seed=2)(game)
    monkeypatch.setattr(cls, "greedy_best", lambda self: None)
    assert GreedyBot(seed=2)(game) == expected
