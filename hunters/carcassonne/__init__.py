"""Carcassonne: Hunters & Gatherers (game id ``carcassonne_hg``): the public Python API.

>>> from hunters.carcassonne import Game
>>> g = Game.new(players=3, seed=7)
>>> g.tile is not None and g.player == 0
True
"""

from hunters.game_base import LegalMoves, SimulationResult

from .actions import ACTION_SPACE_SIZE
from .errors import IllegalMoveError, InvalidRecordError
from .game import GAME_ID, INFO, Game
from .moves import Move, Occupant, ScoreEvent
from .sim import random_games

__all__ = [
    "ACTION_SPACE_SIZE",
    "GAME_ID",
    "INFO",
    "Game",
    "IllegalMoveError",
    "InvalidRecordError",
    "LegalMoves",
    "Move",
    "Occupant",
    "ScoreEvent",
    "SimulationResult",
    "random_games",
]
