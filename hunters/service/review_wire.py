"""Analyses and reviews (`hunters.review`) as protobuf: the figures copied, each move with its action
code. No figure is computed here."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from hunters.capabilities import ExplicitChance
from hunters.review import Analysis, Decision, Estimate, MoveEstimate, Review
from hunters.v1 import moves_pb2, oracle_pb2, review_pb2

from .games import ServiceAdapter

__all__ = ["analysis_pb", "estimate_pb", "review_pb"]

WORST = 5
"""The costliest decisions a review lists (`Review.worst`)."""

_BANDS = {
    "best": review_pb2.MOVE_BAND_BEST,
    "good": review_pb2.MOVE_BAND_GOOD,
    "inaccuracy": review_pb2.MOVE_BAND_INACCURACY,
    "mistake": review_pb2.MOVE_BAND_MISTAKE,
    "blunder": review_pb2.MOVE_BAND_BLUNDER,
}
_KINDS = {
    "decision": review_pb2.REVIEW_DECISION_KIND_DECISION,
    "forced": review_pb2.REVIEW_DECISION_KIND_FORCED,
    "chance": review_pb2.REVIEW_DECISION_KIND_CHANCE,
}


def estimate_pb(e: Estimate) -> review_pb2.Estimate:
    out = review_pb2.Estimate(visits=e.visits, margin=e.margin, win=e.win, scores=e.scores, margins=e.margins)
    if e.stderr is not None:
        out.stderr = e.stderr
    return out


def _legal(ad: ServiceAdapter, move: Any, action: int) -> moves_pb2.LegalMove:
    return moves_pb2.LegalMove(move=ad.move_to_proto(ad.Game.move_from_json(move)), action=action)


def move_estimate_pb(ad: ServiceAdapter, m: MoveEstimate) -> review_pb2.MoveEstimate:
    return review_pb2.MoveEstimate(move=_legal(ad, m.move, m.action), estimate=estimate_pb(m))


def analysis_pb(ad: ServiceAdapter, a: Analysis) -> oracle_pb2.AnalyzeResponse:
    """An AnalyzeResponse of `a`."""
    return oracle_pb2.AnalyzeResponse(
        game=a.game,
        version=a.moves_played,
        seat=a.seat,
        player=a.to_move,
        analyst=a.analyst,
        iterations=a.iterations,
        position=estimate_pb(a.position),
        moves=[move_estimate_pb(ad, m) for m in a.moves],
    )


def review_pb(ad: ServiceAdapter, review: Review, record: dict[str, Any]) -> review_pb2.Review:
    """A Review message of `review`, the review of the match `record`. The record is replayed once,
    step by step as the review lists them, for the action code of each move played."""
    game = ad.from_record({**record, "moves": [], "outcomes": []})
    decisions = []
    for d in review.decisions:
        if d.kind == "chance":
            assert isinstance(game, ExplicitChance)
            outcome: Any = d.played  # a chance outcome: an int
            game.apply_chance(outcome)
            decisions.append(_decision_pb(ad, d, None))
            continue
        move = ad.Game.move_from_json(d.played)
        action = game.actions.from_move(move)
        game.play(move)
        decisions.append(_decision_pb(ad, d, action))
    worst = review.worst(WORST)
    position = {id(d): i for i, d in enumerate(review.decisions)}
    t = review.thresholds
    return review_pb2.Review(
        format=review.format,
        game=review.game,
        players=review.players,
        analyst=review.analyst,
        thresholds=review_pb2.ReviewThresholds(inaccuracy=t.inaccuracy, mistake=t.mistake, blunder=t.blunder),
        decisions=decisions,
        scores=review.scores,
        seats=[review_pb2.SeatReview(**asdict(s)) for s in review.seats],
        worst=[position[id(d)] for d in worst],
    )


def _decision_pb(ad: ServiceAdapter, d: Decision, action: int | None) -> review_pb2.ReviewDecision:
    out = review_pb2.ReviewDecision(kind=_KINDS[d.kind], index=d.index, moves_played=d.moves_played, seat=d.seat)
    if action is None:
        out.outcome_json = json.dumps(d.played)
        return out
    out.played.CopyFrom(_legal(ad, d.played, action))
    if d.kind != "decision" or d.before is None or d.after is None or not d.alternatives:
        return out
    out.best.CopyFrom(_legal(ad, d.best, d.alternatives[0].action))
    out.before.CopyFrom(estimate_pb(d.before))
    out.after.CopyFrom(estimate_pb(d.after))
    out.cost = d.cost or 0.0
    out.band = _BANDS[d.band or "good"]
    out.alternatives.extend(move_estimate_pb(ad, m) for m in d.alternatives)
    return out
