"""PettingZoo AEC environments for every game with the learning surface (`hunters.learn`).

PettingZoo's usual constructors: ``env(game_id, players=2, **options)``, wrapped as PettingZoo's
classic games are (an illegal code ends the game, -1 to its agent and 0 to the others; an action
outside the space is an AssertionError; calls out of order are refused), and ``raw_env(...)``, the
env itself, the same as ``aec_env(...)``.

``aec_env(game_id, players=2, **options)``: agents ``player_0`` .. ``player_{n-1}`` (seat
order); the agent to act is the game's seat to move (a seat may act several times in a row, e.g. an
extra turn). Observation of an agent: a dict of the layout's fields (what that seat may know, the
observing seat first where seats are listed) plus ``action_mask`` (int8 [actions], 1 = legal; all
zeros for an agent that is not to move). Action: a compact code, ``Discrete(layout.actions)``; an
illegal code raises `hunters.errors.IllegalMoveError` and changes nothing.

Rewards are terminal (`hunters.learn.terminal_rewards`: +1 sole winner, 0 tied first, -1 otherwise),
given to every agent on the step that ends the game; then every agent is terminated. ``reset(seed=s)``
plays ``Game.new(players, seed=s)`` (same seed and actions, same game); without a seed, the next
game's seed is drawn from ``numpy.random.default_rng(s)`` of the last explicit seed ``s`` — the
rule of every env type (`hunters.rl._common.SeedStream`).

Observations returned by `observe`/`last` are copies (they stay valid after later steps); pass
``copy_observations=False`` to get the env's own buffers instead (refilled in place: faster, copy what
you keep). ``view`` (`hunters.learn.VIEWS`): ``"information_state"`` (the default) gives each agent
all its seat may know, its own recall included, as the bots see it; ``"observation"`` only what is on
the table now. Render modes:
``"ansi"`` (the game's text summary) and ``"svg"`` (`hunters.pictures`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hunters.capabilities import LearnableGame
from hunters.game_base import AnyGame
from hunters.learn import terminal_rewards

from ._common import (
    DEFAULT_VIEW,
    RENDER_FPS,
    RENDER_MODES,
    ObservationBuffers,
    SeedStream,
    as_int,
    check_render_mode,
    game_class,
    observation_space,
    render_game,
    sample_legal,
)

__all__ = ["HuntersAECEnv", "aec_env", "env", "raw_env"]

ILLEGAL_REWARD = -1.0
"""What an illegal code earns its agent in `env` (the others get 0): a loss, as in `terminal_rewards`."""


def aec_env(game: str | type[AnyGame], players: int = 2, **kwargs: Any) -> HuntersAECEnv:
    """The AEC environment of a game (an id or a class); `kwargs`: ``render_mode``,
    ``copy_observations``, ``view`` and the game's own options (passed to ``Game.new``)."""
    return HuntersAECEnv(game, players=players, **kwargs)


def raw_env(game: str | type[AnyGame], players: int = 2, **kwargs: Any) -> HuntersAECEnv:
    """PettingZoo's name for the unwrapped environment: `aec_env` (an illegal code raises
    IllegalMoveError and changes nothing)."""
    return HuntersAECEnv(game, players=players, **kwargs)


def env(game: str | type[AnyGame], players: int = 2, **kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """`raw_env` wrapped as PettingZoo wraps its classic games: `TerminateIllegalWrapper` (an illegal
    code ends the game: ILLEGAL_REWARD to its agent, 0 to the others, every agent terminated),
    `AssertOutOfBoundsWrapper` and `OrderEnforcingWrapper`. The illegal-move wrapper reads the last
    observation of the agent to act, so observations are copies here (``copy_observations=False`` is
    for `raw_env`)."""
    if kwargs.get("copy_observations", True) is not True:
        raise ValueError("env() keeps observation copies (its illegal-move wrapper reads them): use raw_env")
    wrapped: AECEnv[str, dict[str, Any], int] = raw_env(game, players=players, **kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class HuntersAECEnv(AECEnv[str, dict[str, Any], int]):
    """One game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (pettingzoo's)
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "is_parallelizable": False,
        "name": "hunters_v0",
    }

    def __init__(
        self,
        game: str | type[AnyGame],
        players: int = 2,
        render_mode: str | None = None,
        copy_observations: bool = True,
        view: str = DEFAULT_VIEW,
        **options: Any,
    ):
        super().__init__()
        self._cls = game_class(game)
        players = self._cls.INFO.check_players(as_int(players, "players"))
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {**self.metadata, "name": f"hunters_{self._cls.INFO.id}_v0"}
        self._players = players
        self._options = options
        self._copy = copy_observations
        self.game: LearnableGame = self._cls.new(players=players, seed=0, **options)
        self.layout = self.game.learn_layout()
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.layout)
        act_space = spaces.Discrete(self.layout.actions)
        # one space object per agent (seeded separately by the tests), same shape for all
        self.observation_spaces = {
            a: obs_space if i == 0 else observation_space(self.layout) for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {
            a: act_space if i == 0 else spaces.Discrete(self.layout.actions) for i, a in enumerate(self.possible_agents)
        }
        self.view = view
        self._buffers = ObservationBuffers(self.layout, view)
        self._seeds = SeedStream()
        self._sample_rng = np.random.default_rng()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC protocol --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        game_seed = self._seeds.next(seed)  # the one seed rule of every env (SeedStream)
        self.game = self._cls.new(players=self._players, seed=game_seed, **self._options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.player]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        game = self.game
        to_move = not game.is_over and game.player == seat
        return self._buffers.fill(game, seat, to_move, self._copy)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        game.compact.play(as_int(action, "action"))
        self._cumulative_rewards[agent] = 0.0
        if game.is_over:
            scores = game.scores
            for a, r in zip(self.agents, terminal_rewards(scores), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
                self.infos[a] = {"scores": list(scores)}
            self._accumulate_rewards()
            # the agents leave in seat order, each through a `step(None)`
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[game.player]

    def sample_legal(self, rng: np.random.Generator | None = None) -> int:
        """A uniformly random legal code of the agent to act (from `rng`, default the env's own
        generator); the game must not be over."""
        return sample_legal(self.game, self._sample_rng if rng is None else rng)

    def render(self) -> str | None:
        return render_game(self.game, self.render_mode)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])
