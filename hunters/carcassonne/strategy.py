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

__all__ = ["ITERATIONS", "PLAYOUT", "SCALE", "WEIGHTS", "child_estimates", "estimates", "key", "signature"]

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
