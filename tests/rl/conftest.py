"""The games `hunters.rl` is tested on: the tiny pure-Python game of `tests/tiny_tiles/game.py` and every
registered game that implements the learning surface (layout, observations, masks); OpenSpiel tests
also need external chance."""

from __future__ import annotations

import pytest

import hunters
from hunters.game_base import AnyGame
from tests.tiny_tiles.game import TinyGame

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")


def _has_surface(cls: type[AnyGame]) -> bool:
    try:
        game = cls.new(players=2, seed=0)
        game.learn_layout()
        game.observe(0)
        game.compact.mask()
    except NotImplementedError:
        return False
    return True


def _has_chance(cls: type[AnyGame]) -> bool:
    try:
        game = cls.new(players=2, seed=0, chance="external")
        game.chance_outcomes()
    except (NotImplementedError, TypeError, ValueError):
        return False
    return True


def _has_batch(cls: type[AnyGame]) -> bool:
    try:
        cls.learn_batch(2, players=2, seed=0)
    except NotImplementedError:
        return False
    return True


REAL = [hunters.games.get(i) for i in hunters.games.ids()]
LEARN_GAMES = [TinyGame] + [c for c in REAL if _has_surface(c)]
BATCH_GAMES = [c for c in LEARN_GAMES if _has_batch(c)]
CHANCE_GAMES = [c for c in LEARN_GAMES if _has_chance(c)]


def _ids(classes):
    return [c.INFO.id for c in classes]


@pytest.fixture(params=LEARN_GAMES, ids=_ids(LEARN_GAMES))
def game_cls(request):
    return request.param


@pytest.fixture(params=BATCH_GAMES, ids=_ids(BATCH_GAMES))
def batch_cls(request):
    return request.param


@pytest.fixture(params=CHANCE_GAMES, ids=_ids(CHANCE_GAMES))
def chance_cls(request):
    return request.param
