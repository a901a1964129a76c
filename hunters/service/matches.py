"""Live matches: the games in memory, their locks and watchers, backed by the Store.

Every operation here speaks game-API objects; servicer.py translates to and from protobuf. The
manager lives on the server's event loop: its methods run there and never block on a client.

On a store shared by replicas (PostgreSQL) the memory is a cache the database keeps honest: a move
is accepted only if the store finds its version free (`VersionConflict` otherwise: the match is
brought up to date and the move judged again on it, as a move queued behind another is on one
server, so an expected_version gets STALE_VERSION), and the changes other replicas make arrive as
`Change`s that bring cached matches and their watchers up to date."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import hashlib
import logging
import secrets
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc

from hunters.bots.base import Bot
from hunters.errors import IllegalMoveError
from hunters.v1 import matches_pb2

from . import auth, tracing, validate
from .botseats import MAX_ITERATIONS, MAX_MATCH_ITERATIONS, BotSeatLedger, MatchBudget, bot_seats, choose, search_cost
from .cache import MatchCache
from .durable import to_the_end
from .engine import Engine
from .errors import ServiceError, invalid, not_found
from .games import adapter
from .live import Built, EventEncoder, LiveMatch, Played
from .stats import MatchStats, Timings
from .store_base import Change, MatchStore, StoreUnavailable, VersionConflict
from .watchers import Watchers

log = logging.getLogger("hunters.service")


# respond(game after the move, what was played) -> (the reply, the whole MatchState it built or None)
Respond = Callable[[Any, Played], tuple[Any, Any]]


def _chosen(move: Any, _game: Any) -> Any:
    """The move a bot chose (the `to_move` of a bot's commit)."""
    return move


class MatchManager:
    """Creates, finds, lists, deletes, plays, expires and watches matches.

    Unfinished matches stay in memory (bounded by `max_live_matches`); finished and abandoned ones
    are cached (`cache_size`, least recently used first out) and reloaded from the store on demand.
    A match idle (no move) for `idle_seconds` is abandoned: closed for moves, still readable."""

    def __init__(
        self,
        store: MatchStore,
        encode: EventEncoder,
        max_live_matches: int = 10_000,
        cache_size: int = 4096,
        idle_seconds: float | None = None,
        create_token: str | None = None,
        engine: Engine | None = None,
        max_bot_iterations: int = MAX_ITERATIONS,
        max_match_bot_iterations: int | None = MAX_MATCH_ITERATIONS,
        max_bot_seats: int = 256,
        caller_bot_seats: int = 16,
    ):
        self.store = store
        self.watching = Watchers(encode)
        self.max_live_matches = max_live_matches
        self.idle_seconds = idle_seconds
        self._create_hash = auth.hash_token(create_token) if create_token else None
        self.cache = MatchCache(cache_size)
        self._open_count = 0  # active matches, kept here when this server is the store's only writer
        self._pages: validate.PageTokens | None = None
        self.closing = False
        self.engine = engine  # where bots think (None: on the loop, for tools that drive the manager)
        self._tasks: set[asyncio.Task[None]] = set()  # catch-ups under way (held against collection)
        self.lost_races = 0  # moves whose version another server took first (decided by the database)
        self.max_bot_iterations = max_bot_iterations  # an mcts bot seat's search per move
        self.max_match_bot_iterations = max_match_bot_iterations  # ... and all a match's bots' (None: no bound)
        self.bot_ledger = BotSeatLedger(max_bot_seats, caller_bot_seats)  # bot seats of the open matches in memory
        # What an operator watches (read by metrics.py when scraped; plain counts, cheap to keep):
        # (event, game id) -> how many: "moves" stored, matches "created", "over", "abandoned", "deleted"
        self.counts: Counter[tuple[str, str]] = Counter()
        self.heard_changes: Counter[str] = Counter()  # changes heard from a shared store, by kind
        self.bots_thinking = 0  # bot seats thinking, or waiting for a thread to think on
        self.metrics: Timings | None = None  # timings (commits, bots' thinking), when the server has metrics

    def stats(self) -> MatchStats:
        """A snapshot of the counts an operator watches (every container copied in one step: the
        scrape reads it from its own thread)."""
        by_game: Counter[str] = Counter(live.adapter.game_id for live in self.cache.open_matches())
        return MatchStats(
            open_by_game=dict(by_game),
            active=None if self.store.shared else self._open_count,
            limit=self.max_live_matches,
            counts=dict(self.counts),
            watchers=self.watching.count,
            bot_seats=self.bot_ledger.seats,
            bots_thinking=self.bots_thinking,
            lost_races=self.lost_races,
            heard=dict(self.heard()),
        )

    @property
    def bot_seats(self) -> int:
        """Bot seats of the unfinished matches in memory."""
        return self.bot_ledger.seats

    @property
    def cache_size(self) -> int:
        """How many finished or abandoned matches stay in memory."""
        return self.cache.size

    @cache_size.setter
    def cache_size(self, size: int) -> None:
        self.cache.size = size

    def open_matches(self) -> list[LiveMatch]:
        """The unfinished matches in memory (a copy: safe to read from another thread)."""
        return self.cache.open_matches()

    @property
    def active_count(self) -> int:
        """Active matches counted against `max_live_matches` (a store with one writer)."""
        return self._open_count

    @property
    def needs_create_token(self) -> bool:
        """Whether creating a match needs the operator's create token."""
        return self._create_hash is not None

    async def start(self) -> None:
        """Read what the store holds (the page-token key, the count of active matches) and, on a
        shared store, start hearing the other replicas' changes."""
        self._pages = validate.PageTokens(await self.store.secret("page_token_key"))
        if self.store.shared:
            self.store.follows = self._follows
            await self.store.listen(self._on_change, self._resync)
        else:
            self._open_count = await self.store.live_count()

    # -- creation and lookup ----------------------------------------------------------------
    async def create(
        self, config: matches_pb2.GameConfig, token: str | None, caller: str = ""
    ) -> tuple[LiveMatch, list[str], str]:
        if self._create_hash is not None and not auth.matches(auth.require_token(token), self._create_hash):
            raise ServiceError(
                grpc.StatusCode.PERMISSION_DENIED,
                "CREATE_TOKEN_REQUIRED",
                "this server creates matches only for its operator's token",
            )
        ad = adapter(config.game)
        if not self.store.shared and self._open_count >= self.max_live_matches:
            raise self._too_many()
        if config.bots:  # before any game or bot is built: a refusal costs the event loop little
            self.bot_ledger.check(len(config.bots), None if self._create_hash is not None else caller)
        seed = config.seed if config.HasField("seed") else secrets.randbits(63)
        game = ad.new_game(config, seed)
        bots = bot_seats(config.bots, game.players, seed, self.max_bot_iterations, self.max_match_bot_iterations)
        stored_config = matches_pb2.GameConfig()
        stored_config.CopyFrom(config)
        stored_config.seed = seed
        tokens = [auth.new_token() for _ in range(game.players)]
        admin = auth.new_token()
        seat_hashes = [auth.hash_token(t) for t in tokens]
        match_id = uuid.uuid4().hex
        record = game.to_record()
        made = await self.store.create(
            match_id,
            config.game,
            record,
            stored_config.SerializeToString(deterministic=True),
            seat_hashes,
            auth.hash_token(admin),
            game.is_over,
            has_bots=bool(bots),
            limit=self.max_live_matches if self.store.shared else None,  # counted by the database
        )
        if made is None:
            raise self._too_many()
        seq, created = made
        live = LiveMatch(
            match_id,
            seq,
            ad,
            stored_config,
            record,
            game,
            [],
            [],
            seat_hashes,
            auth.hash_token(admin),
            created,
            bots=bots,
            budget=MatchBudget(self.max_match_bot_iterations),
            last_events=list(game.events),
        )
        self.cache.keep(live)
        self.counts["created", ad.game_id] += 1
        if live.is_open:
            self._open_count += 1
            self._count_bots(live, caller)
        self._wake_bots(live)
        return live, tokens, admin

    def _count_bots(self, live: LiveMatch, owner: str) -> None:
        """`live`'s bot seats count (server-wide, and against `owner`) while it is open."""
        if not live.bots:
            return
        live.owner = owner
        self.bot_ledger.add(owner, len(live.bots))

    def _stop_bots(self, live: LiveMatch) -> None:
        """`live` closed (over, abandoned, deleted) or its bots handed their seats back: its bots stop
        now (a search under way ends at its next check) and no longer count."""
        if live.bot_task is not None and live.bot_task is not asyncio.current_task():
            live.bot_task.cancel()
        if live.bots:
            self.bot_ledger.release(live.owner, len(live.bots))
            live.bots = {}

    def _too_many(self) -> ServiceError:
        return ServiceError(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "TOO_MANY_MATCHES",
            f"the server holds its limit of {self.max_live_matches} unfinished matches",
        )

    def cached(self, match_id: str) -> LiveMatch | None:
        """The match if it is in memory."""
        return self.cache.get(match_id)

    async def get(self, match_id: str) -> LiveMatch:
        """The live match (loaded from the store and replayed if it is not in memory)."""
        live = self.cached(match_id)
        if live is not None:
            return live
        stored = await self.store.load(validate.match_id(match_id))
        if stored is None:
            raise not_found(match_id)
        live = self.cached(match_id)
        if live is not None:  # loaded by another call meanwhile: one object per match
            return live
        ad = adapter(stored.game)
        game = ad.from_record(dict(stored.record, moves=[m for _, m in stored.moves]))
        config = matches_pb2.GameConfig.FromString(stored.config)
        live = LiveMatch(
            stored.match_id,
            stored.seq,
            ad,
            config,
            stored.record,
            game,
            list(game.moves),
            [s for s, _ in stored.moves],
            stored.seat_hashes,
            stored.admin_hash,
            stored.created_at,
            abandoned=stored.abandoned,
            bots=self._stored_bots(config, game, stored.match_id),
            budget=MatchBudget(self.max_match_bot_iterations),
        )
        self.cache.keep(live)
        if live.is_open:
            self._count_bots(live, "")
        else:
            live.bots = {}
        if self.store.shared and live.is_open:
            # A change heard while the match was loading found nothing in memory to bring up to date.
            self._schedule_catch_up(live)
        self._wake_bots(live)
        return live

    def _stored_bots(self, config: matches_pb2.GameConfig, game: Any, match_id: str) -> dict[int, Bot]:
        """The bots of a stored match; a spec this server no longer accepts (a lower
        --max-bot-iterations, a stricter check) hands those seats back to their tokens."""
        if not config.bots:
            return {}
        try:
            return bot_seats(
                config.bots, game.players, config.seed, self.max_bot_iterations, self.max_match_bot_iterations
            )
        except ServiceError as exc:
            log.warning(
                "bot seats handed back: this server refuses their spec",
                extra={"match_id": match_id, "error": exc.message},
            )
            return {}

    async def page(self, page_size: int, page_token: str, game: str) -> tuple[list[LiveMatch], str]:
        """One page of matches in creation order, and the token of the next page ("" at the end).
        Matches not in memory are loaded one by one, letting other calls run in between."""
        if page_size < 0:
            raise invalid("BAD_PAGE_SIZE", "page_size must not be negative")
        game = validate.game_filter(game)
        size = min(page_size or 50, 500)
        assert self._pages is not None, "MatchManager.start() first"
        after = self._pages.read(page_token, game)
        rows = await self.store.page(after, size + 1, game or None)
        matches = []
        for _, match_id in rows[:size]:
            try:
                matches.append(await self.get(match_id))
            except ServiceError:  # deleted meanwhile
                continue
        token = self._pages.make(rows[size - 1][0], game) if len(rows) > size else ""
        return matches, token

    async def delete(self, match_id: str, token: str | None) -> None:
        live = await self.get(match_id)
        self._check_admin(live, token)

        async def durable() -> None:
            await self.store.delete(match_id)
            self._forget(live)

        await to_the_end(durable())
        self.counts["deleted", live.adapter.game_id] += 1

    def _forget(self, live: LiveMatch) -> None:
        """`live` was deleted (here or by another replica): out of memory, its watchers told."""
        if live.deleted:
            return
        if live.is_open:
            self._open_count -= 1
        self._stop_bots(live)
        live.deleted = True
        self.cache.drop(live.match_id)
        live.publish()

    async def record(self, match_id: str, token: str | None) -> dict[str, Any]:
        live = await self.get(match_id)
        if not live.game.is_over:
            self._check_admin(
                live, token, why="before the end the record (it holds the draw order) needs the admin token"
            )
        record: dict[str, Any] = live.game.to_record()
        return record

    def close(self) -> None:
        """Shutting down: every watcher waiting for a move ends now (UNAVAILABLE / SHUTTING_DOWN, with
        the version to resume from), instead of holding the stop for its whole grace period; bots
        stop (their seats play on after the next start)."""
        self.closing = True
        for task in self._tasks:
            task.cancel()
        for live in self.cache.open_matches():
            if live.bot_task is not None:
                live.bot_task.cancel()
            live.publish()

    async def expire(self, now: float | None = None) -> list[str]:
        """Abandon every open match idle for longer than `idle_seconds`; their watchers are told.
        Every replica sweeps; the database abandons each match once, and tells the others.

        A bot's move is not a person's activity: a match every seat of which is a bot is abandoned
        `idle_seconds` after its creation, unless it ended before."""
        if not self.idle_seconds:
            return []
        before = (time.time() if now is None else now) - self.idle_seconds
        ids = await self.store.abandon_idle(before)
        for candidate in self.cache.open_matches():
            stale = candidate.is_open and candidate.created_at < before and self._all_bots(candidate)
            if stale and candidate.match_id not in ids and await self.store.abandon(candidate.match_id):
                ids.append(candidate.match_id)
        self._open_count -= len(ids)
        for match_id in ids:
            live = self.cache.open_match(match_id)
            if live is not None:
                self._abandoned(live)
                log.info("match abandoned", extra={"match_id": match_id, "version": live.version})
                self.counts["abandoned", live.adapter.game_id] += 1
        return ids

    @staticmethod
    def _all_bots(live: LiveMatch) -> bool:
        return bool(live.bots) and len(live.bots) == live.game.players

    def _abandoned(self, live: LiveMatch) -> None:
        self._stop_bots(live)
        live.abandoned = True
        self.cache.keep(live)
        live.publish()

    # -- play ---------------------------------------------------------------------------------
    def seat_of(self, live: LiveMatch, token: str | None) -> int:
        token = auth.require_token(token)
        for seat, h in enumerate(live.seat_hashes):
            if auth.matches(token, h):
                return seat
        raise ServiceError(
            grpc.StatusCode.PERMISSION_DENIED,
            "INVALID_TOKEN",
            "that token holds no seat of this match",
            match_id=live.match_id,
        )

    @staticmethod
    def check_not_bot(live: LiveMatch, seat: int) -> None:
        """A seat the server's bot plays takes no move from its token (PlayMove, seat streams)."""
        if seat in live.bots:
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION,
                "SEAT_PLAYED_BY_BOT",
                f"seat {seat} is played by the server's bot",
                match_id=live.match_id,
                seat=seat,
            )

    def _check_admin(self, live: LiveMatch, token: str | None, why: str = "") -> None:
        token = auth.require_token(token)
        if not auth.matches(token, live.admin_hash):
            raise ServiceError(
                grpc.StatusCode.PERMISSION_DENIED,
                "ADMIN_TOKEN_REQUIRED",
                why or "this call needs the match's admin token",
                match_id=live.match_id,
            )

    async def play(
        self,
        match_id: str,
        token: str | None,
        expected_version: int | None,
        to_move: Callable[[Any], Any],
        request_id: str,
        fingerprint: bytes,
        respond: Respond,
    ) -> tuple[LiveMatch, Played]:
        """Apply one move for the token's seat. `to_move(game)` builds the game-API move (it may raise);
        `respond(game after, played)` builds the reply, stored with `request_id` for retries, and the
        whole state it built (None if it built none). The move is durable before the match changes
        in memory."""
        live = await self.get(match_id)
        seat = self.seat_of(live, token)
        validate.request_id(request_id)
        self.check_not_bot(live, seat)
        digest = hashlib.sha256(bytes([seat]) + fingerprint).hexdigest() if request_id else ""
        async with self._locked(live):
            # On a shared store the cached match may be behind the database: a move refused by the
            # cache, or one that lost at the database, is checked once more against the match brought
            # up to date, which is how a move queued behind another one is judged on one server.
            for last_try in (False, True):
                seen = (live.version, live.abandoned, live.deleted)
                try:
                    earlier = await self._earlier(live, request_id, digest)
                    if earlier is not None:
                        return live, Played(-1, seat, [], earlier)
                    if expected_version is not None and expected_version != live.version and not live.deleted:
                        raise ServiceError(
                            grpc.StatusCode.ABORTED,
                            "STALE_VERSION",
                            f"expected version {expected_version}, the match is at {live.version}",
                            match_id=live.match_id,
                            current_version=live.version,
                        )
                    played = await self._commit(live, seat, to_move, respond, request_id, digest)
                    break
                except VersionConflict:  # lost at the database; `live` caught up already
                    if last_try:
                        raise self._lost(live) from None
                except ServiceError:
                    if last_try or not self.store.shared:
                        raise
                    await self._catch_up(live)
                    if (live.version, live.abandoned, live.deleted) == seen:
                        raise  # the database agrees with the cache
        self._wake_bots(live)
        return live, played

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

    def _lost(self, live: LiveMatch) -> ServiceError:
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

    @contextlib.asynccontextmanager
    async def _locked(self, live: LiveMatch) -> AsyncIterator[None]:
        """Hold the match's lock; changes heard meanwhile are caught up with once it is released."""
        async with live.lock:
            try:
                yield
            finally:
                if live.heard > live.version and not live.deleted:
                    self._schedule_catch_up(live)

    async def _commit(
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
            self._apply(live, seat, move, after, events, whole)

        try:
            await to_the_end(durable())
        except VersionConflict:  # another server (a replica) on this database got there first
            self.lost_races += 1
            await self._catch_up(live)
            raise
        game_id = live.adapter.game_id
        self.counts["moves", game_id] += 1
        if after.is_over:
            self.counts["over", game_id] += 1
        return Played(played.version, seat, events, response)

    def _apply(self, live: LiveMatch, seat: int, move: Any, after: Any, events: list[Any], state: Any) -> None:
        """A stored move into memory: the match moves on, its watchers are shown the move. `state`:
        the new version's whole MatchState when the move's reply built it (else None)."""
        live.game = after
        live.built = Built(after, state) if state is not None else None
        live.moves.append(move)
        live.seats.append(seat)
        if after.is_over:
            self._open_count -= 1
            self._stop_bots(live)
            self.cache.keep(live)
            log.info("match over", extra={"match_id": live.match_id, "version": live.version, "winners": after.winners})
        live.last_events = events
        self.watching.committed(live, seat, move, events)
        live.publish()

    # -- the other replicas' changes ------------------------------------------------------------
    async def _catch_up(self, live: LiveMatch) -> None:
        """Bring `live` (its lock held) up to the store: the moves stored since its version, and
        whether it was abandoned or deleted meanwhile."""
        if live.deleted:
            return
        found = await self.store.moves_from(live.match_id, live.version)
        if found is None:
            self._forget(live)
            return
        moves, abandoned = found
        for seat, data in moves:
            move = live.adapter.Game.move_from_json(data)
            after = live.game.clone()
            events = after.play(move)
            self._apply(live, seat, move, after, events, None)
        if live.heard_at and live.version >= live.heard:
            if self.metrics is not None:
                self.metrics.caught_up(time.monotonic() - live.heard_at)
            live.heard_at = 0.0
        if abandoned and not live.abandoned:
            if live.is_open:
                self._open_count -= 1
            self._abandoned(live)

    def _schedule_catch_up(self, live: LiveMatch) -> None:
        async def run() -> None:
            delay = 0.05
            while not self.closing:
                try:
                    async with self._locked(live):
                        await self._catch_up(live)
                    return
                except StoreUnavailable as exc:  # the database is away: try again, ever more slowly
                    log.warning(
                        "catching up: database unavailable", extra={"match_id": live.match_id, "error": str(exc)}
                    )
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, 2.0)
                except Exception:
                    log.exception("catching up failed", extra={"match_id": live.match_id})
                    return

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _follows(self, match_id: str) -> bool:
        """Whether the match is in memory (the store's question, from its own thread: no LRU update).
        A match loaded later catches up after loading (`get`), so moves left out meanwhile are not lost."""
        return self.cache.holds(match_id)

    def heard(self) -> Counter[str]:
        """The changes heard from a shared store, by kind, the moves it left out included."""
        heard = Counter(self.heard_changes)
        if self.store.moves_passed_over:
            heard["move"] += self.store.moves_passed_over
        return heard

    async def _on_change(self, change: Change) -> None:
        """A change heard from the store (this replica's own ones included): matches not in memory
        are read fresh when asked for; a cached one catches up unless it knows the change already."""
        self.heard_changes["deleted" if change.deleted else "abandoned" if change.abandoned else "move"] += 1
        live = self.cached(change.match_id)
        if live is None or live.deleted:
            return
        if change.deleted:
            self._forget(live)
        elif change.abandoned:
            if not live.abandoned:
                self._schedule_catch_up(live)
        elif change.version > live.version:
            live.heard = max(live.heard, change.version)
            live.heard_at = live.heard_at or time.monotonic()
            if not live.lock.locked():  # else once the lock is released (_locked)
                self._schedule_catch_up(live)

    async def _resync(self) -> None:
        """Changes may have been missed (the store's listening connection was down): every open
        match in memory catches up, closed ones are read again when asked for."""
        self.cache.forget_closed()
        for live in self.cache.open_matches():
            self._schedule_catch_up(live)

    # -- the server's own seats -----------------------------------------------------------------
    def _wake_bots(self, live: LiveMatch) -> None:
        """Start the bots' moves if a bot seat is to move and none are under way."""
        if not live.bots or self.closing or not live.is_open or live.game.player not in live.bots:
            return
        if live.bot_task is None or live.bot_task.done():
            # in a context of its own: each bot move is a trace of its own, not part of the call that woke it
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_moves(live), context=contextvars.Context())

    async def _bot_moves(self, live: LiveMatch) -> None:
        """Play every bot seat's move while one is to move: each bot thinks on the engine's bot lane
        (in turn with every other match's bots), its move is committed like a player's. A bot that
        fails (raises, or chooses a move the game refuses) hands its seat back to the seat's token,
        logged with the reason, instead of leaving the match waiting for it."""
        delay = 0.05
        while live.is_open and not self.closing and live.game.player in live.bots:
            seat, game = live.game.player, live.game
            bot = live.bots[seat]
            live.budget.catch_up(live.bots, live.seats, game)
            if not live.budget.affords(search_cost(bot, game)):
                if seat not in live.budget.announced:  # once per seat
                    live.budget.announced.add(seat)
                    log.info(
                        "bot plays one-ply moves: its match's bot iterations are spent",
                        extra={"match_id": live.match_id, "seat": seat, "spent": live.budget.spent},
                    )
                bot = live.budget.cheap(seat, bot)
            attributes = {"hunters.match_id": live.match_id, "hunters.seat": seat, "hunters.game": live.adapter.game_id}
            with tracing.span("bot move", attributes):  # a trace of its own: its thinking and its commit
                try:
                    self.bots_thinking += 1
                    try:
                        with tracing.span("bot think"):
                            if self.engine is None:
                                move = bot(game)
                            else:
                                # a bot facing a person thinks before bots that play only bots
                                move = await self.engine.bots.wait_run(
                                    choose, bot, game, priority=int(self._all_bots(live)), timed=self._thought(live)
                                )
                    finally:
                        self.bots_thinking -= 1
                    async with self._locked(live):
                        if live.game is not game or seat not in live.bots:  # the match changed meanwhile
                            continue
                        try:
                            await self._commit(live, seat, functools.partial(_chosen, move), None)
                        except VersionConflict:  # another replica's bot played this seat: it goes on
                            raise self._lost(live) from None
                except ServiceError as exc:
                    if not live.is_open or exc.reason in ("STALE_VERSION", "MATCH_NOT_FOUND"):
                        # the match was deleted or closed while the bot thought, or another replica played
                        log.debug("bot stopped", extra={"match_id": live.match_id, "seat": seat, "reason": exc.reason})
                        return
                    self._hand_back(live, seat, bot, f"its move was refused: {exc.reason}: {exc.message}")
                    return
                except StoreUnavailable as exc:  # the database is away: the move is thought again later
                    log.warning(
                        "bot move not stored: database unavailable",
                        extra={"match_id": live.match_id, "error": str(exc)},
                    )
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, 5.0)
                    continue
                except Exception as exc:
                    if live.deleted or not live.is_open or self.closing:
                        return
                    self._hand_back(live, seat, bot, f"{type(exc).__name__}: {exc}")
                    return
            log.debug("bot played", extra={"match_id": live.match_id, "version": live.version, "seat": seat})

    def _thought(self, live: LiveMatch) -> Callable[[float], None] | None:
        """What records a bot's thinking time in `live` (None: no metrics)."""
        metrics = self.metrics
        if metrics is None:
            return None
        return functools.partial(metrics.thought, live.adapter.game_id)

    def _hand_back(self, live: LiveMatch, seat: int, bot: Bot, why: str) -> None:
        """`bot` failed at `seat`: the seat is played by its token from now on (PlayMove), the
        watchers are told (a notice on their streams, and Match.bot_failures), the reason logged
        (once per failure)."""
        log.error(
            "bot failed: its seat is handed back to the seat's token",
            extra={"match_id": live.match_id, "seat": seat, "bot": repr(bot), "error": why[:200]},
        )
        spec = next((b.bot for b in live.config.bots if b.seat == seat), repr(bot))
        live.failures.append(matches_pb2.BotFailure(seat=seat, bot=spec, reason=why[:200]))
        if live.bots.pop(seat, None) is not None:
            self.bot_ledger.release(live.owner, 1)
        live.publish()

    async def resume_bots(self, quiet_for: float | None = None) -> int:
        """After a start: load every open match whose next move is a bot's, so that it plays on.
        Replicas all do, and (`quiet_for`) now and then take over the bot matches with no move for
        that long, whose replica may have died; when two play one seat, the store's version check
        keeps one move and the other replica's bot stops (STALE_VERSION) and follows the match as a
        cache. Returns how many matches' bots are playing here."""
        quiet_before = None if quiet_for is None else time.time() - quiet_for
        count = 0
        for match_id in await self.store.open_with_bots(quiet_before):
            try:
                live = await self.get(match_id)
            except ServiceError:  # deleted meanwhile
                continue
            self._wake_bots(live)
            count += live.bot_task is not None and not live.bot_task.done()
        return count

    # -- watching -------------------------------------------------------------------------------
    async def watch(self, match_id: str, from_version: int, brief: bool = False) -> AsyncIterator[bytes]:
        """Encoded watch events from `from_version` on, then live ones (watchers.py); `brief`: with
        the states' summaries."""
        if from_version < 0:
            raise invalid("BAD_VERSION", "from_version must not be negative")
        live = await self.get(match_id)
        async for data in self.watching.stream(live, from_version, lambda: self.closing, brief):
            yield data


def _commit_error(exc: BaseException) -> str:
    """A failed commit's reason, for its metric."""
    if isinstance(exc, VersionConflict):
        return "VERSION_CONFLICT"
    if isinstance(exc, StoreUnavailable):
        return exc.reason
    if isinstance(exc, asyncio.CancelledError):
        return "CANCELLED"
    return type(exc).__name__
