"""The service's side of the protobuf <-> game translation: `hunters.wire` does the translating,
this module turns its errors into `ServiceError`s and builds the few replies that depend only on
translation (a WatchMatch message). The rules stay in the game packages."""

from __future__ import annotations

from typing import Any

from hunters import wire
from hunters.errors import IllegalMoveError
from hunters.v1 import matches_pb2, moves_pb2

from .errors import ServiceError, invalid

__all__ = ["ServiceAdapter", "adapter", "config_for", "watch_response"]


def _service_error(exc: Exception) -> ServiceError:
    if isinstance(exc, wire.WireError):
        return invalid(exc.reason, exc.message)
    assert isinstance(exc, IllegalMoveError)
    return ServiceError.from_illegal(exc)


class ServiceAdapter:
    """A game's wire adapter whose refusals are `ServiceError`s (INVALID_ARGUMENT with the reason,
    or the engine's code for an illegal move). Everything else is the wire adapter's."""

    def __init__(self, inner: wire.GameAdapter):
        self.inner = inner
        self.game_id = inner.game_id
        self.Game = inner.Game
        self.state = inner.state
        self.summary = inner.summary
        self.event = inner.event
        self.move_to_proto = inner.move_to_proto
        self.move_bytes = inner.move_bytes
        self.legal_entries = inner.legal_entries
        self.from_record = inner.from_record
        self.describe_move = inner.describe_move
        self.describe_events = inner.describe_events

    def new_game(self, config: matches_pb2.GameConfig, seed: int | None) -> Any:
        """A new game of `config` (INVALID_ARGUMENT / INVALID_CONFIG for a bad option)."""
        try:
            return self.inner.new_game(config, seed)
        except wire.WireError as exc:
            raise _service_error(exc) from None

    def move_from_proto(self, pb: moves_pb2.Move) -> Any:
        try:
            return self.inner.move_from_proto(pb)
        except (wire.WireError, IllegalMoveError) as exc:
            raise _service_error(exc) from None

    def public_config(self, config: matches_pb2.GameConfig) -> matches_pb2.GameConfig:
        """`config` without the seed and explicit decks/layouts: what a Match carries before its end."""
        return self.inner.public_config(config)


_adapters: dict[wire.GameAdapter, ServiceAdapter] = {}


def adapter(game_id: str) -> ServiceAdapter:
    """The adapter of a registered game (INVALID_ARGUMENT / UNKNOWN_GAME otherwise): one per wire
    adapter, so a game registered anew gets its own."""
    try:
        inner = wire.adapter(game_id)
    except wire.WireError as exc:
        raise _service_error(exc) from None
    found = _adapters.get(inner)
    if found is None:
        found = _adapters[inner] = ServiceAdapter(inner)
    return found


def watch_response(
    ad: ServiceAdapter,
    match_id: str,
    version: int,
    game: Any,
    seat: int,
    move: Any,
    events: list[Any],
    state: Any = None,
) -> matches_pb2.WatchMatchResponse:
    """The WatchMatch message of one version (seat < 0 and move None at creation); `state`, when
    the caller already built it, is used instead of building it again."""
    out = matches_pb2.WatchMatchResponse(
        match_id=match_id,
        version=version,
        events=[ad.event(e) for e in events],
        state=state if state is not None else ad.state(game, version),
    )
    if move is not None:
        out.move.CopyFrom(ad.move_to_proto(move))
    if seat >= 0:
        out.seat = seat
    return out


def config_for(ad: ServiceAdapter, config: matches_pb2.GameConfig, game: Any) -> matches_pb2.GameConfig:
    """The config a Match carries: complete once the game is over, public before (the bot seats and
    whether hints are allowed included: they hide nothing)."""
    if game.is_over:
        return config
    public = ad.public_config(config)
    public.bots.extend(config.bots)
    public.hints = config.hints
    return public
