"""gRPC servicers (grpc.aio): protobuf in, game-API calls, protobuf out. No rule lives here.

Everything that touches a match runs on the event loop; engine work that can take long (an
`Evaluate` of many moves, `SimulateGames`) runs in a worker thread that checks for a cancel between
small steps, so a caller going away or a shutdown stops it within a fraction of a second."""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, ClassVar, TypeVar

import grpc
from google.protobuf import message, timestamp_pb2

from hunters.errors import IllegalMoveError
from hunters.game_base import AnyGame
from hunters.scale import Executor, Job, chunks
from hunters.simulate import BLOCK, SimulationResult, block_sizes, blocks_unit, random_games
from hunters.v1 import games_pb2, games_pb2_grpc, matches_pb2, matches_pb2_grpc, oracle_pb2, oracle_pb2_grpc, review_pb2
from hunters.wire import field_bytes

from . import auth, tracing
from .analysis import Analyses
from .engine import Cancel, Engine, Lane
from .errors import ServiceError, invalid
from .gameinfo import game_info, list_games
from .games import ServiceAdapter, adapter, config_for, watch_response
from .handlers import Admit
from .hosts import host_key
from .legal import legal_entries
from .live import LiveMatch, Played
from .matches import MatchManager
from .perft import TimeLeft, count_child, get_vectors, list_vectors, new_limit, perft_rows
from .review_wire import analysis_pb
from .reviews import Reviews
from .seats import SeatStreams
from .store_base import StoreUnavailable

log = logging.getLogger("hunters.service")
MAX_SIMULATED_GAMES = 10_000_000
SIMULATION_BLOCK = BLOCK  # games per core call of SimulateGames: block b is random_games(seed + b)
SCALE_BLOCKS = 8  # most blocks per unit of work on a cluster (2,048 games, ~0.15 s of one core)
PROGRESS_SECONDS = 0.5  # SimulateGames reports at least this often (and at every 5 %)
_LISTED_MOVES = matches_pb2.ListLegalMovesResponse.DESCRIPTOR.fields_by_name["moves"].number
_INTERNAL = ServiceError(grpc.StatusCode.INTERNAL, "INTERNAL", "internal error")

_Servicer = TypeVar("_Servicer")
_Request = TypeVar("_Request")
_Response = TypeVar("_Response")
_Reply = TypeVar("_Reply", matches_pb2.RequestReviewResponse, matches_pb2.GetReviewResponse)


class _Throttled:
    """A warning logged at most once per `every` seconds, with how many calls it stood for."""

    def __init__(self, every: float):
        self.every = every
        self._last = float("-inf")
        self._since = 0

    def note(self, rpc: str, exc: StoreUnavailable) -> None:
        self._since += 1
        now = time.monotonic()
        if now - self._last >= self.every:
            extra = {"rpc": rpc, "reason": exc.reason, "error": str(exc), "calls": self._since}
            log.warning("database unavailable", extra=extra)
            self._last, self._since = now, 0


_UNAVAILABLE_LOG = _Throttled(60.0)  # a shared store away: one line a minute, not one per call


async def _abort(name: str, context: grpc.aio.ServicerContext, exc: Exception, request: Any = None) -> None:
    """Give the call the status of a ServiceError, or INTERNAL (logged) for anything else, for the
    method to return with; the log line names the call's request_id, when it has one."""
    request_id = getattr(request, "request_id", "") or None
    if isinstance(exc, StoreUnavailable):
        if not exc.logged:  # else the store logged the fault once for its whole episode
            _UNAVAILABLE_LOG.note(name, exc)
        message = {
            "DATABASE_BUSY": "the database is locked by another process: try again",
            "STORAGE_UNAVAILABLE": "the server cannot write its database now (disk full, file unwritable or "
            "replaced): try again later",
        }.get(exc.reason, "the database cannot be reached now: try again")
        exc = ServiceError(grpc.StatusCode.UNAVAILABLE, exc.reason, message)
    if isinstance(exc, ServiceError):
        if log.isEnabledFor(logging.DEBUG):
            extra = {"rpc": name, "reason": exc.reason, "code": exc.code.name, "request_id": request_id}
            log.debug("rpc refused", extra=extra)
        error = exc
    else:
        log.error("rpc failed", extra={"rpc": name, "reason": "INTERNAL", "request_id": request_id}, exc_info=exc)
        error = _INTERNAL
    # The status is set on the context and the call ends as any other: the status goes out with the
    # call's last batch. context.abort() would send it in a batch of its own and raise through
    # grpc's handler, costing the event loop about a fifth more per refused call (measured), which
    # a caller retrying refused calls makes everyone else wait for.
    status = error.to_status()
    context.set_code(status.code)
    context.set_details(status.details)
    context.set_trailing_metadata(status.trailing_metadata)


def rpc(
    method: Callable[[_Servicer, _Request, grpc.aio.ServicerContext], Awaitable[_Response]],
) -> Callable[[_Servicer, _Request, grpc.aio.ServicerContext], Coroutine[Any, Any, _Response]]:
    """Map ServiceError (and any surprise) onto a rich gRPC status; log every call."""

    @functools.wraps(method)
    async def wrapper(self: _Servicer, request: _Request, context: grpc.aio.ServicerContext) -> _Response:
        start = time.perf_counter()
        tracing.annotate("hunters.request_id", getattr(request, "request_id", None))
        tracing.annotate("hunters.match_id", getattr(request, "match_id", None))
        try:
            result = await method(self, request, context)
        except (asyncio.CancelledError, grpc.aio.AbortError):
            raise
        except Exception as exc:
            await _abort(method.__name__, context, exc, request)
            return None  # type: ignore[return-value]  # not sent: the status is not OK
        if log.isEnabledFor(logging.DEBUG):
            log.debug("rpc", extra={"rpc": method.__name__, "ms": round((time.perf_counter() - start) * 1e3, 3)})
        return result

    return wrapper


def stream_rpc(
    method: Callable[[_Servicer, _Request, grpc.aio.ServicerContext], AsyncIterator[_Response]],
) -> Callable[[_Servicer, _Request, grpc.aio.ServicerContext], AsyncIterator[_Response]]:
    """The same for server-streaming methods."""

    @functools.wraps(method)
    async def wrapper(
        self: _Servicer, request: _Request, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[_Response]:
        try:
            async for item in method(self, request, context):
                yield item
        except (asyncio.CancelledError, grpc.aio.AbortError):
            raise
        except Exception as exc:
            await _abort(method.__name__, context, exc)

    return wrapper


def _token(context: grpc.aio.ServicerContext) -> str | None:
    return auth.token_from_metadata(context.invocation_metadata())


def peer_key(context: grpc.aio.ServicerContext) -> str:
    """The peer's host (`host_key`, the key the HTTP side uses too): every connection from one host
    is one caller."""
    return host_key(context.peer())


def caller_key(context: grpc.aio.ServicerContext) -> str:
    """Whom the oracle's per-caller limits count against: the peer's host. A bearer token the server
    did not issue says nothing of who calls (anyone can make one up for free), so it is not a key: a
    caller with a thousand invented tokens is still one caller. (The holder of the server's oracle
    token is the operator, whom `OracleServicer` does not bound per caller.)"""
    return peer_key(context)


def _time_left(lane: Lane, budget: Any, context: grpc.aio.ServicerContext) -> TimeLeft:
    """How long one job of the call may run: the caller's engine seconds left on `lane` and the
    call's deadline (None: no bound of that kind)."""
    spendable = lane.callers.left(budget) if lane.callers is not None and budget is not None else None
    return TimeLeft(spendable, context.time_remaining())


def add_legal_moves(msg: message.Message, field: str, ad: ServiceAdapter, game: Any) -> None:
    """Append every legal move of `game`, with its action code, to the repeated `field` of `msg`."""
    msg.MergeFromString(legal_entries(ad, game, msg.DESCRIPTOR.fields_by_name[field].number))


def _move_builder(ad: ServiceAdapter, request: matches_pb2.PlayMoveRequest) -> Callable[[Any], Any]:
    """A function building the game-API move of a PlayMove request, called once the seat is known."""

    def build(game: Any) -> Any:
        which = request.WhichOneof("play")
        if which == "action":
            return game.actions.to_move(request.action)
        if which == "move":
            return ad.move_from_proto(request.move)
        raise invalid("MOVE_MISSING", "set either move or action")

    return build


def encode_watch_event(
    live: LiveMatch, version: int, game: Any, seat: int, move: Any, events: list[Any], state: Any
) -> bytes:
    """A serialized WatchMatchResponse (`state` is reused when the caller already built it)."""
    out = watch_response(live.adapter, live.match_id, version, game, seat, move, events, state)
    return out.SerializeToString()


class MatchServicer(matches_pb2_grpc.MatchServiceServicer):
    def __init__(self, manager: MatchManager, reviews: Reviews):
        self.manager = manager
        self.reviews = reviews  # the reviews of finished matches (reviews.py)
        self.seats = SeatStreams(manager, self.play_request)

    @staticmethod
    def match_pb(live: LiveMatch) -> matches_pb2.Match:
        """The match as anyone may see it: before the end, no seed and no explicit decks."""
        created = timestamp_pb2.Timestamp()
        created.FromNanoseconds(int(live.created_at * 1e9))
        over = live.game.is_over
        status = (
            matches_pb2.MATCH_STATUS_OVER
            if over
            else matches_pb2.MATCH_STATUS_ABANDONED
            if live.abandoned
            else matches_pb2.MATCH_STATUS_ACTIVE
        )
        return matches_pb2.Match(
            match_id=live.match_id,
            config=config_for(live.adapter, live.config, live.game),
            version=live.version,
            state=live.whole_state(),
            created_at=created,
            status=status,
            bot_failures=live.failures,
        )

    @rpc
    async def CreateMatch(
        self, request: matches_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.CreateMatchResponse:
        if not request.HasField("config"):
            raise invalid("INVALID_CONFIG", "config is required")
        # Bot seats count per host: a made-up token is free, and with a create token the operator's
        # game server creates every match (no per-caller bound then, only the server's).
        live, tokens, admin = await self.manager.create(request.config, _token(context), peer_key(context))
        log.info("match created", extra={"match_id": live.match_id, "game": request.config.game})
        return matches_pb2.CreateMatchResponse(match=self.match_pb(live), seat_tokens=tokens, admin_token=admin)

    @rpc
    async def GetMatch(
        self, request: matches_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.GetMatchResponse:
        return matches_pb2.GetMatchResponse(match=self.match_pb(await self.manager.get(request.match_id)))

    @rpc
    async def ListMatches(
        self, request: matches_pb2.ListMatchesRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.ListMatchesResponse:
        matches, token = await self.manager.page(request.page_size, request.page_token, request.game)
        return matches_pb2.ListMatchesResponse(matches=[self.match_pb(m) for m in matches], next_page_token=token)

    @rpc
    async def DeleteMatch(
        self, request: matches_pb2.DeleteMatchRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.DeleteMatchResponse:
        await self.manager.delete(request.match_id, _token(context))
        log.info("match deleted", extra={"match_id": request.match_id})
        return matches_pb2.DeleteMatchResponse()

    @rpc
    async def ListLegalMoves(
        self, request: matches_pb2.ListLegalMovesRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.ListLegalMovesResponse | bytes:
        live = await self.manager.get(request.match_id)
        game = live.game
        head = matches_pb2.ListLegalMovesResponse(version=live.version, player=game.player).SerializeToString()
        return head + live.listing(_LISTED_MOVES)  # the moves appended as bytes, unparsed (built once a version)

    async def play_request(self, request: matches_pb2.PlayMoveRequest, token: str | None) -> tuple[LiveMatch, Played]:
        """Play a PlayMove request as the seat of `token`: what PlayMove and every seat stream's
        move do. `Played.response` is the PlayMoveResponse, or its bytes for a retry."""
        live = await self.manager.get(request.match_id)
        to_move = _move_builder(live.adapter, request)
        ad = live.adapter

        brief = request.changes_only

        def respond(game: Any, played: Played) -> tuple[matches_pb2.PlayMoveResponse, Any]:
            state = ad.summary(game, played.version) if brief else ad.state(game, played.version)
            reply = matches_pb2.PlayMoveResponse(
                version=played.version, events=[ad.event(e) for e in played.events], state=state
            )
            return reply, None if brief else state

        expected = request.expected_version if request.HasField("expected_version") else None
        fingerprint = _strip_request_id(request) if request.request_id else b""
        return await self.manager.play(
            request.match_id, token, expected, to_move, request.request_id, fingerprint, respond
        )

    @rpc
    async def PlayMove(
        self, request: matches_pb2.PlayMoveRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.PlayMoveResponse | bytes:
        live, played = await self.play_request(request, _token(context))
        response: matches_pb2.PlayMoveResponse | bytes = played.response
        if isinstance(response, bytes):  # a retry: the first reply, as it was sent
            log.debug("move retried", extra={"match_id": live.match_id, "request_id": request.request_id})
            return response
        log.debug("move played", extra={"match_id": live.match_id, "version": played.version, "seat": played.seat})
        return response

    @stream_rpc
    async def PlaySeat(
        self, requests: AsyncIterator[matches_pb2.PlaySeatRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes]:
        async for item in self.seats.serve(requests, _token(context)):
            yield item

    @stream_rpc
    async def WatchMatch(
        self, request: matches_pb2.WatchMatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes]:
        async for event in self.manager.watch(request.match_id, request.from_version, host=peer_key(context)):
            yield event if type(event) is bytes else bytes(event)  # a Notice: gRPC takes bytes only

    @rpc
    async def GetRecord(
        self, request: matches_pb2.GetRecordRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.GetRecordResponse | bytes:
        return await self.manager.record(request.match_id, _token(context))  # serialized, built off the loop

    @rpc
    async def RequestReview(
        self, request: matches_pb2.RequestReviewRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.RequestReviewResponse | bytes:
        report = await self.reviews.request(request.match_id, peer_key(context))
        return _report_reply(matches_pb2.RequestReviewResponse, report)

    @rpc
    async def GetReview(
        self, request: matches_pb2.GetReviewRequest, context: grpc.aio.ServicerContext
    ) -> matches_pb2.GetReviewResponse | bytes:
        return _report_reply(matches_pb2.GetReviewResponse, await self.reviews.get(request.match_id))


def _report_reply(kind: type[_Reply], report: review_pb2.ReviewReport | bytes) -> _Reply | bytes:
    """A reply whose field 1 is `report` (RequestReviewResponse, GetReviewResponse): a ReviewReport,
    or the bytes of a finished review's, built once and spliced in unparsed."""
    return field_bytes(1, report) if isinstance(report, bytes) else kind(report=report)


def _strip_request_id(request: matches_pb2.PlayMoveRequest) -> bytes:
    """The request as bytes without its request_id: what a retry must repeat exactly."""
    copy = matches_pb2.PlayMoveRequest()
    copy.CopyFrom(request)
    copy.request_id = ""
    copy.changes_only = False  # how much the reply shows is no part of the move
    return copy.SerializeToString(deterministic=True)


def evaluate(request: oracle_pb2.EvaluateRequest, cancel: Cancel) -> oracle_pb2.EvaluateResponse:
    """The Evaluate RPC as a plain function (run off the event loop; stops early once `cancel` is set)."""
    config = request.config
    ad = adapter(config.game)
    if config.bots:
        raise invalid("INVALID_CONFIG", "bot seats belong to matches (CreateMatch), not to the oracle")
    if not config.HasField("seed") and not config.HasField("options"):
        raise invalid("INVALID_CONFIG", "the oracle needs a seed or explicit options to reproduce a game")
    game = ad.new_game(config, config.seed)
    response = oracle_pb2.EvaluateResponse(legal=True)
    events = list(game.events)
    for index, pb in enumerate(request.moves):
        if cancel:
            raise ServiceError(grpc.StatusCode.CANCELLED, "CANCELLED", "the call was cancelled")
        try:
            try:
                move = ad.move_from_proto(pb)
            except ServiceError as err:
                raise IllegalMoveError(err.reason, err.message) from None
            events.extend(game.play(move))
        except IllegalMoveError as exc:
            response.legal = False
            response.illegal.CopyFrom(oracle_pb2.IllegalMoveDetail(index=index, reason=exc.reason, message=exc.message))
            break
    response.state.CopyFrom(ad.state(game, len(game.moves)))
    response.events.extend(ad.event(e) for e in events)
    if request.include_legal_moves:
        add_legal_moves(response, "legal_moves", ad, game)
    return response


def simulate_block(game: type[AnyGame], games: int, players: int, seed: int, cancel: Cancel) -> Any:
    """One block of random games (`hunters.simulate.random_games`: inside the core where it can), or None
    when cancelled before it started."""
    return None if cancel else random_games(game, games, players=players, seed=seed)


class OracleServicer(oracle_pb2_grpc.OracleServiceServicer):
    """The stateless oracle; `engine` runs its work off the event loop."""

    def __init__(
        self, engine: Engine, scale: Executor | None = None, token: str | None = None, analyses: Analyses | None = None
    ):
        self.engine = engine
        self.scale = scale  # where SimulateGames plays its blocks, when not on the engine's threads
        self.analyses = analyses or Analyses(None, engine.evaluate)  # Analyze (of matches: with the manager)
        self._token_hash = auth.hash_token(token) if token else None  # the oracle's token, when guarded
        # (kind, game id) -> how much: "evaluate_calls", "evaluated_moves", "simulated_games",
        # "simulated_moves", "analyses" (read by metrics.py)
        self.work: collections.Counter[tuple[str, str]] = collections.Counter()

    REQUEST_BYTES: ClassVar[dict[str, int]] = {
        "Evaluate": 1 << 20,  # a position's moves (a long Jäger game: ~100 KB) and the moves to value
        "Perft": 1 << 20,  # a position's moves
        "SimulateGames": 4 << 10,
        "ListConformanceVectors": 4 << 10,
        "GetConformanceVectors": 4 << 10,
        "Analyze": 1 << 20,  # a position's moves, as Evaluate
    }
    """The largest request of each method, in bytes: a larger one is refused before it is parsed."""

    def admission(self, method: str) -> Admit | None:
        """The check of a call before its request is parsed: its size, the oracle token when the
        server has one, and the bounds of the caller and of the lane its work runs on."""
        limit = self.REQUEST_BYTES.get(method)
        if limit is None:
            return None
        lane = self.engine.simulate if method in ("Perft", "SimulateGames") else self.engine.evaluate

        def admit(size: int, context: grpc.aio.ServicerContext) -> None:
            if size > limit:
                raise ServiceError(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    "REQUEST_TOO_LARGE",
                    f"a {method} request is at most {limit} bytes on this server; this one has {size}",
                    limit=str(limit),
                )
            lane.screen(self._analysis_caller(context) if method == "Analyze" else self._caller(context))

        return admit

    def _caller(self, context: grpc.aio.ServicerContext) -> str | None:
        """Whom the call's engine work counts against: None (no per-caller bounds, only the lanes')
        for the holder of the oracle's token, when the server has one; PERMISSION_DENIED /
        ORACLE_TOKEN_REQUIRED for anyone else then."""
        if self._token_hash is None:
            return caller_key(context)
        if not auth.matches(auth.require_token(_token(context)), self._token_hash):
            raise ServiceError(
                grpc.StatusCode.PERMISSION_DENIED,
                "ORACLE_TOKEN_REQUIRED",
                "this server's oracle answers only its operator's token",
            )
        return None

    def _analysis_caller(self, context: grpc.aio.ServicerContext) -> str | None:
        """Whom an Analyze counts against: the holder of the oracle's token is not bounded per
        caller; anyone else is its host (an analysis of a match answers a seat's token, or anyone's
        once the match is over, so the oracle's token is asked for only of a position sent)."""
        if self._token_hash is not None:
            token = _token(context)
            if token is not None and auth.matches(token, self._token_hash):
                return None
        return caller_key(context)

    @rpc
    async def Analyze(
        self, request: oracle_pb2.AnalyzeRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.AnalyzeResponse:
        caller = self._analysis_caller(context)
        analyses = self.analyses
        top, iterations = analyses.bounds(request.top_k, request.iterations)
        seat = request.seat if request.HasField("seat") else None
        if request.match_id:
            if request.HasField("config") or request.moves:
                raise invalid("BAD_POSITION", "send match_id (and version), or config and moves: not both")
            version = request.version if request.HasField("version") else None
            position = await analyses.of_match(request.match_id, _token(context), version, seat)
        else:
            if not request.HasField("config"):
                raise invalid("BAD_POSITION", "send match_id (and version), or config and moves")
            if request.HasField("version"):
                raise invalid("BAD_POSITION", "version is of a match: send match_id with it")
            self._caller(context)  # a position sent is oracle work: the oracle's token, when the server has one
            position = analyses.of_state(request)
        found = await analyses.run(position, top, iterations, caller, context.time_remaining())
        self.work["analyses", found.game] += 1
        return analysis_pb(position.ad, found)

    @rpc
    async def Evaluate(
        self, request: oracle_pb2.EvaluateRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.EvaluateResponse:
        caller = self._caller(context)
        lane = self.engine.evaluate
        with lane.admitted(caller) as budget:
            response = await lane.run(evaluate, request, budget=budget)
        game = request.config.game  # a registered game's id: evaluate() checked it
        self.work["evaluate_calls", game] += 1
        self.work["evaluated_moves", game] += response.illegal.index if not response.legal else len(request.moves)
        return response

    @stream_rpc
    async def SimulateGames(
        self, request: oracle_pb2.SimulateGamesRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[oracle_pb2.SimulateGamesResponse]:
        caller = self._caller(context)
        ad = adapter(request.game)
        if not 0 < request.games <= MAX_SIMULATED_GAMES:
            raise invalid("BAD_GAMES", f"games must be an integer from 1 to {MAX_SIMULATED_GAMES}")
        try:
            random_games(ad.Game, 0, players=request.players, seed=request.seed)
        except ValueError as exc:
            raise invalid("INVALID_CONFIG", str(exc)) from None
        with self.engine.simulate.admitted(caller) as budget:
            async for item in self._report(request, ad.Game, budget):
                yield item

    @stream_rpc
    async def Perft(
        self, request: oracle_pb2.PerftRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[oracle_pb2.PerftResponse]:
        """The divide lines (with `divide`), then the total: each root child counted as one job on
        the simulate lane, so a caller past its engine seconds waits between children and a caller
        going away stops the core's count at once (the job's cancel flag is its stop byte)."""
        caller = self._caller(context)
        lane = self.engine.simulate
        with lane.admitted(caller) as budget:
            rows, total = await lane.run(perft_rows, request, budget=budget)
            limit = new_limit(request)
            start = time.perf_counter()
            if total is None:
                total = 0
                for line, child, depth in rows:
                    while lane.callers is not None and budget is not None and (pause := lane.callers.wait(budget)) > 0:
                        await asyncio.sleep(min(pause, 5.0))
                    left = _time_left(lane, budget, context)
                    count = await lane.run(count_child, child, depth, request.chance, limit, left, budget=budget)
                    total += count
                    if request.divide:
                        line.count = count
                        line.nodes = limit.used
                        yield line
            seconds = time.perf_counter() - start
            yield oracle_pb2.PerftResponse(
                count=total, done=True, nodes=limit.used, leaves_per_second=total / seconds if seconds > 0 else 0.0
            )

    @rpc
    async def ListConformanceVectors(
        self, request: oracle_pb2.ListConformanceVectorsRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.ListConformanceVectorsResponse:
        lane = self.engine.evaluate
        with lane.admitted(self._caller(context)) as budget:
            response: oracle_pb2.ListConformanceVectorsResponse = await lane.run(list_vectors, request, budget=budget)
        return response

    @rpc
    async def GetConformanceVectors(
        self, request: oracle_pb2.GetConformanceVectorsRequest, context: grpc.aio.ServicerContext
    ) -> oracle_pb2.GetConformanceVectorsResponse:
        lane = self.engine.evaluate
        with lane.admitted(self._caller(context)) as budget:
            response: oracle_pb2.GetConformanceVectorsResponse = await lane.run(get_vectors, request, budget=budget)
        return response

    async def _report(
        self, request: oracle_pb2.SimulateGamesRequest, game: type[AnyGame], budget: Any
    ) -> AsyncIterator[oracle_pb2.SimulateGamesResponse]:
        total = request.games
        done = moves = 0
        scores = [0] * request.players
        wins = [0] * request.players
        start = last = time.perf_counter()
        reported = 0
        async for res in self._simulated(request.game, game, total, request.players, request.seed, budget):
            done += res.games
            moves += res.decisions
            self.work["simulated_games", request.game] += res.games
            self.work["simulated_moves", request.game] += res.decisions
            scores = [a + b for a, b in zip(scores, res.total_scores, strict=True)]
            wins = [a + b for a, b in zip(wins, res.wins, strict=True)]
            now = time.perf_counter()
            if done == total or (done - reported) * 20 >= total or now - last >= PROGRESS_SECONDS:
                reported, last = done, now
                yield oracle_pb2.SimulateGamesResponse(
                    games_done=done,
                    moves=moves,
                    mean_scores=[s / done for s in scores],
                    wins=wins,
                    games_per_second=done / (now - start) if now > start else 0.0,
                    done=done == total,
                )

    async def _simulated(
        self, game_id: str, game: type[AnyGame], total: int, players: int, seed: int, budget: Any = None
    ) -> AsyncIterator[SimulationResult]:
        """The blocks of a run (block b: `random_games(SIMULATION_BLOCK, seed + b)`), in order: one at a
        time on the engine's threads, or units of a few blocks on the scale executor (a Ray cluster),
        a bounded number in flight; the caller going away cancels those and submits no more."""
        sizes = block_sizes(total)
        if self.scale is None:
            lane = self.engine.simulate
            for b, n in enumerate(sizes):
                # a caller past its engine seconds per minute waits (its stream slows down) for more
                while lane.callers is not None and budget is not None and (pause := lane.callers.wait(budget)) > 0:
                    await asyncio.sleep(min(pause, 5.0))
                yield await lane.run(simulate_block, game, n, players, (seed + b) % 2**64, budget=budget)
            return
        # units of up to SCALE_BLOCKS blocks (Ray's ~1 ms per task amortised), smaller when the run is
        # short for the cluster, so that every worker gets a few units; results do not depend on it
        window = 2 * self.scale.workers
        per_unit = max(1, min(SCALE_BLOCKS, len(sizes) // (2 * window)))
        units = [(game_id, players, seed, total, first, count) for first, count in chunks(len(sizes), per_unit)]
        pending: collections.deque[Job] = collections.deque()
        try:
            for unit in units:
                pending.append(self.scale.submit(blocks_unit, *unit))
                if len(pending) >= window:
                    yield await asyncio.wrap_future(pending.popleft().future)
            while pending:
                yield await asyncio.wrap_future(pending.popleft().future)
        finally:
            for job in pending:
                job.cancel()


class GameInfoServicer(games_pb2_grpc.GameServiceServicer):
    """Which games the server plays, their action layouts and static data (answers built once)."""

    @rpc
    async def ListGames(
        self, request: games_pb2.ListGamesRequest, context: grpc.aio.ServicerContext
    ) -> games_pb2.ListGamesResponse:
        return list_games()

    @rpc
    async def GetGameInfo(
        self, request: games_pb2.GetGameInfoRequest, context: grpc.aio.ServicerContext
    ) -> games_pb2.GetGameInfoResponse:
        return game_info(request)
