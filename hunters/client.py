"""A typed Python client for the hunters gRPC service, in the game API's vocabulary.

>>> # doctest: +SKIP
>>> from hunters.client import Client
>>> with Client("localhost:50051") as c:
...     match = c.create_match(game_id, players=2, seed=7)
...     move, action = c.legal_moves(match.match_id)[0]
...     result = c.play(match.match_id, move, token=match.seat_tokens[0], expected_version=0)
...     # a bot's loop: one seat stream, each turn answered with an action code
...     c.play_seat(match.match_id, match.seat_tokens[1], lambda turn: turn.actions[0])

Moves and events are the game API's own types (each game's `Move` and event classes). Every refusal
raises a `ServiceError` (`.code`, `.reason`, `.message`, `.metadata`; its text is the line every client
writes, ``CODE REASON: message``); a move the engine refuses is also an `IllegalMoveError`
(`RemoteIllegalMoveError`). The calls, their errors, request ids and retries, paging and deadlines
are those of every client of the project (docs/clients.md#one-client-behaviour); `hunters.aio` has
the same calls on asyncio."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TypeVar

import grpc

from hunters.client_oracle import OracleCalls
from hunters.clienttypes import (
    Analysis,
    LegalMoves,
    MatchEvent,
    MatchInfo,
    MatchPage,
    PlayResult,
    RemoteIllegalMoveError,
    ReviewReport,
    SeatPlayed,
    SeatRefused,
    Turn,
    raise_rpc_error,
    rpc_error,
)
from hunters.clientwire import (
    ATTEMPTS,
    Call,
    Calls,
    SeatMessages,
    bearer,
    pause,
    play_result,
    review_pause,
    seat_open,
)
from hunters.errors import IllegalMoveError
from hunters.status import ServiceError
from hunters.v1 import games_pb2_grpc, matches_pb2, matches_pb2_grpc, oracle_pb2_grpc
from hunters.wire import adapter

__all__ = [
    "RPC_METHODS",
    "Analysis",
    "Client",
    "IllegalMoveError",
    "LegalMoves",
    "MatchEvent",
    "MatchInfo",
    "MatchPage",
    "PlayResult",
    "RemoteIllegalMoveError",
    "ReviewReport",
    "SeatPlayed",
    "SeatRefused",
    "SeatStream",
    "ServiceError",
    "Turn",
]

T = TypeVar("T")

# The facade method of every RPC of the contract, by full name: each RPC of hunters.v1 has one in
# Client and in hunters.aio.AsyncClient (a test checks this against the generated descriptors).
RPC_METHODS = {
    "hunters.v1.MatchService.CreateMatch": "create_match",
    "hunters.v1.MatchService.GetMatch": "get_match",
    "hunters.v1.MatchService.ListMatches": "list_matches",
    "hunters.v1.MatchService.DeleteMatch": "delete_match",
    "hunters.v1.MatchService.ListLegalMoves": "legal_moves",
    "hunters.v1.MatchService.PlayMove": "play",
    "hunters.v1.MatchService.WatchMatch": "watch",
    "hunters.v1.MatchService.GetRecord": "get_record",
    "hunters.v1.MatchService.PlaySeat": "seat",
    "hunters.v1.MatchService.RequestReview": "request_review",
    "hunters.v1.MatchService.GetReview": "get_review",
    "hunters.v1.OracleService.Evaluate": "evaluate",
    "hunters.v1.OracleService.SimulateGames": "simulate",
    "hunters.v1.OracleService.Perft": "perft",
    "hunters.v1.OracleService.ListConformanceVectors": "conformance_vectors",
    "hunters.v1.OracleService.GetConformanceVectors": "conformance_vector_file",
    "hunters.v1.OracleService.Analyze": "analyze",
    "hunters.v1.GameService.ListGames": "list_games",
    "hunters.v1.GameService.GetGameInfo": "game_info",
}

_CLOSE = object()


class SeatStream(SeatMessages):
    """One seat of a match on one PlaySeat stream: iterate it for `MatchEvent`s (every version),
    `Turn`s (the seat is to move), `SeatPlayed` and `SeatRefused` (answers to `play`); it ends after
    the match's last version. Use as a context manager, or call close(). It does not reconnect: after
    an error, open another with `resume_version=stream.version`."""

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
        self._requests: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._requests.put(seat_open(match_id, resume_version, changes_only))
        self.version = -1 if resume_version is None else resume_version  # the last version seen
        self._call = client.matches.PlaySeat(iter(self._requests.get, _CLOSE), metadata=bearer(token), timeout=timeout)

    def play(self, turn: Turn | int, move: Any = None, *, action: int | None = None, request_id: str = "") -> None:
        """Answer the turn (or a version) with a move or an action code; the answer arrives on the
        stream. The move carries `request_id`, or one made up."""
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
                raise_rpc_error(err)

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


class Client(OracleCalls):
    """A connection to a hunters server. Use as a context manager, or call close(). The calls of
    matches are here; those of the oracle and game information, `OracleCalls`.

    `timeout`: the deadline of each unary call, and of each try of a retried one, in seconds (and
    `perft`'s unless it is given its own). `interceptors`: gRPC client interceptors (logging, fault
    injection in tests)."""

    def __init__(
        self,
        address: str,
        credentials: grpc.ChannelCredentials | None = None,
        timeout: float = 30.0,
        interceptors: Sequence[Any] = (),
    ):
        channel = grpc.secure_channel(address, credentials) if credentials else grpc.insecure_channel(address)
        self.channel = grpc.intercept_channel(channel, *interceptors) if interceptors else channel
        self.matches = matches_pb2_grpc.MatchServiceStub(self.channel)
        self.oracle = oracle_pb2_grpc.OracleServiceStub(self.channel)
        self.games = games_pb2_grpc.GameServiceStub(self.channel)
        self.calls = Calls(self.matches, self.oracle, self.games)
        self.timeout = timeout
        self._games: dict[str, str] = {}

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self, call: Call[T], attempts: int = ATTEMPTS) -> T:
        """A unary call with the client's deadline, its reply read; a lost reply of a retried call
        is sent again (`Call.after`). An RPC error raises ServiceError."""
        for attempt in range(1, attempts + 1):
            try:
                reply = call.method(call.request, timeout=self.timeout, metadata=call.metadata)
            except grpc.RpcError as failed:
                err = rpc_error(failed)
                then = call.after(err, attempt, attempts)
                if then == "raise":
                    raise err from None
                if then == "done":
                    return call.parse(None)
                time.sleep(pause(attempt))
            else:
                return call.parse(reply)
        raise AssertionError("unreachable: the last try raises or returns")

    def _stream(self, call: Call[T], timeout: float | None) -> Generator[T, None, None]:
        """The messages of a server stream, read; an RPC error raises ServiceError."""
        stream = call.method(call.request, timeout=timeout, metadata=call.metadata)
        try:
            for msg in stream:
                yield call.parse(msg)
        except grpc.RpcError as err:
            raise_rpc_error(err)
        finally:
            stream.cancel()

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
        hints: bool = False,
    ) -> MatchInfo:
        """A new match; `token` is the operator's create token when the server requires one; `bots`
        maps seats the server plays itself to bot specs (e.g. ``{1: "mcts:iterations=1000"}``);
        `hints`: each seat's token may ask for an analysis of its own view while the match is played
        (`analyze`). Never retried: the contract has no request id for it."""
        match = self._run(self.calls.create_match(game, players, seed, options, token, bots, hints))
        self._games[match.match_id] = game
        return match

    def get_match(self, match_id: str) -> MatchInfo:
        return self._run(self.calls.get_match(match_id))

    def list_matches(self, game: str = "", page_size: int = 50, page_token: str = "") -> MatchPage:
        """One page of the stored matches, oldest first (`page_token`: the previous page's
        `next_page_token`); `all_matches` reads every page."""
        return self._run(self.calls.list_matches(game, page_size, page_token))

    def all_matches(self, game: str = "", page_size: int = 50) -> Iterator[MatchInfo]:
        """Every stored match (of `game` if given), page after page."""
        token = ""
        while True:
            page = self.list_matches(game, page_size, token)
            yield from page.matches
            token = page.next_page_token
            if not token:
                return

    def delete_match(self, match_id: str, admin_token: str) -> None:
        """Delete a match (its admin token); retried when the reply is lost."""
        self._run(self.calls.delete_match(match_id, admin_token))

    def legal_moves(self, match_id: str) -> LegalMoves:
        """(move, action code) of every legal move, with the version and the seat to move."""
        return self._run(self.calls.legal_moves(match_id, self._game_of(match_id)))

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
        attempts: int = ATTEMPTS,
    ) -> PlayResult:
        """Play a move or an action code as the seat of `token`. The request carries `request_id`
        (one is made up without it), so a lost reply (UNAVAILABLE, DEADLINE_EXCEEDED) is sent again,
        `attempts` tries in all: the server answers a repeated id with the first result. Refusals
        are never retried. `changes_only`: the result's state has no game view (the board), only
        player, status, scores and winners; cheaper for the server."""
        game = self._game_of(match_id) if move is not None and action is None else self._games.get(match_id)
        call = self.calls.play(match_id, game, move, action, expected_version, request_id, changes_only, token)
        reply = self._run(call, max(1, attempts))
        return play_result(game or self._game_of(match_id), reply)

    def watch(
        self, match_id: str, from_version: int = 0, timeout: float | None = None
    ) -> Generator[MatchEvent, None, None]:
        """Every event from `from_version` on, then live ones until the match ends (`timeout`: a
        deadline for the whole stream, none by default)."""
        return self._stream(self.calls.watch(match_id, from_version, self._game_of(match_id)), timeout)

    def wait_turn(
        self, match_id: str, seat: int, from_version: int = 0, timeout: float | None = None
    ) -> MatchEvent | None:
        """Wait until `seat` is to move or the game is over, from `from_version` on (the version you
        know): the version at which that holds. For a match with server-side bots (`bots` of
        create_match), whose moves follow yours a moment later. None if the match is deleted or
        abandoned first; `timeout`: a deadline (DEADLINE_EXCEEDED), none by default."""
        events = self.watch(match_id, from_version, timeout)
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
        move to play, or its action code (an int). A refused move raises its error, or with
        `on_refused` is passed to it and the turn is offered again. Returns the last version seen
        (None if the stream ended before any). A failed stream raises (reopen with `resume_version`
        = the last version `on_event` saw).

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

    def get_record(self, match_id: str, admin_token: str | None = None) -> dict[str, Any]:
        """The game's record (JSON); before the end it needs the admin token."""
        return self._run(self.calls.get_record(match_id, admin_token))

    record = get_record  # the name before get_record

    def request_review(self, match_id: str) -> ReviewReport:
        """Start the review of a finished match, or find it (computed once by the server, stored with
        the match): its report, `status` ``running`` with its progress, or ``done`` with the review."""
        return self._run(self.calls.request_review(match_id))

    def get_review(self, match_id: str) -> ReviewReport:
        """A match's review as it stands: ``not_requested``, ``running`` (its progress), ``done`` (the
        review) or ``failed``."""
        return self._run(self.calls.get_review(match_id))

    def wait_review(self, match_id: str, timeout: float | None = None) -> ReviewReport:
        """Ask for a finished match's review and wait until it is done (or failed): polls `get_review`
        every 0.25 s at first, 2 s at most; `timeout` in seconds (None: no bound), then TimeoutError."""
        end = None if timeout is None else time.monotonic() + timeout
        report = self.request_review(match_id)
        polls = 0
        while not report.finished:
            polls += 1
            wait = review_pause(polls)
            if end is not None and time.monotonic() + wait > end:
                raise TimeoutError(f"the review of {match_id} is not done after {timeout:g} s")
            time.sleep(wait)
            report = self.get_review(match_id)
        return report
