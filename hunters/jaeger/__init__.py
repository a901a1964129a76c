"""Jäger und Sammler (game id ``jaeger_sammler``): the public Python API.

>>> from hunters.jaeger import Game, Move, Step
>>> g = Game.new(players=3, seed=7)
>>> g.season, g.player, len(g.characters)
('summer', 0, 12)
"""

from hunters.errors import IllegalMoveError, InvalidRecordError

from .actions import ACTION_SPACE_SIZE
from .board import Board, default_board
from .game import DEFAULT_OPTIONS, GAME_ID, INFO, Game, LegalMoves
from .moves import Collection, Event, Move, Step
from .sim import SimulationResult, play_random_game, random_games

__all__ = [
    "ACTION_SPACE_SIZE",
    "DEFAULT_OPTIONS",
    "GAME_ID",
    "INFO",
    "Board",
    "Collection",
    "Event",
    "Game",
    "IllegalMoveError",
    "InvalidRecordError",
    "LegalMoves",
    "Move",
    "SimulationResult",
    "Step",
    "default_board",
    "play_random_game",
    "random_games",
]
