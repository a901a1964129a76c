"""A typed Python client for the hunters gRPC service, in the game API's vocabulary.

>>> # doctest: +SKIP
>>> from hunters.client import Client
>>> with Client("localhost:50051") as c:
...     match = c.create_match(game_id, players=2, seed=7)
...     move, action = c.legal_moves(match.match_id)[0]
...     result = c.play(match.match_id, move, token=match.seat_tokens[0], expected_version=0)
...     # a bot's loop: one seat stream, each turn answered with an action code
...     c.play_seat(match.match_id, match.seat_tokens[1], lambda turn: turn.actions[0])

Moves and events are the game API's own types (each game's `Move` and event classes); refused moves raise
`IllegalMoveError` with the engine's reason; other refusals raise `ServiceError` (with `.code` and
`.reason`)."""

from __future__ import annotations

import json
import queue
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, NoReturn

import grpc
from google.protobuf.message import Message

from hunters.errors import IllegalMoveError
from hunters.status import ServiceError, error_info
from hunters.v1 import (
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
    "SeatPlayed",
    "SeatRefused",
    "SeatStream",
    "ServiceError",
    "Turn",
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
    "hunters.v1.MatchService.PlaySeat": "seat",
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


def _error(code: grpc.StatusCode, reason: str, message: str, metadata: dict[str, str]) -> Exception:
    message = message.split(": ", 1)[1] if message.startswith(reason + ": ") else message
    if code in _MOVE_CODES and reason and reason not in _SERVICE_REASONS:
        return IllegalMoveError(reason, message)
    return ServiceError(code, reason or code.name, message, **metadata)


def _raise(err: grpc.RpcError) -> NoReturn:
    reason, metadata = error_info(err)
    raise _error(err.code(), reason, err.details() or "", metadata) from None


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


class Turn:
    """The seat is to move (a YourTurn of a seat stream): answer with `SeatStream.play` carrying
    `version`. `moves` decodes the legal moves on first use; `actions` are their codes, in order."""

    def __init__(self, pb: matches_pb2.YourTurn, game: str):
        self.pb = pb
        self.game = game
        self.version = pb.version
        self.seat = pb.seat
        self.state = pb.state

    @cached_property
    def moves(self) -> LegalMoves:
        ad = adapter(self.game)
        return LegalMoves(((ad.move_from_proto(lm.move), lm.action) for lm in self.pb.moves), self.version, self.seat)

    @cached_property
    def actions(self) -> list[int]:
        return [lm.action for lm in self.pb.moves]

    def __repr__(self) -> str:
        return f"Turn(version={self.version}, seat={self.seat}, moves={len(self.pb.moves)})"


@dataclass(frozen=True)
class SeatPlayed:
    """A move of this seat stream was stored: the match's `version` after it (`retried`: its
    request_id had been played before, nothing was played again)."""

    version: int
    request_id: str = ""
    retried: bool = False


@dataclass(frozen=True)
class SeatRefused:
    """A move of this seat stream was refused, nothing changed (the turn is offered again).
    `error` is what PlayMove would have raised: IllegalMoveError or ServiceError."""

    version: int
    code: grpc.StatusCode
    reason: str
    message: str
    metadata: dict[str, str]
    request_id: str = ""

    @property
    def error(self) -> Exception:
        return _error(self.code, self.reason, self.message, self.metadata)


_STATUS_CODES = {c.value[0]: c for c in grpc.StatusCode}
_CLOSE = object()


def _bearer(token: str | None) -> tuple[tuple[str, str], ...] | None:
    """A call's metadata carrying `token` (none without one)."""
    return (("authorization", f"Bearer {token}"),) if token else None


def _match_event(ad: Any, ev: matches_pb2.WatchMatchResponse) -> MatchEvent:
    """A watched version in the game API's terms (`ad`: the game's wire adapter)."""
    return MatchEvent(
        ev.version,
        ev.seat if ev.HasField("seat") else -1,
        ad.move_from_proto(ev.move) if ev.HasField("move") else None,
        [ad.event_from_proto(e) for e in ev.events],
        ev.state,
        ev.state.status == state_pb2.GAME_STATUS_OVER,
        ev.match_id,
        tuple(ev.bot_failures),
    )


def _seat_open(match_id: str, resume_version: int | None, changes_only: bool = False) -> matches_pb2.PlaySeatRequest:
    opening = matches_pb2.PlaySeatOpen(match_id=match_id, changes_only=changes_only)
    if resume_version is not None:
        opening.resume_version = resume_version
    return matches_pb2.PlaySeatRequest(open=opening)


class _SeatMessages:
    """What the blocking and the asyncio seat streams share: their requests and the decoding of
    their messages, in the game API's terms."""

    game: str
    _ad: Any
    version: int

    def _move(
        self, turn: Turn | int, move: Any = None, action: int | None = None, request_id: str = ""
    ) -> matches_pb2.PlaySeatRequest:
        version = turn.version if isinstance(turn, Turn) else turn
        request = matches_pb2.PlaySeatRequest(play=matches_pb2.PlaySeatMove(version=version, request_id=request_id))
        if action is not None:
            request.play.action = action
        elif move is not None:
            request.play.move.CopyFrom(self._ad.move_to_proto(move))
        return request

    def _seen(self, msg: matches_pb2.PlaySeatResponse) -> matches_pb2.PlaySeatResponse:
        if msg.HasField("event"):
            self.version = msg.event.version
        return msg

    def event(self, ev: matches_pb2.WatchMatchResponse) -> MatchEvent:
        """A version of the match in the game API's terms."""
        return _match_event(self._ad, ev)

    @staticmethod
    def refused(r: matches_pb2.MoveRefused) -> SeatRefused:
        code = _STATUS_CODES.get(r.code, grpc.StatusCode.UNKNOWN)
        return SeatRefused(r.version, code, r.reason, r.message, dict(r.metadata), r.request_id)

    def decode(self, msg: matches_pb2.PlaySeatResponse) -> list[MatchEvent | Turn | SeatPlayed | SeatRefused]:
        """One message in the game API's terms, in reading order: the event, the answer, the turn."""
        out: list[MatchEvent | Turn | SeatPlayed | SeatRefused] = []
        if msg.HasField("event"):
            out.append(self.event(msg.event))
        if msg.HasField("played"):
            p = msg.played
            out.append(SeatPlayed(p.version, p.request_id, p.retried))
        if msg.HasField("refused"):
            out.append(self.refused(msg.refused))
        if msg.HasField("your_turn"):
            out.append(Turn(msg.your_turn, self.game))
        return out

    def _turn_of(
        self,
        msg: matches_pb2.PlaySeatResponse,
        on_event: Callable[[MatchEvent], None] | None,
        on_refused: Callable[[SeatRefused], None] | None,
    ) -> Turn | None:
        """One message of a `play_seat` loop: its event and refusal passed on (a refusal raised
        without `on_refused`), and the turn it offers, if any."""
        if on_event is not None and msg.HasField("event"):
            on_event(self.event(msg.event))
        if msg.HasField("refused"):
            refused = self.refused(msg.refused)
            if on_refused is None:
                raise refused.error
            on_refused(refused)
        return Turn(msg.your_turn, self.game) if msg.HasField("your_turn") else None

    @staticmethod
    def _answer(choice: Any) -> dict[str, Any]:
        """`play`'s arguments for what a bot chose: an action code (an int) or a move."""
        return {"action": choice} if isinstance(choice, int) else {"move": choice}


class SeatStream(_SeatMessages):
    """One seat of a match on one PlaySeat stream: iterate it for `MatchEvent`s (every version),
    `Turn`s (the seat is to move), `SeatPlayed` and `SeatRefused` (answers to `play`); it ends after
    the match's last version. Use as a context manager, or call close()."""

    def __init__(
        self,
        client: Client,
        match_id: str,
        token: str,
        resume_version: int | None = None,
        timeout: float | None = None,
        changes_only: bool = False,
    ):
        self.match_id = match_id
        self.game = client._game_of(match_id)
        self._ad = adapter(self.game)
        self._client = client
        self._requests: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._requests.put(_seat_open(match_id, resume_version, changes_only))
        self.version = -1 if resume_version is None else resume_version  # the last version seen
        self._call = client.matches.PlaySeat(iter(self._requests.get, _CLOSE), metadata=_bearer(token), timeout=timeout)

    def play(self, turn: Turn | int, move: Any = None, *, action: int | None = None, request_id: str = "") -> None:
        """Answer the turn (or a version) with a move or an action code; the answer arrives on the stream."""
        self._requests.put(self._move(turn, move, action, request_id))

    def messages(self) -> Iterator[matches_pb2.PlaySeatResponse]:
        """The stream's messages as they arrive (PlaySeatResponse), undecoded: for loops that
        decode only what they use. A message holds one or more of event, played / refused and
        your_turn, read in that order."""
        try:
            for msg in self._call:
                yield self._seen(msg)
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.CANCELLED:
                _raise(err)

    def __iter__(self) -> Iterator[MatchEvent | Turn | SeatPlayed | SeatRefused]:
        for msg in self.messages():
            yield from self.decode(msg)

    def close(self) -> None:
        self._requests.put(_CLOSE)
        self._call.cancel()

    def __enter__(self) -> SeatStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


def _created(resp: matches_pb2.CreateMatchResponse) -> MatchInfo:
    return _match_info(resp.match, tuple(resp.seat_tokens), resp.admin_token)


def _config(game: str, players: int, seed: int | None, options: dict[str, Any] | None) -> matches_pb2.GameConfig:
    config = matches_pb2.GameConfig(game=game, players=players)
    if seed is not None:
        config.seed = seed
    if options:
        adapter(game).options_to_proto(options, config)
    return config


def _create_request(
    game: str, players: int, seed: int | None, options: dict[str, Any] | None, bots: dict[int, str] | None
) -> matches_pb2.CreateMatchRequest:
    config = _config(game, players, seed, options)
    for seat, spec in sorted((bots or {}).items()):
        config.bots.add(seat=seat, bot=spec)
    return matches_pb2.CreateMatchRequest(config=config)


def _legal_moves(game: str, resp: matches_pb2.ListLegalMovesResponse) -> LegalMoves:
    ad = adapter(game)
    return LegalMoves(((ad.move_from_proto(lm.move), lm.action) for lm in resp.moves), resp.version, resp.player)


def _play_request(
    game: str,
    match_id: str,
    move: Any,
    action: int | None,
    expected_version: int | None,
    request_id: str,
    changes_only: bool = False,
) -> matches_pb2.PlayMoveRequest:
    request = matches_pb2.PlayMoveRequest(match_id=match_id, request_id=request_id, changes_only=changes_only)
    if expected_version is not None:
        request.expected_version = expected_version
    if action is not None:
        request.action = action
    elif move is not None:
        request.move.CopyFrom(adapter(game).move_to_proto(move))
    return request


def _play_result(game: str, resp: matches_pb2.PlayMoveResponse) -> PlayResult:
    ad = adapter(game)
    over = resp.state.status == state_pb2.GAME_STATUS_OVER
    return PlayResult(
        resp.version, [ad.event_from_proto(e) for e in resp.events], resp.state, over, tuple(resp.state.winners)
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
            return method(request, timeout=self.timeout, metadata=_bearer(token))
        except grpc.RpcError as err:
            _raise(err)

    def _game_of(self, match_id: str) -> str:
        if match_id not in self._games:
            self._games[match_id] = self.get_match(match_id).game
        return self._games[match_id]

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
        resp: matches_pb2.CreateMatchResponse = self._call(
            self.matches.CreateMatch, _create_request(game, players, seed, options, bots), token
        )
        self._games[resp.match.match_id] = game
        return _created(resp)

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
        game = self._game_of(match_id)
        resp: matches_pb2.ListLegalMovesResponse = self._call(
            self.matches.ListLegalMoves, matches_pb2.ListLegalMovesRequest(match_id=match_id)
        )
        return _legal_moves(game, resp)

    def play(
        self,
        match_id: str,
        move: Any = None,
        *,
        token: str,
        action: int | None = None,
        expected_version: int | None = None,
        request_id: str = "",
        changes_only: bool = False,
    ) -> PlayResult:
        """Play a move or an action code as the seat of `token`. `changes_only`: the result's state
        has no game view (the board), only player, status, scores and winners; cheaper for the
        server, and all a bot needs that reads the board from `legal_moves` or its turn."""
        game = self._game_of(match_id)
        request = _play_request(game, match_id, move, action, expected_version, request_id, changes_only)
        resp: matches_pb2.PlayMoveResponse = self._call(self.matches.PlayMove, request, token)
        return _play_result(game, resp)

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
                yield _match_event(ad, ev)
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

    def seat(
        self,
        match_id: str,
        token: str,
        resume_version: int | None = None,
        timeout: float | None = None,
        changes_only: bool = False,
    ) -> SeatStream:
        """A seat stream (PlaySeat) for the seat of `token`: every version of the match from the
        creation on (after `resume_version`, the last one seen, when reconnecting), the seat's turns
        and the answers to its moves (`timeout`: a deadline for the whole stream; `changes_only`:
        the versions' states without the game's view, the turns' states whole). See `play_seat`
        for the whole bot loop."""
        return SeatStream(self, match_id, token, resume_version, timeout, changes_only)

    def play_seat(
        self,
        match_id: str,
        token: str,
        choose: Callable[[Turn], Any],
        *,
        resume_version: int | None = None,
        on_event: Callable[[MatchEvent], None] | None = None,
        on_refused: Callable[[SeatRefused], None] | None = None,
        changes_only: bool = True,
    ) -> MatchEvent | None:
        """Play the seat of `token` until the match ends, on one stream: `choose(turn)` returns the
        move to play, or its action code (an int). A refused move raises its error (IllegalMoveError
        or ServiceError), or with `on_refused` is passed to it and the turn is offered again.
        Returns the last version seen (None if the stream ended before any).

        Each turn carries the whole state; the versions passed to `on_event` carry only the state's
        common fields (player, status, scores, winners) unless `changes_only=False`, which costs
        the server a board's encoding per version."""
        last = None
        with self.seat(match_id, token, resume_version, changes_only=changes_only) as stream:
            for msg in stream.messages():
                if msg.HasField("event"):
                    last = msg.event  # decoded only when someone looks
                turn = stream._turn_of(msg, on_event, on_refused)
                if turn is not None:
                    stream.play(turn, **stream._answer(choose(turn)))
            return None if last is None else stream.event(last)

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
            config=_config(game, players, seed, options),
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
            config=_config(game, players, seed, options),
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
