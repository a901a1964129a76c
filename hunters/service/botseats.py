"""Seats the server plays itself (GameConfig.bots): which bot plays which seat, checked before the
match exists, each seeded from the match so that its record replays it exactly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hunters.bots import check_spec, make_bot
from hunters.bots.base import Bot
from hunters.bots.mcts import MctsBot
from hunters.v1 import matches_pb2

from .engine import Cancel
from .errors import invalid

__all__ = ["MAX_ITERATIONS", "bot_seats", "choose"]

MAX_ITERATIONS = 100_000  # an mcts bot's search per move, bounding what one match can ask of the server (default)
_MASK = 2**64 - 1


def _seat_seed(match_seed: int, seat: int) -> int:
    """A seed per seat from the match's: the same match plays the same bots the same way."""
    z = (match_seed * 0x9E3779B97F4A7C15 + seat + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    return z ^ (z >> 31)


def bot_seats(
    bots: Sequence[matches_pb2.BotSeat], players: int, match_seed: int, max_iterations: int = MAX_ITERATIONS
) -> dict[int, Bot]:
    """The bots of a config's `bots` field by seat (INVALID_ARGUMENT / INVALID_CONFIG if any is bad:
    an unknown bot or option, an option's value of the wrong type, more than `max_iterations`)."""
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
