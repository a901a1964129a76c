"""Live matches made: a new one from a GameConfig (stored before anyone sees it), or one read back
from the store and replayed. Who may create, and which bot seats a config may ask for, is checked
here, before any game or bot is built."""

from __future__ import annotations

import logging
import secrets
import uuid
from typing import Any

import grpc

from hunters.bots.base import Bot
from hunters.v1 import matches_pb2

from . import auth
from .botseats import BotSeatLedger, MatchBudget, bot_seats
from .errors import ServiceError
from .games import adapter
from .live import LiveMatch
from .store_base import MatchStore, StoredMatch

log = logging.getLogger("hunters.service")


class MatchFactory:
    """Builds `LiveMatch`es for the manager, which keeps them (cache, counts, bots)."""

    def __init__(
        self,
        store: MatchStore,
        ledger: BotSeatLedger,
        create_token: str | None,
        max_live_matches: int,
        max_bot_iterations: int,
        max_match_bot_iterations: int | None,
    ):
        self.store = store
        self.ledger = ledger
        self.create_hash = auth.hash_token(create_token) if create_token else None
        self.max_live_matches = max_live_matches
        self.max_bot_iterations = max_bot_iterations  # an mcts bot seat's search per move
        self.max_match_bot_iterations = max_match_bot_iterations  # ... and all a match's bots' (None: no bound)

    async def create(
        self, config: matches_pb2.GameConfig, token: str | None, caller: str
    ) -> tuple[LiveMatch, list[str], str] | None:
        """A new match of `config`, stored, with its seat tokens and admin token; None when a shared
        store holds its limit of unfinished matches already."""
        if self.create_hash is not None and not auth.matches(auth.require_token(token), self.create_hash):
            raise ServiceError(
                grpc.StatusCode.PERMISSION_DENIED,
                "CREATE_TOKEN_REQUIRED",
                "this server creates matches only for its operator's token",
            )
        ad = adapter(config.game)
        if config.bots:  # before any game or bot is built: a refusal costs the event loop little
            self.ledger.check(len(config.bots), None if self.create_hash is not None else caller)
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
            return None
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
        return live, tokens, admin

    def load(self, stored: StoredMatch) -> LiveMatch:
        """A stored match in memory: its moves replayed, its bots as this server accepts them."""
        ad = adapter(stored.game)
        moves = [m for _, m in stored.moves]
        last_events = None
        if moves and not stored.record.get("outcomes"):  # the last move played apart: its events
            game = ad.from_record(dict(stored.record, moves=moves[:-1]))
            last_events = game.play(ad.Game.move_from_json(moves[-1]))
        else:
            game = ad.from_record(dict(stored.record, moves=moves))
        config = matches_pb2.GameConfig.FromString(stored.config)
        return LiveMatch(
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
            last_events=last_events if moves else list(game.events),
        )

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
