"""Analysis of positions and reviews of finished matches, by the `strong` bot's search: what a
service, the viewer and the clients show translate these (docs/review.md).

- `analyze(game, seat)`: the moves of a position ranked by the search, each with the estimated
  final margin, win chance and standard error, and the estimate of the position, seeing only what
  `seat` may see;
- `review_record(record)`: every decision of a finished match with the estimate before it, the move
  played, the best move, what the move cost and its band (inaccuracy, mistake, blunder);
- `plot_svg(review)`: each seat's estimated margin over the match, as a standalone SVG.
"""

from __future__ import annotations

from .analysis import Analysis, AnalysisCancelled, Estimate, MoveEstimate, analyst, analyze, win_chance
from .bands import BANDS, Thresholds
from .match import REVIEW_FORMAT, Decision, Review, SeatSummary, review_record, reviewable
from .plot import plot_svg

__all__ = [
    "BANDS",
    "REVIEW_FORMAT",
    "Analysis",
    "AnalysisCancelled",
    "Decision",
    "Estimate",
    "MoveEstimate",
    "Review",
    "SeatSummary",
    "Thresholds",
    "analyst",
    "analyze",
    "plot_svg",
    "review_record",
    "reviewable",
    "win_chance",
]
