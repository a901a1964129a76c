"""The learning surface of a game (the `Learnable` capability): a compact action space, masks and
observations.

The service's stable action codes (`game.actions.legal()`) are exact but huge (16,288,776 for
Hunters & Gatherers): fine for a protocol, unusable for a policy network. For learning, each game
also has a *compact* action space of at most `MAX_LEARN_ACTIONS` codes and per-seat observations as
numpy arrays of fixed shape. Both are defined by the game's core; this module holds the shared
vocabulary, and `hunters.rl` builds PettingZoo, Gymnasium and OpenSpiel environments on top.

A `Learnable` game implements:

- `learn_layout()` -> `LearnLayout` (sizes and the documented observation fields, for this game's
  players and options);
- `compact`, an `ActionSpace` of the compact codes (`legal()`, `mask(out)`, `to_move`, `from_move`,
  `play`);
- `observe(seat, out=None)` -> ``{field name: numpy array}``: what that seat may know, never more;
- `learn_batch(games, players, seed, **options)` -> a `LearnBatch` stepping many games in one call
  inside the core;
- chance (OpenSpiel) through the `ExplicitChance` capability: `chance_outcomes()` and
  `apply_chance(outcome)`.

Rewards are terminal and the same everywhere (`terminal_rewards`): +1 for a seat whose final score
beats every other seat's, 0 for a seat tied for first, -1 otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "MAX_LEARN_ACTIONS",
    "VIEWS",
    "BatchBuffers",
    "LearnBatch",
    "LearnLayout",
    "ObservationField",
    "check_view",
    "terminal_rewards",
]

MAX_LEARN_ACTIONS = 100_000
"""Upper bound on every game's compact action space (the issue's "about 10^5")."""

VIEWS = ("observation", "information_state")
"""What an observation array shows, OpenSpiel's two views (`Learnable.observe`'s ``view``):
``"observation"``, what is on the table now; ``"information_state"``, perfect recall as the bots
have it (`hunters.bots.Observation`): the public state and everything the seat itself has done and
knows since the start (in Jäger und Sammler its own face-down tiles by kind, which the rules keep
face down so the table does not show them). Same fields, shapes and bounds for both."""


def check_view(view: object) -> str:
    """`view` if it is one of `VIEWS`, else ValueError."""
    if not isinstance(view, str) or view not in VIEWS:
        raise ValueError(f"view must be one of {list(VIEWS)}, not {view!r}")
    return view


@dataclass(frozen=True)
class ObservationField:
    """One numpy array of an observation: its name, fixed shape, dtype and meaning."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    """A numpy dtype name: ``uint8``, ``int16``, ``int32``, ``float32``."""
    low: float
    high: float
    """Bounds of every entry (for `gymnasium.spaces.Box`)."""
    doc: str
    """What each axis and value means, and what the seat cannot see."""


@dataclass(frozen=True)
class LearnLayout:
    """The compact action space and the observation fields of one configuration of a game."""

    actions: int
    """Number of compact action codes (<= MAX_LEARN_ACTIONS)."""
    fields: tuple[ObservationField, ...]
    """Every observation field, in a fixed order."""
    action_doc: str
    """How a compact code is built from a move (stable; documented in docs/learning.md)."""
    chance_outcomes: int = 0
    """Bound on the outcome ids of external chance nodes (every id is in ``range(chance_outcomes)``;
    OpenSpiel's ``max_chance_outcomes``); 0 when the game does not say (`hunters.rl` then uses
    its own bound for the game)."""
    afterstates: tuple[tuple[str, str], ...] = ()
    """(name, meaning) of each column of `Afterstates.learn_afterstates`' table (one row per legal
    move: features of the move and of the position it leads to); () for a game without one."""

    def field(self, name: str) -> ObservationField:
        """The field called `name` (KeyError if none)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)


def terminal_rewards(scores: Sequence[int]) -> list[float]:
    """+1 for a seat whose score beats every other seat's, 0 when tied for first, -1 otherwise."""
    top = max(scores)
    leaders = sum(1 for s in scores if s == top)
    return [(1.0 if leaders == 1 else 0.0) if s == top else -1.0 for s in scores]


class LearnBatch(Protocol):
    """Many games of one configuration stepped together inside the core (the vectorised env).

    Buffers are numpy arrays owned by the batch and refilled in place by `reset` and `step` (no
    allocation per step); read them after each call, copy what you keep:

    - ``mask``: uint8 [games, actions], legal compact codes of the seat to move;
    - ``obs``: {field: array [games, *field.shape]}, the observation of the seat to move;
    - ``player``: int32 [games], the seat to move;
    - ``rewards``: float32 [games, players], `terminal_rewards` of a game that ended on the last
      step, else 0;
    - ``done``: bool [games], the game in that slot ended on the last step (and was reset: the
      buffers already show the new game);
    - ``final_scores``: int32 [games, players], final scores where ``done``.

    Determinism: slot i's e-th game (e = 0, 1, ...) has seed ``seed + e * games + i``.
    """

    games: int
    players: int
    layout: LearnLayout
    mask: Any
    obs: dict[str, Any]
    player: Any
    rewards: Any
    done: Any
    final_scores: Any

    def reset(self, seed: int = 0) -> None:
        """Start a new game in every slot (slot i: seed + i) and fill the buffers."""

    def step(self, actions: Any) -> None:
        """Play `actions[i]` (a compact code) in every game i. An illegal code raises
        IllegalMoveError naming the slot, and changes no game."""

    def game(self, index: int) -> Any:
        """A copy of the game in slot `index`, as the game's Python class (for inspection)."""


class BatchBuffers:
    """The numpy buffers every `LearnBatch` has (``mask``, ``obs``, ``player``, ``rewards``, ``done``,
    ``final_scores``), allocated zeroed once for the game's core to bind and fill: the base of the
    games' batch classes. numpy is imported here, by the learning code only."""

    def __init__(self, games: int, players: int, layout: LearnLayout) -> None:
        import numpy as np

        self.games = games
        self.players = players
        self.layout = layout
        self.mask: Any = np.zeros((games, layout.actions), dtype=np.uint8)
        self.obs: dict[str, Any] = {f.name: np.zeros((games, *f.shape), dtype=f.dtype) for f in layout.fields}
        self.player: Any = np.zeros(games, dtype=np.int32)
        self.rewards: Any = np.zeros((games, players), dtype=np.float32)
        self.done: Any = np.zeros(games, dtype=np.bool_)
        self.final_scores: Any = np.zeros((games, players), dtype=np.int32)
