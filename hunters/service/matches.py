"""Live matches: the games in memory, their locks and watchers, backed by the Store.

Every operation here speaks game-API objects; servicer.py translates to and from protobuf."""
from __future__ import annotations

import hashlib
import secrets
import sqlite3
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import grpc

from hunters.errors import IllegalMoveError
from hunters.v1 import matches_pb2

from . import auth
from .errors import ServiceError, invalid, not_found
from .games import GameAdapter, adapter
from .store import Store

MAX_SEED = 2**64 - 1


@dataclass
class LiveMatch:
    match_id: str
    seq: int
    adapter: GameAdapter
    config: matches_pb2.GameConfig
    record: dict                 # the record at creation (no moves)
    game: Any                    # current state
    moves: list[Any]             # game-API moves, in order
    seats: list[int]             # who played each move
    seat_hashes: list[str]
    admin_hash: str
    created_at: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    changed: threading.Condition = field(init=False)
    deleted: bool = False

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)

    @property
    def version(self) -> int:
        return len(self.moves)


@dataclass(frozen=True)
class Played:
    version: int
    seat: int
    events: list[Any]
    response: Any = None           # the reply (a protobuf message), or its bytes when replayed for a retry


class MatchManager:
    """Creates, finds, lists, deletes and plays matches. Thread-safe: one lock per match."""

    def __init__(self, store: Store, max_live_matches: int = 10_000, cache_size: int = 4096):
        self.store = store
        self.max_live_matches = max_live_matches
        self._cache: OrderedDict[str, LiveMatch] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()   # guards the cache and creation

    # -- creation and lookup ----------------------------------------------------------------
    def create(self, config: matches_pb2.GameConfig) -> tuple[LiveMatch, list[str], str]:
        ad = adapter(config.game)
        if not 1 <= config.players <= 16:
            raise invalid("INVALID_CONFIG", "players out of range")
        seed = config.seed if config.HasField("seed") else secrets.randbits(63)
        game = ad.new_game(config, seed)
        stored_config = matches_pb2.GameConfig()
        stored_config.CopyFrom(config)
        stored_config.seed = seed
        tokens = [auth.new_token() for _ in range(game.players)]
        admin = auth.new_token()
        match_id = uuid.uuid4().hex
        record = game.to_record()
        with self._lock:
            if self.store.live_count() >= self.max_live_matches:
                raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_MATCHES",
                                   f"the server holds its limit of {self.max_live_matches} unfinished matches")
            seq, created = self.store.create(match_id, config.game, record,
                                             stored_config.SerializeToString(deterministic=True),
                                             [auth.hash_token(t) for t in tokens], auth.hash_token(admin),
                                             game.is_over)
            live = LiveMatch(match_id, seq, ad, stored_config, record, game, [], [],
                             [auth.hash_token(t) for t in tokens], auth.hash_token(admin), created)
            self._remember(live)
        return live, tokens, admin

    def _remember(self, live: LiveMatch) -> None:
        """Keep `live` in memory. Only finished matches are ever evicted (oldest use first): an
        unfinished one must stay the single object that players and watchers share. Unfinished
        matches are bounded by max_live_matches, finished ones in memory by the cache size."""
        self._cache[live.match_id] = live
        self._cache.move_to_end(live.match_id)
        excess = len(self._cache) - self._cache_size
        if excess > 0:
            for match_id in [m for m, v in self._cache.items() if v.game.is_over][:excess]:
                del self._cache[match_id]

    def get(self, match_id: str) -> LiveMatch:
        """The live match (loaded from the store and replayed if it is not in memory)."""
        if not isinstance(match_id, str) or not match_id:
            raise invalid("MATCH_ID_MISSING", "match_id is required")
        with self._lock:
            live = self._cache.get(match_id)
            if live is not None:
                self._cache.move_to_end(match_id)
                return live
            stored = self.store.load(match_id)
            if stored is None:
                raise not_found(match_id)
            ad = adapter(stored.game)
            record = dict(stored.record, moves=[m for _, m in stored.moves])
            game = ad.from_record(record)
            config = matches_pb2.GameConfig.FromString(stored.config)
            live = LiveMatch(stored.match_id, stored.seq, ad, config, stored.record, game,
                             list(game.moves), [s for s, _ in stored.moves], stored.seat_hashes,
                             stored.admin_hash, stored.created_at)
            self._remember(live)
            return live

    def page(self, page_size: int, page_token: str, game: str) -> tuple[list[LiveMatch], str]:
        if page_size < 0:
            raise invalid("BAD_PAGE_SIZE", "page_size must not be negative")
        size = min(page_size or 50, 500)
        after = 0
        if page_token:
            try:
                after = int(page_token, 16)
            except ValueError:
                raise invalid("BAD_PAGE_TOKEN", "page_token was not made by this server") from None
        ids = self.store.page(after, size + 1, game or None)
        matches = [self.get(i) for i in ids[:size]]
        token = format(matches[-1].seq, "x") if len(ids) > size else ""
        return matches, token

    def delete(self, match_id: str, token: str | None) -> None:
        live = self.get(match_id)
        self._check_admin(live, token)
        with live.lock:
            self.store.delete(match_id)
            live.deleted = True
            live.changed.notify_all()
        with self._lock:
            self._cache.pop(match_id, None)

    def record(self, match_id: str, token: str | None) -> dict:
        live = self.get(match_id)
        with live.lock:
            if not live.game.is_over:
                self._check_admin(live, token, why="before the end the record (it holds the draw order) needs the admin token")
            return live.game.to_record()

    # -- play ---------------------------------------------------------------------------------
    def seat_of(self, live: LiveMatch, token: str | None) -> int:
        token = auth.require_token(token)
        for seat, h in enumerate(live.seat_hashes):
            if auth.matches(token, h):
                return seat
        raise ServiceError(grpc.StatusCode.PERMISSION_DENIED, "INVALID_TOKEN",
                           "that token holds no seat of this match", match_id=live.match_id)

    def _check_admin(self, live: LiveMatch, token: str | None, why: str = "") -> None:
        token = auth.require_token(token)
        if not auth.matches(token, live.admin_hash):
            raise ServiceError(grpc.StatusCode.PERMISSION_DENIED, "ADMIN_TOKEN_REQUIRED",
                               why or "this call needs the match's admin token", match_id=live.match_id)

    def play(self, match_id: str, token: str | None, expected_version: int | None,
             to_move: Callable[[Any], Any], request_id: str, fingerprint: bytes,
             respond: Callable[[Any, Played], Any]) -> tuple[LiveMatch, Played]:
        """Apply one move for the token's seat. `to_move(game)` builds the game-API move (it may raise);
        `respond(game after, played)` builds the reply, stored with `request_id` for retries. The
        move is durable before the match changes in memory."""
        live = self.get(match_id)
        seat = self.seat_of(live, token)
        digest = hashlib.sha256(bytes([seat]) + fingerprint).hexdigest() if request_id else ""
        with live.lock:
            if live.deleted:
                raise not_found(match_id)
            if request_id:
                if len(request_id) > 128:
                    raise invalid("BAD_REQUEST_ID", "request_id is at most 128 characters")
                earlier = self.store.request(match_id, request_id)
                if earlier is not None:
                    if earlier[0] != digest:
                        raise invalid("REQUEST_ID_REUSED", "this request_id was used for a different request",
                                      request_id=request_id)
                    return live, Played(-1, seat, [], earlier[1])
            if expected_version is not None and expected_version != live.version:
                raise ServiceError(grpc.StatusCode.ABORTED, "STALE_VERSION",
                                   f"expected version {expected_version}, the match is at {live.version}",
                                   current_version=live.version)
            game = live.game
            if game.is_over:
                raise ServiceError.from_illegal(IllegalMoveError("GAME_OVER", "the game is over"))
            if seat != game.player:
                raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN",
                                   f"seat {game.player} is to move, your token is seat {seat}", player=game.player)
            try:
                move = to_move(game)
                after = game.clone()
                events = after.play(move)
            except IllegalMoveError as exc:
                raise ServiceError.from_illegal(exc, match_id=match_id, version=live.version) from None
            played = Played(live.version + 1, seat, events)
            response = respond(after, played)
            try:
                self.store.append_move(match_id, live.version, seat, move.to_json(), after.is_over,
                                       (request_id, digest, response.SerializeToString()) if request_id else None)
            except sqlite3.IntegrityError:  # another server process on this database got there first
                raise ServiceError(grpc.StatusCode.ABORTED, "STALE_VERSION",
                                   "the match moved on in the database", match_id=match_id) from None
            live.game = after
            live.moves.append(move)
            live.seats.append(seat)
            live.changed.notify_all()
            return live, Played(played.version, seat, events, response)

    # -- watching -------------------------------------------------------------------------------
    def history(self, match_id: str, from_version: int, active: Callable[[], bool],
                poll_seconds: float = 0.5) -> Iterator[tuple[LiveMatch, int, Any, int, Any, list[Any]]]:
        """(match, version, game after it, seat, move, events) from `from_version` on, then live,
        until the match is over (or deleted, or the caller goes away)."""
        if from_version < 0:
            raise invalid("BAD_VERSION", "from_version must not be negative")
        live = self.get(match_id)
        with live.lock:
            cursor = live.adapter.from_record(dict(live.record, moves=[]))
        version = 0
        if from_version == 0:
            yield live, 0, cursor, -1, None, list(cursor.events)
        while True:
            with live.lock:
                while version >= live.version and not live.deleted and not live.game.is_over and active():
                    live.changed.wait(poll_seconds)
                if live.deleted or not active():
                    return
                pending = list(zip(live.moves[version:], live.seats[version:]))
            if not pending:
                return  # over and everything sent
            for move, seat in pending:
                events = cursor.play(move)
                version += 1
                if version >= from_version:
                    yield live, version, cursor, seat, move, events
            if cursor.is_over:
                return
