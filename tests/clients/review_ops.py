"""The scenario's ops of analyses and reviews (clients/scenario/README.md), for the Python runner
(scenario.py's `Run`): a position analysed, a hint, a finished match's review. Figures are written
rounded half away from zero by integer arithmetic (`fixed`), so that every client writes the same."""

from __future__ import annotations

import math
from typing import Any

from hunters.v1 import review_pb2

__all__ = ["ReviewOps", "fixed"]


def fixed(x: float, digits: int) -> str:
    """`x` with `digits` decimals, half away from zero, never "-0": the same text in every client."""
    scale = 10**digits
    n = math.floor(abs(x) * scale + 0.5)
    sign = "-" if x < 0 and n else ""
    whole, frac = divmod(n, scale)
    return f"{sign}{whole}.{frac:0{digits}d}" if digits else f"{sign}{whole}"


def band(b: int) -> str:
    return review_pb2.MoveBand.Name(b).removeprefix("MOVE_BAND_").lower()


class ReviewOps:
    """Mixed into the runner: `self.matches`, `self.match_id(step)`, `self.token(step)` are its."""

    matches: dict[str, Any]

    def match_id(self, step: dict[str, Any]) -> str:
        raise NotImplementedError

    def token(self, step: dict[str, Any]) -> str:
        raise NotImplementedError

    async def analyze(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        kwargs: dict[str, Any] = {"top_k": step.get("top_k", 0), "iterations": step.get("iterations", 0)}
        for key in ("version", "seat"):
            if key in step:
                kwargs[key] = step[key]
        if "match" in step:
            a = await c.analyze(self.match_id(step), token=self.token(step) or None, **kwargs)
        else:
            a = await c.analyze(game=step["game"], players=step["players"], seed=step["seed"], **kwargs)
        return [
            ("version", a.version),
            ("seat", a.seat),
            ("player", a.player),
            ("iterations", a.iterations),
            ("moves", len(a.moves)),
            ("top", a.moves[0].action if a.moves else None),
            ("margin", fixed(a.position.margin, 1)),
            ("win", fixed(a.position.win, 2)),
        ]

    async def request_review(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        r = await c.request_review(self.match_id(step))
        return [("status", r.status), ("decisions", f"{r.decisions_done}/{r.decisions_total}")]

    async def get_review(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        r = await c.get_review(self.match_id(step))
        return [("status", r.status), ("decisions", f"{r.decisions_done}/{r.decisions_total}")]

    async def review(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        r = await c.wait_review(self.match_id(step), timeout=step.get("timeout_ms", 120_000) / 1000)
        fields: list[tuple[str, Any]] = [("status", r.status), ("decisions", r.decisions_done)]
        review = r.review
        if review is None or not review.worst:
            return [*fields, *((k, None) for k in ("worst", "seat", "band", "cost", "played", "best"))]
        d = review.decisions[review.worst[0]]
        return [
            *fields,
            ("worst", d.index + 1),
            ("seat", d.seat),
            ("band", band(d.band)),
            ("cost", fixed(d.cost, 1)),
            ("played", d.played.action),
            ("best", d.best.action),
        ]
