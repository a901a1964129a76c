"""The review of a finished match: every decision of its record analysed from the mover's view
(`analyze`), with what the move played cost against the search's choice and its band.

The played move is searched as often as the move the search chooses (`StrongSearch.extend`: a root
move's figures are those the full search would have had with that many visits, on the same
determinizations), so the two margins are compared on equal terms. A decision with one legal move
(``forced``) and a chance node (``chance``, in a record with explicit chance outcomes) are listed,
not searched. docs/review.md says what the figures mean.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import hunters
from hunters.bots.strong import strategy_for
from hunters.capabilities import CoreSearch, ExplicitChance
from hunters.errors import InvalidRecordError, NotSupportedError
from hunters.game_base import JSON, AnyGame

from .analysis import AnalysisCancelled, Estimate, MoveEstimate, _fields, analyst, analyze
from .bands import Thresholds

__all__ = ["REVIEW_FORMAT", "Decision", "Review", "SeatSummary", "review_record", "reviewable"]

REVIEW_FORMAT = 1
"""The version of `Review.to_json()`'s layout (its ``format``); a change of a field's meaning or a
removal raises it, a new field does not."""

Progress = Callable[[int, int], None]
"""Called with (decisions done, decisions in all) as a review goes."""


@dataclass(frozen=True)
class Decision:
    """One step of a match's record.

    - `kind`: ``decision`` (searched), ``forced`` (one legal move) or ``chance`` (an outcome of a
      chance node, in a record with explicit chance);
    - `index`: the move's index in the record's ``moves`` (a chance node: its outcome's index in
      ``outcomes``); `moves_played`: moves before it; `seat`: the seat to move (-1: chance);
    - `played`: the move (its ``to_json()``) or the outcome; `best`: the search's choice;
    - `before`: the estimate of the position for the mover (that of `best`); `after`: that of the
      move played, searched as often as `best`; `cost`: ``before.margin − after.margin`` in points
      (0 when `best` was played; below 0 when the search values the played move more);
    - `band`: ``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` (`Thresholds`);
    - `alternatives`: the search's best moves, ranked (the review's `top`).

    The search's fields are None (and `alternatives` empty) for forced moves and chance nodes."""

    kind: str
    index: int
    moves_played: int
    seat: int
    played: JSON
    best: JSON | None = None
    before: Estimate | None = None
    after: Estimate | None = None
    cost: float | None = None
    band: str | None = None
    alternatives: list[MoveEstimate] | None = None

    def to_json(self) -> JSON:
        return asdict(self)

    @classmethod
    def from_json(cls, data: JSON) -> Decision:
        fields = _fields(cls, data)
        for name in ("before", "after"):
            if fields[name] is not None:
                fields[name] = Estimate.from_json(fields[name])
        if fields["alternatives"] is not None:
            fields["alternatives"] = [MoveEstimate.from_json(m) for m in fields["alternatives"]]
        return cls(**fields)


@dataclass(frozen=True)
class SeatSummary:
    """One seat's decisions in a review: searched (`decisions`) and `forced`, how often it played
    the search's choice (`best`), its mean cost a searched decision (costs below 0 count 0), and its
    inaccuracies, mistakes and blunders."""

    seat: int
    decisions: int
    forced: int
    best: int
    mean_cost: float
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class Review:
    """A finished match reviewed (JSON-ready; `to_json` / `from_json`, layout version `format`).

    `game`, `players`; `analyst`: the searcher as a bot spec (its iterations and seed: the review is
    deterministic for them); `thresholds` of the bands; `decisions`, every step of the record in
    order; `scores`: the final scores; `seats`: a summary per seat."""

    format: int
    game: str
    players: int
    analyst: str
    thresholds: Thresholds
    decisions: list[Decision]
    scores: list[int]
    seats: list[SeatSummary]

    def worst(self, n: int = 5) -> list[Decision]:
        """The `n` searched decisions that cost most (at least an inaccuracy), costliest first."""
        found = [d for d in self.decisions if d.band in ("inaccuracy", "mistake", "blunder")]
        return sorted(found, key=lambda d: -(d.cost or 0.0))[:n]

    def to_json(self) -> JSON:
        return asdict(self)

    @classmethod
    def from_json(cls, data: JSON) -> Review:
        """A review from `to_json()`'s form (ValueError for another format or a missing field)."""
        if not isinstance(data, dict) or data.get("format") != REVIEW_FORMAT:
            raise ValueError(f"not a review of format {REVIEW_FORMAT}")
        fields = _fields(cls, data)
        fields["thresholds"] = Thresholds(**fields["thresholds"])
        fields["decisions"] = [Decision.from_json(d) for d in fields["decisions"]]
        fields["seats"] = [SeatSummary(**s) for s in fields["seats"]]
        return cls(**fields)


def review_record(
    record: JSON,
    *,
    iterations: int | None = None,
    seed: int = 0,
    top: int = 3,
    progress: Progress | None = None,
    stop: bytearray | None = None,
    thresholds: Thresholds | None = None,
    **options: Any,
) -> Review:
    """The review of the finished match `record` (a game's ``to_record()``): every decision analysed
    by `analyze` for its mover with the searcher of `iterations`, `seed` and `options` (`analyst`),
    keeping `top` alternatives a decision. `progress(done, total)` is called after each step of the
    record; a set `stop[0]` ends the review (AnalysisCancelled), between decisions or inside one.

    InvalidRecordError for a record that does not replay, ValueError for a match not over or a bad
    option, NotSupportedError for a game without a search of its own."""
    if not isinstance(record, dict) or record.get("game") not in hunters.games:
        raise InvalidRecordError("not a record of a registered game")
    cls = hunters.games.get(record["game"])
    strat = reviewable(cls)
    bot = analyst(iterations, seed, **options)  # bad options fail before the replay
    if type(top) is not int or top < 1:
        raise ValueError("top must be an int >= 1")
    final = cls.from_record(record)
    if not final.is_over:
        raise ValueError("the match is not over: a review is of a finished match")
    bands = thresholds or Thresholds.of(strat)
    moves, outcomes = record.get("moves", []), record.get("outcomes", [])
    total = len(moves) + len(outcomes)
    game = cls.from_record({**record, "moves": [], "outcomes": []})
    pending = iter(enumerate(outcomes))
    decisions: list[Decision] = []

    def add(decision: Decision) -> None:
        decisions.append(decision)
        if progress is not None:
            progress(len(decisions), total)

    def settle() -> None:
        """Chance outcomes where a chance node is pending, as `from_record` applies them."""
        while isinstance(game, ExplicitChance) and game.player == -1 and not game.is_over:
            item = next(pending, None)
            if item is None:
                return
            add(Decision("chance", item[0], game.moves_played, -1, item[1]))
            game.apply_chance(item[1])

    for index, data in enumerate(moves):
        settle()
        if stop is not None and stop[0]:
            raise AnalysisCancelled("the review was stopped")
        move = cls.move_from_json(data)
        add(_decision(game, index, move, bands, top, stop, iterations, seed, options))
        game.play(move)
    settle()
    return Review(
        REVIEW_FORMAT,
        cls.INFO.id,
        final.players,
        bot.spec,
        bands,
        decisions,
        list(final.scores),
        [_summary(seat, decisions) for seat in range(final.players)],
    )


def reviewable(cls: type[AnyGame]) -> Any:
    """The search strategy that reviews `cls`'s matches; NotSupportedError, saying why, for a game
    without a search of its own (CoreSearch) or a strategy (what `review_record` checks first, and
    a service before it queues a review)."""
    if not issubclass(cls, CoreSearch):
        raise NotSupportedError(
            f"{cls.INFO.id} does not support reviews: it declares no search of its own (CoreSearch)"
        )
    try:
        return strategy_for(cls)
    except LookupError:
        raise NotSupportedError(
            f"{cls.INFO.id} does not support reviews: its plugin names no search strategy"
        ) from None


def _decision(
    game: AnyGame,
    index: int,
    move: Any,
    bands: Thresholds,
    top: int,
    stop: bytearray | None,
    iterations: int | None,
    seed: int,
    options: dict[str, Any],
) -> Decision:
    seat = game.player
    played = move.to_json()
    if len(game.legal_moves()) == 1:
        return Decision("forced", index, game.moves_played, seat, played)
    found = analyze(game, seat, iterations=iterations, seed=seed, top=top, moves=[move], stop=stop, **options)
    chosen, after = found.moves[0], found.asked[0]
    is_best = chosen.action == after.action
    cost = 0.0 if is_best else found.position.margin - after.margin
    return Decision(
        "decision",
        index,
        game.moves_played,
        seat,
        played,
        best=chosen.move,
        before=found.position,
        after=found.position if is_best else _plain(after),
        cost=cost,
        band=bands.band(cost, is_best),
        alternatives=found.moves,
    )


def _plain(m: MoveEstimate) -> Estimate:
    return Estimate(m.visits, m.margin, m.stderr, m.win, m.scores, m.margins)


def _summary(seat: int, decisions: list[Decision]) -> SeatSummary:
    mine = [d for d in decisions if d.seat == seat]
    searched = [d for d in mine if d.kind == "decision"]
    costs = [max(0.0, d.cost or 0.0) for d in searched]
    count = {b: sum(1 for d in searched if d.band == b) for b in ("best", "inaccuracy", "mistake", "blunder")}
    return SeatSummary(
        seat,
        len(searched),
        len(mine) - len(searched),
        count["best"],
        sum(costs) / len(costs) if costs else 0.0,
        count["inaccuracy"],
        count["mistake"],
        count["blunder"],
    )
