"""Seat streams (PlaySeat): one bidirectional stream per seat carrying the match's every version,
the seat's turns and its moves' results.

Nothing about a move is decided here: each move goes through the servicer's PlayMove path
(`MatchServicer.play_request`, hence `MatchManager.play`), so checks, durability before the answer,
versions and request ids are PlayMove's. The versions are `MatchManager.watch`'s. This module only
merges the two directions onto one stream: a producer (watch events, then a YourTurn whenever the
seat is to move at the version just sent) and a reader (moves in, MovePlayed or MoveRefused out),
both feeding one bounded queue that the stream drains, so a slow reader holds both back. What is
ready together goes out as one message (a version and the turn at it; the version of the seat's own
move and its answer): two messages a move instead of four."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc

from hunters.v1 import matches_pb2
from hunters.wire import field_bytes as _field

from .errors import ServiceError, invalid
from .live import LiveMatch, Notice, Played
from .matches import MatchManager
from .store_base import StoreUnavailable

MAX_SEAT_STREAMS = 4  # open streams per seat of a match (a bot and its reconnects); more: RESOURCE_EXHAUSTED
QUEUE = 16  # messages waiting for the stream per seat stream (backpressure on events and answers)
_END = object()

# play(PlayMoveRequest, token) -> (the match, what was played): the servicer's PlayMove path
PlayRequest = Callable[[matches_pb2.PlayMoveRequest, str | None], Awaitable[tuple[LiveMatch, Played]]]


_EVENT, _YOUR_TURN = 1, 2  # PlaySeatResponse's fields
# Queued messages carry a rank, the order in which a client reads the fields of one message: those
# queued one after another with rising ranks go out as one message (their bytes concatenated).
_EVENT_RANK, _ANSWER_RANK, _TURN_RANK = 0, 1, 2
_MOVES = 4  # YourTurn.moves


def _refused(exc: Exception, move: matches_pb2.PlaySeatMove) -> bytes:
    if isinstance(exc, StoreUnavailable):
        code, reason, text, meta = grpc.StatusCode.UNAVAILABLE, exc.reason, "the database is unavailable: try again", {}
    else:
        assert isinstance(exc, ServiceError)
        code, reason, text, meta = exc.code, exc.reason, exc.message, exc.metadata
    return matches_pb2.PlaySeatResponse(
        refused=matches_pb2.MoveRefused(
            code=code.value[0],
            reason=reason,
            message=text,
            metadata=meta,
            version=move.version,
            request_id=move.request_id,
        )
    ).SerializeToString()


class SeatStreams:
    """The open seat streams of a server, at most MAX_SEAT_STREAMS per seat of a match."""

    def __init__(self, manager: MatchManager, play: PlayRequest):
        self.manager = manager
        self.play = play
        self.open: dict[tuple[str, int], int] = {}

    @contextlib.contextmanager
    def _counted(self, key: tuple[str, int]) -> Any:
        if self.open.get(key, 0) >= MAX_SEAT_STREAMS:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "TOO_MANY_SEAT_STREAMS",
                f"this seat has {MAX_SEAT_STREAMS} streams open already",
                match_id=key[0],
                seat=key[1],
                limit=MAX_SEAT_STREAMS,
            )
        self.open[key] = self.open.get(key, 0) + 1
        try:
            yield
        finally:
            left = self.open[key] - 1
            if left:
                self.open[key] = left
            else:
                del self.open[key]

    async def serve(
        self, requests: AsyncIterator[matches_pb2.PlaySeatRequest], token: str | None
    ) -> AsyncIterator[bytes]:
        """The stream's messages (serialized PlaySeatResponses). A bad first request, token, match or
        resume version raises (the call ends with that status); refusals of moves are messages; the
        end of the match ends it."""
        first = await anext(aiter(requests), None)
        if first is None:
            return
        if first.WhichOneof("kind") != "open":
            raise invalid("SEAT_STREAM_NOT_OPEN", "the first request of a seat stream is open (PlaySeatOpen)")
        opening = first.open
        live = await self.manager.get(opening.match_id)
        seat = self.manager.seat_of(live, token)
        self.manager.check_not_bot(live, seat)
        resume = opening.resume_version if opening.HasField("resume_version") else None
        if resume is not None and not 0 <= resume <= live.version:
            raise invalid("BAD_VERSION", f"resume_version must be from 0 to the match's version {live.version}")
        stream = _SeatStream(self, live, seat, token, opening.changes_only)
        with self._counted((live.match_id, seat)):
            async for item in stream.run(requests, 0 if resume is None else resume + 1):
                yield item


class _SeatStream:
    """One open seat stream."""

    def __init__(self, streams: SeatStreams, live: LiveMatch, seat: int, token: str | None, brief: bool):
        self.streams, self.live, self.seat, self.token = streams, live, seat, token
        self.brief = brief  # events carry the state's summary (PlaySeatOpen.changes_only)
        self.out: asyncio.Queue[Any] = asyncio.Queue(QUEUE)
        self.moving = asyncio.Lock()  # held while a move is played: the stream ends after its answer
        self.offered = -1  # the version of the last YourTurn sent
        # The version of this stream's own move and its `played` go out as one message: the producer,
        # holding that version while the move is being answered, waits for the answer here.
        self.waiting = False
        self.answer: bytes | None = None
        self.answered = asyncio.Event()
        # ... and a move answered before the producer took its version (the write did not yield to
        # the loop) leaves its answer here, for the producer to attach to that version's event.
        self.produced = -1  # the last version whose event was queued
        self.late: tuple[int, bytes] | None = None

    async def run(self, requests: AsyncIterator[matches_pb2.PlaySeatRequest], start: int) -> AsyncIterator[bytes]:
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(self._guard(work)) for work in (self._produce(start), self._read(requests))]
        out = self.out
        held: Any = None  # taken from the queue, not fitting the message before it
        try:
            while True:
                item, held = (held if held is not None else await out.get()), None
                if item is _END:
                    return
                if isinstance(item, BaseException):
                    raise item
                rank, data = item
                while not out.empty():  # what is ready together goes together, in reading order
                    held = out.get_nowait()
                    if not isinstance(held, tuple) or held[0] <= rank:
                        break
                    (rank, more), held = held, None
                    data += more
                yield data
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _guard(self, work: Awaitable[None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the stream ends with it (a ServiceError's status, else INTERNAL)
            await self.out.put(exc)

    async def _offer(self) -> None:
        """A YourTurn if the seat is to move at the match's version and was not offered it yet."""
        live = self.live
        game, version = live.game, live.version
        if self.offered == version or not live.is_open or game.player != self.seat or self.seat in live.bots:
            return
        self.offered = version
        # the state and the listing are built once a version, whichever stream or call asks first
        head = matches_pb2.YourTurn(version=version, seat=self.seat, state=live.whole_state())
        await self.out.put((_TURN_RANK, _field(_YOUR_TURN, head.SerializeToString() + live.listing(_MOVES))))

    async def _produce(self, start: int) -> None:
        """Every version from `start` on, and the turns; the end once the match is over and the move
        being played (if any) is answered."""
        live = self.live
        if start > live.version:
            await self._offer()
        version = start
        async for data in self.streams.manager.watch(live.match_id, start, self.brief):
            event = _field(_EVENT, data)
            if isinstance(data, Notice):  # no new version: passed on as it is
                await self.out.put((_EVENT_RANK, event))
                continue
            if self.late is not None and self.late[0] == version:
                late, self.late = self.late[1], None
                await self.out.put((_ANSWER_RANK, event + late))
            elif version and self.moving.locked() and live.seats[version - 1] == self.seat:
                self.waiting = True  # our move, maybe this stream's: its answer joins the message
                await self.answered.wait()
                self.waiting, answer, self.answer = False, self.answer, None
                self.answered.clear()
                await self.out.put((_ANSWER_RANK, event + answer) if answer else (_EVENT_RANK, event))
            else:
                await self.out.put((_EVENT_RANK, event))
            self.produced = version
            if version == live.version:
                await self._offer()
            version += 1
        async with self.moving:
            await self.out.put(_END)

    async def _read(self, requests: AsyncIterator[matches_pb2.PlaySeatRequest]) -> None:
        live = self.live
        async for request in requests:
            if request.WhichOneof("kind") != "play":
                raise invalid("SEAT_STREAM_OPEN_TWICE", "only the first request of a seat stream opens it")
            move = request.play
            play = matches_pb2.PlayMoveRequest(  # its reply is not sent: only its version is read
                match_id=live.match_id, expected_version=move.version, request_id=move.request_id, changes_only=True
            )
            which = move.WhichOneof("play")
            if which == "move":
                play.move.CopyFrom(move.move)
            elif which == "action":
                play.action = move.action
            async with self.moving:
                try:
                    _, played = await self.streams.play(play, self.token)
                except (ServiceError, StoreUnavailable) as exc:
                    if self.waiting:  # the version the producer holds was not this move's
                        self.answered.set()
                    await self.out.put((_ANSWER_RANK, _refused(exc, move)))
                    self.offered = -1  # the turn is offered again
                    await self._offer()
                    continue
                response = played.response
                retried = isinstance(response, bytes)
                version = matches_pb2.PlayMoveResponse.FromString(response).version if retried else played.version
                answer = matches_pb2.PlaySeatResponse(
                    played=matches_pb2.MovePlayed(version=version, request_id=move.request_id, retried=retried)
                )
                data = answer.SerializeToString()
                if self.waiting:  # the producer holds this move's version: they go together
                    self.answer = data
                    self.answered.set()
                elif not retried and self.produced < version:  # the producer has yet to take it
                    self.late = (version, data)
                else:
                    await self.out.put((_ANSWER_RANK, data))
