"""OpenSpiel Python games for every game with the learning surface (`hunters.learn`).

``register(game_id)`` (done for every registered game with a learning surface when this module is
imported) registers ``python_hunters_<game_id>`` with `pyspiel.register_game`; ``pyspiel.load_game(
"python_hunters_<game_id>(players=3)")`` then makes it. Parameters: ``players`` (default 2) and
``seed`` (default -1: none). With a seed s >= 0 (a game with the `SeededChance` capability) every
chance node has one outcome, probability 1: the one ``Game.new(players, seed=s)`` deals there, so the
episode is that game (same seed and actions, same episode, as in every env type); searches then
see the draws to come, as they would sampling a seeded game. Without one, chance nodes have the
rules' outcomes and probabilities, and reproducibility is the sampler's (seed its generator).

- Actions: the game's compact codes (``num_distinct_actions = layout.actions``).
- Chance: the game is made with ``chance="external"``, so every random draw (a tile, a layout) is a
  chance node (`current_player() == pyspiel.PlayerId.CHANCE`) whose outcomes and probabilities are the
  game's `chance_outcomes()`; applying an outcome calls `apply_chance`. Same outcomes and actions,
  same game: serialisation is the action history.
- Returns: terminal, `hunters.learn.terminal_rewards` (+1 sole winner, 0 tied first, -1 otherwise).
- Observation tensor: the seat's `observe(seat)` fields flattened in layout order (float32); the
  observer's ``dict`` has them under their field names. Observation string: the nonzero entries of
  each field. Information state: for a perfect-information game (Hunters & Gatherers: with external
  chance nothing is hidden) the string is the action history and the tensor the observation; for an
  imperfect-information game (Jäger und Sammler: face-down tiles nobody may look at) the tensor is
  the seat's information state (``observe(seat, view="information_state")``: all the seat knows,
  its own face-down tiles included, as the bots know it) and the string that same state (its
  nonzero entries): a summary of the seat's knowledge, not its history, so its length is bounded by
  the layout (`string_bound`) however long the game.
- States clone through the game's own `clone()` (one memcpy in the cores), so OpenSpiel's
  `MCTSBot` searches at the speed of Python's call overhead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from hunters.capabilities import ExplicitChance, LearnableGame, SeededChance, supports
from hunters.errors import IllegalMoveError
from hunters.game_base import AnyGame
from hunters.info import check_seed
from hunters.learn import LearnLayout, terminal_rewards

from ._common import game_class, learnable_games

__all__ = ["game_name", "register", "register_all", "string_bound"]


_registered: dict[str, type[LearnableGame]] = {}


def game_name(game: str | type[AnyGame]) -> str:
    """The OpenSpiel short name of a game: ``python_hunters_<id>``."""
    return f"python_hunters_{game_class(game).INFO.id}"


def register(game: str | type[AnyGame], perfect_information: bool | None = None) -> str:
    """Register a game (id or class) with OpenSpiel, once; returns its short name.
    `perfect_information`: whether nothing is hidden once chance is external (default: the game's
    `GameInfo.perfect_information`)."""
    cls = game_class(game)
    name = game_name(cls)
    if name in _registered:
        return name
    info = cls.INFO
    perfect = info.perfect_information if perfect_information is None else perfect_information
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{info.name} (hunters)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=getattr(pyspiel.GameType.Utility, info.utility.upper()),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": max(2, info.min_players), "seed": -1},
    )

    # OpenSpiel keeps the factory until the process exits: a class (as OpenSpiel's own Python games
    # register), since a registered closure crashes the interpreter at shutdown
    factory = type(f"HuntersGame_{info.id}", (HuntersGame,), {"GAME_TYPE": game_type, "CLS": cls, "PERFECT": perfect})
    pyspiel.register_game(game_type, factory)
    _registered[name] = cls
    return name


class HuntersGame(pyspiel.Game):
    """One configuration (``players``, ``seed``) of a hunters game, as an OpenSpiel game."""

    GAME_TYPE: Any
    CLS: type[LearnableGame]
    PERFECT: bool

    def __init__(self, params: dict[str, Any] | None = None):
        game_type, cls, perfect = self.GAME_TYPE, self.CLS, self.PERFECT
        params = params or {}
        players = cls.INFO.check_players(params.get("players", max(2, cls.INFO.min_players)))
        seed = params.get("seed", -1)
        if seed != -1:
            check_seed(seed, optional=False)
            if not supports(cls, SeededChance):
                raise ValueError(f"{cls.INFO.id} cannot follow a seed at its chance nodes (no SeededChance)")
        self.cls, self.players, self.perfect, self.seed = cls, players, perfect, int(seed)
        probe = cls.new(players=players, seed=0, chance="external")
        self.layout: LearnLayout = probe.learn_layout()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.actions,
            max_chance_outcomes=max(1, _chance_bound(cls, self.layout)),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            # decisions; OpenSpiel also takes it as the bound on chance nodes of a Python game
            max_game_length=cls.INFO.max_game_length,
        )
        super().__init__(game_type, info, {"players": players, "seed": self.seed})

    def new_initial_state(self) -> HuntersState:
        game = self.cls.new(players=self.players, seed=max(self.seed, 0), chance="external")
        return HuntersState(self, game, seeded=self.seed >= 0)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self, perfect_recall)


def _chance_bound(cls: type[LearnableGame], layout: LearnLayout) -> int:
    """Outcome ids of chance nodes are below this: the layout's `chance_outcomes` (the game's own
    bound), else the action count."""
    return layout.chance_outcomes or layout.actions


class _Holder:
    """Holds the hunters game of a state; `copy.deepcopy` (OpenSpiel's clone of Python states)
    copies it with the game's own fast `clone()`, pickling goes through its record."""

    __slots__ = ("game",)

    def __init__(self, game: LearnableGame):
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.game.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel serialises a Python state by pickling it: the game travels as its record
        return (_from_record, (type(self.game), self.game.to_record()))


def _from_record(cls: type[LearnableGame], record: dict[str, Any]) -> _Holder:
    return _Holder(cls.from_record(record))


class HuntersState(pyspiel.State):
    """A position: the hunters game (with external chance) behind OpenSpiel's State API."""

    def __init__(self, game: HuntersGame, hunters_game: LearnableGame, seeded: bool = False):
        super().__init__(game)
        self._h = _Holder(hunters_game)
        self._seeded = seeded

    @property
    def hunters_game(self) -> LearnableGame:
        """The hunters game of this state (do not play on it directly: OpenSpiel keeps the
        history)."""
        return self._h.game

    def current_player(self) -> int:
        g = self._h.game
        if g.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        p = g.player
        return int(pyspiel.PlayerId.CHANCE) if p < 0 else p

    def _legal_actions(self, player: int) -> list[int]:
        g = self._h.game
        if g.is_over or g.player != player:
            return []
        return g.compact.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self._h.game
        if self._seeded and isinstance(g, SeededChance) and g.player < 0 and not g.is_over:
            return [(g.seeded_outcome(), 1.0)]
        return g.chance_outcomes() if isinstance(g, ExplicitChance) else []

    def _apply_action(self, action: int) -> None:
        g = self._h.game
        if g.player < 0:
            assert isinstance(g, ExplicitChance)  # (a seat of -1 is a chance node)
            if self._seeded and isinstance(g, SeededChance) and action != g.seeded_outcome():
                raise IllegalMoveError("NOT_AN_OUTCOME", "a seeded game's chance node has one outcome", action)
            g.apply_chance(int(action))
        else:
            g.compact.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        g = self._h.game
        if not g.is_over and g.player == player:
            try:
                return f"{action}:{g.compact.to_move(int(action))}"
            except IllegalMoveError:
                pass
        return f"code:{action}"

    def is_terminal(self) -> bool:
        return bool(self._h.game.is_over)

    def returns(self) -> list[float]:
        g = self._h.game
        return terminal_rewards(g.scores) if g.is_over else [0.0] * g.players

    def __str__(self) -> str:
        return f"{self._h.game.summary()}\nhistory: {self.history_str()}"


class Observer:
    """OpenSpiel's Python observer: `tensor` (float32) and `dict` (one view per observation field)
    filled from the game's `observe(seat)`; strings as in the module docstring."""

    def __init__(self, game: HuntersGame, perfect_recall: bool):
        self._game = game
        self._perfect_recall = perfect_recall
        fields = game.layout.fields
        sizes = [int(np.prod(f.shape)) for f in fields]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for f, n in zip(fields, sizes, strict=True):
            self.dict[f.name] = self.tensor[start : start + n].reshape(f.shape)
            start += n
        self._fields = {f.name: np.zeros(f.shape, np.dtype(f.dtype)) for f in fields}

    def set_from(self, state: HuntersState, player: int) -> None:
        view = "information_state" if self._perfect_recall else "observation"
        obs = state.hunters_game.observe(player, self._fields, view)
        for name, view in self.dict.items():
            view[...] = obs[name]

    def string_from(self, state: HuntersState, player: int) -> str:
        if not self._perfect_recall:
            return _observation_string(state.hunters_game, player, self._fields, "observation")
        if self._game.perfect:
            return f"p{player} {state.history_str()}"
        return _observation_string(state.hunters_game, player, self._fields, "information_state")


def string_bound(layout: LearnLayout, players: int) -> int:
    """The most characters an observation or (imperfect-information) information-state string of a
    configuration can have: every entry of every field nonzero, at its widest index and value."""
    n = len(f"p{players - 1} ")
    for f in layout.fields:
        entries = int(np.prod(f.shape))
        widest = max(len(str(int(f.low))), len(str(int(f.high))))
        n += len(f.name) + 2 + entries * (len(str(entries - 1)) + 2 + widest)
    return n


def _observation_string(game: LearnableGame, player: int, buffers: dict[str, Any], view: str) -> str:
    obs = game.observe(player, buffers, view)
    parts = []
    for name, arr in obs.items():
        flat = arr.reshape(-1)
        nz = np.flatnonzero(flat)
        parts.append(name + ":" + ",".join(f"{i}={flat[i]}" for i in nz.tolist()))
    return f"p{player} " + " ".join(parts)


def register_all() -> list[str]:
    """Register every registered game with a learning surface (a game registered later is added
    by calling this again); returns the short names."""
    return [register(game_id) for game_id in learnable_games()]


register_all()
