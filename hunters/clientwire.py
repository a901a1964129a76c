"""The calls of the Python clients, built and read in one place: `Calls` makes each RPC of the
contract a `Call` (the request, the token, how its reply is read, whether a lost reply is retried),
which the blocking `hunters.client.Client` and the asyncio `hunters.aio.AsyncClient` run, each its
own way. The retry rule of every client is here too (docs/clients.md#one-client-behaviour)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC
from typing import Any, Generic, Literal, TypeVar

import grpc
from google.protobuf.message import Message

from hunters.clienttypes import (
    Analysis,
    LegalMoves,
    MatchEvent,
    MatchInfo,
    MatchPage,
    PlayResult,
    ReviewReport,
    SeatPlayed,
    SeatRefused,
    Turn,
)
from hunters.status import ServiceError
from hunters.v1 import games_pb2, matches_pb2, oracle_pb2, state_pb2
from hunters.wire import adapter

__all__ = [
    "ATTEMPTS",
    "RETRIED_CODES",
    "Call",
    "Calls",
    "Position",
    "SeatMessages",
    "bearer",
    "new_request_id",
    "pause",
    "review_pause",
]

T = TypeVar("T")

ATTEMPTS = 3  # tries in all of a retried call whose reply was lost
RETRIED_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


def pause(attempt: int) -> float:
    """Seconds to wait after the failed try number `attempt` (1, 2, ...): 0.05, then 0.1, doubling."""
    return 0.025 * (1 << attempt)


def review_pause(polls: int) -> float:
    """Seconds `wait_review` waits before its poll number `polls` (1, 2, ...): 0.25, doubling to 2."""
    return min(2.0, 0.125 * (1 << min(polls, 4)))


def new_request_id() -> str:
    """A request id for a write that has none: 128 random bits as 32 lowercase hex digits."""
    return uuid.uuid4().hex


def bearer(token: str | None) -> tuple[tuple[str, str], ...] | None:
    """A call's metadata carrying `token` (none without one)."""
    return (("authorization", f"Bearer {token}"),) if token else None


def _same(reply: Any) -> Any:
    return reply


@dataclass(frozen=True)
class Call(Generic[T]):
    """One call of the contract: `method` (a stub's) with `request` and `token`; `parse` reads its
    reply (each message of a stream). `retried`: a write that is safe to send again when its reply is
    lost (PlayMove with its request id, DeleteMatch); `deletes`: a retry answered MATCH_NOT_FOUND
    means the lost try deleted the match."""

    method: Callable[..., Any]
    request: Message
    parse: Callable[[Any], T] = _same
    token: str | None = None
    retried: bool = False
    deletes: bool = False

    @property
    def metadata(self) -> tuple[tuple[str, str], ...] | None:
        return bearer(self.token)

    def after(self, err: ServiceError, attempt: int, attempts: int = ATTEMPTS) -> Literal["retry", "done", "raise"]:
        """What follows the failed try number `attempt`: send it again, take it as done, or raise."""
        if self.deletes and attempt > 1 and err.reason == "MATCH_NOT_FOUND":
            return "done"
        if self.retried and attempt < attempts and err.code in RETRIED_CODES:
            return "retry"
        return "raise"


@dataclass(frozen=True)
class Position:
    """What `analyze` analyses: a stored match (`match_id`, at `version`, None: the latest; `token`:
    a seat's, for a match not over), or a position sent (`game`, `players`, `moves`, `seed` or
    `options`)."""

    match_id: str = ""
    version: int | None = None
    token: str | None = None
    game: str = ""
    players: int = 0
    moves: tuple[Any, ...] = ()
    seed: int | None = None
    options: dict[str, Any] | None = None


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


def _config(game: str, players: int, seed: int | None, options: dict[str, Any] | None) -> matches_pb2.GameConfig:
    config = matches_pb2.GameConfig(game=game, players=players)
    if seed is not None:
        config.seed = seed
    if options:
        adapter(game).options_to_proto(options, config)
    return config


def match_event(ad: Any, ev: matches_pb2.WatchMatchResponse) -> MatchEvent:
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


def play_result(game: str, resp: matches_pb2.PlayMoveResponse) -> PlayResult:
    """PlayMove's reply in the game API's terms."""
    ad = adapter(game)
    over = resp.state.status == state_pb2.GAME_STATUS_OVER
    return PlayResult(
        resp.version, [ad.event_from_proto(e) for e in resp.events], resp.state, over, tuple(resp.state.winners)
    )


class Calls:
    """Every RPC of the contract as a `Call` on the given stubs (blocking or asyncio alike)."""

    def __init__(self, matches: Any, oracle: Any, games: Any):
        self.matches, self.oracle, self.games = matches, oracle, games

    # -- matches ---------------------------------------------------------------------------------
    def create_match(
        self,
        game: str,
        players: int,
        seed: int | None,
        options: dict[str, Any] | None,
        token: str | None,
        bots: dict[int, str] | None,
        hints: bool = False,
    ) -> Call[MatchInfo]:
        config = _config(game, players, seed, options)
        for seat, spec in sorted((bots or {}).items()):
            config.bots.add(seat=seat, bot=spec)
        config.hints = hints

        def created(r: matches_pb2.CreateMatchResponse) -> MatchInfo:
            return _match_info(r.match, tuple(r.seat_tokens), r.admin_token)

        return Call(self.matches.CreateMatch, matches_pb2.CreateMatchRequest(config=config), created, token)

    def get_match(self, match_id: str) -> Call[MatchInfo]:
        request = matches_pb2.GetMatchRequest(match_id=match_id)
        return Call(self.matches.GetMatch, request, lambda r: _match_info(r.match))

    def list_matches(self, game: str, page_size: int, page_token: str) -> Call[MatchPage]:
        request = matches_pb2.ListMatchesRequest(page_size=page_size, page_token=page_token, game=game)
        return Call(
            self.matches.ListMatches,
            request,
            lambda r: MatchPage([_match_info(m) for m in r.matches], r.next_page_token),
        )

    def delete_match(self, match_id: str, admin_token: str) -> Call[None]:
        request = matches_pb2.DeleteMatchRequest(match_id=match_id)
        return Call(self.matches.DeleteMatch, request, lambda r: None, admin_token, retried=True, deletes=True)

    def legal_moves(self, match_id: str, game: str) -> Call[LegalMoves]:
        ad = adapter(game)

        def legal(r: matches_pb2.ListLegalMovesResponse) -> LegalMoves:
            return LegalMoves(((ad.move_from_proto(lm.move), lm.action) for lm in r.moves), r.version, r.player)

        return Call(self.matches.ListLegalMoves, matches_pb2.ListLegalMovesRequest(match_id=match_id), legal)

    def play(
        self,
        match_id: str,
        game: str | None,
        move: Any,
        action: int | None,
        expected_version: int | None,
        request_id: str,
        changes_only: bool,
        token: str,
    ) -> Call[matches_pb2.PlayMoveResponse]:
        """PlayMove, with a request id made up when there is none; `game` is needed for a structured
        move only. Its reply is read by `play_result` (once the game is known)."""
        request = matches_pb2.PlayMoveRequest(
            match_id=match_id, request_id=request_id or new_request_id(), changes_only=changes_only
        )
        if expected_version is not None:
            request.expected_version = expected_version
        if action is not None:
            request.action = action
        elif move is not None:
            assert game is not None, "a structured move needs its game"
            request.move.CopyFrom(adapter(game).move_to_proto(move))
        return Call(self.matches.PlayMove, request, token=token, retried=True)

    def watch(self, match_id: str, from_version: int, game: str) -> Call[MatchEvent]:
        ad = adapter(game)
        request = matches_pb2.WatchMatchRequest(match_id=match_id, from_version=from_version)
        return Call(self.matches.WatchMatch, request, lambda ev: match_event(ad, ev))

    def get_record(self, match_id: str, admin_token: str | None) -> Call[dict[str, Any]]:
        request = matches_pb2.GetRecordRequest(match_id=match_id)
        return Call(self.matches.GetRecord, request, lambda r: json.loads(r.record_json), admin_token)

    def request_review(self, match_id: str) -> Call[ReviewReport]:
        request = matches_pb2.RequestReviewRequest(match_id=match_id)
        return Call(self.matches.RequestReview, request, lambda r: ReviewReport.of(r.report))

    def get_review(self, match_id: str) -> Call[ReviewReport]:
        request = matches_pb2.GetReviewRequest(match_id=match_id)
        return Call(self.matches.GetReview, request, lambda r: ReviewReport.of(r.report))

    # -- oracle ----------------------------------------------------------------------------------
    def analyze(self, position: Position, seat: int | None, top_k: int, iterations: int) -> Call[Analysis]:
        request = oracle_pb2.AnalyzeRequest(top_k=top_k, iterations=iterations)
        if seat is not None:
            request.seat = seat
        if position.match_id:
            request.match_id = position.match_id
            if position.version is not None:
                request.version = position.version
        else:
            ad = adapter(position.game)
            request.config.CopyFrom(_config(position.game, position.players, position.seed, position.options))
            request.moves.extend(ad.move_to_proto(m) for m in position.moves)
        return Call(self.oracle.Analyze, request, Analysis.of, position.token)

    def evaluate(
        self,
        game: str,
        players: int,
        moves: list[Any],
        seed: int | None,
        options: dict[str, Any] | None,
        include_legal_moves: bool,
    ) -> Call[oracle_pb2.EvaluateResponse]:
        ad = adapter(game)
        request = oracle_pb2.EvaluateRequest(
            config=_config(game, players, seed, options),
            moves=[ad.move_to_proto(m) for m in moves],
            include_legal_moves=include_legal_moves,
        )
        return Call(self.oracle.Evaluate, request)

    def simulate(self, game: str, players: int, games: int, seed: int) -> Call[oracle_pb2.SimulateGamesResponse]:
        request = oracle_pb2.SimulateGamesRequest(game=game, players=players, games=games, seed=seed)
        return Call(self.oracle.SimulateGames, request)

    def perft(
        self,
        game: str,
        players: int,
        depth: int,
        moves: Iterable[Any],
        seed: int | None,
        options: dict[str, Any] | None,
        chance: bool,
        divide: bool,
        max_nodes: int,
    ) -> Call[oracle_pb2.PerftResponse]:
        ad = adapter(game)
        request = oracle_pb2.PerftRequest(
            config=_config(game, players, seed, options),
            moves=[ad.move_to_proto(m) for m in moves],
            depth=depth,
            chance=chance,
            divide=divide,
            max_nodes=max_nodes,
        )
        return Call(self.oracle.Perft, request)

    def conformance_vectors(self, game: str) -> Call[list[oracle_pb2.ConformanceVectorFile]]:
        request = oracle_pb2.ListConformanceVectorsRequest(game=game)
        return Call(self.oracle.ListConformanceVectors, request, lambda r: list(r.files))

    def conformance_vector_file(self, game: str, name: str, version: str) -> Call[list[dict[str, Any]]]:
        request = oracle_pb2.GetConformanceVectorsRequest(game=game, name=name, version=version)
        return Call(
            self.oracle.GetConformanceVectors,
            request,
            lambda r: [json.loads(line) for line in r.content.splitlines() if line.strip()],
        )

    # -- games -----------------------------------------------------------------------------------
    def list_games(self) -> Call[list[games_pb2.GameSummary]]:
        return Call(self.games.ListGames, games_pb2.ListGamesRequest(), lambda r: list(r.games))

    def game_info(self, game: str) -> Call[games_pb2.GetGameInfoResponse]:
        return Call(self.games.GetGameInfo, games_pb2.GetGameInfoRequest(game=game))


def seat_open(match_id: str, resume_version: int | None, changes_only: bool = False) -> matches_pb2.PlaySeatRequest:
    opening = matches_pb2.PlaySeatOpen(match_id=match_id, changes_only=changes_only)
    if resume_version is not None:
        opening.resume_version = resume_version
    return matches_pb2.PlaySeatRequest(open=opening)


class SeatMessages:
    """What the blocking and the asyncio seat streams share: their requests and the decoding of
    their messages, in the game API's terms. `version` is the last version the stream delivered (-1
    before any, or the resume version): what to reopen a stream with after it failed."""

    game: str
    _ad: Any
    version: int

    def _move(
        self, turn: Turn | int, move: Any = None, action: int | None = None, request_id: str = ""
    ) -> matches_pb2.PlaySeatRequest:
        version = turn.version if isinstance(turn, Turn) else turn
        play = matches_pb2.PlaySeatMove(version=version, request_id=request_id or new_request_id())
        if action is not None:
            play.action = action
        elif move is not None:
            play.move.CopyFrom(self._ad.move_to_proto(move))
        return matches_pb2.PlaySeatRequest(play=play)

    def _seen(self, msg: matches_pb2.PlaySeatResponse) -> matches_pb2.PlaySeatResponse:
        if msg.HasField("event"):
            self.version = msg.event.version
        return msg

    def event(self, ev: matches_pb2.WatchMatchResponse) -> MatchEvent:
        """A version of the match in the game API's terms."""
        return match_event(self._ad, ev)

    def decode(self, msg: matches_pb2.PlaySeatResponse) -> list[MatchEvent | Turn | SeatPlayed | SeatRefused]:
        """One message in the game API's terms, in reading order: the event, the answer, the turn."""
        out: list[MatchEvent | Turn | SeatPlayed | SeatRefused] = []
        if msg.HasField("event"):
            out.append(self.event(msg.event))
        if msg.HasField("played"):
            p = msg.played
            out.append(SeatPlayed(p.version, p.request_id, p.retried))
        if msg.HasField("refused"):
            out.append(SeatRefused.of(msg.refused))
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
            refused = SeatRefused.of(msg.refused)
            if on_refused is None:
                raise refused.error
            on_refused(refused)
        return Turn(msg.your_turn, self.game) if msg.HasField("your_turn") else None

    @staticmethod
    def _answer(choice: Any) -> dict[str, Any]:
        """`play`'s arguments for what a bot chose: an action code (an int) or a move."""
        return {"action": choice} if isinstance(choice, int) else {"move": choice}
