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
from .games import ServiceAdapter
from .legal import legal_entries

RECENT_EVENTS = 16  # encoded watch events kept per match, so live watchers share one encoding


@dataclass(eq=False)
class LiveMatch:
    match_id: str
    seq: int
    adapter: ServiceAdapter
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
    watchers: int = 0  # open watch streams (seat streams included)
    brief_watchers: int = 0  # ... of which read summaries (`changes_only`)
    recent: dict[int, bytes] = field(default_factory=dict)  # version -> encoded watch event
    recent_brief: dict[int, bytes] = field(default_factory=dict)  # ... with the state's summary
    bots: dict[int, Bot] = field(default_factory=dict)  # seats the server plays (GameConfig.bots)
    bot_task: asyncio.Task[None] | None = None  # the bots' moves in progress
    owner: str = ""  # who created it (a caller's key), while its bot seats count against that caller
    heard: int = 0  # the latest version another replica announced (shared stores)
    heard_at: float = 0.0  # when this replica first heard of a version it does not hold yet (monotonic)
    failures: list[matches_pb2.BotFailure] = field(default_factory=list)  # bots that handed their seat back
    budget: MatchBudget = field(default_factory=lambda: MatchBudget(None))  # its bots' search iterations
    last_events: list[Any] | None = None  # the current version's events, when known without a replay
    built: Built | None = None  # what was built of the current version (see `current`)

    @property
    def version(self) -> int:
        return len(self.moves)

    @property
    def all_bots(self) -> bool:
        """Every seat is the server's bot."""
        return bool(self.bots) and len(self.bots) == self.game.players

    @property
    def is_open(self) -> bool:
        """Neither over nor abandoned nor deleted: moves may still come."""
        return not (self.game.is_over or self.abandoned or self.deleted)

    def publish(self) -> None:
        """Wake every watcher waiting for a change."""
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    def remember(self, version: int, event: bytes, brief: bool = False) -> None:
        """Keep version `version`'s encoded watch event (its summary form when `brief`) for the
        watchers that follow."""
        recent = self.recent_brief if brief else self.recent
        recent[version] = event
        if len(recent) > RECENT_EVENTS:
            del recent[min(recent)]

    # -- the current version's messages, each built once --------------------------------------
    def current(self) -> Built:
        """What has been built of the current version. Keyed on the game object itself (replaced,
        never mutated, at every version), so nothing built for an earlier version is ever served."""
        built = self.built
        if built is None or built.game is not self.game:
            built = self.built = Built(self.game)
        return built

    def whole_state(self) -> Any:
        """The current version's MatchState, built once and shared (replies, turns, watchers)."""
        built = self.current()
        if built.state is None:
            built.state = self.adapter.state(self.game, self.version)
        return built.state

    def summary(self) -> Any:
        """The current version's MatchState without the game's view, built once."""
        built = self.current()
        if built.summary is None:
            built.summary = self.adapter.summary(self.game, self.version)
        return built.summary

    def listing(self, field_number: int) -> bytes:
        """The current version's legal moves as entries of the repeated LegalMove field
        `field_number` (ListLegalMoves', YourTurn's), encoded once per version and field."""
        built = self.current()
        found = built.listings.get(field_number)
        if found is None:
            found = built.listings[field_number] = legal_entries(self.adapter, self.game, field_number)
        return found


class Built:
    """The messages of one version of a match, each built on first use: its whole state, its
    summary, its legal-move listings by field number."""

    __slots__ = ("game", "listings", "state", "summary")

    def __init__(self, game: Any, state: Any = None):
        self.game = game
        self.state = state
        self.summary: Any = None
        self.listings: dict[int, bytes] = {}


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
