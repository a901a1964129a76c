"""Gymnasium environments for every game with the learning surface (`hunters.learn`).

- `HuntersEnv` (single agent): the learner takes one seat, the other seats are built-in bots or
  policies (``opponents``); compact codes as actions, the layout's fields plus ``action_mask`` as
  observations, terminal rewards; an illegal code loses the episode (``illegal="lose"``) or raises.
- `HuntersVectorEnv` (``gymnasium.vector.VectorEnv`` over ``Game.learn_batch``): N games stepped in
  one core call, every seat played by the caller (self-play), same-step autoreset; the arrays
  returned are the batch's own buffers, refilled by the next call.

Both take ``view`` (`hunters.learn.VIEWS`; default ``"information_state"``: all the seat may know,
as the bots see it; ``"observation"``: what is on the table now). Ids
registered when this module is imported: ``hunters/<GymName>-v0`` (`HuntersEnv`) and
``hunters/<GymName>-SelfPlay-v0`` (`HuntersVectorEnv`, for ``gymnasium.make_vec``), e.g.
``hunters/CarcassonneHG-v0``. Options, rewards, seeds and examples: docs/learning.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from hunters.bots import Bot, make_bot
from hunters.capabilities import Afterstates, LearnableGame, supports
from hunters.errors import IllegalMoveError
from hunters.game_base import AnyGame
from hunters.learn import check_view, terminal_rewards

from ._common import (
    DEFAULT_VIEW,
    MASK,
    RENDER_FPS,
    RENDER_MODES,
    ObservationBuffers,
    SeedStream,
    as_int,
    check_render_mode,
    draw_seed,
    game_class,
    gym_name,
    learnable_games,
    observation_space,
    render_game,
    sample_legal,
)

__all__ = ["HuntersEnv", "HuntersVectorEnv", "Opponent", "register_envs"]

Opponent = str | Bot | Callable[[dict[str, Any]], Any]
"""Who plays another seat of `HuntersEnv`: a `hunters.bots` spec (``"greedy"``, ``"mcts:iterations=200"``;
reseeded from the reset seed at every reset), a `Bot` (used as it is), or any other callable taking
that seat's observation dict (the layout's fields and ``action_mask``, as the learner gets) and
returning a legal compact code, such as a frozen copy of the learner's policy."""


def _is_opponent(value: Any) -> bool:
    return isinstance(value, (str, Bot)) or (callable(value) and not isinstance(value, Sequence))


class HuntersEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of a game against built-in bots (see the module docstring).

    ``seat``: the learner's seat, or ``"random"`` (drawn at each reset from the env's generator).
    Bots are seeded from the reset seed, so the same seed and actions give the same episode."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        game: str | type[AnyGame],
        players: int = 2,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int | str = 0,
        illegal: str = "lose",
        render_mode: str | None = None,
        view: str = DEFAULT_VIEW,
        afterstates: bool = False,
        **options: Any,
    ):
        self._cls = game_class(game)
        players = self._cls.INFO.check_players(as_int(players, "players"))
        check_view(view)
        if not isinstance(afterstates, bool):
            raise TypeError("afterstates must be True or False")
        if not (isinstance(seat, str) and seat == "random"):
            seat = as_int(seat, "seat", 0, players - 1)
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        check_render_mode(render_mode)
        specs: list[Opponent] = (
            [opponents] * (players - 1) if _is_opponent(opponents) else list(opponents)  # type: ignore[list-item,arg-type]
        )
        if len(specs) != players - 1:
            raise ValueError(f"opponents: one for all, or {players - 1} (one per other seat)")
        for s in specs:
            if isinstance(s, str):
                make_bot(s)  # a bad spec fails here, not at the first reset
            elif not callable(s):
                raise TypeError(f"an opponent is a bot spec, a Bot or a callable (observation -> code), not {s!r}")
        self._specs = specs
        self._players, self._seat_option, self._illegal, self._options = players, seat, illegal, options
        self.render_mode = render_mode
        self.game: LearnableGame = self._cls.new(players=players, seed=0, **options)
        self.layout = self.game.learn_layout()
        if afterstates and not (self.layout.afterstates and supports(self._cls, Afterstates)):
            raise ValueError(f"{self._cls.INFO.id} has no afterstate features")
        self._afterstates = afterstates
        self.observation_space = observation_space(self.layout)
        self.action_space = spaces.Discrete(self.layout.actions)
        self.view = view
        self._buffers = ObservationBuffers(self.layout, view)
        self._policy_buffers = ObservationBuffers(self.layout, view)
        self._seeds = SeedStream()
        self.seat = 0 if seat == "random" else int(seat)
        self._bots: dict[int, Any] = {}
        self._next: tuple[int, dict[int, Any], LearnableGame] | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Play the game ``Game.new(players, seed=seed)`` (no seed: the next of the env's seed
        stream, `hunters.rl._common.SeedStream`); the seat (when ``"random"``) and the bots' seeds
        are drawn from ``self.np_random``, seeded by the same seed. Without a seed after an episode
        ended, the next episode is the one `step` already began (see `_end`): the same game."""
        began, self._next = self._next, None
        if seed is None and began is not None:
            self.seat, self._bots, self.game = began
        else:
            game_seed = self._seeds.next(seed)
            super().reset(seed=None if seed is None else game_seed)
            self.seat, self._bots, self.game = self._begin(game_seed)
        return self._observe(), self._info({"seat": self.seat})

    def _begin(self, game_seed: int) -> tuple[int, dict[int, Any], LearnableGame]:
        """(seat, opponents, game) of the episode of `game_seed`, the opponents' opening moves
        played: the seat (when ``"random"``) and the bots' seeds drawn from ``self.np_random``."""
        seat = int(self.np_random.integers(self._players)) if self._seat_option == "random" else self.seat
        others = [s for s in range(self._players) if s != seat]
        bots = {s: self._opponent(spec) for s, spec in zip(others, self._specs, strict=True)}
        game = self._cls.new(players=self._players, seed=game_seed, **self._options)
        while not game.is_over and game.player != seat:
            game.play(bots[game.player](game))
        return seat, bots, game

    def _end(self, reward: float, info: dict[str, Any]) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The last step of an episode. The next episode begins now, as ``reset()`` would begin it
        (the stream's next seed, the seat, the opponents' opening moves), and the observation's
        mask is that of its first position: never all zeros, so a masked sampler works on it (a
        vector env in Gymnasium's default next-step autoreset mode samples from it, then resets);
        its other fields show the position the episode ended in."""
        obs = self._observe()
        self._next = _seat, _bots, game = self._begin(self._seeds.next(None))
        if not game.is_over:  # (a game its opponents ended before the seat's first move has no move)
            obs[MASK] = game.compact.mask().view(np.int8)
        return obs, reward, True, False, info

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        """`info`, with the learner's ``legal_codes`` and ``afterstates`` table when asked for."""
        game = self.game
        if self._afterstates and not game.is_over and isinstance(game, Afterstates):
            info["legal_codes"], info["afterstates"] = game.learn_afterstates()
        return info

    def _opponent(self, spec: Opponent) -> Any:
        """What plays a seat for one episode: a game -> move function."""
        if isinstance(spec, str):
            return make_bot(spec, seed=draw_seed(self.np_random) >> 1)
        if isinstance(spec, Bot):
            return spec
        buffers = self._policy_buffers

        def play(game: LearnableGame) -> Any:  # a policy: the seat's observation dict -> a code
            seat = game.player
            code = as_int(spec(buffers.fill(game, seat, True, copy=True)), "the opponent's code")
            return game.compact.to_move(code)

        return play

    def _play_bots(self) -> None:
        game, seat, bots = self.game, self.seat, self._bots
        while not game.is_over and game.player != seat:
            game.play(bots[game.player](game))

    def _observe(self) -> dict[str, Any]:
        return self._buffers.fill(self.game, self.seat, not self.game.is_over, copy=True)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        game = self.game
        if self.game.is_over or self._next is not None:  # (not `game.is_over`: mypy would narrow it)
            raise RuntimeError("the episode is over: call reset()")
        try:
            game.compact.play(as_int(action, "action"))
        except IllegalMoveError:
            if self._illegal == "raise":
                raise
            return self._end(-1.0, {"illegal_action": True})
        self._play_bots()
        if game.is_over:
            scores = game.scores
            return self._end(terminal_rewards(scores)[self.seat], {"scores": scores})
        return self._observe(), 0.0, False, False, self._info({})

    def sample_legal(self, rng: np.random.Generator | None = None) -> int:
        """A uniformly random legal code of the learner (from `rng`, default ``self.np_random``)."""
        return sample_legal(self.game, self.np_random if rng is None else rng)

    def render(self) -> str | None:
        return render_game(self.game, self.render_mode)


class HuntersVectorEnv(VectorEnv[dict[str, Any], Any, Any]):
    """`num_envs` games in one core batch, every seat played by the caller (module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (gymnasium's)

    def __init__(
        self,
        game: str | type[AnyGame],
        num_envs: int = 256,
        players: int = 2,
        view: str = DEFAULT_VIEW,
        **options: Any,
    ):
        num_envs = as_int(num_envs, "num_envs", 1)
        self._cls = game_class(game)
        players = self._cls.INFO.check_players(as_int(players, "players"))
        self.num_envs = num_envs
        self.players = players
        self._options = options
        self._seeds = SeedStream()
        self.view = check_view(view)
        if view != "observation":
            options = {**options, "view": view}
        self.batch = self._cls.learn_batch(num_envs, players=players, seed=0, **options)
        self.layout = self.batch.layout
        self.single_observation_space = observation_space(self.layout)
        self.single_action_space = spaces.Discrete(self.layout.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._actor = np.zeros(num_envs, np.int32)
        self._reward = np.zeros(num_envs, np.float32)
        self._rows = np.arange(num_envs)
        self._truncated = np.zeros(num_envs, bool)
        b = self.batch
        self._obs = dict(b.obs)
        self._obs[MASK] = b.mask.view(np.int8)
        self._info = {"player": b.player, "rewards": b.rewards, "final_scores": b.final_scores}
        if hasattr(b, "legal") and hasattr(b, "legal_count"):  # a batch that lists legal codes (H&G)
            self._info["legal"], self._info["legal_count"] = b.legal, b.legal_count

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game in every slot: slot i gets seed ``seed + i`` (the batch's rule; a list of
        seeds is refused, since the core seeds the slots itself); no seed: one drawn at random."""
        if isinstance(seed, list):
            raise ValueError("HuntersVectorEnv.reset takes one int seed (slot i plays seed + i)")
        game_seed = self._seeds.next(seed)
        super().reset(seed=None if seed is None else game_seed)
        self.batch.reset(game_seed)
        return self._obs, self._info

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        b = self.batch
        np.copyto(self._actor, b.player)
        b.step(actions)
        # the acting seat's terminal reward (0 where the game goes on)
        self._reward[:] = b.rewards[self._rows, self._actor]
        return self._obs, self._reward, b.done, self._truncated, self._info

    def sample_legal(self, rng: np.random.Generator | None = None) -> Any:
        """A uniformly random legal code for every slot (int64 [num_envs]): the batch's own
        ``random_actions(rng)`` where it has one, else from its lists of legal codes where it keeps
        them (``info["legal"]``), else from the masks."""
        rng = self.np_random if rng is None else rng
        b, n = self.batch, self.num_envs
        own = getattr(b, "random_actions", None)  # a batch that draws them itself (H&G)
        if own is not None:
            return own(rng)
        counts = self._info.get("legal_count")
        if counts is not None and counts.min() > 0:
            picks = (rng.random(n) * counts).astype(np.int64)
            return self._info["legal"][self._rows, picks].astype(np.int64)
        rows, cols = b.mask.view(np.bool_).nonzero()
        per_row = np.bincount(rows, minlength=n)
        starts = np.cumsum(per_row) - per_row
        return cols[starts + (rng.random(n) * per_row).astype(np.int64)].astype(np.int64)

    def render(self) -> tuple[Any, ...] | None:
        return None


def register_envs() -> list[str]:
    """Register the Gymnasium ids of every registered game with a learning surface (idempotent; a
    game registered later is added by calling this again); returns the ids."""
    ids = []
    for game_id in learnable_games():
        name = gym_name(game_id)
        single, vector = f"hunters/{name}-v0", f"hunters/{name}-SelfPlay-v0"
        if single not in gymnasium.registry:
            gymnasium.register(single, entry_point="hunters.rl.gym:HuntersEnv", kwargs={"game": game_id})
        if vector not in gymnasium.registry:
            gymnasium.register(vector, vector_entry_point="hunters.rl.gym:HuntersVectorEnv", kwargs={"game": game_id})
        ids += [single, vector]
    return ids


register_envs()
