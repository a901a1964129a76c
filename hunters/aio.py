"""An asyncio client for the hunters gRPC service (grpc.aio): the match calls and the seat stream
as coroutines and async iterators, in the game API's vocabulary (the same types and errors as
`hunters.client`).

>>> # doctest: +SKIP
>>> from hunters.aio import AsyncClient
>>> async with AsyncClient("localhost:50051") as c:
...     match = await c.create_match(game_id, players=2, seed=7)
...     # a bot's loop: one seat stream, each turn answered with an action code
...     await c.play_seat(match.match_id, match.seat_tokens[0], lambda turn: turn.actions[0])

Everything runs on the caller's event loop, in one thread: a turn's message, the bot's choice and
its answer take no thread handoffs, so many bots (of one match or of many) share one process
cheaply. `choose` may be a coroutine function (await a search in a thread, a remote model). The
blocking `hunters.client.Client` has every RPC; this client has the calls of a bot's life."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import grpc.aio
from google.protobuf.message import Message

from hunters.client import (
    LegalMoves,
    MatchEvent,
    MatchInfo,
    PlayResult,
    SeatPlayed,
    SeatRefused,
    Turn,
    _bearer,
    _create_request,
    _created,
    _legal_moves,
    _match_event,
    _match_info,
    _play_request,
    _play_result,
    _raise,
    _seat_open,
    _SeatMessages,
)
from hunters.v1 import matches_pb2, matches_pb2_grpc
from hunters.wire import adapter

__all__ = ["AsyncClient", "AsyncSeatStream"]


class AsyncSeatStream(_SeatMessages):
    """One seat of a match on one PlaySeat stream, on the event loop: `async for` it for
    `MatchEvent`s (every version), `Turn`s, `SeatPlayed` and `SeatRefused`, and answer turns with
    `await play(...)`; it ends after the match's last version. Use with `async with` (or call
    close()); `AsyncClient.seat` makes one."""

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
            self._call = self._client.matches.PlaySeat(metadata=_bearer(self._token), timeout=self._timeout)
            await self._write(_seat_open(self.match_id, self._resume, self._changes_only))
        return self

    async def _write(self, request: matches_pb2.PlaySeatRequest) -> None:
        try:
            await self._call.write(request)
        except grpc.RpcError as err:
            _raise(err)

    async def play(
        self, turn: Turn | int, move: Any = None, *, action: int | None = None, request_id: str = ""
    ) -> None:
        """Answer the turn (or a version) with a move or an action code; the answer arrives on the stream."""
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
                _raise(err)

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
    `await close()`."""

    def __init__(self, address: str, credentials: grpc.ChannelCredentials | None = None, timeout: float = 30.0):
        self.channel = (
            grpc.aio.secure_channel(address, credentials) if credentials else grpc.aio.insecure_channel(address)
        )
        self.matches = matches_pb2_grpc.MatchServiceStub(self.channel)
        self.timeout = timeout
        self._games: dict[str, str] = {}

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, method: Callable[..., Any], request: Message, token: str | None = None) -> Any:
        """`await method(request)` with the timeout and token; an RPC error becomes
        IllegalMoveError or ServiceError, as in `hunters.client`."""
        try:
            return await method(request, timeout=self.timeout, metadata=_bearer(token))
        except grpc.RpcError as err:
            _raise(err)

    async def _game_of(self, match_id: str) -> str:
        if match_id not in self._games:
            self._games[match_id] = (await self.get_match(match_id)).game
        return self._games[match_id]

    async def create_match(
        self,
        game: str,
        players: int,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        token: str | None = None,
        bots: dict[int, str] | None = None,
    ) -> MatchInfo:
        """A new match (`Client.create_match`)."""
        resp: matches_pb2.CreateMatchResponse = await self._call(
            self.matches.CreateMatch, _create_request(game, players, seed, options, bots), token
        )
        self._games[resp.match.match_id] = game
        return _created(resp)

    async def get_match(self, match_id: str) -> MatchInfo:
        resp: matches_pb2.GetMatchResponse = await self._call(
            self.matches.GetMatch, matches_pb2.GetMatchRequest(match_id=match_id)
        )
        return _match_info(resp.match)

    async def legal_moves(self, match_id: str) -> LegalMoves:
        """(move, action code) of every legal move, with the version and the seat to move."""
        game = await self._game_of(match_id)
        resp: matches_pb2.ListLegalMovesResponse = await self._call(
            self.matches.ListLegalMoves, matches_pb2.ListLegalMovesRequest(match_id=match_id)
        )
        return _legal_moves(game, resp)

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
    ) -> PlayResult:
        """Play a move or an action code (`Client.play`, `changes_only` included)."""
        game = await self._game_of(match_id)
        request = _play_request(game, match_id, move, action, expected_version, request_id, changes_only)
        resp: matches_pb2.PlayMoveResponse = await self._call(self.matches.PlayMove, request, token)
        return _play_result(game, resp)

    async def watch(
        self, match_id: str, from_version: int = 0, timeout: float | None = None
    ) -> AsyncIterator[MatchEvent]:
        """Every event from `from_version` on, then live ones until the match ends."""
        ad = adapter(await self._game_of(match_id))
        call = self.matches.WatchMatch(
            matches_pb2.WatchMatchRequest(match_id=match_id, from_version=from_version), timeout=timeout
        )
        try:
            async for ev in call:
                yield _match_event(ad, ev)
        except grpc.RpcError as err:
            _raise(err)
        finally:
            call.cancel()

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
