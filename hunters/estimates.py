"""A game's rules-based estimate of the final scores, computed in its core with named weights: what
the `strong` bot's search reads at its nodes. Each game's `strategy` module makes one
(`CoreEstimate(core.estimate, core.child_estimates, WEIGHTS)`) and offers its methods."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["CoreEstimate"]


class CoreEstimate:
    """The core's `estimate(state, weights)` and `child_estimates(state, codes, weights, seat, scale)`
    with the weights kept by name, in the core's order (`weights`, a dict the game publishes)."""

    def __init__(self, estimate: Callable[..., Any], child_estimates: Callable[..., Any], weights: dict[str, float]):
        self._estimate = estimate
        self._child_estimates = child_estimates
        self.weights = weights
        self._w = tuple(weights.values())

    def set_weights(self, **weights: float) -> None:
        """Change weights (tuning runs); unknown names raise KeyError."""
        for k, v in weights.items():
            if k not in self.weights:
                raise KeyError(k)
            self.weights[k] = float(v)
        self._w = tuple(self.weights.values())

    def estimates(self, state: Any) -> list[float]:
        """Expected final score of every seat of a core state."""
        result: list[float] = self._estimate(state, self._w)
        return result

    def child_estimates(self, state: Any, codes: list[int], scale: float) -> tuple[list[float], list[int], list[float]]:
        """The estimates after each legal code of the seat to move, flat (players values per code),
        the codes' indices best first for that seat, and each one's prior reward (1 + tanh(margin /
        scale)) / 2."""
        result: tuple[list[float], list[int], list[float]] = self._child_estimates(
            state, codes, self._w, state.player, scale
        )
        return result
