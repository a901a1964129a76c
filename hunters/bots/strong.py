"""`strong`: information-set tree search guided by the game's own rules knowledge.

The search is generic; everything it knows about a game comes from the strategy its plugin names
(`strategy_for`), played on the game's `search_state()`: a rules-based estimate of every seat's
final score for any position and how to read that state (the key of a move as its maker sees it,
what the legal moves of a decision depend on).

One decision draws the hidden parts up to `dets` times (common random numbers at the root), ranks
each node's moves by the estimate after them (the prior of progressive bias and widening), values a
new node after the next mover's best reply and a short `playout` of best moves (no random playout),
with a margin-aware reward, and plays the root's most visited move. With `iterations` alone the bot
is deterministic; `time` (seconds per decision) depends on the machine.

The steps, the estimates and the measurements behind each choice: docs/bots.md (`strong`).
"""

from __future__ import annotations

import time as _time
from collections.abc import Hashable
from typing import Any, ClassVar, Protocol

from hunters import games
from hunters.capabilities import CoreSearch, supports
from hunters.errors import NotSupportedError

from .base import Bot, Observation, decision_seed
from .search import StrongSearch

__all__ = ["SearchStrategy", "StrongBot", "StrongBot1", "strategy_for"]


class SearchStrategy(Protocol):
    """What a game tells the search (its ``strategy`` module, or an object with these members).
    States are the game's core handles: `clone()`, `legal_codes()`, `play_code(code)`, `player`,
    `over`. Two optional members serve the review of positions (`hunters.review`, docs/review.md):
    ``margin_sd(state)``, the standard deviation in points of a final margin around the search's
    estimate from `state` (its win chance), and ``REVIEW_BANDS``, the points a move must cost to be
    an ``inaccuracy``, a ``mistake``, a ``blunder``."""

    SCALE: float
    """Points of margin that make a clear advantage (the reward's tanh scale)."""

    ITERATIONS: int
    """Iterations per decision when the bot is given neither `iterations` nor `time`."""

    PLAYOUT: int
    """Optional (else 0): best moves by estimate played after the reply when the bot is not given
    `playout`."""

    def estimates(self, state: Any) -> list[float]:
        """Expected final score of every seat (the scores, once the game is over)."""
        ...

    def child_estimates(self, state: Any, codes: list[int], scale: float) -> tuple[list[float], list[int], list[float]]:
        """After each of `codes` (the legal moves of the seat to move): `estimates`, flat (players
        values per code); the codes' indices best first for the mover (by own − best other estimate,
        ties: lower code); each one's prior reward for the mover, (1 + tanh(margin / scale)) / 2."""
        ...

    def key(self, state: Any, code: int) -> int:
        """The move as the mover sees it (equal across determinizations of one decision)."""
        ...

    def signature(self, state: Any) -> Hashable:
        """What the legal moves depend on besides the moves that led here."""
        ...


_STRATEGIES: dict[type, Any] = {}


def strategy_for(game: Any) -> Any:
    """The strategy of a game (instance or class): what its plugin names (`GamePlugin.strategy`),
    else its class's ``STRATEGY`` attribute. NotSupportedError (a LookupError) when there is none, or
    when the game declares no search (`CoreSearch`)."""
    cls = game if isinstance(game, type) else type(game)
    found = _STRATEGIES.get(cls)
    if found is None:
        info = getattr(cls, "INFO", None)
        game_id = getattr(info, "id", cls.__name__)
        if game_id in games and games.get(game_id) is cls:
            found = games.plugin(game_id).search_strategy
        found = found if found is not None else getattr(cls, "STRATEGY", None)
        if found is None or not supports(cls, CoreSearch):
            raise NotSupportedError(
                f"{game_id} does not support the strong search: it declares no search of its own (CoreSearch) "
                "and strategy (GamePlugin.strategy)"
            )
        _STRATEGIES[cls] = found
    return found


class StrongBot(Bot):
    """Information-set tree search with the game's rules-based evaluation (see the module
    docstring). Options: `iterations` per decision (default: the game strategy's ITERATIONS, under a
    second on one core; with `time` alone, no limit), `time` (seconds per decision, default 0 = no
    limit; with both, whichever ends first; a time limit makes the bot depend on the machine's
    speed, so only iterations alone are deterministic), `c` (exploration, default
    0.1), `bias` (weight of the prior, default 1), `widen` and `alpha` (progressive widening:
    candidates = max(1, widen · visits^alpha), default 2 and 0.5), `dets` (determinizations per
    decision, default 512), `reply` (1: value a new node after the next mover's best reply),
    `playout` (best moves by estimate played after that reply before valuing; default: the
    strategy's PLAYOUT, else 0), `merge` (1: moves reaching the same estimated position share a
    child, in games whose strategy declares TRANSPOSITIONS), `steps` (1: a node chooses a move's
    first step, then the move, in games whose strategy names `first_step`), `halving` (1: the root
    shares the budget by sequential halving: `StrongSearch.run`), `seed`."""

    name = "strong"
    OPTION_RANGES: ClassVar[dict[str, tuple[float, float]]] = {
        "time": (0, 3600),
        "iterations": (0, 10**9),
        "c": (0, 100),
        "bias": (0, 100),
        "widen": (0, 1000),
        "alpha": (0, 1),
        "dets": (1, 100_000),
        "reply": (0, 1),
        "playout": (0, 1000),
        "merge": (0, 1),
        "steps": (0, 1),
        "halving": (0, 1),
        "seed": Bot.SEED,
    }

    def __init__(
        self,
        time: float = 0.0,
        iterations: int | None = None,
        c: float = 0.1,
        bias: float = 1.0,
        widen: float = 2.0,
        alpha: float = 0.5,
        dets: int = 512,
        reply: int = 1,
        playout: int | None = None,
        seed: int = 0,
        merge: int = 1,
        steps: int = 0,
        halving: int = 0,
    ):
        if iterations is not None and (type(iterations) is not int or iterations < 0):
            raise ValueError("iterations must be an int >= 0")
        if not isinstance(time, int | float) or time < 0:
            raise ValueError("time must be >= 0")
        if iterations == 0 and time == 0:
            raise ValueError("give iterations or time")
        if iterations is None and time:
            iterations = 0
        for name, v in (("c", c), ("bias", bias), ("widen", widen), ("alpha", alpha)):
            if not isinstance(v, int | float) or v < 0:
                raise ValueError(f"{name} must be >= 0")
        if type(dets) is not int or dets < 1:
            raise ValueError("dets must be an int >= 1")
        self.time = float(time)
        self.iterations = iterations
        self.c = float(c)
        self.bias = float(bias)
        self.widen = float(widen)
        self.alpha = float(alpha)
        self.dets = dets
        if reply not in (0, 1):
            raise ValueError("reply must be 0 or 1")
        self.reply = reply
        if playout is not None and (type(playout) is not int or playout < 0):
            raise ValueError("playout must be an int >= 0")
        if playout and not reply:
            raise ValueError("playout continues after the reply: it needs reply=1")
        self.playout = playout
        if merge not in (0, 1) or steps not in (0, 1) or halving not in (0, 1):
            raise ValueError("merge, steps and halving must be 0 or 1")
        self.merge = merge
        self.steps = steps
        self.halving = halving
        self.seed = seed
        self.last_iterations = 0
        """Iterations of the last decision."""
        self.last_seconds = 0.0
        """Seconds the last decision took."""
        self.last_stats: list[tuple[int, int, float, float]] = []
        """(core move code, visits, mean reward, prior) of the root's expanded moves at the last decision."""
        self.stop: bytearray | None = None
        """A byte another thread may set (to 1) to end the search under way at its next iteration
        (the bot then plays its choice so far)."""

    @property
    def spec(self) -> str:
        parts = []
        if self.time:
            parts.append(f"time={self.time:g}")
        if self.iterations:
            parts.append(f"iterations={self.iterations}")
        parts += [
            f"c={self.c:g}",
            f"bias={self.bias:g}",
            f"widen={self.widen:g}",
            f"alpha={self.alpha:g}",
            f"dets={self.dets}",
            f"reply={self.reply}",
        ]
        if self.playout is not None:
            parts.append(f"playout={self.playout}")
        parts += self._version_parts()
        parts.append(f"seed={self.seed}")
        return f"{self.name}:" + ",".join(parts)

    def _version_parts(self) -> list[str]:
        return [f"merge={self.merge}", f"steps={self.steps}", f"halving={self.halving}"]

    def playout_in(self, strat: Any) -> int:
        """The moves of a playout in a game of this strategy: the bot's `playout`, else the
        strategy's PLAYOUT (0 without a reply, or when it has none)."""
        if self.playout is not None:
            return self.playout
        return int(getattr(strat, "PLAYOUT", 0)) if self.reply else 0

    def choose(self, obs: Observation) -> Any:
        moves = obs.legal_moves()
        if len(moves) == 1:
            self.last_iterations, self.last_stats = 0, []
            return moves[0]
        observed = obs.observed()
        strategy = strategy_for(observed)  # (NotSupportedError for a game without CoreSearch)
        assert isinstance(observed, CoreSearch)
        codes = observed.search_state().legal_codes()
        code = self.search(obs, strategy)
        return moves[codes.index(code)]

    def limit(self, strat: Any) -> int:
        """Iterations per decision in a game of this strategy: the bot's, else the strategy's
        ITERATIONS (0: none, with `time` alone)."""
        return int(strat.ITERATIONS) if self.iterations is None else self.iterations

    def new_search(self, obs: Observation, strat: Any, stop: bytearray | None = None) -> StrongSearch:
        """The search tree of the decision `obs` with this bot's constants and decision seed (not
        run yet): what `search` runs, and what an analysis of the position reads."""
        return StrongSearch(
            obs,
            strat,
            decision_seed(self.seed, obs),
            c=self.c,
            bias=self.bias,
            widen=self.widen,
            alpha=self.alpha,
            dets=self.dets,
            reply=self.reply,
            playout=self.playout_in(strat),
            merge=bool(self.merge),
            steps=bool(self.steps),
            halving=bool(self.halving),
            stop=stop if stop is not None else self.stop,
        )

    def search(self, obs: Observation, strat: Any) -> int:
        """The core code of the chosen move (the seat to move must have two or more)."""
        t0 = _time.perf_counter()
        tree = self.new_search(obs, strat)
        tree.run(self.limit(strat), self.time)
        self.last_iterations = tree.iterations
        self.last_seconds = _time.perf_counter() - t0
        moves = tree.moves()
        self.last_stats = [(m.code, m.visits, m.reward, m.prior) for m in moves]
        if not moves:  # stopped before its first iteration: the best move by estimate
            state = tree.det(0)
            legal = state.legal_codes()
            return int(legal[strat.child_estimates(state, legal, float(strat.SCALE))[1][0]])
        return tree.choice(moves).code


class StrongBot1(StrongBot):
    """`strong` as it was before transpositions and the progress rule (`merge=0,steps=0`), kept
    under a versioned name so that the ladder stays comparable: the same options as that bot."""

    name = "strong1"
    OPTION_RANGES: ClassVar[dict[str, tuple[float, float]]] = {
        k: v for k, v in StrongBot.OPTION_RANGES.items() if k not in ("merge", "steps", "halving")
    }

    def __init__(
        self,
        time: float = 0.0,
        iterations: int | None = None,
        c: float = 0.1,
        bias: float = 1.0,
        widen: float = 2.0,
        alpha: float = 0.5,
        dets: int = 512,
        reply: int = 1,
        playout: int | None = None,
        seed: int = 0,
    ):
        old = {"merge": 0, "steps": 0, "halving": 0}
        super().__init__(time, iterations, c, bias, widen, alpha, dets, reply, playout, seed, **old)

    def _version_parts(self) -> list[str]:
        return []
