"""An asyncio client for the hunters gRPC service (grpc.aio): every call of the blocking
`hunters.client.Client`, with the same names, arguments, types, errors, retries and deadlines, as
coroutines (and async iterators for the streams).

>>> # doctest: +SKIP
>>> from hunters.aio import AsyncClient
>>> async with AsyncClient("localhost:50051") as c:
...     match = await c.create_match(game_id, players=2, seed=7)
...     # a bot's loop: one seat stream, each turn answered with an action code
...     await c.play_seat(match.match_id, match.seat_tokens[0], lambda turn: turn.actions[0])

Everything runs on the caller's event loop, in one thread: a turn's message, the bot's choice and
its answer take no thread handoffs, so many bots (of one match or of many) share one process
cheaply. `choose` may be a coroutine function (await a search in a thread, a remote model). The
requests and the reading of the replies are `hunters.clientwire`'s, shared with the blocking client."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import grpc
import grpc.aio

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
    raise_rpc_error,
    rpc_error,
)
from hunters.clientwire import (
    ATTEMPTS,
    Call,
    Calls,
    Position,
    SeatMessages,
    bearer,
    pause,
    play_result,
    review_pause,
    seat_open,
)
from hunters.v1 import games_pb2, games_pb2_grpc, matches_pb2, matches_pb2_grpc, oracle_pb2, oracle_pb2_grpc
from hunters.wire import adapter

__all__ = ["AsyncClient", "AsyncSeatStream"]

T = TypeVar("T")


class AsyncSeatStream(SeatMessages):
    """One seat of a match on one PlaySeat stream, on the event loop: `async for` it for
    `MatchEvent`s (every version), `Turn`s, `SeatPlayed` and `SeatRefused`, and answer turns with
    `await play(...)`; it ends after the match's last version. Use with `async with` (or call
    close()); `AsyncClient.seat` makes one. It does not reconnect: after an error, open another
    with `resume_version=stream.version`."""

    def __init__(
        self,
        client: AsyncClient,
        match_id: str,
        token: str,
        resume_version: int | None = None,
        timeout: float | None = None,
        changes_only: bool = False,
    ):
        self.match_id = match_id
        self._client = client
        self._token = token
        self._resume = resume_version
        self._changes_only = changes_only
        self._timeout = timeout
        self.version = -1 if resume_version is None else resume_version  # the last version seen
        self._call: Any = None

    async def open(self) -> AsyncSeatStream:
        """Start the stream (learning the match's game first); `async with` and iterating call it."""
        if self._call is None:
            self.game = await self._client._game_of(self.match_id)
            self._ad = adapter(self.game)
            self._call = self._client.matches.PlaySeat(metadata=bearer(self._token), timeout=self._timeout)
            await self._write(seat_open(self.match_id, self._resume, self._changes_only))
        return self

    async def _write(self, request: matches_pb2.PlaySeatRequest) -> None:
        try:
            await self._call.write(request)
        except grpc.RpcError as err:
            raise_rpc_error(err)

    async def play(
        self, turn: Turn | int, move: Any = None, *, action: int | None = None, request_id: str = ""
    ) -> None:
        """Answer the turn (or a version) with a move or an action code; the answer arrives on the
        stream. The move carries `request_id`, or one made up."""
        await self.open()
        await self._write(self._move(turn, move, action, request_id))

    async def messages(self) -> AsyncIterator[matches_pb2.PlaySeatResponse]:
        """The stream's messages as they arrive (PlaySeatResponse), undecoded: a message holds one
        or more of event, played / refused and your_turn, read in that order."""
        await self.open()
        try:
            while True:
                msg = await self._call.read()
                if msg is grpc.aio.EOF:
                    return
                yield self._seen(msg)
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.CANCELLED:
                raise_rpc_error(err)

    async def __aiter__(self) -> AsyncIterator[MatchEvent | Turn | SeatPlayed | SeatRefused]:
        async for msg in self.messages():
            for item in self.decode(msg):
                yield item

    def close(self) -> None:
        if self._call is not None:
            self._call.cancel()

    async def __aenter__(self) -> AsyncSeatStream:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        self.close()


class AsyncClient:
    """A connection to a hunters server on the running event loop. Use with `async with`, or
    `await close()`. `timeout` and `interceptors` (grpc.aio's) as in `hunters.client.Client`."""

    def __init__(
        self,
        address: str,
        credentials: grpc.ChannelCredentials | None = None,
        timeout: float = 30.0,
        interceptors: Sequence[Any] = (),
    ):
        given = list(interceptors) or None
        self.channel = (
            grpc.aio.secure_channel(address, credentials, interceptors=given)
            if credentials
            else grpc.aio.insecure_channel(address, interceptors=given)
        )
        self.matches = matches_pb2_grpc.MatchServiceStub(self.channel)
        self.oracle = oracle_pb2_grpc.OracleServiceStub(self.channel)
        self.games = games_pb2_grpc.GameServiceStub(self.channel)
        self.calls = Calls(self.matches, self.oracle, self.games)
        self.timeout = timeout
        self._games: dict[str, str] = {}

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _run(self, call: Call[T], attempts: int = ATTEMPTS) -> T:
        """`Client._run` on the event loop: the deadline, the retries of a lost reply, the errors."""
        for attempt in range(1, attempts + 1):
            try:
                reply = await call.method(call.request, timeout=self.timeout, metadata=call.metadata)
            except grpc.RpcError as failed:
                err = rpc_error(failed)
                then = call.after(err, attempt, attempts)
                if then == "raise":
                    raise err from None
                if then == "done":
                    return call.parse(None)
                await asyncio.sleep(pause(attempt))
            else:
                return call.parse(reply)
        raise AssertionError("unreachable: the last try raises or returns")

    async def _stream(self, call: Call[T], timeout: float | None) -> AsyncIterator[T]:
        stream = call.method(call.request, timeout=timeout, metadata=call.metadata)
        try:
            async for msg in stream:
                yield call.parse(msg)
        except grpc.RpcError as err:
            raise_rpc_error(err)
        finally:
            stream.cancel()

    async def _game_of(self, match_id: str) -> str:
        if match_id not in self._games:
            self._games[match_id] = (await self.get_match(match_id)).game
        return self._games[match_id]

    # -- matches -----------------------------------------------------------------------------
    async def create_match(
        self,
        game: str,
        players: int,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        token: str | None = None,
        bots: dict[int, str] | None = None,
        hints: bool = False,
    ) -> MatchInfo:
        """A new match (`Client.create_match`)."""
        match = await self._run(self.calls.create_match(game, players, seed, options, token, bots, hints))
        self._games[match.match_id] = game
        return match

    async def get_match(self, match_id: str) -> MatchInfo:
        return await self._run(self.calls.get_match(match_id))

    async def list_matches(self, game: str = "", page_size: int = 50, page_token: str = "") -> MatchPage:
        """One page of the stored matches (`Client.list_matches`)."""
        return await self._run(self.calls.list_matches(game, page_size, page_token))

    async def all_matches(self, game: str = "", page_size: int = 50) -> AsyncIterator[MatchInfo]:
        """Every stored match (of `game` if given), page after page."""
        token = ""
        while True:
            page = await self.list_matches(game, page_size, token)
            for match in page.matches:
                yield match
            token = page.next_page_token
            if not token:
                return

    async def delete_match(self, match_id: str, admin_token: str) -> None:
        """Delete a match (its admin token); retried when the reply is lost."""
        await self._run(self.calls.delete_match(match_id, admin_token))

    async def legal_moves(self, match_id: str) -> LegalMoves:
        """(move, action code) of every legal move, with the version and the seat to move."""
        return await self._run(self.calls.legal_moves(match_id, await self._game_of(match_id)))

    async def play(
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
        """Play a move or an action code (`Client.play`: request id, retries, `changes_only`)."""
        structured = move is not None and action is None
        game = await self._game_of(match_id) if structured else self._games.get(match_id)
        call = self.calls.play(match_id, game, move, action, expected_version, request_id, changes_only, token)
        reply = await self._run(call, max(1, attempts))
        return play_result(game or await self._game_of(match_id), reply)

    async def watch(
        self, match_id: str, from_version: int = 0, timeout: float | None = None
    ) -> AsyncGenerator[MatchEvent, None]:
        """Every event from `from_version` on, then live ones until the match ends."""
        call = self.calls.watch(match_id, from_version, await self._game_of(match_id))
        async for ev in self._stream(call, timeout):
            yield ev

    async def wait_turn(
        self, match_id: str, seat: int, from_version: int = 0, timeout: float | None = None
    ) -> MatchEvent | None:
        """Wait until `seat` is to move or the game is over (`Client.wait_turn`)."""
        events = self.watch(match_id, from_version, timeout)
        try:
            async for ev in events:
                if ev.match_over or ev.state.player == seat:
                    return ev
            return None
        finally:
            await events.aclose()  # cancels the stream

    def seat(
        self,
        match_id: str,
        token: str,
        resume_version: int | None = None,
        timeout: float | None = None,
        changes_only: bool = False,
    ) -> AsyncSeatStream:
        """A seat stream for the seat of `token` (`Client.seat`): `async with` it, or `async for`."""
        return AsyncSeatStream(self, match_id, token, resume_version, timeout, changes_only)

    async def play_seat(
        self,
        match_id: str,
        token: str,
        choose: Callable[[Turn], Any | Awaitable[Any]],
        *,
        resume_version: int | None = None,
        on_event: Callable[[MatchEvent], None] | None = None,
        on_refused: Callable[[SeatRefused], None] | None = None,
        changes_only: bool = True,
    ) -> MatchEvent | None:
        """Play the seat of `token` until the match ends, on one stream (`Client.play_seat`, whose
        `changes_only` this is too):
        `choose(turn)` returns (or, as a coroutine, resolves to) the move or its action code. A
        refused move raises its error, or with `on_refused` is passed to it and the turn is offered
        again. Returns the last version seen (None if the stream ended before any)."""
        last = None
        async with self.seat(match_id, token, resume_version, changes_only=changes_only) as stream:
            async for msg in stream.messages():
                if msg.HasField("event"):
                    last = msg.event  # decoded only when someone looks
                turn = stream._turn_of(msg, on_event, on_refused)
                if turn is not None:
                    choice = choose(turn)
                    if inspect.isawaitable(choice):
                        choice = await choice
                    await stream.play(turn, **stream._answer(choice))
            return None if last is None else stream.event(last)

    async def get_record(self, match_id: str, admin_token: str | None = None) -> dict[str, Any]:
        """The game's record (JSON); before the end it needs the admin token."""
        return await self._run(self.calls.get_record(match_id, admin_token))

    async def request_review(self, match_id: str) -> ReviewReport:
        """Start or find a finished match's review (`Client.request_review`)."""
        return await self._run(self.calls.request_review(match_id))

    async def get_review(self, match_id: str) -> ReviewReport:
        """A match's review as it stands (`Client.get_review`)."""
        return await self._run(self.calls.get_review(match_id))

    async def wait_review(self, match_id: str, timeout: float | None = None) -> ReviewReport:
        """Ask for a review and wait for it (`Client.wait_review`)."""
        end = None if timeout is None else time.monotonic() + timeout
        report = await self.request_review(match_id)
        polls = 0
        while not report.finished:
            polls += 1
            wait = review_pause(polls)
            if end is not None and time.monotonic() + wait > end:
                raise TimeoutError(f"the review of {match_id} is not done after {timeout:g} s")
            await asyncio.sleep(wait)
            report = await self.get_review(match_id)
        return report

    # -- oracle ------------------------------------------------------------------------------
    async def analyze(
        self,
        match_id: str = "",
        *,
        version: int | None = None,
        seat: int | None = None,
        token: str | None = None,
        game: str = "",
        players: int = 0,
        moves: Iterable[Any] = (),
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        top_k: int = 0,
        iterations: int = 0,
    ) -> Analysis:
        """A position analysed by the server's search (`Client.analyze`)."""
        position = Position(match_id, version, token, game, players, tuple(moves), seed, options)
        return await self._run(self.calls.analyze(position, seat, top_k, iterations))

    async def evaluate(
        self,
        game: str,
        players: int,
        moves: list[Any],
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        include_legal_moves: bool = False,
    ) -> oracle_pb2.EvaluateResponse:
        return await self._run(self.calls.evaluate(game, players, moves, seed, options, include_legal_moves))

    def simulate(
        self, game: str, players: int, games: int, seed: int = 0, timeout: float | None = None
    ) -> AsyncIterator[oracle_pb2.SimulateGamesResponse]:
        """Random games in the server's core (`Client.simulate`)."""
        return self._stream(self.calls.simulate(game, players, games, seed), timeout)

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
        timeout: float | None = None,
    ) -> AsyncIterator[oracle_pb2.PerftResponse]:
        """A perft count (`Client.perft`): `timeout` its deadline, by default the client's."""
        call = self.calls.perft(game, players, depth, moves, seed, options, chance, divide, max_nodes)
        return self._stream(call, self.timeout if timeout is None else timeout)

    async def conformance_vectors(self, game: str = "") -> list[oracle_pb2.ConformanceVectorFile]:
        return await self._run(self.calls.conformance_vectors(game))

    async def conformance_vector_file(self, game: str, name: str, version: str = "") -> list[dict[str, Any]]:
        return await self._run(self.calls.conformance_vector_file(game, name, version))

    # -- game information ----------------------------------------------------------------------
    async def list_games(self) -> list[games_pb2.GameSummary]:
        return await self._run(self.calls.list_games())

    async def game_info(self, game: str) -> games_pb2.GetGameInfoResponse:
        return await self._run(self.calls.game_info(game))
