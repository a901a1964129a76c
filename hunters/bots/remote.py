"""Play one seat of a match on a hunters server with a built-in bot (`hunters play`).

The seat sees what the service shows everyone: the match's public watch stream (set-up state, every
move with the state after it) and its public configuration. From that, `rebuild` makes a local game
that looks exactly the same to the seat — the tiles drawn so far in the order they were drawn
(H&G), the summer layout, start positions and the winter tiles once dealt (Jäger), every move — with
the hidden parts in a canonical order; the bot then sees `Observation.of(local game, seat)`, as in
the arena. Each rebuilt game is checked against the server's latest state (board and supplies).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import hunters
from hunters.client import Client, MatchEvent
from hunters.game_base import GameBase
from hunters.v1 import matches_pb2, state_pb2
from hunters.wire import adapter, jaeger_token

from .base import Bot, Observation

__all__ = ["RemoteError", "play_match", "rebuild"]


class RemoteError(RuntimeError):
    """The match cannot be followed (a configuration the rebuild does not support, or a mismatch)."""


def _carcassonne(players: int, states: Sequence[state_pb2.MatchState], moves: Sequence[Any]) -> GameBase:
    from hunters.carcassonne import Game
    from hunters.carcassonne.tiles import MENHIR_TILES, NORMAL_TILES

    menhir_set = set(MENHIR_TILES)
    drawn: tuple[list[int], list[int]] = ([], [])
    seen_discards = 0
    for st in states:
        c = st.carcassonne
        for t in list(c.discards)[seen_discards:]:
            drawn[t in menhir_set].append(t)
        seen_discards = len(c.discards)
        if c.HasField("tile") and c.tile not in drawn[c.tile in menhir_set]:
            drawn[c.tile in menhir_set].append(c.tile)
    last = states[-1].carcassonne
    rest_normal = sorted(set(NORMAL_TILES) - set(drawn[0]))
    rest_menhir = sorted(set(MENHIR_TILES) - set(drawn[1]))
    if len(rest_normal) != last.normal_pile or len(rest_menhir) != last.menhir_pile:
        raise RemoteError("the piles are not the full tile sets (explicit decks are not supported)")
    game = Game.new(players=players, normal_deck=drawn[0] + rest_normal, menhir_deck=drawn[1] + rest_menhir)
    for m in moves:
        game.play(m)
    if [(b.x, b.y, b.tile, b.rotation) for b in last.board] != game.board or list(last.meeples) != game.meeples:
        raise RemoteError("the rebuilt game does not match the server's state")
    return game


def _jaeger(
    players: int, options: dict[str, Any], states: Sequence[state_pb2.MatchState], moves: Sequence[Any]
) -> GameBase:
    from hunters.jaeger import Game
    from hunters.jaeger.tiles import STAYING, code_of, deck

    first = states[0].jaeger
    layout = [jaeger_token(s.tile) if s.HasField("tile") else None for s in first.board]
    start: list[list[int]] = [[] for _ in range(players)]
    for s in first.board:
        for seat in s.characters:
            start[seat].append(s.space)
    probe = Game.new(players=players, summer=layout, start=start, **options)
    contents = sorted(deck("winter", tuple(probe.options["mammoths_winter"])), key=code_of)
    winter = contents
    for before, st in itertools.pairwise(states):
        if before.jaeger.season == state_pb2.SEASON_SUMMER and st.jaeger.season != state_pb2.SEASON_SUMMER:
            # the summer-ending move removed every leftover takeable tile, then the winter deck was
            # dealt in ascending space order; no winter tile is a path or a cave
            dealt = [
                jaeger_token(s.tile)
                for s in st.jaeger.board
                if s.HasField("tile") and jaeger_token(s.tile) not in STAYING
            ]
            rest = list(contents)
            for t in dealt:
                rest.remove(t)
            winter = dealt + rest
            break
    game = Game.new(players=players, summer=layout, winter=winter, start=start, **options)
    for m in moves:
        game.play(m)
    last = states[-1].jaeger
    if [jaeger_token(s.tile) if s.HasField("tile") else None for s in last.board] != game.tiles:
        raise RemoteError("the rebuilt game does not match the server's state")
    return game


def rebuild(
    game_id: str, players: int, options: dict[str, Any], states: Sequence[state_pb2.MatchState], moves: Sequence[Any]
) -> GameBase:
    """The local game of a public history: `states[v]` is the state after v moves (states[0] the
    set-up), `moves` the moves played. Exact for every decision; once a Jäger game is over, a winter
    that ended at its own set-up had its deal shown by no state, so the rebuilt game's `remove`
    events of that winter may name other tiles (nothing is left to decide then)."""
    if len(states) != len(moves) + 1:
        raise ValueError("need one state per version")
    if game_id == "carcassonne_hg":
        if options:
            raise RemoteError("carcassonne_hg options are not supported")
        return _carcassonne(players, states, moves)
    if game_id == "jaeger_sammler":
        return _jaeger(players, options, states, moves)
    raise RemoteError(f"no rebuild for game {game_id!r}")


def play_match(
    address: str, match_id: str, token: str, seat: int, bot: Bot, *, client: Client | None = None, log: Any = None
) -> MatchEvent | None:
    """Play `seat` of a match with `bot` until the match is over; return the last watch event."""
    own = client is None
    client = client or Client(address)
    try:
        resp: matches_pb2.GetMatchResponse = client._call(
            client.matches.GetMatch, matches_pb2.GetMatchRequest(match_id=match_id)
        )
        config = resp.match.config
        game_id, players = config.game, resp.match.state.players
        hunters.games.get(game_id)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}")
        options = adapter(game_id).options_kwargs(config)
        states: list[state_pb2.MatchState] = []
        moves: list[Any] = []
        last = None
        for ev in client.watch(match_id, 0):
            last = ev
            if ev.version > 0:
                moves.append(ev.move)
            states.append(ev.state)
            if ev.match_over:
                break
            if ev.version < resp.match.version or ev.state.player != seat:
                continue
            game = rebuild(game_id, players, options, states, moves)
            move = bot.choose(Observation.of(game, seat))
            client.play(match_id, move, token=token, expected_version=ev.version)
            if log:
                log(f"version {ev.version}: seat {seat} plays {move}")
        return last
    finally:
        if own:
            client.close()
