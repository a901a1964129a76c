"""One match in memory (`LiveMatch`) and what a commit hands on (`Played`): the objects the match
engine's parts share. Unfinished matches are held once, so every player, watcher and bot seat of a
match sees the same object."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hunters.bots.base import Bot
from hunters.v1 import matches_pb2

from .botseats import MatchBudget
from .games import GameAdapter

RECENT_EVENTS = 16  # encoded watch events kept per match, so live watchers share one encoding


@dataclass(eq=False)
class LiveMatch:
    match_id: str
    seq: int
    adapter: GameAdapter
    config: matches_pb2.GameConfig  # as created: seed and explicit options included (never sent before the end)
    record: dict[str, Any]  # the record at creation (no moves)
    game: Any  # current state; replaced, never mutated, once published
    moves: list[Any]  # game-API moves, in order
    seats: list[int]  # who played each move
    seat_hashes: list[str]
    admin_hash: str
    created_at: float
    abandoned: bool = False
    deleted: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # set (and replaced) at every change
    watchers: int = 0
    recent: dict[int, bytes] = field(default_factory=dict)  # version -> encoded watch event
    bots: dict[int, Bot] = field(default_factory=dict)  # seats the server plays (GameConfig.bots)
    bot_task: asyncio.Task[None] | None = None  # the bots' moves in progress
    owner: str = ""  # who created it (a caller's key), while its bot seats count against that caller
    heard: int = 0  # the latest version another replica announced (shared stores)
    heard_at: float = 0.0  # when this replica first heard of a version it does not hold yet (monotonic)
    failures: list[matches_pb2.BotFailure] = field(default_factory=list)  # bots that handed their seat back
    budget: MatchBudget = field(default_factory=lambda: MatchBudget(None))  # its bots' search iterations
    state: Any = None  # the current version's GameState message when its move's answer built it (else None)
    last_events: list[Any] | None = None  # the current version's events, when known without a replay

    @property
    def version(self) -> int:
        return len(self.moves)

    @property
    def is_open(self) -> bool:
        """Neither over nor abandoned nor deleted: moves may still come."""
        return not (self.game.is_over or self.abandoned or self.deleted)

    def publish(self) -> None:
        """Wake every watcher waiting for a change."""
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    def remember(self, version: int, event: bytes) -> None:
        self.recent[version] = event
        if len(self.recent) > RECENT_EVENTS:
            del self.recent[min(self.recent)]


class Notice(bytes):
    """A watch message that is no new version (it repeats the current one): a server bot handed its
    seat back (WatchMatchResponse.bot_failures)."""


@dataclass(frozen=True)
class Played:
    version: int
    seat: int
    events: list[Any]
    response: Any = None  # the reply (a protobuf message), or its bytes when replayed for a retry


# encode(live, version, game after it, seat, move, events, state or None) -> a serialized watch event
EventEncoder = Callable[[LiveMatch, int, Any, int, Any, list[Any], Any], bytes]
