"""What the Python clients (`hunters.client`, `hunters.aio`) hand out: matches, pages, results, turns,
the answers of a seat stream, and errors, in the game API's vocabulary.

Every error a client raises is a `ServiceError` (code, reason, message, metadata) whose text is the
one line all the clients write, ``CODE REASON: message`` (docs/clients.md#one-client-behaviour); a
move the engine refuses is also an `IllegalMoveError` (`RemoteIllegalMoveError`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, NoReturn

import grpc

from hunters.errors import IllegalMoveError
from hunters.status import ServiceError, error_info
from hunters.v1 import matches_pb2, oracle_pb2, review_pb2, state_pb2
from hunters.wire import adapter

__all__ = [
    "Analysis",
    "Estimate",
    "LegalMoves",
    "MatchEvent",
    "MatchInfo",
    "MatchPage",
    "MoveEstimate",
    "PlayResult",
    "RemoteIllegalMoveError",
    "ReviewReport",
    "SeatPlayed",
    "SeatRefused",
    "Turn",
    "raise_rpc_error",
    "rpc_error",
    "service_error",
]


class RemoteIllegalMoveError(IllegalMoveError, ServiceError):
    """A move the server's engine refused: an `IllegalMoveError` (its `reason`, `message`) that is
    also a `ServiceError` (its `code`, `metadata`, and the clients' one line as its text)."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, metadata: dict[str, str]):
        ServiceError.__init__(self, code, reason, message, **metadata)
        self.move = None


_MOVE_CODES = (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT)
# The reasons of those codes that are about the request or the match, not the rules of the game.
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
    "BAD_DEPTH",
    "BAD_MAX_NODES",
    "BAD_PERFT",
    "ILLEGAL_MOVE",
    "MALFORMED_REQUEST",
    "SEAT_STREAM_NOT_OPEN",
    "SEAT_STREAM_OPEN_TWICE",
    "NOT_SUPPORTED",
    "WRONG_GAME",
    "BAD_MATCH_ID",
    "BAD_GAME",
    "MATCH_ABANDONED",
    "CREATE_TOKEN_REQUIRED",
    "CANCELLED",
    "SEAT_PLAYED_BY_BOT",
}


def service_error(code: grpc.StatusCode, reason: str, message: str, metadata: dict[str, str]) -> ServiceError:
    """The client's error for a status: `reason` is the code's name when the server sent none (a
    connection refused, a deadline), so that it is never empty; an engine's refusal of a move is a
    `RemoteIllegalMoveError`."""
    message = message.split(": ", 1)[1] if reason and message.startswith(reason + ": ") else message
    if code in _MOVE_CODES and reason and reason not in _SERVICE_REASONS:
        return RemoteIllegalMoveError(code, reason, message, metadata)
    return ServiceError(code, reason or code.name, message, **metadata)


def rpc_error(err: grpc.RpcError) -> ServiceError:
    """The client's error for a failed call (`service_error`)."""
    reason, metadata = error_info(err)
    return service_error(err.code(), reason, err.details() or "", metadata)


def raise_rpc_error(err: grpc.RpcError) -> NoReturn:
    raise rpc_error(err) from None


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
class MatchPage:
    """One page of `list_matches`, oldest first; `next_page_token` is "" on the last page."""

    matches: list[MatchInfo]
    next_page_token: str


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


_STATUS_CODES = {c.value[0]: c for c in grpc.StatusCode}


@dataclass(frozen=True)
class SeatRefused:
    """A move of this seat stream was refused, nothing changed (the turn is offered again).
    `error` is what PlayMove would have raised: a ServiceError (a RemoteIllegalMoveError for a
    move the rules refuse)."""

    version: int
    code: grpc.StatusCode
    reason: str
    message: str
    metadata: dict[str, str]
    request_id: str = ""

    @classmethod
    def of(cls, r: matches_pb2.MoveRefused) -> SeatRefused:
        code = _STATUS_CODES.get(r.code, grpc.StatusCode.UNKNOWN)
        return cls(r.version, code, r.reason, r.message, dict(r.metadata), r.request_id)

    @property
    def error(self) -> ServiceError:
        return service_error(self.code, self.reason, self.message, self.metadata)


@dataclass(frozen=True)
class Estimate:
    """What the server's search expects for the analysed seat (docs/review.md): its estimated final
    `margin` (own final score minus the best other one), `win` chance, the margin's `stderr` (None
    under two visits), the `visits` they rest on, every seat's expected `scores` and `margins`."""

    visits: int
    margin: float
    stderr: float | None
    win: float
    scores: tuple[float, ...]
    margins: tuple[float, ...]

    @staticmethod
    def fields(pb: review_pb2.Estimate) -> dict[str, Any]:
        return {
            "visits": pb.visits,
            "margin": pb.margin,
            "stderr": pb.stderr if pb.HasField("stderr") else None,
            "win": pb.win,
            "scores": tuple(pb.scores),
            "margins": tuple(pb.margins),
        }

    @classmethod
    def of(cls, pb: review_pb2.Estimate) -> Estimate:
        return cls(**cls.fields(pb))


@dataclass(frozen=True)
class MoveEstimate(Estimate):
    """An `Estimate` after one move: the `move` (the game API's) and its `action` code."""

    move: Any = None
    action: int = -1


@dataclass(frozen=True)
class Analysis:
    """A position analysed for `seat` by the server's search (`Client.analyze`): the game, the
    `version` (moves played), the seat to move (`player`; -1 once over), the searcher (`analyst`,
    a bot spec) and its `iterations`, the estimate of the `position`, and when `seat` is to move its
    best `moves`, ranked (the first is the strong bot's move)."""

    game: str
    version: int
    seat: int
    player: int
    analyst: str
    iterations: int
    position: Estimate
    moves: list[MoveEstimate]

    @classmethod
    def of(cls, pb: oracle_pb2.AnalyzeResponse) -> Analysis:
        ad = adapter(pb.game)
        moves = [
            MoveEstimate(**Estimate.fields(m.estimate), move=ad.move_from_proto(m.move.move), action=m.move.action)
            for m in pb.moves
        ]
        return cls(pb.game, pb.version, pb.seat, pb.player, pb.analyst, pb.iterations, Estimate.of(pb.position), moves)


_REVIEW_STATUS = {
    review_pb2.REVIEW_STATUS_NOT_REQUESTED: "not_requested",
    review_pb2.REVIEW_STATUS_RUNNING: "running",
    review_pb2.REVIEW_STATUS_DONE: "done",
    review_pb2.REVIEW_STATUS_FAILED: "failed",
}


@dataclass(frozen=True)
class ReviewReport:
    """A match's review as it stands (`Client.request_review`, `get_review`, `wait_review`): its
    `status` (``not_requested``, ``running``, ``done``, ``failed``), the decisions reviewed so far
    of all, the `review` once done (the contract's Review message: every decision, the seats'
    summaries, the `worst` decisions) and why it failed (`message`)."""

    match_id: str
    status: str
    decisions_done: int
    decisions_total: int
    review: review_pb2.Review | None = None
    message: str = ""

    @property
    def finished(self) -> bool:
        """Done or failed: nothing more will change."""
        return self.status in ("done", "failed")

    @classmethod
    def of(cls, pb: review_pb2.ReviewReport) -> ReviewReport:
        return cls(
            pb.match_id,
            _REVIEW_STATUS.get(pb.status, "unknown"),
            pb.decisions_done,
            pb.decisions_total,
            pb.review if pb.HasField("review") else None,
            pb.message,
        )
