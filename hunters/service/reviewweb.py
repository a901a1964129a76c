"""The viewer's review of a finished match (web.py's routes, reviews.py's reviews): its progress
while the server computes it, then the review as the page draws it (the plot, every decision with its
moves in words, the costliest ones), and one decision's two boards side by side: after the move
played and after the move the search suggests.

Routes:
- GET ``/api/matches/<id>/review``: ``{"status", "done", "total", "message"}``, and once done
  ``"review"``: the analyst, thresholds, final scores, each seat's summary, ``decisions`` (kind,
  index, moves_played, seat, band, cost, played and best in words, the estimate before), ``worst``
  (positions in ``decisions``, costliest first) and ``svg`` (the plot: `hunters.review.plot_svg`,
  whose points carry ``data-index``);
- POST ``/api/matches/<id>/review`` (from the pages only, `same_site_write`): start it (or find it),
  the same answer; a match not over is 409 MATCH_NOT_OVER;
- GET ``/api/matches/<id>/review/<n>``: decision n with ``played_svg`` and ``best_svg``.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from hunters import pictures
from hunters.review import Decision, Review, plot_svg
from hunters.v1 import review_pb2

from .games import ServiceAdapter
from .hosts import host_key
from .live import LiveMatch
from .reads import ByteCache
from .review_wire import WORST
from .reviews import Reviews
from .web import HttpError, Route, Viewer, json_response, same_site_write
from .webcache import deep_size

__all__ = ["ReviewRoutes"]

REVIEW_PAGE_BYTES = 32 * 1024 * 1024  # finished reviews kept as the page's JSON
_STATUS = {
    review_pb2.REVIEW_STATUS_NOT_REQUESTED: "not_requested",
    review_pb2.REVIEW_STATUS_RUNNING: "running",
    review_pb2.REVIEW_STATUS_DONE: "done",
    review_pb2.REVIEW_STATUS_FAILED: "failed",
}


def _words(ad: ServiceAdapter, move: Any) -> str:
    return str(ad.describe_move(ad.Game.move_from_json(move)))


def _decision(ad: ServiceAdapter, d: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": d.kind, "index": d.index, "moves_played": d.moves_played, "seat": d.seat}
    if d.kind == "chance":
        return {**out, "played": f"chance outcome {json.dumps(d.played)}"}
    out["played"] = _words(ad, d.played)
    if d.kind == "decision" and d.before is not None and d.after is not None:
        out.update(
            best=_words(ad, d.best),
            band=d.band,
            cost=d.cost,
            before={"margin": d.before.margin, "win": d.before.win, "margins": d.before.margins},
            after={"margin": d.after.margin, "win": d.after.win},
        )
    return out


def page_review(ad: ServiceAdapter, review: Review) -> dict[str, Any]:
    """The review as the page reads it (built off the loop)."""
    position = {id(d): i for i, d in enumerate(review.decisions)}
    return {
        "analyst": review.analyst,
        "thresholds": review.thresholds.to_json(),
        "scores": review.scores,
        "seats": [vars(s) for s in review.seats],
        "decisions": [_decision(ad, d) for d in review.decisions],
        "worst": [position[id(d)] for d in review.worst(WORST)],
        "svg": plot_svg(review, f"{review.game}: each seat's estimated final margin"),
    }


def _pictures(ad: ServiceAdapter, before: Any, d: Decision) -> dict[str, str]:
    """The boards after the move played and after the suggested one (from the game before it)."""
    out = {}
    for name, move in (("played_svg", d.played), ("best_svg", d.best)):
        if move is None:
            continue
        game = before.clone()
        game.play(ad.Game.move_from_json(move))
        try:
            out[name] = pictures.svg(game)
        except ValueError:  # a game without pictures
            out[name] = ""
    return out


class ReviewRoutes:
    """The review routes over a `Viewer` (its manager, cache and reads thread) and `Reviews`."""

    def __init__(self, viewer: Viewer, reviews: Reviews):
        self.viewer = viewer
        self.reviews = reviews
        self.pages: ByteCache[str] = ByteCache(REVIEW_PAGE_BYTES)  # finished reviews' JSON, by match
        viewer.manager.on_delete.append(self.pages.forget)

    def routes(self) -> list[Route]:
        return [
            ("GET", "/api/matches/{match_id}/review", self._get),
            ("POST", "/api/matches/{match_id}/review", self._request),
            ("GET", "/api/matches/{match_id}/review/{index}", self._decision),
        ]

    async def _get(self, request: web.Request) -> web.Response:
        return await self._answer(request.match_info["match_id"])

    async def _request(self, request: web.Request) -> web.Response:
        same_site_write(request)
        await self.reviews.request(request.match_info["match_id"], host_key(request.remote))
        return await self._answer(request.match_info["match_id"])

    async def _answer(self, match_id: str) -> web.Response:
        live = await self.viewer.manager.get(match_id)  # (not found: a deleted match's review is gone too)
        cached = self.pages.get(live.match_id)
        if cached is not None:
            return web.Response(body=cached, content_type="application/json")
        live, review, report = await self.reviews.review(match_id)
        body: dict[str, Any] = {
            "match_id": live.match_id,
            "status": _STATUS.get(report.status, "failed"),
            "done": report.decisions_done,
            "total": report.decisions_total,
            "message": report.message,
        }
        if review is None:
            return json_response(body)
        body["review"] = await self.viewer.manager.reads.run(page_review, live.adapter, review)
        data = json.dumps(body).encode()
        self.pages.put(live.match_id, data)
        return web.Response(body=data, content_type="application/json")

    async def _decision(self, request: web.Request) -> web.Response:
        live, review, _ = await self.reviews.review(request.match_info["match_id"])
        if review is None:
            raise HttpError(409, "the match's review is not done: ask for it first", "REVIEW_NOT_DONE")
        try:
            index = int(request.match_info["index"])
        except ValueError:
            raise HttpError(400, "the decision is a number") from None
        if not 0 <= index < len(review.decisions):
            raise HttpError(400, f"the decision is from 0 to {len(review.decisions) - 1}")
        key = ("review-decision", live.match_id, index)
        shown: dict[str, Any] | None = self.viewer.cache.entries.get(key)
        if shown is None:
            d = review.decisions[index]
            shown = {**_decision(live.adapter, d), "position": index}
            if d.kind != "chance":
                before = await self._game_at(live, d.moves_played)
                shown.update(await self.viewer.manager.reads.run(_pictures, live.adapter, before, d))
            self.viewer.cache.entries.put(key, shown, deep_size(shown))
        return json_response(shown)

    async def _game_at(self, live: LiveMatch, version: int) -> Any:
        """A copy of the match's game after `version` moves (the viewer's history replays it)."""
        history = await self.viewer.cache.history_off_loop(live, self.viewer.manager.reads.run)
        return await self.viewer.manager.reads.run(self.viewer.cache.game_at, live, history, version)
