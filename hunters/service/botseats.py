"""Seats the server plays itself (GameConfig.bots): which bot plays which seat, checked before the
match exists, each seeded from the match so that its record replays it exactly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hunters.bots import make_bot, parse_spec
from hunters.bots.base import Bot
from hunters.v1 import matches_pb2

from .errors import invalid

__all__ = ["MAX_ITERATIONS", "bot_seats", "choose"]

MAX_ITERATIONS = 100_000  # an mcts bot's search per move, bounding what one match can ask of the server
_MASK = 2**64 - 1


def _seat_seed(match_seed: int, seat: int) -> int:
    """A seed per seat from the match's: the same match plays the same bots the same way."""
    z = (match_seed * 0x9E3779B97F4A7C15 + seat + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    return z ^ (z >> 31)


def bot_seats(bots: Sequence[matches_pb2.BotSeat], players: int, match_seed: int) -> dict[int, Bot]:
    """The bots of a config's `bots` field by seat (INVALID_ARGUMENT / INVALID_CONFIG if any is bad)."""
    out: dict[int, Bot] = {}
    for entry in bots:
        if not 0 <= entry.seat < players:
            raise invalid("INVALID_CONFIG", f"bot seat {entry.seat} is not a seat of a {players}-player match")
        if entry.seat in out:
            raise invalid("INVALID_CONFIG", f"seat {entry.seat} has two bots")
        try:
            _, options = parse_spec(entry.bot)
            if "seconds" in options or "time" in options:
                raise ValueError("a time limit would make the match depend on the server's speed: use iterations")
            if not 0 <= options.get("iterations", 0) <= MAX_ITERATIONS:
                raise ValueError(f"iterations must be 0 to {MAX_ITERATIONS}")
            out[entry.seat] = make_bot(entry.bot, seed=_seat_seed(match_seed, entry.seat))
        except (ValueError, TypeError) as exc:
            raise invalid("INVALID_CONFIG", f"bot for seat {entry.seat}: {exc}") from None
    return out


def choose(bot: Bot, game: Any, cancel: object) -> Any:
    """The bot's move for the seat to move in `game` (run on an engine thread; `cancel` is unused:
    a search is bounded by MAX_ITERATIONS)."""
    return bot(game)
