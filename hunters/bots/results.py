"""What an arena game gives: the seat's bots (seeded per game and seat) and the result of a game,
shared by games between built-in bots (`hunters.bots.arena`) and games on a server
(`hunters.bots.external`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import make_bot, parse_spec
from .base import Bot, _mix

__all__ = ["GameResult", "game_result", "seeded_bot"]


@dataclass
class GameResult:
    """One arena game."""

    index: int
    seed: int
    lineup: list[int]
    """Bot index by seat."""
    scores: list[int]
    winners: list[int]
    moves: int
    think_seconds: list[float]
    """Time each seat spent choosing its moves."""
    decisions: list[int]
    """Moves each seat chose."""
    forfeit: dict[str, Any] | None = None
    """{"seat", "bot", "reason"} when a bot failed."""
    record: dict[str, Any] | None = field(default=None, repr=False)

    def win_shares(self) -> list[float]:
        """Each seat's share of the win (ties share it)."""
        return [1.0 / len(self.winners) if p in self.winners else 0.0 for p in range(len(self.lineup))]


def seeded_bot(spec: str, index: int, seat: int, seed: int) -> Bot:
    """The bot of `spec` for one seat of arena game `index`: its own seed, a function of the
    arena's seed, the game and the seat, unless the spec names one."""
    _, options = parse_spec(spec)
    if "seed" in options:
        return make_bot(spec)
    return make_bot(spec, seed=_mix(_mix(seed) ^ (index * 16 + seat)))


def game_result(
    index: int,
    seed: int,
    lineup: Sequence[int],
    game: Any,
    think: list[float],
    decisions: list[int],
    forfeit: dict[str, Any] | None,
    keep_record: bool,
) -> GameResult:
    """The result of a finished (or forfeited) game: a forfeiting seat cannot win; the best of the
    others do."""
    scores = list(game.scores)
    if forfeit is None:
        winners = list(game.winners)
    else:
        rest = [p for p in range(game.players) if p != forfeit["seat"]]
        best = max(scores[p] for p in rest)
        winners = [p for p in rest if scores[p] == best]
    return GameResult(
        index,
        seed,
        list(lineup),
        scores,
        winners,
        game.moves_played,
        think,
        decisions,
        forfeit,
        game.to_record() if keep_record else None,
    )
