"""Bots: programs that choose moves, seeing only what their seat may see.

A bot is a `Bot`: `bot.choose(Observation.of(game))` returns a legal move of the seat to move
(`bot(game)` is the same). Built-in bots, by spec string (`make_bot`):

- ``random``: a uniformly random legal move;
- ``greedy``: the best immediate gain with a simple heuristic for pieces (see `GreedyBot`);
- ``mcts``: information-set MCTS in the core (see `hunters.bots.mcts`), e.g.
  ``mcts:iterations=1000,c=0.7,seed=3`` or ``mcts:seconds=0.5``;
- ``strong``: information-set tree search with the game's rules-based evaluation (see
  `hunters.bots.strong`), e.g. ``strong:time=1`` or ``strong:iterations=2000,seed=3``.

Options follow the name after a colon, separated by commas or colons. Every bot takes `seed`.

>>> from hunters.carcassonne import Game
>>> bot = make_bot("greedy:seed=1")
>>> game = Game.new(players=2, seed=5)
>>> game.is_legal(bot(game))
True
"""

from __future__ import annotations

from typing import Any

from .base import Bot, Observation, decision_seed
from .mcts import MctsBot
from .simple import GreedyBot, RandomBot
from .strong import StrongBot, strategy_for

__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "Observation",
    "RandomBot",
    "StrongBot",
    "decision_seed",
    "make_bot",
    "parse_spec",
    "strategy_for",
]

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MctsBot, "strong": StrongBot}
"""Built-in bots by name."""


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=1000,c=0.5"`` -> ``("mcts", {"iterations": 1000, "c": 0.5})``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("a bot spec is a non-empty string such as 'mcts:iterations=1000'")
    name, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    for part in rest.replace(":", ",").split(","):
        if not part.strip():
            continue
        key, eq, val = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bad bot option {part!r} in {spec!r} (expected name=value)")
        options[key.strip()] = _value(val.strip())
    return name.strip(), options


def make_bot(spec: str, **defaults: Any) -> Bot:
    """The bot of a spec string; `defaults` (e.g. seed) apply where the spec does not say.
    Unknown names or options raise ValueError."""
    name, options = parse_spec(spec)
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; built-in: {', '.join(BOTS)}")
    try:
        return cls(**{**defaults, **options})
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None
