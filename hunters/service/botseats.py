"""Seats the server plays itself (GameConfig.bots): which bot plays which seat, checked before the
match exists, each seeded from the match so that its record replays it exactly.

A match's bots share a budget of search iterations (`MatchBudget`): a seat's bot searches at its
spec's strength while the match's total stays within the budget, and plays its cheap one-ply move
(greedy, from the same seed) once a search would take the total past it. Per-move bounds alone let
one match cost its every move times the largest search (a long Jäger und Sammler match at 100,000
a move: about an hour of a core), and an all-bot match plays on by itself; the budget bounds what
any match costs, while a match may ask for strong bots at every move it can
pay for. What a decision costs is its spec's iterations, not what the search did, and which moves
were searched follows from the record (the seats of its moves), so the same seed and moves give
the same match, after a restart too."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import grpc

from hunters.bots import check_spec, make_bot
from hunters.bots.base import Bot
from hunters.bots.mcts import MctsBot
from hunters.bots.simple import GreedyBot
from hunters.bots.strong import StrongBot, strategy_for
from hunters.v1 import matches_pb2

from .engine import Cancel
from .errors import ServiceError, invalid

__all__ = [
    "MAX_ITERATIONS",
    "MAX_MATCH_ITERATIONS",
    "BotSeatLedger",
    "MatchBudget",
    "bot_seats",
    "choose",
    "search_cost",
]

MAX_ITERATIONS = 100_000  # an mcts bot's search per move, bounding what one match can ask of the server (default)
# A match's bots' search in all (default): 4 to 13 minutes of one core (mcts searches 6,400 to 22,000
# iterations a second in the built-in games: docs/bots.md); every preset (3,000 a move) plays
# a whole match within it, a 100,000-a-move bot 50 moves.
MAX_MATCH_ITERATIONS = 5_000_000
_MASK = 2**64 - 1


def _seat_seed(match_seed: int, seat: int) -> int:
    """A seed per seat from the match's: the same match plays the same bots the same way."""
    z = (match_seed * 0x9E3779B97F4A7C15 + seat + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    return z ^ (z >> 31)


def search_cost(bot: Bot, game: Any) -> int:
    """The iterations one decision of `bot` in `game` is charged: its spec's search per move (the
    strong bot's default: its game strategy's; each iteration counted once more for every move of
    its playout), 0 for bots that do not search."""
    if isinstance(bot, MctsBot):
        return bot.iterations
    if isinstance(bot, StrongBot):
        strat = strategy_for(game)
        iterations = int(strat.ITERATIONS) if bot.iterations is None else bot.iterations
        return _strong_cost(iterations, bot.playout_in(strat))
    return 0


def _strong_cost(iterations: int, playout: int) -> int:
    """A strong decision's charge: an estimate of every move per iteration, and one more for each
    move of its playout."""
    return iterations * (1 + playout)


class MatchBudget:
    """The search iterations one match's bots have spent out of `limit` (None: no bound), counted
    from the seats of the match's moves: a move at a bot seat was searched, and charged its cost,
    when that kept the total within the limit; else it was the bot's one-ply move (`cheap`),
    charged nothing. The total never passes the limit."""

    def __init__(self, limit: int | None):
        self.limit = limit
        self.spent = 0
        self.counted = 0  # moves of the match charged so far
        self.announced: set[int] = set()  # seats whose playing one-ply moves was logged
        self._cheap: dict[int, Bot] = {}

    def catch_up(self, bots: dict[int, Bot], seats: Sequence[int], game: Any) -> None:
        """Charge the moves played since the last call (`seats`: who played each move, in order)."""
        for seat in seats[self.counted :]:
            bot = bots.get(seat)
            if bot is not None:
                cost = search_cost(bot, game)
                if self.affords(cost):
                    self.spent += cost
        self.counted = len(seats)

    def affords(self, cost: int) -> bool:
        """Whether the next decision, of `cost` iterations, is searched."""
        return self.limit is None or self.spent + cost <= self.limit

    def cheap(self, seat: int, bot: Bot) -> Bot:
        """The one-ply bot that plays `seat` once the budget is spent: greedy with `bot`'s seed."""
        found = self._cheap.get(seat)
        if found is None:
            found = self._cheap[seat] = GreedyBot(seed=getattr(bot, "seed", 0))
        return found


class BotSeatLedger:
    """The bot seats of the unfinished matches in memory, server-wide and by the caller who created
    them: a match's bots count from its creation (or load) until it closes or they hand their seats back."""

    def __init__(self, max_seats: int, per_caller: int):
        self.max_seats = max_seats  # server-wide
        self.per_caller = per_caller  # of the matches one caller created
        self.seats = 0
        self._owned: dict[str, int] = {}  # caller -> bot seats of its open matches
        self._elsewhere: dict[str, float] = {}  # caller -> its bot seats in the other processes of the database

    def check(self, wanted: int, caller: str | None) -> None:
        """Room for `wanted` more bot seats, server-wide and for `caller` (None: the operator, whose
        create token made the match: the server's bound alone); TOO_MANY_BOT_SEATS otherwise."""
        if self.seats + wanted > self.max_seats:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "TOO_MANY_BOT_SEATS",
                f"the server plays its limit of {self.max_seats} bot seats in unfinished matches",
                limit=self.max_seats,
            )
        if caller is not None and self.owned(caller) + wanted > self.per_caller:
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "TOO_MANY_BOT_SEATS",
                f"your unfinished matches hold this server's limit of {self.per_caller} bot seats per caller",
                limit=self.per_caller,
            )

    def owned(self, caller: str) -> int:
        """`caller`'s bot seats in open matches, here and (as last heard) in the other processes."""
        return self._owned.get(caller, 0) + int(self._elsewhere.get(caller, 0))

    def add(self, owner: str, seats: int) -> None:
        """`seats` bot seats of `owner`'s match now count."""
        self.seats += seats
        self._owned[owner] = self._owned.get(owner, 0) + seats

    def release(self, owner: str, seats: int) -> None:
        """`seats` bot seats of `owner`'s match no longer count (closed, or handed back)."""
        self.seats -= seats
        left = self._owned.get(owner, 0) - seats
        if left > 0:
            self._owned[owner] = left
        else:
            self._owned.pop(owner, None)

    # -- shared with the other processes of the database (usage.Shareable): the bound per caller is
    # the deployment's; the server-wide bound stays each process's own (its own threads play them)
    def counters(self) -> dict[str, float]:
        return {}

    def gauges(self) -> dict[str, float]:
        return {owner: float(seats) for owner, seats in self._owned.items() if owner}

    def absorb(self, grown: dict[str, float], elsewhere: dict[str, float]) -> None:
        self._elsewhere = elsewhere


def bot_seats(
    bots: Sequence[matches_pb2.BotSeat],
    players: int,
    match_seed: int,
    max_iterations: int = MAX_ITERATIONS,
    match_iterations: int | None = None,
) -> dict[int, Bot]:
    """The bots of a config's `bots` field by seat (INVALID_ARGUMENT / INVALID_CONFIG if any is bad:
    an unknown bot or option, an option's value of the wrong type, more than `max_iterations`, or
    a search per move larger than the whole match's `match_iterations`, which could never run)."""
    out: dict[int, Bot] = {}
    for entry in bots:
        if not 0 <= entry.seat < players:
            raise invalid("INVALID_CONFIG", f"bot seat {entry.seat} is not a seat of a {players}-player match")
        if entry.seat in out:
            raise invalid("INVALID_CONFIG", f"seat {entry.seat} has two bots")
        try:
            _, options = check_spec(entry.bot)
            if "seconds" in options or "time" in options:
                raise ValueError("a time limit would make the match depend on the server's speed: use iterations")
            if not 0 < options.get("iterations", 1) <= max_iterations:
                raise ValueError(f"iterations must be an integer from 1 to {max_iterations} on this server")
            cost = _strong_cost(options.get("iterations", 0), options.get("playout", 0))
            if cost > max_iterations:
                raise ValueError(
                    f"iterations * (1 + playout) must be at most {max_iterations} on this server (an iteration "
                    "counts once more for each move of its playout)"
                )
            if match_iterations is not None and cost > match_iterations:
                raise ValueError(
                    f"iterations={options['iterations']} a move is more than this server's {match_iterations} "
                    "bot iterations for a whole match (--max-match-bot-iterations; an iteration counts once "
                    "more for each move of its playout)"
                )
            out[entry.seat] = make_bot(entry.bot, seed=_seat_seed(match_seed, entry.seat))
        except (ValueError, TypeError) as exc:
            raise invalid("INVALID_CONFIG", f"bot for seat {entry.seat}: {exc}") from None
    return out


def choose(bot: Bot, game: Any, cancel: Cancel) -> Any:
    """The bot's move for the seat to move in `game` (run on an engine thread). A search in the
    core (mcts) reads `cancel`'s flag and ends as soon as it is set (the match deleted, abandoned,
    the server stopping); the other bots take a few milliseconds."""
    if isinstance(bot, MctsBot):
        bot.stop = cancel.flag
    return bot(game)
