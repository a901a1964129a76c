"""The match engine's front: creating, finding, listing, deleting and playing matches, in game-API
terms (servicer.py translates to and from protobuf). It lives on the server's event loop and never
blocks on a client. Its parts, each a module with one job:

- cache.py: the matches in memory (`MatchCache`); live.py: one match (`LiveMatch`);
- factory.py: a match made from a config, or read back from the store (`MatchFactory`);
- committer.py: a move validated, played on the core, made durable, applied (`Committer`);
- lifecycle.py: a version applied, a match closed, and the counts (`Lifecycle`);
- catchup.py: cached matches brought up to a store other servers write to (`CatchUp`);
- botplay.py: the server's own seats at play (`BotPlayer`); botseats.py: which seats, what budget;
- watchers.py: watch streams and their shared encodings (`Watchers`);
- reads.py: the reads thread where long histories are replayed, records built, matches loaded;
- expiry.py: idle matches abandoned (`Expiry`)."""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc

from hunters.v1 import matches_pb2

from . import auth, validate
from .botplay import BotPlayer
from .botseats import MAX_ITERATIONS, MAX_MATCH_ITERATIONS, BotSeatLedger
from .cache import MatchCache
from .catchup import CatchUp
from .committer import Committer, Respond
from .durable import to_the_end
from .engine import Engine
from .errors import ServiceError, invalid, not_found
from .expiry import Expiry
from .factory import MatchFactory
from .lifecycle import Lifecycle
from .live import EventEncoder, LiveMatch, Played
from .reads import Reads, Records
from .stats import MatchStats, Timings
from .store_base import MatchStore
from .watchers import Watchers

log = logging.getLogger("hunters.service")

__all__ = ["MatchManager", "Respond"]


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
        self.max_live_matches = max_live_matches
        self._pages: validate.PageTokens | None = None
        ledger = BotSeatLedger(max_bot_seats, caller_bot_seats)  # bot seats of the open matches in memory
        self.factory = MatchFactory(
            store, ledger, create_token, max_live_matches, max_bot_iterations, max_match_bot_iterations
        )
        self.cache = MatchCache(cache_size)
        self.reads = Reads()
        self.records = Records(self.reads)  # serialized GetRecord replies
        self.watching = Watchers(encode, self.reads)
        self.lifecycle = Lifecycle(self.cache, self.watching)
        self.catch_up = CatchUp(store, self.cache, self.lifecycle)
        self.committer = Committer(store, self.lifecycle, self.catch_up)
        self.bots = BotPlayer(self.lifecycle, self.committer, self.catch_up, ledger, engine)
        self.expiry = Expiry(store, self.cache, self.lifecycle, idle_seconds)
        self.on_delete: list[Callable[[str], None]] = []  # told of each match deleted here (its review stops)

    # -- what an operator reads --------------------------------------------------------------------
    def stats(self) -> MatchStats:
        """A snapshot of the counts an operator watches (every container copied in one step: the
        scrape reads it from its own thread)."""
        by_game: Counter[str] = Counter(live.adapter.game_id for live in self.cache.open_matches())
        return MatchStats(
            open_by_game=dict(by_game),
            active=None if self.store.shared else self.lifecycle.open_count,
            limit=self.max_live_matches,
            counts=dict(self.lifecycle.counts),
            watchers=self.watching.count,
            bot_seats=self.bots.ledger.seats,
            bots_thinking=self.bots.thinking,
            lost_races=self.committer.lost_races,
            heard=dict(self.catch_up.heard()),
        )

    @property
    def metrics(self) -> Timings | None:
        """Where the parts report their timings (commits, catch-ups, bots' thinking), if anywhere."""
        return self.committer.metrics

    @metrics.setter
    def metrics(self, timings: Timings | None) -> None:
        self.committer.metrics = self.catch_up.metrics = self.bots.metrics = timings

    @property
    def closing(self) -> bool:
        """The server is shutting down (set by `close`)."""
        return self.lifecycle.closing

    @closing.setter
    def closing(self, closing: bool) -> None:
        self.lifecycle.closing = closing

    @property
    def lost_races(self) -> int:
        return self.committer.lost_races

    @property
    def bot_seats(self) -> int:
        """Bot seats of the unfinished matches in memory."""
        return self.bots.ledger.seats

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
        return self.lifecycle.open_count

    @property
    def needs_create_token(self) -> bool:
        """Whether creating a match needs the operator's create token."""
        return self.factory.create_hash is not None

    async def start(self) -> None:
        """Read what the store holds (the page-token key, the count of active matches) and, on a
        shared store, start hearing the other replicas' changes."""
        self._pages = validate.PageTokens(await self.store.secret("page_token_key"))
        if self.store.shared:
            await self.catch_up.listen()
        else:
            self.lifecycle.open_count = await self.store.live_count()

    def close(self) -> None:
        """Shutting down: every watcher waiting for a move ends now (UNAVAILABLE / SHUTTING_DOWN, with
        the version to resume from), instead of holding the stop for its whole grace period; bots
        stop (their seats play on after the next start)."""
        self.lifecycle.closing = True
        self.catch_up.close()
        for live in self.cache.open_matches():
            if live.bot_task is not None:
                live.bot_task.cancel()
            live.publish()

    # -- creation and lookup ----------------------------------------------------------------
    async def create(
        self, config: matches_pb2.GameConfig, token: str | None, caller: str = ""
    ) -> tuple[LiveMatch, list[str], str]:
        """A new match of `config` (`token`: the create token, if the server needs one; `caller`:
        whose bot seats these are), stored, in memory, its bots woken; with its seat and admin
        tokens, shown only now."""
        if not self.store.shared and self.lifecycle.open_count >= self.max_live_matches:
            raise self._too_many()
        made = await self.factory.create(config, token, caller)
        if made is None:
            raise self._too_many()
        live, tokens, admin = made
        self.cache.keep(live)
        self.lifecycle.counts["created", live.adapter.game_id] += 1
        if live.is_open:
            self.lifecycle.open_count += 1
            self.bots.count(live, caller)
        self.bots.wake(live)
        return live, tokens, admin

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
        live = await self.reads.run(self.factory.load, stored)
        cached = self.cached(match_id)
        if cached is not None:  # loaded by another call meanwhile
            return cached
        self.cache.keep(live)
        if live.is_open:
            self.bots.count(live, "")
        else:
            live.bots = {}
        if self.store.shared and live.is_open:
            # A change heard while the match was loading found nothing in memory to bring up to date.
            self.catch_up.schedule(live)
        self.bots.wake(live)
        return live

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
            self.lifecycle.forget(live)

        await to_the_end(durable())
        self.lifecycle.counts["deleted", live.adapter.game_id] += 1
        for told in self.on_delete:
            told(match_id)

    async def record(self, match_id: str, token: str | None) -> bytes:
        """The serialized GetRecordResponse of the match's current version: built on the reads
        thread, and kept (`records`, bounded in bytes) for the next callers."""
        live = await self.get(match_id)
        if not live.game.is_over:
            self._check_admin(
                live, token, why="before the end the record (it holds the draw order) needs the admin token"
            )
        return await self.records.reply(live)

    async def expire(self, now: float | None = None) -> list[str]:
        """Abandon every open match idle for longer than the idle limit (expiry.py)."""
        return await self.expiry.expire(now)

    async def resume_bots(self, quiet_for: float | None = None) -> int:
        """Load every open match whose next move is a bot's, so that it plays on (botplay.py)."""
        return await self.bots.resume(self.store, self.get, quiet_for)

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
        in memory (committer.py)."""
        live = await self.get(match_id)
        seat = self.seat_of(live, token)
        validate.request_id(request_id)
        self.check_not_bot(live, seat)
        digest = hashlib.sha256(bytes([seat]) + fingerprint).hexdigest() if request_id else ""
        played = await self.committer.play(live, seat, expected_version, to_move, request_id, digest, respond)
        if played.version >= 0:
            self.bots.wake(live)
        return live, played

    # -- watching -------------------------------------------------------------------------------
    async def watch(
        self, match_id: str, from_version: int, brief: bool = False, host: str | None = None
    ) -> AsyncIterator[bytes]:
        """Encoded watch events from `from_version` on, then live ones (watchers.py); `brief`: with
        the states' summaries; `host`: the watcher's host, whose streams take turns replaying history
        (None: a seat's own stream, not bounded so)."""
        if from_version < 0:
            raise invalid("BAD_VERSION", "from_version must not be negative")
        live = await self.get(match_id)
        async for data in self.watching.stream(live, from_version, lambda: self.closing, brief, host):
            yield data
