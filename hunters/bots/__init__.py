"""Bots: programs that choose moves, seeing only what their seat may see.

A bot is a `Bot`: `bot.choose(Observation.of(game))` returns a legal move of the seat to move
(`bot(game)` is the same). Built-in bots, by spec string (`make_bot`):

- ``random``: a uniformly random legal move;
- ``greedy``: the best immediate gain with a simple heuristic for pieces (see `GreedyBot`);
- ``mcts``: information-set MCTS in the core (see `hunters.bots.mcts`), e.g.
  ``mcts:iterations=1000,c=0.7,seed=3`` or ``mcts:seconds=0.5``;
- ``strong``: information-set tree search with the game's rules-based evaluation (see
  `hunters.bots.strong`), e.g. ``strong:time=1`` or ``strong:iterations=2000,seed=3``;
- ``strong1``: `strong` as it was before its Jäger search merged transpositions and preferred
  progress on ties (the ladder's reference of that version), with the same options.

Options follow the name after a colon, separated by commas or colons. Every bot takes `seed`.

>>> import hunters
>>> bot = make_bot("greedy:seed=1")
>>> game = hunters.games.get(hunters.games.ids()[0]).new(players=2, seed=5)
>>> game.is_legal(bot(game))
True
"""

from __future__ import annotations

import inspect
import math
from typing import Any

from .base import Bot, Observation, decision_seed
from .mcts import MctsBot
from .simple import GreedyBot, RandomBot
from .strong import StrongBot, StrongBot1, strategy_for

__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "Observation",
    "RandomBot",
    "StrongBot",
    "StrongBot1",
    "check_spec",
    "decision_seed",
    "make_bot",
    "parse_spec",
    "spec_forms",
    "strategy_for",
]

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MctsBot,
    "strong": StrongBot,
    "strong1": StrongBot1,
}
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


def check_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`parse_spec` of a built-in bot whose every option is one its constructor takes, with a value
    of its default's type (an integer for an int, a finite number for a float) within the bot's
    `OPTION_RANGES`; ValueError naming the option otherwise, so that a bad spec is refused before
    the bot's first move.

    >>> check_spec("random:seed=abc")
    Traceback (most recent call last):
    ...
    ValueError: option seed of bot 'random' must be an integer, not 'abc'
    """
    name, options = parse_spec(spec)
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; built-in: {', '.join(BOTS)}")
    params = {
        k: p
        for k, p in inspect.signature(cls).parameters.items()
        if p.kind is p.KEYWORD_ONLY or p.kind is p.POSITIONAL_OR_KEYWORD
    }
    for key, value in options.items():
        param = params.get(key)
        if param is None:
            raise ValueError(f"bot {name!r} has no option {key!r}; its options: {', '.join(params)}")
        kind = type(param.default)
        if kind is int and type(value) is not int:
            raise ValueError(f"option {key} of bot {name!r} must be an integer, not {value!r}")
        if kind is float and not (type(value) in (int, float) and math.isfinite(value)):
            raise ValueError(f"option {key} of bot {name!r} must be a finite number, not {value!r}")
        low, high = cls.OPTION_RANGES.get(key, (-math.inf, math.inf))
        if type(value) in (int, float) and not low <= value <= high:
            raise ValueError(f"option {key} of bot {name!r} must be from {low:,} to {high:,}, not {value!r}")
    return name, options


def spec_forms() -> str:
    """Every built-in bot with its options, for help texts:
    ``random[:seed=N], greedy[:seed=N], mcts[:iterations=N,...]``."""

    def placeholder(param: inspect.Parameter) -> str:
        kind = str(param.annotation) if param.default is None else type(param.default).__name__
        return "N" if "int" in kind else "X" if "float" in kind else "V"

    forms = []
    for name, cls in BOTS.items():
        options = [
            f"{k}={placeholder(p)}"
            for k, p in inspect.signature(cls).parameters.items()
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is not p.empty
        ]
        forms.append(f"{name}[:{','.join(options)}]" if options else name)
    return ", ".join(forms)


def make_bot(spec: str, **defaults: Any) -> Bot:
    """The bot of a spec string; `defaults` (e.g. seed) apply where the spec does not say.
    Unknown names or options, or values of the wrong type (`check_spec`), raise ValueError."""
    name, options = check_spec(spec)
    cls = BOTS[name]
    try:
        return cls(**{**defaults, **options})
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None
