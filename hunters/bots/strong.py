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

import math
import time as _time
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Protocol

from hunters import games
from hunters.capabilities import CoreSearch, supports

from .base import Bot, Observation, _mix, decision_seed

__all__ = ["SearchStrategy", "StrongBot", "strategy_for"]


class SearchStrategy(Protocol):
    """What a game tells the search (its ``strategy`` module, or an object with these members).
    States are the game's core handles: `clone()`, `legal_codes()`, `play_code(code)`, `player`,
    `over`."""

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
    else its class's ``STRATEGY`` attribute. LookupError when there is none."""
    cls = game if isinstance(game, type) else type(game)
    found = _STRATEGIES.get(cls)
    if found is None:
        info = getattr(cls, "INFO", None)
        game_id = getattr(info, "id", cls.__name__)
        if game_id in games and games.get(game_id) is cls:
            found = games.plugin(game_id).search_strategy
        found = found if found is not None else getattr(cls, "STRATEGY", None)
        if found is None or not supports(cls, CoreSearch):
            raise LookupError(f"{game_id} has no strategy for the strong bot's search (GamePlugin.strategy)")
        _STRATEGIES[cls] = found
    return found


def _rewards(values: Sequence[float], scale: float) -> list[float]:
    n = len(values)
    out = []
    for p in range(n):
        other = max(values[q] for q in range(n) if q != p) if n > 1 else 0.0
        out.append(0.5 * (1.0 + math.tanh((values[p] - other) / scale)))
    return out


_Options = tuple[list[int], list[float], list[float], int, list[int]]
"""A decision's moves as the search keeps them: indices best first, prior rewards, flat
estimates (players values per move), players, move codes."""


def _options(strat: Any, state: Any, scale: float) -> _Options:
    legal = state.legal_codes()
    flat, order, priors = strat.child_estimates(state, legal, scale)
    return order, priors, flat, len(flat) // len(legal), legal


def _best(options: _Options) -> tuple[int, list[float]]:
    """The mover's best move by estimate among `options`, and the estimates after it."""
    order, _, flat, players, legal = options
    j = order[0]
    return legal[j], flat[j * players : (j + 1) * players]


class _Node:
    __slots__ = ("children", "mover", "options", "prior", "total", "visits")

    def __init__(self, mover: int, prior: float):
        self.mover = mover
        self.prior = prior
        self.visits = 0
        self.total = 0.0
        self.children: dict[int, _Node] = {}
        self.options: dict[Hashable, _Options] = {}


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
    strategy's PLAYOUT, else 0), `seed`."""

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
        self.seed = seed
        self.last_iterations = 0
        """Iterations of the last decision."""
        self.last_seconds = 0.0
        """Seconds the last decision took."""
        self.last_stats: list[tuple[int, int, float, float]] = []
        """(core move code, visits, mean reward, prior) of the root's expanded moves at the last decision."""

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
        parts.append(f"seed={self.seed}")
        return "strong:" + ",".join(parts)

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
        strategy = strategy_for(observed)  # (a LookupError for a game without CoreSearch)
        assert isinstance(observed, CoreSearch)
        codes = observed.search_state().legal_codes()
        code = self.search(obs, strategy)
        return moves[codes.index(code)]

    def search(self, obs: Observation, strat: Any) -> int:
        """The core code of the chosen move (the seat to move must have two or more)."""
        t0 = _time.perf_counter()
        seed = decision_seed(self.seed, obs)
        # determinization j is drawn when first needed; the games are kept alive while their cores
        # are searched (a core may point into its game's data)
        games: list[Any] = []
        dets: list[Any] = []

        def det(j: int) -> Any:
            while len(dets) <= j:
                games.append(obs.determinized(_mix(seed ^ (len(dets) + 1))))
                dets.append(games[-1].search_state())
            return dets[j]

        scale = float(strat.SCALE)
        estimates, key_of, signature = strat.estimates, strat.key, strat.signature
        root = _Node(-1, 0.0)
        c, bias, widen, alpha, reply = self.c, self.bias, self.widen, self.alpha, self.reply
        playout = self.playout_in(strat)
        deadline = t0 + self.time if self.time else 0.0
        limit = int(strat.ITERATIONS) if self.iterations is None else self.iterations
        ndets = self.dets
        it = 0
        while True:
            if limit and it >= limit:
                break
            if deadline and it > 0 and _time.perf_counter() >= deadline:
                break
            state = det(0)  # the root's moves do not depend on the hidden parts; cloned below
            node = root
            path = []
            leaf: list[float] | None = None
            while True:
                if state.over:
                    leaf = _rewards(estimates(state), scale)
                    break
                sig = signature(state)
                entry = node.options.get(sig)
                if entry is None:
                    entry = node.options[sig] = _options(strat, state, scale)
                order, priors, flat, n, legal = entry
                mover = state.player
                k = max(1, int(widen * (node.visits + 1) ** alpha))
                best: _Node | None = None
                best_code = 0
                best_v = -1.0
                fresh = None
                log_n = math.log(node.visits + 1)
                for i in order[:k]:
                    code = legal[i]
                    prior = priors[i]
                    key = key_of(state, code)
                    child = node.children.get(key)
                    if child is None:
                        fresh = (prior, code, key, i)
                        break
                    v = (
                        child.total / child.visits
                        + c * math.sqrt(log_n / child.visits)
                        + bias * prior / (child.visits + 1)
                    )
                    if v > best_v:
                        best_v, best, best_code = v, child, code
                if node is root:  # common random numbers: a root move's j-th visit plays in determinization j
                    state = det((best.visits if fresh is None and best is not None else 0) % ndets).clone()
                if fresh is not None:
                    prior, code, key, i = fresh
                    child = _Node(mover, prior)
                    node.children[key] = child
                    path.append(child)
                    if reply:  # value the new node after the next mover's best reply by estimate
                        state.play_code(code)
                        if state.over:
                            leaf = _rewards(estimates(state), scale)
                        else:
                            entry = child.options[signature(state)] = _options(strat, state, scale)
                            move, values = _best(entry)
                            for _ in range(playout):  # further plies of best moves by estimate
                                state.play_code(move)
                                if state.over:
                                    values = estimates(state)
                                    break
                                move, values = _best(_options(strat, state, scale))
                            leaf = _rewards(values, scale)
                    else:
                        leaf = _rewards(flat[i * n : (i + 1) * n], scale)
                    break
                assert best is not None
                state.play_code(best_code)
                node = best
                path.append(node)
            root.visits += 1
            for n_ in path:
                n_.visits += 1
                n_.total += leaf[n_.mover]
            it += 1
        self.last_iterations = it
        self.last_seconds = _time.perf_counter() - t0
        order, priors, _, _, legal = next(iter(root.options.values()))
        stats = []
        for i in order:
            code, prior = legal[i], priors[i]
            child = root.children.get(key_of(dets[0], code))
            if child is not None:
                stats.append((code, child.visits, child.total / child.visits, prior))
        self.last_stats = stats
        code, _, _, _ = max(stats, key=lambda s: (s[1], s[3], -s[0]))
        return int(code)
