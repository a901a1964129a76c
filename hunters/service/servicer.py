"""gRPC servicers: protobuf in, game-API calls, protobuf out. No rule lives here."""
from __future__ import annotations

import functools
import json
import logging
import time
from typing import Any, Callable

import grpc
from google.protobuf import timestamp_pb2

from hunters.errors import IllegalMoveError
from hunters.v1 import matches_pb2, matches_pb2_grpc, oracle_pb2, oracle_pb2_grpc

from . import auth
from .errors import ServiceError, invalid
from .games import GameAdapter, adapter, config_for, watch_response
from .matches import LiveMatch, MatchManager, Played

log = logging.getLogger("hunters.service")
MAX_SIMULATED_GAMES = 10_000_000


def _abort(name: str, context: grpc.ServicerContext, exc: Exception) -> None:
    """End the call with the status of a ServiceError, or INTERNAL (logged) for anything else."""
    if isinstance(exc, ServiceError):
        log.info("rpc refused", extra={"rpc": name, "reason": exc.reason, "code": exc.code.name})
        context.abort_with_status(exc.to_status())
    log.error("rpc failed", extra={"rpc": name}, exc_info=exc)
    context.abort_with_status(ServiceError(grpc.StatusCode.INTERNAL, "INTERNAL", "internal error").to_status())


def rpc(method: Callable) -> Callable:
    """Map ServiceError (and any surprise) onto a rich gRPC status; log every call."""

    @functools.wraps(method)
    def wrapper(self, request, context):
        start = time.perf_counter()
        try:
            result = method(self, request, context)
        except Exception as exc:
            _abort(method.__name__, context, exc)
        log.debug("rpc", extra={"rpc": method.__name__, "ms": round((time.perf_counter() - start) * 1e3, 3)})
        return result

    return wrapper


def stream_rpc(method: Callable) -> Callable:
    """The same for server-streaming methods."""

    @functools.wraps(method)
    def wrapper(self, request, context):
        try:
            yield from method(self, request, context)
        except Exception as exc:
            _abort(method.__name__, context, exc)

    return wrapper


def _token(context) -> str | None:
    return auth.token_from_metadata(context.invocation_metadata())


@functools.lru_cache(maxsize=65536)
def _legal_move_bytes(container: type, field: str, ad: GameAdapter, move: Any, action: int) -> bytes:
    """A `container` message holding just this legal move in `field`, serialized. Merging such
    pieces appends to the repeated field, so each (move, action) is encoded once, not per listing."""
    msg = container()
    getattr(msg, field).add(move=ad.move_to_proto(move), action=action)
    return msg.SerializeToString()


def add_legal_moves(msg: Any, field: str, ad: GameAdapter, game: Any) -> None:
    """Append every legal move of `game`, with its action code, to the repeated `field` of `msg`."""
    pairs = game.legal_moves_with_actions() if hasattr(game, "legal_moves_with_actions") else \
        [(m, game.move_to_action(m)) for m in game.legal_moves()]
    container = type(msg)
    msg.MergeFromString(b"".join([_legal_move_bytes(container, field, ad, m, a) for m, a in pairs]))


def _move_builder(ad: GameAdapter, request: Any) -> Callable[[Any], Any]:
    """A function building the game-API move of a PlayMove request, called once the seat is known."""

    def build(game: Any) -> Any:
        which = request.WhichOneof("play")
        if which == "action":
            return game.action_to_move(request.action)
        if which == "move":
            return ad.move_from_proto(request.move)
        raise invalid("MOVE_MISSING", "set either move or action")

    return build


class MatchServicer(matches_pb2_grpc.MatchServiceServicer):
    def __init__(self, manager: MatchManager):
        self.manager = manager

    def _match_pb(self, live: LiveMatch) -> matches_pb2.Match:
        created = timestamp_pb2.Timestamp()
        created.FromNanoseconds(int(live.created_at * 1e9))
        return matches_pb2.Match(match_id=live.match_id, config=config_for(live.adapter, live.config, live.game),
                                 version=live.version, state=live.adapter.state(live.game, live.version),
                                 created_at=created)

    @rpc
    def CreateMatch(self, request, context):
        if not request.HasField("config"):
            raise invalid("INVALID_CONFIG", "config is required")
        live, tokens, admin = self.manager.create(request.config)
        log.info("match created", extra={"match_id": live.match_id, "game": request.config.game})
        with live.lock:
            match = self._match_pb(live)
        return matches_pb2.CreateMatchResponse(match=match, seat_tokens=tokens, admin_token=admin)

    @rpc
    def GetMatch(self, request, context):
        live = self.manager.get(request.match_id)
        with live.lock:
            return matches_pb2.GetMatchResponse(match=self._match_pb(live))

    @rpc
    def ListMatches(self, request, context):
        matches, token = self.manager.page(request.page_size, request.page_token, request.game)
        out = []
        for live in matches:
            with live.lock:
                out.append(self._match_pb(live))
        return matches_pb2.ListMatchesResponse(matches=out, next_page_token=token)

    @rpc
    def DeleteMatch(self, request, context):
        self.manager.delete(request.match_id, _token(context))
        log.info("match deleted", extra={"match_id": request.match_id})
        return matches_pb2.DeleteMatchResponse()

    @rpc
    def ListLegalMoves(self, request, context):
        live = self.manager.get(request.match_id)
        with live.lock:
            game, version = live.game, live.version
        # games are replaced, never mutated, once published: no lock needed to read this one
        response = matches_pb2.ListLegalMovesResponse(version=version, player=game.player)
        add_legal_moves(response, "moves", live.adapter, game)
        return response

    @rpc
    def PlayMove(self, request, context):
        live = self.manager.get(request.match_id)
        to_move = _move_builder(live.adapter, request)
        ad = live.adapter

        def respond(game: Any, played: Played) -> matches_pb2.PlayMoveResponse:
            return matches_pb2.PlayMoveResponse(version=played.version, events=[ad.event(e) for e in played.events],
                                                state=ad.state(game, played.version))

        expected = request.expected_version if request.HasField("expected_version") else None
        fingerprint = _strip_request_id(request) if request.request_id else b""
        live, played = self.manager.play(request.match_id, _token(context), expected, to_move,
                                         request.request_id, fingerprint, respond)
        if isinstance(played.response, bytes):  # a retry: the first reply, as it was sent
            log.info("move retried", extra={"match_id": live.match_id, "request_id": request.request_id})
            return matches_pb2.PlayMoveResponse.FromString(played.response)
        log.info("move played", extra={"match_id": live.match_id, "version": played.version, "seat": played.seat})
        return played.response

    @stream_rpc
    def WatchMatch(self, request, context):
        for live, version, game, seat, move, events in self.manager.history(
                request.match_id, request.from_version, context.is_active):
            yield watch_response(live.adapter, live.match_id, version, game, seat, move, events)

    @rpc
    def GetRecord(self, request, context):
        record = self.manager.record(request.match_id, _token(context))
        return matches_pb2.GetRecordResponse(record_json=json.dumps(record, separators=(",", ":")))


def _strip_request_id(request: matches_pb2.PlayMoveRequest) -> bytes:
    """The request as bytes without its request_id: what a retry must repeat exactly."""
    copy = matches_pb2.PlayMoveRequest()
    copy.CopyFrom(request)
    copy.request_id = ""
    return copy.SerializeToString(deterministic=True)


class OracleServicer(oracle_pb2_grpc.OracleServiceServicer):
    @rpc
    def Evaluate(self, request, context):
        config = request.config
        ad = adapter(config.game)
        if not config.HasField("seed") and not config.HasField("options"):
            raise invalid("INVALID_CONFIG", "the oracle needs a seed or explicit options to reproduce a game")
        game = ad.new_game(config, config.seed)
        response = oracle_pb2.EvaluateResponse(legal=True)
        events = list(game.events)
        for index, pb in enumerate(request.moves):
            try:
                try:
                    move = ad.move_from_proto(pb)
                except ServiceError as err:
                    raise IllegalMoveError(err.reason, err.message) from None
                events.extend(game.play(move))
            except IllegalMoveError as exc:
                response.legal = False
                response.illegal.CopyFrom(oracle_pb2.IllegalMoveDetail(index=index, reason=exc.reason,
                                                                       message=exc.message))
                break
        response.state.CopyFrom(ad.state(game, len(game.moves)))
        response.events.extend(ad.event(e) for e in events)
        if request.include_legal_moves:
            add_legal_moves(response, "legal_moves", ad, game)
        return response

    @stream_rpc
    def SimulateGames(self, request, context):
        ad = adapter(request.game)
        if not 0 < request.games <= MAX_SIMULATED_GAMES:
            raise invalid("BAD_GAMES", f"games must be 1..{MAX_SIMULATED_GAMES}")
        if not hasattr(ad.module, "random_games"):
            raise invalid("NOT_SUPPORTED", f"{request.game} has no in-core simulation")
        try:
            ad.module.random_games(0, players=request.players, seed=request.seed)
        except ValueError as exc:
            raise invalid("INVALID_CONFIG", str(exc)) from None
        total, chunk = request.games, max(1, -(-request.games // 20))
        done = moves = 0
        scores = wins = None
        start = time.perf_counter()
        index = 0
        while done < total and context.is_active():
            n = min(chunk, total - done)
            res = ad.module.random_games(n, players=request.players, seed=(request.seed + index) % 2**64)
            index += 1
            done += n
            moves += res.decisions
            scores = res.total_scores if scores is None else [a + b for a, b in zip(scores, res.total_scores)]
            wins = res.wins if wins is None else [a + b for a, b in zip(wins, res.wins)]
            elapsed = time.perf_counter() - start
            yield oracle_pb2.SimulateGamesResponse(games_done=done, moves=moves, mean_scores=[s / done for s in scores],
                                                   wins=wins, games_per_second=done / elapsed if elapsed else 0.0,
                                                   done=done == total)
