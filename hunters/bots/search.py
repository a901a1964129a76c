"""The `strong` bot's search of one decision, as an object: the bot plays its choice, and the
analysis of a position (`hunters.review`) reads the same tree, so that the move an analysis ranks
first is the move the bot plays.

The search is an information-set tree search from one seat's observation (the steps: docs/bots.md,
`strong`). Besides each node's visits and mean reward, every move of the root keeps what its
iterations' leaves estimated: every seat's final score and final margin (own − best other), so a
reader can say what the search expects after a move and how sure it is.

A root move's subtree grows from its own visits only (its j-th visit plays in determinization j,
whatever the other moves do), so `StrongSearch.extend` can give one move more visits afterwards and
its figures are those the full search would have had with that many visits.
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from .base import Observation, _mix

__all__ = ["RootMove", "StrongSearch"]


def _rewards(values: Sequence[float], scale: float) -> list[float]:
    n = len(values)
    out = []
    for p in range(n):
        other = max(values[q] for q in range(n) if q != p) if n > 1 else 0.0
        out.append(0.5 * (1.0 + math.tanh((values[p] - other) / scale)))
    return out


def margins(values: Sequence[float]) -> list[float]:
    """Each seat's margin in `values` (estimates or scores): its own minus the best of the others
    (0 with one seat)."""
    n = len(values)
    if n == 1:
        return [0.0]
    hi = max(values)
    i = values.index(hi)
    second = max(values[q] for q in range(n) if q != i)
    return [values[p] - (second if p == i else hi) for p in range(n)]


_Options = tuple[list[int], list[float], list[float], int, list[int]]
"""A decision's moves as the search keeps them: indices best first, prior rewards, flat
estimates (players values per move), players, move codes."""


def _options(strat: Any, state: Any, scale: float, merge: bool = False) -> _Options:
    """The moves of `state` ranked by estimate. With `merge`, a move whose estimates after it equal
    those of a better-ranked move is left out of the ranking (its position is the other's, reached
    by another order of the same steps): transpositions share one child; and among the moves tied
    with the best, those the strategy says make progress (``progress``) come first, so that a walk
    that changes nothing is not chosen over ending it."""
    legal = state.legal_codes()
    flat, order, priors = strat.child_estimates(state, legal, scale)
    players = len(flat) // len(legal)
    if merge:
        progress = getattr(strat, "progress", None)
        best = flat[order[0] * players : (order[0] + 1) * players]
        tied = 1
        while tied < len(order) and flat[order[tied] * players : (order[tied] + 1) * players] == best:
            tied += 1
        if progress is not None and tied > 1:  # equal value: progress first, not a walk that repeats
            moving = [progress(state, legal[i]) for i in order[:tied]]
            ahead = [i for i, m in zip(order, moving, strict=False) if m]
            order = ahead + [i for i, m in zip(order, moving, strict=False) if not m] + order[tied:]
        after = list(zip(*(flat[p::players] for p in range(players)), strict=True))  # each move's estimates
        first: dict[tuple[float, ...], int] = {}
        order = [i for i in order if first.setdefault(after[i], i) == i]
    return order, priors, flat, players, legal


_Steps = tuple[list[Hashable], dict[Hashable, list[int]]]
"""A decision's moves grouped by their first step: the groups best first (by their best move), and
each group's move indices best first."""


def _steps(strat: Any, state: Any, options: _Options) -> _Steps:
    order, _, _, _, legal = options
    first = strat.first_step
    groups: dict[Hashable, list[int]] = {}
    for i in order:
        groups.setdefault(first(state, legal[i]), []).append(i)
    return list(groups), groups


def _best(options: _Options) -> tuple[int, list[float]]:
    """The mover's best move by estimate among `options`, and the estimates after it."""
    order, _, flat, players, legal = options
    j = order[0]
    return legal[j], flat[j * players : (j + 1) * players]


class _Node:
    __slots__ = ("children", "halves", "mover", "options", "prior", "steps", "total", "visits")

    def __init__(self, mover: int, prior: float):
        self.mover = mover
        self.prior = prior
        self.visits = 0
        self.total = 0.0
        self.children: dict[Hashable, _Node] = {}
        self.options: dict[Hashable, _Options] = {}
        self.halves: dict[Hashable, _Node] = {}
        """With steps: the statistics of each first step (its moves are still `children`)."""
        self.steps: dict[Hashable, _Steps] = {}

    def record(self, values: Sequence[float]) -> None:
        """Nothing to keep below the root."""


class _RootChild(_Node):
    """A move of the root: it also sums its leaves' estimates (scores, margins, squared margins)."""

    __slots__ = ("code", "margin_squares", "margin_sums", "score_sums")

    def __init__(self, mover: int, prior: float, code: int, players: int):
        super().__init__(mover, prior)
        self.code = code
        self.score_sums = [0.0] * players
        self.margin_sums = [0.0] * players
        self.margin_squares = [0.0] * players

    def record(self, values: Sequence[float]) -> None:
        s, m, q = self.score_sums, self.margin_sums, self.margin_squares
        for p, d in enumerate(margins(values)):
            s[p] += values[p]
            m[p] += d
            q[p] += d * d


@dataclass(frozen=True)
class RootMove:
    """What the search found after one move of the root: its core code, prior (the mover's reward
    by the estimate one ply on), visits and mean reward for the mover, and over those visits' leaves
    the mean estimated final score and final margin of every seat and the margin's standard
    deviation (the spread of the leaves, 0 with one visit); when the search chose first steps, the
    visits of the move's first step (else 0)."""

    code: int
    prior: float
    visits: int
    reward: float
    scores: tuple[float, ...]
    margins: tuple[float, ...]
    spreads: tuple[float, ...]
    step_visits: int = 0

    @classmethod
    def of(cls, node: _RootChild, step_visits: int = 0) -> RootMove:
        n = node.visits
        means = tuple(m / n for m in node.margin_sums)
        spreads = tuple(
            math.sqrt(max(0.0, (q - n * mean * mean) / (n - 1))) if n > 1 else 0.0
            for q, mean in zip(node.margin_squares, means, strict=True)
        )
        scores = tuple(s / n for s in node.score_sums)
        return cls(node.code, node.prior, n, node.total / n, scores, means, spreads, step_visits)


def _preference(m: RootMove) -> tuple[int, int, float, int]:
    return (m.step_visits, m.visits, m.prior, -m.code)


class StrongSearch:
    """One decision's search tree from `obs` (the seat to move must have a legal move), with the
    strategy `strat` of its game and the strong bot's constants. `seed` is the decision's seed
    (`decision_seed`): determinization j is drawn from it when first needed. A set `stop[0]` ends a
    run at the next iteration (`stopped` then says so)."""

    def __init__(
        self,
        obs: Observation,
        strat: Any,
        seed: int,
        *,
        c: float,
        bias: float,
        widen: float,
        alpha: float,
        dets: int,
        reply: int,
        playout: int,
        merge: bool = False,
        steps: bool = False,
        halving: bool = False,
        stop: bytearray | None = None,
    ):
        self.obs, self.strat, self.seed = obs, strat, seed
        self.halving = halving
        """Whether the root shares the budget by sequential halving (`run`) rather than by the
        tree's own choice below it."""
        self.c, self.bias, self.widen, self.alpha, self.dets = c, bias, widen, alpha, dets
        self.reply, self.playout, self.stop = reply, playout, stop
        self.merge = merge and bool(getattr(strat, "TRANSPOSITIONS", False))
        """Whether moves to the same estimated position share one child (`_options`), in a game
        whose strategy says that different moves reach the same position (``TRANSPOSITIONS``)."""
        self.steps = steps and hasattr(strat, "first_step")
        """Whether a node chooses a first step, then a move that starts with it (two tree levels
        over the moves of one turn), when the strategy names first steps (``first_step``)."""
        self.players = obs.players
        self.iterations = 0
        """Iterations run so far (`extend`'s included)."""
        self.stopped = False
        """Whether a run ended because `stop[0]` was set."""
        self.root = _Node(-1, 0.0)
        # determinization j is drawn when first needed; the games are kept alive while their cores
        # are searched (a core may point into its game's data)
        self._games: list[Any] = []
        self._dets: list[Any] = []

    def det(self, j: int) -> Any:
        """The search state of determinization j (not a copy: clone it to play on it)."""
        dets = self._dets
        while len(dets) <= j:
            self._games.append(self.obs.determinized(_mix(self.seed ^ (len(dets) + 1))))
            dets.append(self._games[-1].search_state())
        return dets[j]

    def run(self, iterations: int, seconds: float = 0.0) -> int:
        """Search until `iterations` (0: no limit) or `seconds` (0: no limit) are spent, whichever
        comes first; the iterations run."""
        deadline = _time.perf_counter() + seconds if seconds else 0.0
        if self.halving:
            return self._halve(iterations, deadline)
        return self._loop(iterations, deadline, None)

    def _root_order(self) -> tuple[list[int], list[float], list[int]]:
        """The root's moves as the tree ranks them: indices best first, priors, codes."""
        state, root = self.det(0), self.root
        sig = self.strat.signature(state)
        entry = root.options.get(sig)
        if entry is None:
            entry = root.options[sig] = _options(self.strat, state, float(self.strat.SCALE), self.merge)
        return entry[0], entry[1], entry[4]

    def _halve(self, iterations: int, deadline: float) -> int:
        """Sequential halving at the root: the best `m` moves by prior (m = widen · √budget, as
        many as the tree's widening would try; 16 with a time budget alone) share the budget in
        rounds; each round gives its moves equal visits and keeps the better half by mean reward,
        until one is left, which gets what is left (at least one visit, so it is the most visited:
        `choice`). Below the root, the tree searches as usual. The budget goes to the moves still
        in contention instead of being spread over every candidate at about ten visits each."""
        budget = iterations if iterations else 0
        if budget and budget < 3:  # no rounds fit: the tree's own choice
            return self._loop(budget, deadline, None)
        order, priors, legal = self._root_order()
        m = min(len(order), max(2, int(self.widen * math.sqrt(budget))) if budget else 16)
        while budget and m > 2 and m * math.ceil(math.log2(m)) >= budget:  # every round fits the budget
            m -= 1
        alive = order[:m]
        rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 0
        start, done = _time.perf_counter(), 0
        key_of, state, children = self.strat.key, self.det(0), self.root.children

        def visits(i: int) -> int:
            child = children.get(key_of(state, legal[i]))
            return child.visits if child is not None else 0

        def mean(i: int) -> float:
            child = children.get(key_of(state, legal[i]))
            return child.total / child.visits if child is not None and child.visits else -1.0

        for r in range(rounds):
            share = max(1, (budget - 1) // rounds // len(alive)) if budget else 0
            end = start + (deadline - start) * (r + 1) / (rounds + 1) if deadline else 0.0
            targets = {i: visits(i) + share for i in alive}
            while True:  # a visit to each move short of its target in turn, so a deadline cuts a round evenly
                pending = [i for i in alive if not share or visits(i) < targets[i]]
                if not pending or (end and _time.perf_counter() >= end and all(visits(i) for i in alive)):
                    break
                for i in pending:
                    ran = self._loop(1, 0.0, legal[i])
                    if not ran:  # stopped
                        return done
                    done += ran
            alive = sorted(alive, key=lambda i: (mean(i), priors[i], -legal[i]), reverse=True)
            alive = alive[: (len(alive) + 1) // 2]
        # what is left goes to the last move standing: at least one visit, so it is the most visited
        winner, extra, given = legal[alive[0]], max(1, budget - done), 0
        while self._loop(1, 0.0, winner):
            done, given = done + 1, given + 1
            if (budget and given >= extra) or (deadline and _time.perf_counter() >= deadline):
                break
        return done

    def extend(self, code: int, visits: int) -> None:
        """Give the root move `code` (a legal code) at least `visits` visits, searching below it
        alone: its figures become those it would have had with that many visits in the search."""
        key = self.strat.key(self.det(0), code)
        child = self.root.children.get(key)
        have = child.visits if child is not None else 0
        if visits > have:
            self._loop(visits - have, 0.0, code)

    def moves(self) -> list[RootMove]:
        """The root's searched moves, best prior first."""
        if not self.root.options:
            return []
        order, _, _, _, legal = next(iter(self.root.options.values()))
        key_of, state = self.strat.key, self.det(0)
        found = []
        merged = set(range(len(legal))).difference(order)  # searched only when extended
        first = self.strat.first_step if self.steps else None
        halves = self.root.halves
        for i in [*order, *sorted(merged)]:
            child = self.root.children.get(key_of(state, legal[i]))
            if isinstance(child, _RootChild) and child.visits:
                half = halves.get(first(state, legal[i])) if first is not None else None
                found.append(RootMove.of(child, half.visits if half is not None else 0))
        return found

    @staticmethod
    def choice(moves: Sequence[RootMove]) -> RootMove:
        """The move the bot plays among the root's `moves`: the most visited (of the most visited
        first step, when the search chose first steps), then the best prior, then the lowest code."""
        return max(moves, key=_preference)

    @staticmethod
    def ranked(moves: Sequence[RootMove]) -> list[RootMove]:
        """The root's `moves` in the bot's order of preference: `choice` first."""
        return sorted(moves, key=_preference, reverse=True)

    def _loop(self, limit: int, deadline: float, only: int | None) -> int:
        """Iterations until `limit` (0: none), `deadline` (0: none) or the stop byte; with `only` (a
        root code), every iteration goes below that root move."""
        strat, det, scale = self.strat, self.det, float(self.strat.SCALE)
        estimates, key_of, signature = strat.estimates, strat.key, strat.signature
        root, players, stop = self.root, self.players, self.stop
        c, bias, widen, alpha, reply = self.c, self.bias, self.widen, self.alpha, self.reply
        playout, ndets, merge, steps = self.playout, self.dets, self.merge, self.steps
        it = 0
        while True:
            if limit and it >= limit:
                break
            if deadline and it > 0 and _time.perf_counter() >= deadline:
                break
            if stop is not None and stop[0]:
                self.stopped = True
                break
            state = det(0)  # the root's moves do not depend on the hidden parts; cloned below
            node = root
            path: list[_Node] = []
            values: list[float] | None = None
            top: _Node | None = None  # the root's move
            while True:
                if state.over:
                    values = estimates(state)
                    break
                sig = signature(state)
                entry = node.options.get(sig)
                if entry is None:
                    entry = node.options[sig] = _options(strat, state, scale, merge)
                order, priors, flat, n, legal = entry
                mover = state.player
                half: _Node | None = None
                visits = node.visits
                if node is root and only is not None:
                    candidates: Sequence[int] = (legal.index(only),)
                elif steps:  # first the step, then the move that starts with it
                    grouping = node.steps.get(sig)
                    if grouping is None:
                        grouping = node.steps[sig] = _steps(strat, state, entry)
                    groups, members = grouping
                    log_n = math.log(visits + 1)
                    half_v = -1.0
                    for g in groups[: max(1, int(widen * (visits + 1) ** alpha))]:
                        h = node.halves.get(g)
                        if h is None:
                            half = node.halves[g] = _Node(mover, priors[members[g][0]])
                            candidates = members[g]
                            break
                        v = h.total / h.visits + c * math.sqrt(log_n / h.visits) + bias * h.prior / (h.visits + 1)
                        if v > half_v:
                            half_v, half, candidates = v, h, members[g]
                    assert half is not None
                    visits = half.visits
                    candidates = candidates[: max(1, int(widen * (visits + 1) ** alpha))]
                    path.append(half)
                else:
                    candidates = order[: max(1, int(widen * (visits + 1) ** alpha))]
                best: _Node | None = None
                best_code = 0
                best_v = -1.0
                fresh = None
                log_n = math.log(visits + 1)
                for i in candidates:
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
                    child = _RootChild(mover, prior, code, players) if node is root else _Node(mover, prior)
                    node.children[key] = child
                    path.append(child)
                    top = top or child
                    if reply:  # value the new node after the next mover's best reply by estimate
                        state.play_code(code)
                        if state.over:
                            values = estimates(state)
                        else:
                            entry = child.options[signature(state)] = _options(strat, state, scale, merge)
                            move, values = _best(entry)
                            for _ in range(playout):  # further plies of best moves by estimate
                                state.play_code(move)
                                if state.over:
                                    values = estimates(state)
                                    break
                                move, values = _best(_options(strat, state, scale))
                    else:
                        values = flat[i * n : (i + 1) * n]
                    break
                assert best is not None
                state.play_code(best_code)
                node = best
                path.append(node)
                top = top or node
            assert values is not None
            leaf = _rewards(values, scale)
            root.visits += 1
            for n_ in path:
                n_.visits += 1
                n_.total += leaf[n_.mover]
            assert top is not None
            top.record(values)  # the root's move: its leaves' estimates
            it += 1
        self.iterations += it
        return it
