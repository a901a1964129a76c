"""What the `strong` bot (hunters.bots.strong) knows about Jäger und Sammler: a rules-based
estimate of every seat's final score, computed in the core (`jestimate_into` in
hunters/jaeger/_core_eval.pxi) with the weights below.

The estimate of a position for a seat: its points now (food, mammoths, goods by the count table,
packs on summer camps); every takeable tile on the board that one of its characters is nearest to
(steps over tiles, camps and cave jumps), worth DECAY^steps times what it would add (food points,
the next good's step of the count table, a mammoth's value, or UNARMED of it without a weapon, a
weapon WEAPON), CONTEST of that where another seat is as near; each camp of the other season it can
still reach with a pack in hand, CAMP^steps times what a pack there brings (winter: 5 points;
summer: its marginal share of winter); in summer, its share of winter, WINTER × n / (all winter
characters + WINTER_K) for n winter camps holding its packs, and HELD per weapon kept (up to 3:
winter has 12 mammoths and 3 weapons). A character that leaves the board early gives up its
tiles, so the estimate keeps characters on the board while tiles remain.
"""

from __future__ import annotations

import math
from typing import Any

from hunters.estimates import CoreEstimate

from . import _core

__all__ = [
    "ITERATIONS",
    "MARGIN_SD",
    "REVIEW_BANDS",
    "SCALE",
    "TRANSPOSITIONS",
    "WEIGHTS",
    "child_estimates",
    "estimates",
    "first_step",
    "key",
    "margin_sd",
    "progress",
    "signature",
]

SCALE = 25.0
"""Points of margin that make a clear advantage (the search's reward scale)."""

ITERATIONS = 300
"""The search's iterations per decision when a bot is given neither iterations nor time (about a
second on one core of a 2020s machine)."""

WEIGHTS: dict[str, float] = {
    "DECAY": 0.93,
    "WEAPON": 3.0,
    "UNARMED": 0.3,
    "WINTER": 160.0,
    "WINTER_K": 2.0,
    "CAMP": 0.8,
    "HELD": 3.0,
    "CONTEST": 0.5,
}
"""The estimate's weights, in the core's order (see the module docstring)."""

_ESTIMATE = CoreEstimate(_core.estimate, _core.child_estimates, WEIGHTS)
set_weights = _ESTIMATE.set_weights
estimates = _ESTIMATE.estimates
child_estimates = _ESTIMATE.child_estimates


TRANSPOSITIONS = True
"""A turn's two steps by different characters, played in either order, reach the same position:
the search lets moves with equal estimates after them share one child."""

_STEP_WIDTH: dict[int, int] = {}


def first_step(state: Any, code: int) -> int:
    """The first step of a turn (its code's high part: turn = step1 · (steps + 1) + step2 + 1), so
    that the search can choose a turn's first step before its second."""
    size = state.config.action_space_size
    width = _STEP_WIDTH.get(size)
    if width is None:  # size = steps · (steps + 1)
        width = _STEP_WIDTH[size] = (math.isqrt(1 + 4 * size) + 1) // 2
    return int(code) // width


def progress(state: Any, code: int) -> bool:
    """Whether a turn ends a walk that gains nothing: the mover is alone on the board and one of
    its steps takes a character off it. Among turns the estimate values alike, the search plays
    these first, so that a character alone with nothing left to gain leaves rather than walking back
    and forth until the season's stall bound ends it. Not while another seat is on the board: there
    walking is waiting, and whoever leaves first gives up the tiles the other may still leave to it
    (leaving on ties lost most of 6 games at 30 iterations against the bot that waited)."""
    mover = state.player
    if any(seat != mover for seat, _ in state.characters()):
        return False
    _, dst1, src2, dst2 = state.config.decode(code)
    return dst1 is None or (src2 is not None and dst2 is None)


def key(state: Any, code: int) -> int:
    """A turn as its maker sees it: its code (the board is public)."""
    return code


def signature(state: Any) -> tuple[int, ...]:
    """The legal turns depend on the board: the path decides it, except a winter deal met inside
    the search (it differs between determinizations)."""
    return tuple(state.tiles())


MARGIN_SD = (75.0, 4.0, 3.5, 33, 40.0)
"""(SUMMER, A, B, T0, CAP): the spread, in points, that makes Φ(estimated margin / spread) a
calibrated win chance: SUMMER in summer, min(CAP, A + B·√max(0, T − T0)) in winter with T tiles on
the board. Fitted on 7,230 decisions of 30 two-player self-play games (`strong:iterations=100`): in
winter the final margin spreads around the estimate by 5 points under 40 tiles, 12 at 40–49, 19 at
60–69 and 24–27 from 80; in summer by 25, but the summer estimate overstates the final margin (the
final margin moves by 0.35 points a point of estimate), hence the wider summer spread
(docs/review.md)."""


def margin_sd(state: Any) -> float:
    """The spread of a seat's final margin around the search's estimate of it from this position,
    as the review's win chance reads it: see MARGIN_SD."""
    summer, a, b, t0, cap = MARGIN_SD
    if state.season == 0:
        return summer
    tiles = sum(1 for t in state.tiles() if t)
    return min(cap, a + b * math.sqrt(max(0, tiles - t0)))


REVIEW_BANDS = {"inaccuracy": 12.0, "mistake": 24.0, "blunder": 36.0}
"""Points of final margin a move must cost to be an inaccuracy, a mistake, a blunder in a review:
three times H&G's, where greedy's costs are three times as large (measured at the default budget,
two players: 35% of greedy's moves cost 12 or more, 10% 24, 2% 36; of mcts's 40%, 15%, 7%;
strong's own moves, reviewed with another seed, almost never 12), and above the optimism of the
estimate for the move the search chooses (7–9 points, against 2–4 for another move)
(docs/review.md)."""
