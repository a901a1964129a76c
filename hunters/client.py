"""A typed Python client for the hunters gRPC service, in the game API's vocabulary.

>>> # doctest: +SKIP
>>> from hunters.client import Client
>>> with Client("localhost:50051") as c:
...     match = c.create_match(game_id, players=2, seed=7)
...     move, action = c.legal_moves(match.match_id)[0]
...     result = c.play(match.match_id, move, token=match.seat_tokens[0], expected_version=0)

Moves and events are the game API's own types (each game's `Move` and event classes); refused moves raise
`IllegalMoveError` with the engine's reason; other refusals raise `ServiceError` (with `.code` and
`.reason`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

import grpc
from google.protobuf.message import Message

from hunters.errors import IllegalMoveError
from hunters.status import ServiceError, error_info
from hunters.v1 import (
    events_pb2,
    games_pb2,
    games_pb2_grpc,
    matches_pb2,
    matches_pb2_grpc,
    oracle_pb2,
    oracle_pb2_grpc,
    state_pb2,
)
from hunters.wire import adapter

__all__ = ["Client", "IllegalMoveError", "MatchEvent", "MatchInfo", "PlayResult", "ServiceError"]

_MOVE_CODES = (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT)
_SERVICE_REASONS = {
    "NOT_YOUR_TURN",
    "MOVE_MISSING",
    "INVALID_CONFIG",
    "UNKNOWN_GAME",
    "MATCH_ID_MISSING",
    "REQUEST_ID_REUSED",
    "BAD_REQUEST_ID",
    "BAD_PAGE_TOKEN",
    "BAD_PAGE_SIZE",
    "BAD_VERSION",
    "BAD_GAMES",
    "NOT_SUPPORTED",
    "WRONG_GAME",
    "BAD_MATCH_ID",
    "BAD_GAME",
    "MATCH_ABANDONED",
    "CREATE_TOKEN_REQUIRED",
    "CANCELLED",
    "SEAT_PLAYED_BY_BOT",
}


def _raise(err: grpc.RpcError) -> NoReturn:
    reason, metadata = error_info(err)
    message = err.details() or ""
    message = message.split(": ", 1)[1] if message.startswith(reason + ": ") else message
    if err.code() in _MOVE_CODES and reason and reason not in _SERVICE_REASONS:
        raise IllegalMoveError(reason, message) from None
    raise ServiceError(err.code(), reason or err.code().name, message, **metadata) from None


@dataclass(frozen=True)
class MatchInfo:
    match_id: str
    game: str
    version: int
    state: state_pb2.MatchState
    seat_tokens: tuple[str, ...] = ()
    admin_token: str = ""
    config: matches_pb2.GameConfig | None = None
    """The match's configuration as the server shows it (public until the match is over)."""


@dataclass(frozen=True)
class PlayResult:
    version: int
    events: list[Any]
    state: state_pb2.MatchState


@dataclass(frozen=True)
class MatchEvent:
    version: int
    seat: int
    move: Any | None
    events: list[Any]
    state: state_pb2.MatchState
    match_over: bool


class Client:
    """A connection to a hunters server. Use as a context manager, or call close()."""

    def __init__(self, address: str, credentials: grpc.ChannelCredentials | None = None, timeout: float = 30.0):
        self.channel = grpc.secure_channel(address, credentials) if credentials else grpc.insecure_channel(address)
        self.matches = matches_pb2_grpc.MatchServiceStub(self.channel)
        self.oracle = oracle_pb2_grpc.OracleServiceStub(self.channel)
        self.games = games_pb2_grpc.GameServiceStub(self.channel)
        self.timeout = timeout
        self._games: dict[str, str] = {}

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: Callable[..., Any], request: Message, token: str | None = None) -> Any:
        """`method(request)` with the timeout and token; its reply, typed by the caller (the grpc
        stubs are untyped). An RPC error becomes IllegalMoveError or ServiceError."""
        try:
            return method(
                request, timeout=self.timeout, metadata=(("authorization", f"Bearer {token}"),) if token else None
            )
        except grpc.RpcError as err:
            _raise(err)

    @staticmethod
    def _config(game: str, players: int, seed: int | None, options: dict[str, Any] | None) -> matches_pb2.GameConfig:
        config = matches_pb2.GameConfig(game=game, players=players)
        if seed is not None:
            config.seed = seed
        if options:
            adapter(game).options_to_proto(options, config)
        return config

    def _game_of(self, match_id: str) -> str:
        if match_id not in self._games:
            self._games[match_id] = self.get_match(match_id).game
        return self._games[match_id]

    @staticmethod
    def _events(game: str, pbs: Iterable[events_pb2.Event]) -> list[Any]:
        ad = adapter(game)
        return [ad.event_from_proto(e) for e in pbs]

    # -- matches -----------------------------------------------------------------------------
    def create_match(
        self,
        game: str,
        players: int,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        token: str | None = None,
        bots: dict[int, str] | None = None,
    ) -> MatchInfo:
        """A new match; `token` is the operator's create token when the server requires one; `bots`
        maps seats the server plays itself to bot specs (e.g. ``{1: "mcts:iterations=1000"}``)."""
        config = self._config(game, players, seed, options)
        for seat, spec in sorted((bots or {}).items()):
            config.bots.add(seat=seat, bot=spec)
        resp: matches_pb2.CreateMatchResponse = self._call(
            self.matches.CreateMatch, matches_pb2.CreateMatchRequest(config=config), token
        )
        self._games[resp.match.match_id] = game
        return MatchInfo(
            resp.match.match_id, game, resp.match.version, resp.match.state, tuple(resp.seat_tokens), resp.admin_token
        )

    def get_match(self, match_id: str) -> MatchInfo:
        resp: matches_pb2.GetMatchResponse = self._call(
            self.matches.GetMatch, matches_pb2.GetMatchRequest(match_id=match_id)
        )
        m = resp.match
        return MatchInfo(m.match_id, m.config.game, m.version, m.state, config=m.config)

    def list_matches(self, game: str = "", page_size: int = 50) -> Iterator[MatchInfo]:
        """Every match, page by page."""
        token = ""
        while True:
            resp: matches_pb2.ListMatchesResponse = self._call(
                self.matches.ListMatches,
                matches_pb2.ListMatchesRequest(page_size=page_size, page_token=token, game=game),
            )
            for m in resp.matches:
                yield MatchInfo(m.match_id, m.config.game, m.version, m.state)
            token = resp.next_page_token
            if not token:
                return

    def delete_match(self, match_id: str, admin_token: str) -> None:
        self._call(self.matches.DeleteMatch, matches_pb2.DeleteMatchRequest(match_id=match_id), admin_token)

    def legal_moves(self, match_id: str) -> list[tuple[Any, int]]:
        """(move, action code) of every legal move."""
        ad = adapter(self._game_of(match_id))
        resp: matches_pb2.ListLegalMovesResponse = self._call(
            self.matches.ListLegalMoves, matches_pb2.ListLegalMovesRequest(match_id=match_id)
        )
        return [(ad.move_from_proto(lm.move), lm.action) for lm in resp.moves]

    def play(
        self,
        match_id: str,
        move: Any = None,
        *,
        token: str,
        action: int | None = None,
        expected_version: int | None = None,
        request_id: str = "",
    ) -> PlayResult:
        game = self._game_of(match_id)
        request = matches_pb2.PlayMoveRequest(match_id=match_id, request_id=request_id)
        if expected_version is not None:
            request.expected_version = expected_version
        if action is not None:
            request.action = action
        elif move is not None:
            request.move.CopyFrom(adapter(game).move_to_proto(move))
        resp: matches_pb2.PlayMoveResponse = self._call(self.matches.PlayMove, request, token)
        return PlayResult(resp.version, self._events(game, resp.events), resp.state)

    def watch(self, match_id: str, from_version: int = 0, timeout: float | None = None) -> Iterator[MatchEvent]:
        """Every event from `from_version` on, then live ones until the match ends."""
        game = self._game_of(match_id)
        ad = adapter(game)
        stream = self.matches.WatchMatch(
            matches_pb2.WatchMatchRequest(match_id=match_id, from_version=from_version), timeout=timeout
        )
        try:
            for ev in stream:
                yield MatchEvent(
                    ev.version,
                    ev.seat if ev.HasField("seat") else -1,
                    ad.move_from_proto(ev.move) if ev.HasField("move") else None,
                    self._events(game, ev.events),
                    ev.state,
                    ev.state.status == state_pb2.GAME_STATUS_OVER,
                )
        except grpc.RpcError as err:
            _raise(err)
        finally:
            stream.cancel()

    def record(self, match_id: str, admin_token: str | None = None) -> dict[str, Any]:
        resp: matches_pb2.GetRecordResponse = self._call(
            self.matches.GetRecord, matches_pb2.GetRecordRequest(match_id=match_id), admin_token
        )
        record: dict[str, Any] = json.loads(resp.record_json)
        return record

    # -- oracle ------------------------------------------------------------------------------
    def evaluate(
        self,
        game: str,
        players: int,
        moves: list[Any],
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        include_legal_moves: bool = False,
    ) -> oracle_pb2.EvaluateResponse:
        ad = adapter(game)
        request = oracle_pb2.EvaluateRequest(
            config=self._config(game, players, seed, options),
            moves=[ad.move_to_proto(m) for m in moves],
            include_legal_moves=include_legal_moves,
        )
        response: oracle_pb2.EvaluateResponse = self._call(self.oracle.Evaluate, request)
        return response

    def simulate(
        self, game: str, players: int, games: int, seed: int = 0
    ) -> Iterator[oracle_pb2.SimulateGamesResponse]:
        stream = self.oracle.SimulateGames(
            oracle_pb2.SimulateGamesRequest(game=game, players=players, games=games, seed=seed)
        )
        try:
            yield from stream
        except grpc.RpcError as err:
            _raise(err)

    # -- game information ----------------------------------------------------------------------
    def list_games(self) -> list[games_pb2.GameSummary]:
        """Every game the server plays: id, name, player range, action-space size."""
        resp: games_pb2.ListGamesResponse = self._call(self.games.ListGames, games_pb2.ListGamesRequest())
        return list(resp.games)

    def game_info(self, game: str) -> games_pb2.GetGameInfoResponse:
        """A game's action layout and static data (tiles, board)."""
        resp: games_pb2.GetGameInfoResponse = self._call(
            self.games.GetGameInfo, games_pb2.GetGameInfoRequest(game=game)
        )
        return resp
