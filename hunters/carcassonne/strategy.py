"""What the `strong` bot (hunters.bots.strong) knows about Hunters & Gatherers: a rules-based
estimate of every seat's final score, computed in the core (`estimate_into` in
hunters/carcassonne/_core_eval.pxi) with the weights below.

The estimate of a position for a seat: its points now; for every forest and river it holds (most
meeples, ties all) the chance that it closes, q^open with q = R / (R + Q) (R undrawn normal tiles,
open = unmatched sides), times what it would score (its value now + growth per open edge, an extra
turn for a menhir forest, less for sprawling features); half a meeple's worth for every meeple that
comes home when it closes; every meadow it holds at its animals now + growth × R / 78 (meadows
always score, at the end); every river system it holds at its fish (+ raft lakes) + growth; and
its pieces in supply: a meeple is worth MEEPLE × R / (R + MHALF), each further one MDECAY of the
one before (a seat without meeples cannot take the next feature), a hut HUT × R / 78. A pending
menhir extra turn is worth MENHIR to the seat that takes it. Only public information is read.
"""

from __future__ import annotations

from typing import Any

from hunters.estimates import CoreEstimate

from . import _core

__all__ = [
    "ITERATIONS",
    "MARGIN_SD",
    "PLAYOUT",
    "REVIEW_BANDS",
    "SCALE",
    "WEIGHTS",
    "child_estimates",
    "estimates",
    "key",
    "margin_sd",
    "signature",
]

SCALE = 20.0
"""Points of margin that make a clear advantage (the search's reward scale)."""

ITERATIONS = 400
"""The search's iterations per decision when a bot is given neither iterations nor time (about
0.3 s on one core with PLAYOUT below; docs/bots.md)."""

PLAYOUT = 4
"""Best moves by estimate played after the reply before a new node is valued: 400 iterations so
won 72% of 50 games (+24 points) against 1000 without (docs/bots.md), at about the same time."""

WEIGHTS: dict[str, float] = {
    "Q": 12.0,
    "FGROW": 1.5,
    "RGROW": 1.5,
    "MGROW": 0.0,
    "SGROW": 4.0,
    "MEEPLE": 10.0,
    "HUT": 2.0,
    "MENHIR": 5.0,
    "MHALF": 8.0,
    "MDECAY": 0.85,
    "OPENPEN": 1.0,
}
"""The estimate's weights, in the core's order (see the module docstring)."""

_ESTIMATE = CoreEstimate(_core.estimate, _core.child_estimates, WEIGHTS)
set_weights = _ESTIMATE.set_weights
estimates = _ESTIMATE.estimates
child_estimates = _ESTIMATE.child_estimates


def key(state: Any, code: int) -> int:
    """A move as its maker sees it: the tile in hand and the move code."""
    return int((state.tile << 32) | code)


def signature(state: Any) -> int:
    """The legal moves of a decision depend on the board (the path) and the tile in hand."""
    return int(state.tile)


MARGIN_SD = (6.0, 1.4, 27.0, 0.12)
"""(A, B, C, D): the spread of a final margin around the search's estimate is min(A + B·R, C + D·R)
points with R normal tiles left to draw: fitted on 3,609 decisions of 40 two-player self-play games
(`strong:iterations=100`), where it measured 8 points with 0–4 tiles left, 21 with 10–14, 28–32
from 15 to 54 and 35–37 above 60 (docs/review.md)."""


def margin_sd(state: Any) -> float:
    """The standard deviation, in points, of a seat's final margin around the search's estimate of
    it from this position (what the review's win chance reads): see MARGIN_SD."""
    a, b, c, d = MARGIN_SD
    left = int(state.piles()[0])
    return min(a + b * left, c + d * left)


REVIEW_BANDS = {"inaccuracy": 4.0, "mistake": 8.0, "blunder": 12.0}
"""Points of final margin a move must cost to be an inaccuracy, a mistake, a blunder in a review.
Measured at the default budget (two players, reviewed with another seed than strong played with):
strong's own moves cost under 4 in 98.7% of 753 decisions (at most 6.8); of greedy's and mcts's
(`mcts:iterations=1000`) 639 moves 34% and 27% cost 4 or more, 10% 8 or more, 4–6% 12 or more
(docs/review.md)."""
