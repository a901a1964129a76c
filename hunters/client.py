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
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
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

__all__ = [
    "RPC_METHODS",
    "Client",
    "IllegalMoveError",
    "LegalMoves",
    "MatchEvent",
    "MatchInfo",
    "PlayResult",
    "ServiceError",
]

# The facade method of every RPC of the contract, by full name: each RPC of hunters.v1 has one (a test
# checks this against the generated descriptors).
RPC_METHODS = {
    "hunters.v1.MatchService.CreateMatch": "create_match",
    "hunters.v1.MatchService.GetMatch": "get_match",
    "hunters.v1.MatchService.ListMatches": "list_matches",
    "hunters.v1.MatchService.DeleteMatch": "delete_match",
    "hunters.v1.MatchService.ListLegalMoves": "legal_moves",
    "hunters.v1.MatchService.PlayMove": "play",
    "hunters.v1.MatchService.WatchMatch": "watch",
    "hunters.v1.MatchService.GetRecord": "record",
    "hunters.v1.OracleService.Evaluate": "evaluate",
    "hunters.v1.OracleService.SimulateGames": "simulate",
    "hunters.v1.OracleService.Perft": "perft",
    "hunters.v1.OracleService.ListConformanceVectors": "conformance_vectors",
    "hunters.v1.OracleService.GetConformanceVectors": "conformance_vector_file",
    "hunters.v1.GameService.ListGames": "list_games",
    "hunters.v1.GameService.GetGameInfo": "game_info",
}

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
    """A match as anyone may see it; `seat_tokens` and `admin_token` only from create_match."""

    match_id: str
    game: str
    version: int
    state: state_pb2.MatchState
    seat_tokens: tuple[str, ...] = ()
    admin_token: str = ""
    players: int = 0
    status: int = matches_pb2.MATCH_STATUS_UNSPECIFIED  # a MatchStatus: active, over or abandoned
    created_at: datetime | None = None
    bots: dict[int, str] = field(default_factory=dict)  # the seats the server's bots play: seat -> spec
    seed: int | None = None  # shown only once the match is over
    config: matches_pb2.GameConfig | None = None
    """The match's configuration as the server shows it (public until the match is over)."""


@dataclass(frozen=True)
class PlayResult:
    version: int
    events: list[Any]
    state: state_pb2.MatchState
    is_over: bool = False  # the move ended the game
    winners: tuple[int, ...] = ()  # the winning seats once over (several on a tie); empty before


@dataclass(frozen=True)
class MatchEvent:
    """One version of a watched match; version 0 is the creation (seat -1, no move)."""

    version: int
    seat: int
    move: Any | None
    events: list[Any]
    state: state_pb2.MatchState
    match_over: bool
    match_id: str = ""
    # A notice (the same version again, no move): server bots that failed and handed their seat back
    bot_failures: tuple[matches_pb2.BotFailure, ...] = ()


class LegalMoves(list[tuple[Any, int]]):
    """(move, action code) of every legal move (a list, as before), and the `version` they are legal
    at and the seat to move (`player`)."""

    def __init__(self, moves: Iterable[tuple[Any, int]], version: int, player: int):
        super().__init__(moves)
        self.version = version
        self.player = player


def _match_info(m: matches_pb2.Match, seat_tokens: tuple[str, ...] = (), admin_token: str = "") -> MatchInfo:
    return MatchInfo(
        m.match_id,
        m.config.game,
        m.version,
        m.state,
        seat_tokens,
        admin_token,
        players=m.config.players,
        status=m.status,
        created_at=m.created_at.ToDatetime(tzinfo=UTC) if m.HasField("created_at") else None,
        bots={b.seat: b.bot for b in m.config.bots},
        seed=m.config.seed if m.config.HasField("seed") else None,
        config=m.config,
    )


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
        return _match_info(resp.match, tuple(resp.seat_tokens), resp.admin_token)

    def get_match(self, match_id: str) -> MatchInfo:
        resp: matches_pb2.GetMatchResponse = self._call(
            self.matches.GetMatch, matches_pb2.GetMatchRequest(match_id=match_id)
        )
        return _match_info(resp.match)

    def list_matches(self, game: str = "", page_size: int = 50) -> Iterator[MatchInfo]:
        """Every match, page by page."""
        token = ""
        while True:
            resp: matches_pb2.ListMatchesResponse = self._call(
                self.matches.ListMatches,
                matches_pb2.ListMatchesRequest(page_size=page_size, page_token=token, game=game),
            )
            for m in resp.matches:
                yield _match_info(m)
            token = resp.next_page_token
            if not token:
                return

    def delete_match(self, match_id: str, admin_token: str) -> None:
        self._call(self.matches.DeleteMatch, matches_pb2.DeleteMatchRequest(match_id=match_id), admin_token)

    def legal_moves(self, match_id: str) -> LegalMoves:
        """(move, action code) of every legal move, with the version and the seat to move."""
        ad = adapter(self._game_of(match_id))
        resp: matches_pb2.ListLegalMovesResponse = self._call(
            self.matches.ListLegalMoves, matches_pb2.ListLegalMovesRequest(match_id=match_id)
        )
        return LegalMoves(((ad.move_from_proto(lm.move), lm.action) for lm in resp.moves), resp.version, resp.player)

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
        over = resp.state.status == state_pb2.GAME_STATUS_OVER
        return PlayResult(resp.version, self._events(game, resp.events), resp.state, over, tuple(resp.state.winners))

    def watch(
        self, match_id: str, from_version: int = 0, timeout: float | None = None
    ) -> Generator[MatchEvent, None, None]:
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
                    ev.match_id,
                    tuple(ev.bot_failures),
                )
        except grpc.RpcError as err:
            _raise(err)
        finally:
            stream.cancel()

    def wait_turn(self, match_id: str, seat: int, from_version: int = 0) -> MatchEvent | None:
        """Wait until `seat` is to move or the game is over, from `from_version` on (the version you
        know): the version at which that holds. For a match with server-side bots (`bots` of
        create_match), whose moves follow yours a moment later. None if the match is deleted or
        abandoned first."""
        events = self.watch(match_id, from_version)
        try:
            for ev in events:
                if ev.match_over or ev.state.player == seat:
                    return ev
            return None
        finally:
            events.close()  # cancels the stream

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

    def perft(
        self,
        game: str,
        players: int,
        depth: int,
        moves: Iterable[Any] = (),
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        chance: bool = False,
        divide: bool = False,
        max_nodes: int = 0,
    ) -> Iterator[oracle_pb2.PerftResponse]:
        """The leaves `depth` decisions below the position the moves reach, counted in the server's
        core: with `divide`, one line per root child first; the last message (``done``) is the total."""
        ad = adapter(game)
        request = oracle_pb2.PerftRequest(
            config=self._config(game, players, seed, options),
            moves=[ad.move_to_proto(m) for m in moves],
            depth=depth,
            chance=chance,
            divide=divide,
            max_nodes=max_nodes,
        )
        try:
            yield from self.oracle.Perft(request)
        except grpc.RpcError as err:
            _raise(err)

    def conformance_vectors(self, game: str = "") -> list[oracle_pb2.ConformanceVectorFile]:
        """The conformance vector files the server publishes (one game's, or every game's)."""
        resp: oracle_pb2.ListConformanceVectorsResponse = self._call(
            self.oracle.ListConformanceVectors, oracle_pb2.ListConformanceVectorsRequest(game=game)
        )
        return list(resp.files)

    def conformance_vector_file(self, game: str, name: str, version: str = "") -> list[dict[str, Any]]:
        """One vector file's vectors (JSON lines parsed; docs/conformance.md)."""
        resp: oracle_pb2.GetConformanceVectorsResponse = self._call(
            self.oracle.GetConformanceVectors,
            oracle_pb2.GetConformanceVectorsRequest(game=game, name=name, version=version),
        )
        return [json.loads(line) for line in resp.content.splitlines() if line.strip()]

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
