"""Carcassonne: Hunters & Gatherers (game id ``carcassonne_hg``): the public Python API.

>>> from hunters.carcassonne import Game
>>> g = Game.new(players=3, seed=7)
>>> g.tile is not None and g.player == 0
True

Its core (`hunters.carcassonne._core`) is built with OpenMP for the learning batch's threads. OpenMP
threads spin while they wait by default, which on a shared machine costs far more than they gain
(measured: 2 threads, 256 games, load 5 on 2 cores: 167,000 steps/s passive, 7,000 spinning), so they
wait passively unless the environment already says otherwise. libgomp reads this when the extension is
first loaded, which is after this package's first line: any import of the core runs this file first.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from hunters.capabilities import SimulationResult
from hunters.game_base import LegalMoves

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
