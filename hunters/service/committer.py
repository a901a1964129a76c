"""The move committer: a seat's move checked against the match, played on the core, made durable in
the store, then applied in memory and fanned out (validate -> core -> durable write -> fan-out).

On a store shared by replicas (PostgreSQL) or workers the memory is a cache the database keeps
honest: a move is accepted only if the store finds its version free (`VersionConflict` otherwise:
the match is brought up to date and the move judged again on it, as a move queued behind another is
on one server, so an expected_version gets STALE_VERSION)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import grpc

from hunters.errors import IllegalMoveError

from . import tracing
from .catchup import CatchUp
from .durable import to_the_end
from .errors import ServiceError, invalid, not_found
from .lifecycle import Lifecycle
from .live import LiveMatch, Played
from .stats import Timings
from .store_base import MatchStore, StoreUnavailable, VersionConflict

# respond(game after the move, what was played) -> (the reply, the whole MatchState it built or None)
Respond = Callable[[Any, Played], tuple[Any, Any]]


class Committer:
    """Plays moves on live matches, one at a time per match (under its lock)."""

    def __init__(self, store: MatchStore, lifecycle: Lifecycle, catch_up: CatchUp):
        self.store = store
        self.lifecycle = lifecycle
        self.catch_up = catch_up
        self.lost_races = 0  # moves whose version another server took first (decided by the database)
        self.metrics: Timings | None = None

    async def play(
        self,
        live: LiveMatch,
        seat: int,
        expected_version: int | None,
        to_move: Callable[[Any], Any],
        request_id: str,
        digest: str,
        respond: Respond,
    ) -> Played:
        """`seat`'s move on `live` (the seat checked by the caller), or the reply already sent for
        `request_id` (a retry: `Played.version` -1, the reply's bytes as `response`)."""
        async with self.catch_up.locked(live):
            # On a shared store the cached match may be behind the database: a move refused by the
            # cache, or one that lost at the database, is checked once more against the match brought
            # up to date, which is how a move queued behind another one is judged on one server.
            for last_try in (False, True):
                seen = (live.version, live.abandoned, live.deleted)
                try:
                    earlier = await self._earlier(live, request_id, digest)
                    if earlier is not None:
                        return Played(-1, seat, [], earlier)
                    if expected_version is not None and expected_version != live.version and not live.deleted:
                        raise ServiceError(
                            grpc.StatusCode.ABORTED,
                            "STALE_VERSION",
                            f"expected version {expected_version}, the match is at {live.version}",
                            match_id=live.match_id,
                            current_version=live.version,
                        )
                    return await self.commit(live, seat, to_move, respond, request_id, digest)
                except VersionConflict:  # lost at the database; `live` caught up already
                    if last_try:
                        raise self.lost(live) from None
                except ServiceError:
                    if last_try or not self.store.shared:
                        raise
                    await self.catch_up.catch_up(live)
                    if (live.version, live.abandoned, live.deleted) == seen:
                        raise  # the database agrees with the cache
        raise AssertionError("unreachable: the second try returns or raises")

    async def _earlier(self, live: LiveMatch, request_id: str, digest: str) -> bytes | None:
        """The reply already sent for `request_id` (a retry), or None."""
        if not request_id or live.deleted:
            return None
        earlier = await self.store.request(live.match_id, request_id)
        if earlier is None:
            return None
        if earlier[0] != digest:
            raise invalid(
                "REQUEST_ID_REUSED",
                "this request_id was used for a different request",
                match_id=live.match_id,
                request_id=request_id,
            )
        return earlier[1]

    def lost(self, live: LiveMatch) -> ServiceError:
        """The answer to a move that lost its version at the database (another server was first)."""
        if live.deleted:
            return not_found(live.match_id)
        return ServiceError(
            grpc.StatusCode.ABORTED,
            "STALE_VERSION",
            "the match moved on in the database",
            match_id=live.match_id,
            current_version=live.version,
        )

    async def commit(
        self,
        live: LiveMatch,
        seat: int,
        to_move: Callable[[Any], Any],
        respond: Respond | None,
        request_id: str = "",
        digest: str = "",
    ) -> Played:
        """Check and apply `seat`'s move on `live` (its lock held): durable in the store before the
        match changes in memory, then shown to the watchers. A move that loses its version at the
        database raises VersionConflict, `live` brought up to date."""
        match_id = live.match_id
        if live.deleted:
            raise not_found(match_id)
        game = live.game
        if game.is_over:
            raise ServiceError.from_illegal(
                IllegalMoveError("GAME_OVER", "the game is over"), match_id=match_id, version=live.version
            )
        if live.abandoned:
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION,
                "MATCH_ABANDONED",
                "the match was abandoned: no move for longer than the server's idle limit",
                match_id=match_id,
            )
        if seat != game.player:
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION,
                "NOT_YOUR_TURN",
                f"seat {game.player} is to move, your token is seat {seat}",
                match_id=match_id,
                version=live.version,
                player=game.player,
            )
        try:
            move = to_move(game)
            after = game.clone()
            events = after.play(move)
        except IllegalMoveError as exc:
            raise ServiceError.from_illegal(exc, match_id=match_id, version=live.version) from None
        played = Played(live.version + 1, seat, events)
        response, whole = respond(after, played) if respond is not None else (None, None)

        async def durable() -> None:
            metrics = self.metrics
            begun = time.perf_counter()
            try:
                with tracing.span("store commit", {"hunters.match_id": match_id, "hunters.version": live.version + 1}):
                    await self.store.append_move(
                        match_id,
                        live.version,
                        seat,
                        move.to_json(),
                        after.is_over,
                        (request_id, digest, response.SerializeToString())
                        if request_id and response is not None
                        else None,
                    )
            except BaseException as exc:
                if metrics is not None:
                    metrics.commit_failed(_commit_error(exc))
                raise
            if metrics is not None:
                metrics.committed(time.perf_counter() - begun)
            self.lifecycle.applied(live, seat, move, after, events, whole)

        try:
            await to_the_end(durable())
        except VersionConflict:  # another server (a replica) on this database got there first
            self.lost_races += 1
            await self.catch_up.catch_up(live)
            raise
        counts, game_id = self.lifecycle.counts, live.adapter.game_id
        counts["moves", game_id] += 1
        if after.is_over:
            counts["over", game_id] += 1
        return Played(played.version, seat, events, response)


def _commit_error(exc: BaseException) -> str:
    """A failed commit's reason, for its metric."""
    if isinstance(exc, VersionConflict):
        return "VERSION_CONFLICT"
    if isinstance(exc, StoreUnavailable):
        return exc.reason
    if isinstance(exc, asyncio.CancelledError):
        return "CANCELLED"
    return type(exc).__name__
