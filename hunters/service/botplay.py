"""The server's own seats at play: a bot seat to move thinks on the engine's bot lane (in turn with
every other match's bots) and its move is committed like a player's. A bot that fails (raises, or
chooses a move the game refuses) hands its seat back to the seat's token, logged with the reason,
instead of leaving the match waiting for it. Which seats are bots, and how many a caller may hold,
is botseats.py's."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from hunters.bots.base import Bot
from hunters.v1 import matches_pb2

from . import tracing
from .botseats import BotSeatLedger, choose, search_cost
from .catchup import CatchUp
from .committer import Committer
from .engine import Engine
from .errors import ServiceError
from .lifecycle import Lifecycle
from .live import LiveMatch
from .stats import Timings
from .store_base import MatchStore, StoreUnavailable, VersionConflict

log = logging.getLogger("hunters.service")


def _chosen(move: Any, _game: Any) -> Any:
    """The move a bot chose (the `to_move` of a bot's commit)."""
    return move


class BotPlayer:
    """Plays the bot seats of the open matches in memory, and counts them (`ledger`)."""

    def __init__(
        self,
        lifecycle: Lifecycle,
        committer: Committer,
        catch_up: CatchUp,
        ledger: BotSeatLedger,
        engine: Engine | None,
    ):
        self.lifecycle = lifecycle
        self.committer = committer
        self.catch_up = catch_up
        self.ledger = ledger
        self.engine = engine  # where bots think (None: on the loop, for tools that drive the manager)
        self.thinking = 0  # bot seats thinking, or waiting for a thread to think on
        self.metrics: Timings | None = None
        lifecycle.on_close(self.stop)

    def count(self, live: LiveMatch, owner: str) -> None:
        """`live`'s bot seats count (server-wide, and against `owner`) while it is open."""
        if not live.bots:
            return
        live.owner = owner
        self.ledger.add(owner, len(live.bots))

    def stop(self, live: LiveMatch) -> None:
        """`live` closed (over, abandoned, deleted): its bots stop now (a search under way ends at its
        next check) and no longer count."""
        if live.bot_task is not None and live.bot_task is not asyncio.current_task():
            live.bot_task.cancel()
        if live.bots:
            self.ledger.release(live.owner, len(live.bots))
            live.bots = {}

    def wake(self, live: LiveMatch) -> None:
        """Start the bots' moves if a bot seat is to move and none are under way."""
        if not live.bots or self.lifecycle.closing or not live.is_open or live.game.player not in live.bots:
            return
        if live.bot_task is None or live.bot_task.done():
            # in a context of its own: each bot move is a trace of its own, not part of the call that woke it
            live.bot_task = asyncio.get_running_loop().create_task(self._moves(live), context=contextvars.Context())

    def playing(self, live: LiveMatch) -> bool:
        return live.bot_task is not None and not live.bot_task.done()

    async def _moves(self, live: LiveMatch) -> None:
        """Every bot seat's move while one is to move."""
        delay = 0.05
        while live.is_open and not self.lifecycle.closing and live.game.player in live.bots:
            seat, game = live.game.player, live.game
            bot = self._affordable(live, seat, live.bots[seat], game)
            attributes = {"hunters.match_id": live.match_id, "hunters.seat": seat, "hunters.game": live.adapter.game_id}
            with tracing.span("bot move", attributes):  # a trace of its own: its thinking and its commit
                try:
                    move = await self._think(live, bot, game)
                    async with self.catch_up.locked(live):
                        if live.game is not game or seat not in live.bots:  # the match changed meanwhile
                            continue
                        try:
                            await self.committer.commit(live, seat, functools.partial(_chosen, move), None)
                        except VersionConflict:  # another replica's bot played this seat: it goes on
                            raise self.committer.lost(live) from None
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
                    if live.deleted or not live.is_open or self.lifecycle.closing:
                        return
                    self._hand_back(live, seat, bot, f"{type(exc).__name__}: {exc}")
                    return
            log.debug("bot played", extra={"match_id": live.match_id, "version": live.version, "seat": seat})

    @staticmethod
    def _affordable(live: LiveMatch, seat: int, bot: Bot, game: Any) -> Bot:
        """`bot`, or its one-ply stand-in once the match's bot iterations are spent."""
        live.budget.catch_up(live.bots, live.seats, game)
        if live.budget.affords(search_cost(bot, game)):
            return bot
        if seat not in live.budget.announced:  # once per seat
            live.budget.announced.add(seat)
            log.info(
                "bot plays one-ply moves: its match's bot iterations are spent",
                extra={"match_id": live.match_id, "seat": seat, "spent": live.budget.spent},
            )
        return live.budget.cheap(seat, bot)

    async def _think(self, live: LiveMatch, bot: Bot, game: Any) -> Any:
        """The bot's move; a bot facing a person thinks before bots that play only bots."""
        self.thinking += 1
        try:
            with tracing.span("bot think"):
                if self.engine is None:
                    return bot(game)
                thinking: Awaitable[Any] = self.engine.bots.wait_run(
                    choose,
                    bot,
                    game,
                    priority=int(live.all_bots),
                    timed=self._thought(live),
                    keys=(live.owner or live.match_id, live.match_id),  # shared by host, then by match
                )
                return await thinking
        finally:
            self.thinking -= 1

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
            self.ledger.release(live.owner, 1)
        live.publish()

    async def resume(
        self, store: MatchStore, get: Callable[[str], Awaitable[LiveMatch]], quiet_for: float | None = None
    ) -> int:
        """After a start: load (`get`) every open match whose next move is a bot's, so that it plays
        on. Replicas all do, and (`quiet_for`) now and then take over the bot matches with no move
        for that long, whose replica may have died; when two play one seat, the store's version
        check keeps one move and the other replica's bot stops (STALE_VERSION) and follows the match
        as a cache. Returns how many matches' bots are playing here."""
        quiet_before = None if quiet_for is None else time.time() - quiet_for
        count = 0
        for match_id in await store.open_with_bots(quiet_before):
            try:
                live = await get(match_id)
            except ServiceError:  # deleted meanwhile
                continue
            self.wake(live)
            count += self.playing(live)
        return count
