"""Play one seat of a match on a hunters server with a built-in bot (`hunters play`).

The seat plays on its seat stream (`Client.play_seat`: one PlaySeat stream carrying every version of
the match and the seat's turns) and sees what the service shows everyone: the public versions
(set-up state, every move with the state after it) and the match's public configuration. From that,
the game's wire adapter rebuilds a local game that looks exactly the same to the seat (every move, the hidden parts in a
canonical order: `hunters.wire.GameAdapter.rebuild`); the bot then sees `Observation.of(local game,
seat)`, as in the arena.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import hunters
from hunters.client import Client, MatchEvent, Turn
from hunters.game_base import AnyGame
from hunters.v1 import state_pb2
from hunters.wire import RemoteError, adapter

from .base import Bot, Observation

__all__ = ["RemoteError", "WrongSeat", "play_match", "rebuild"]


class WrongSeat(ValueError):
    """The token is another seat's than the one the caller said: the server's turn names the token's
    seat, and nothing was played."""

    def __init__(self, said: int, server: int):
        super().__init__(
            f"the token is seat {server}'s (the server says so at its turn), not seat {said}'s: "
            f"nothing was played; give --seat {server} or seat {said}'s token"
        )
        self.said = said
        self.server = server


def rebuild(
    game_id: str, players: int, options: dict[str, Any], states: Sequence[state_pb2.MatchState], moves: Sequence[Any]
) -> AnyGame:
    """The local game of a public history (the game's wire adapter rebuilds it: see
    `hunters.wire.GameAdapter.rebuild`): `states[v]` is the state after v moves (states[0] the
    set-up), `moves` the moves played; RemoteError when it cannot be followed."""
    if len(states) != len(moves) + 1:
        raise ValueError("need one state per version")
    return adapter(game_id).rebuild(players, options, states, moves)


def play_match(
    address: str, match_id: str, token: str, seat: int, bot: Bot, *, client: Client | None = None, log: Any = None
) -> MatchEvent | None:
    """Play `seat` of a match with `bot` until the match is over; return the last watch event.
    The token's seat is the server's word: at the token's first turn, before any move is chosen,
    a seat other than `seat` raises WrongSeat."""
    own = client is None
    client = client or Client(address)
    try:
        match = client.get_match(match_id)
        config = match.config
        assert config is not None
        game_id, players = config.game, match.state.players
        hunters.games.get(game_id)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}")
        options = adapter(game_id).options_kwargs(config)
        states: list[state_pb2.MatchState] = []
        moves: list[Any] = []

        def follow(ev: MatchEvent) -> None:
            if ev.bot_failures:  # a notice (a bot handed a seat back) repeats a version
                return
            if ev.version > 0:
                moves.append(ev.move)
            states.append(ev.state)

        def choose(turn: Turn) -> Any:
            if turn.seat != seat:
                raise WrongSeat(seat, turn.seat)
            game = rebuild(game_id, players, options, states, moves)
            move = bot.choose(Observation.of(game, turn.seat))
            if log:
                log(f"version {turn.version}: seat {seat} plays {move}")
            return move

        # rebuilding the game reads every version's whole state: no summaries here
        last = client.play_seat(match_id, token, choose, on_event=follow, changes_only=False)
        return last
    finally:
        if own:
            client.close()
