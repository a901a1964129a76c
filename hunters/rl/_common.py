"""What the environments share: resolving a game, its spaces, rendering, and one seat's observation
buffers."""

from __future__ import annotations

import operator
from typing import Any, cast

import numpy as np
from gymnasium import spaces

import hunters
from hunters.capabilities import Learnable, LearnableGame, supports
from hunters.game_base import MAX_SEED, AnyGame, GameBase
from hunters.learn import LearnLayout, check_view

__all__ = [
    "DEFAULT_VIEW",
    "MASK",
    "RENDER_FPS",
    "RENDER_MODES",
    "ObservationBuffers",
    "SeedStream",
    "as_int",
    "check_render_mode",
    "game_class",
    "gym_name",
    "learnable_games",
    "observation_space",
    "render_game",
    "sample_legal",
]

MASK = "action_mask"
"""Key of the legal-action mask in every observation dict (int8, 1 = legal: what
`gymnasium.spaces.Discrete.sample(mask=...)` takes)."""

DEFAULT_VIEW = "information_state"
"""The view every env type gives by default (`hunters.learn.VIEWS`): everything the seat may know,
its own recall included, which is what the built-in bots see (`hunters.bots.Observation`, built on
`Game.observed_by(seat)`): a learner never knows less than the bots it plays. ``"observation"``
(what is on the table now, OpenSpiel's observation) is the other choice."""

RENDER_MODES = ("ansi", "svg")
"""``"ansi"``: the game's text summary; ``"svg"``: its picture (`hunters.pictures`)."""


RENDER_FPS = 4
"""Frames per second of a rendered episode (``metadata["render_fps"]``): a few moves a second."""

MAX_DRAWN_SEED = 2**63 - 1
"""Seeds an env draws for itself are at most this, so that a vector env's slot seeds ``s + i`` (and
its later games' ``s + e * N + i``) stay below `MAX_SEED` for any practical number of games."""


def as_int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """`value` as a Python int: any integer (Python or numpy, not a bool, not a float), within
    `low`..`high` when given; else TypeError / ValueError naming `what`."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {value!r}") from None
    if (low is not None and n < low) or (high is not None and n > high):
        raise ValueError(f"{what} must be an integer from {low} to {high}, not {n}")
    return n


class SeedStream:
    """The one seed rule of every env: ``reset(seed=s)`` plays the game ``Game.new(players,
    seed=s)`` (the vector env: slot i plays ``s + i``) and reseeds the stream with
    ``numpy.random.default_rng(s)``; ``reset()`` without a seed plays the next seed of the stream
    (`draw_seed` of it, at most `MAX_DRAWN_SEED`). Before any explicit seed the stream is seeded
    from the OS. So the same seeds give the same games in every env type."""

    __slots__ = ("rng",)

    def __init__(self) -> None:
        self.rng = np.random.default_rng()

    def next(self, seed: Any = None) -> int:
        """The game seed of a reset given `seed` (None: the stream's next)."""
        if seed is None:
            return draw_seed(self.rng) & MAX_DRAWN_SEED
        s = as_int(seed, "seed", 0, MAX_SEED)
        self.rng = np.random.default_rng(s)
        return s


def gym_name(game_id: str) -> str:
    """The Gymnasium name of a registered game (`GameInfo.gym_name`)."""
    return hunters.games.info(game_id).gym_name


def learnable_games() -> list[str]:
    """The registered games with a learning surface (the `Learnable` capability)."""
    return [g for g in hunters.games.ids() if supports(hunters.games.get(g), Learnable)]


def game_class(game: str | type[AnyGame]) -> type[LearnableGame]:
    """The game class of a registered id, or the class itself; ValueError for a game without a
    learning surface (the `Learnable` capability)."""
    if isinstance(game, str):
        cls = hunters.games.get(game)
    elif isinstance(game, type) and issubclass(game, GameBase):
        cls = game
    else:
        raise TypeError(f"expected a game id or a GameBase subclass, got {game!r}")
    if not supports(cls, Learnable):
        raise ValueError(f"{cls.INFO.id} has no learning surface (the Learnable capability)")
    return cast("type[LearnableGame]", cls)


def check_render_mode(render_mode: str | None) -> str | None:
    """`render_mode` if it is None or one of RENDER_MODES, else ValueError."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {list(RENDER_MODES)}, not {render_mode!r}")
    return render_mode


def render_game(game: LearnableGame, render_mode: str | None) -> str | None:
    """The game drawn in `render_mode` (None when there is none)."""
    if render_mode is None:
        return None
    if render_mode == "svg":
        from hunters.pictures import svg

        return svg(game)
    return game.summary()


def draw_seed(rng: np.random.Generator) -> int:
    """A game seed (0..MAX_SEED) from a numpy generator."""
    return int(rng.integers(0, MAX_SEED, dtype=np.uint64, endpoint=True))


def sample_legal(game: LearnableGame, rng: np.random.Generator) -> int:
    """A uniformly random legal compact code of the seat to move in `game`."""
    if game.is_over or game.player < 0:
        raise RuntimeError("no seat is to move")
    codes = game.compact.legal()
    return int(codes[int(rng.integers(len(codes)))])


def observation_space(layout: LearnLayout) -> spaces.Dict:
    """A Dict with one Box per observation field (the layout's bounds and dtypes) plus the mask."""
    if any(f.name == MASK for f in layout.fields):
        raise ValueError(f"an observation field may not be called {MASK!r}")
    boxes: dict[str, spaces.Space[Any]] = {
        f.name: spaces.Box(low=f.low, high=f.high, shape=f.shape, dtype=np.dtype(f.dtype)) for f in layout.fields
    }
    boxes[MASK] = spaces.Box(low=0, high=1, shape=(layout.actions,), dtype=np.int8)
    return spaces.Dict(boxes)


class ObservationBuffers:
    """One seat's observation arrays and a mask, allocated once and refilled by the game's core;
    `fill` returns a dict of these buffers (or of copies, for APIs that keep what they are given).
    `view`: `hunters.learn.VIEWS` (``"observation"`` or ``"information_state"``)."""

    __slots__ = ("_mask_u8", "fields", "mask", "view")

    def __init__(self, layout: LearnLayout, view: str = DEFAULT_VIEW):
        self.view = check_view(view)
        self.fields = {f.name: np.zeros(f.shape, np.dtype(f.dtype)) for f in layout.fields}
        self._mask_u8 = np.zeros(layout.actions, np.uint8)
        self.mask = self._mask_u8.view(np.int8)

    def fill(self, game: LearnableGame, seat: int, to_move: bool, copy: bool) -> dict[str, Any]:
        """The observation of `seat`, with the legal mask when `to_move` (else all zeros)."""
        if copy:  # fresh arrays filled by the core (cheaper than filling the buffers, then copying)
            out = game.observe(seat) if self.view == "observation" else game.observe(seat, view=self.view)
            out[MASK] = (game.compact.mask() if to_move else np.zeros_like(self._mask_u8)).view(np.int8)
            return out
        if self.view == "observation":  # (a game whose observe() predates views still works)
            game.observe(seat, self.fields)
        else:
            game.observe(seat, self.fields, self.view)
        if to_move:
            game.compact.mask(self._mask_u8)
        else:
            self._mask_u8.fill(0)
        out = dict(self.fields)
        out[MASK] = self.mask
        return out
