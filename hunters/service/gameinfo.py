"""GameService: which games the server plays, their dense-action layouts and static component data
(ListGames, GetGameInfo). The summary comes from each game's `GameInfo`, the details from its wire
adapter; the answers never change while the server runs, so each is built once."""

from __future__ import annotations

import functools
import json

from hunters import games, wire
from hunters.v1 import games_pb2

from .errors import invalid

__all__ = ["game_info", "list_games"]


@functools.cache
def summary(game_id: str) -> games_pb2.GameSummary:
    """What the game contract (`GameInfo`) says of a game."""
    info = games.info(game_id)
    return games_pb2.GameSummary(
        game=game_id,
        display_name=info.name,
        min_players=info.min_players,
        max_players=info.max_players,
        action_space_size=info.action_space_size,
        perfect_information=info.perfect_information,
        chance=info.chance,
        utility=info.utility,
        reward_scale=info.reward_scale,
        options=[
            games_pb2.GameOption(
                name=o.name,
                type=o.type,
                default_json=json.dumps(o.default),
                doc=o.doc,
                minimum=o.minimum,
                maximum=o.maximum,
                choices=o.choices,
            )
            for o in info.options
        ],
    )


# -- the RPCs as plain functions --------------------------------------------------------------
def list_games() -> games_pb2.ListGamesResponse:
    return _list_games(tuple(games.ids()))


@functools.cache
def _list_games(ids: tuple[str, ...]) -> games_pb2.ListGamesResponse:
    return games_pb2.ListGamesResponse(games=[summary(g) for g in ids])


@functools.cache
def _game_info(game_id: str) -> games_pb2.GetGameInfoResponse:
    out = games_pb2.GetGameInfoResponse(summary=summary(game_id))
    details = wire.adapter(game_id).game_info()
    if details is not None:
        field, message = details
        getattr(out, field).CopyFrom(message)
    return out


def game_info(request: games_pb2.GetGameInfoRequest) -> games_pb2.GetGameInfoResponse:
    """GetGameInfo (INVALID_ARGUMENT / UNKNOWN_GAME for an unregistered id)."""
    if request.game not in games:
        raise invalid("UNKNOWN_GAME", f"unknown game {request.game!r}; registered: {', '.join(games.ids())}")
    return _game_info(request.game)
