"""The analysis of one position for one seat: the `strong` bot's search, read.

`analyze(game, seat)` searches the decision from what `seat` may see (`Observation.of(game,
seat)`: determinizations drawn from its observation, as the bot's are) with the bot's own tree
(`StrongBot.new_search`), and reports what the search expects:

- per move of the seat to move, when `seat` is to move: the estimated final margin of `seat` after
  it, its win chance and how sure the figure is, the moves ranked as the bot prefers them (most
  visited first), so the first IS the move `strong` plays with the same iterations and seed;
- the estimate of the position: that of the move the search chooses (a chess engine's "eval").

Figures (docs/review.md): a seat's **margin** is its final score minus the best final score of the
other seats (positive: it wins by that much); a move's margin is the mean, over the search's
iterations below it, of that margin in the estimated final scores at each iteration's leaf. Its
**stderr** is the standard deviation of those leaves over the square root of their number. The
**win chance** is P(final margin > 0) with the final margin normal around the estimate, with the
spread the game's strategy measures for the rest of a game from the position (`margin_sd`), or,
for a strategy without one, the spread of the leaves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from hunters.bots.base import Observation
from hunters.bots.search import RootMove, StrongSearch, margins
from hunters.bots.strong import StrongBot, strategy_for
from hunters.capabilities import CoreSearch
from hunters.errors import NotSupportedError
from hunters.game_base import JSON, AnyGame

__all__ = ["Analysis", "AnalysisCancelled", "Estimate", "MoveEstimate", "analyst", "analyze", "win_chance"]


class AnalysisCancelled(Exception):
    """An analysis or review stopped by its stop byte before it was complete."""


def win_chance(margin: float, spread: float) -> float:
    """P(final margin > 0) for a final margin normal around `margin` with standard deviation
    `spread` (a tie counts half): Φ(margin / spread); 1, ½ or 0 by the sign with no spread left."""
    if spread <= 0.0:
        return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return 0.5 * math.erfc(-margin / (spread * math.sqrt(2.0)))


@dataclass(frozen=True)
class Estimate:
    """What the search expects of a position, or after a move, for the analysis's seat: its
    estimated final `margin` (own − best other final score), its `win` chance, the margin's `stderr`
    (None under two visits), the `visits` the figures rest on, and every seat's expected final
    `scores` and `margins` (the same definitions, seat by seat)."""

    visits: int
    margin: float
    stderr: float | None
    win: float
    scores: list[float]
    margins: list[float]

    def to_json(self) -> JSON:
        return asdict(self)

    @classmethod
    def from_json(cls, data: JSON) -> Estimate:
        return cls(**_fields(cls, data))


@dataclass(frozen=True)
class MoveEstimate(Estimate):
    """An `Estimate` after one move of the seat to move: the `move` (its ``to_json()``) and its
    `action` (the game's integer code of it, `game.actions`: what the service speaks)."""

    move: JSON
    action: int


@dataclass(frozen=True)
class Analysis:
    """One position analysed for `seat` (docs/review.md).

    - `game`, `moves_played` (the position: after that many moves), `seat`, `to_move` (the seat
      to move; -1 once the game is over);
    - `analyst`: the searcher as a bot spec (``strong:iterations=...,seed=...``), which plays
      `moves[0]` in this position when it is `seat`'s turn; `iterations` the search ran;
    - `position`: the estimate of the position for `seat` (that of the move the search chooses;
      the final scores once the game is over);
    - `moves`: when `seat` is to move, its best `top` moves as the search ranks them (most visited
      first); else empty;
    - `asked`: the moves asked for by the caller, each searched as often as the chosen move."""

    game: str
    moves_played: int
    seat: int
    to_move: int
    analyst: str
    iterations: int
    position: Estimate
    moves: list[MoveEstimate]
    asked: list[MoveEstimate]

    def to_json(self) -> JSON:
        return asdict(self)

    @classmethod
    def from_json(cls, data: JSON) -> Analysis:
        fields = _fields(cls, data)
        fields["position"] = Estimate.from_json(fields["position"])
        fields["moves"] = [MoveEstimate.from_json(m) for m in fields["moves"]]
        fields["asked"] = [MoveEstimate.from_json(m) for m in fields["asked"]]
        return cls(**fields)


def _fields(cls: type, data: Any) -> dict[str, Any]:
    """`data`'s entries named by `cls`'s fields (ValueError when one is missing)."""
    names = cls.__dataclass_fields__  # type: ignore[attr-defined]
    if not isinstance(data, dict) or not set(names) <= set(data):
        raise ValueError(f"not a {cls.__name__}: expected the fields {', '.join(names)}")
    return {k: data[k] for k in names}


def analyst(iterations: int | None = None, seed: int = 0, **options: Any) -> StrongBot:
    """The searcher of an analysis: a `StrongBot` with a fixed budget (`iterations`, default: the
    game strategy's), `seed` and the bot's other `options` (c, bias, widen, alpha, dets, reply,
    playout); a time limit is refused (an analysis is deterministic). ValueError for bad options."""
    if "time" in options:
        raise ValueError("an analysis takes iterations, not time: it is deterministic")
    if iterations is not None and (type(iterations) is not int or iterations < 1):
        raise ValueError("iterations must be an int >= 1")
    try:
        return StrongBot(iterations=iterations, seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bad analysis options: {exc}") from None


def analyze(
    game: AnyGame | Observation,
    seat: int | None = None,
    *,
    iterations: int | None = None,
    top: int = 5,
    seed: int = 0,
    moves: Sequence[Any] = (),
    stop: bytearray | None = None,
    **options: Any,
) -> Analysis:
    """The analysis of `game`'s position for `seat` (default: the seat to move), seeing only what
    `seat` may see (`Observation.of(game, seat)`; or give that observation as `game`).

    `iterations` (default: the game strategy's, the `strong` bot's default), `seed` and `options`
    make the searcher (`analyst`); the same arguments give the same analysis. `top` moves are
    listed; `moves` (legal moves of `seat`, which must be to move) are also searched, each as often
    as the chosen move (`Analysis.asked`). A set `stop[0]` ends the search: AnalysisCancelled.

    NotSupportedError for a game without a search of its own (`CoreSearch`); ValueError for a bad
    seat, option or move, or a position where a chance node is pending (no seat to move)."""
    if not isinstance(game, Observation) and seat is None:
        if game.is_over:
            raise ValueError("the game is over: name the seat whose view to analyse")
        if game.player < 0:
            raise ValueError("a chance node is pending: no seat is to move")
    obs = game if isinstance(game, Observation) else Observation.of(game, seat)
    if seat is not None and seat != obs.seat:
        raise ValueError(f"the observation is seat {obs.seat}'s, not seat {seat}'s")
    if type(top) is not int or top < 1:
        raise ValueError("top must be an int >= 1")
    observed = obs.observed()
    info = observed.INFO
    if not isinstance(observed, CoreSearch):
        raise NotSupportedError(f"{info.id} does not support analysis: it declares no search of its own (CoreSearch)")
    try:
        strat = strategy_for(observed)
    except LookupError:
        raise NotSupportedError(f"{info.id} does not support analysis: its plugin names no search strategy") from None
    bot = analyst(iterations, seed, **options)
    if observed.is_over:
        if moves:
            raise ValueError("the game is over: there is no move to analyse")
        return _final(obs, bot)
    if observed.player < 0:
        raise ValueError("a chance node is pending: no seat is to move")
    legal = obs.legal_moves()
    codes = observed.search_state().legal_codes()
    asked = [_code_of(obs, legal, codes, m) for m in moves]
    if stop is not None and stop[0]:
        raise AnalysisCancelled("the analysis was stopped")
    tree = bot.new_search(obs, strat, stop)
    tree.run(bot.limit(strat))
    if tree.stopped:
        raise AnalysisCancelled("the analysis was stopped")
    searched = tree.moves()
    ranked = StrongSearch.ranked(searched)
    chosen = ranked[0]
    for code in asked:
        tree.extend(code, chosen.visits)
    if tree.stopped:
        raise AnalysisCancelled("the analysis was stopped")
    spread = getattr(strat, "margin_sd", None)
    sd = float(spread(observed.search_state())) if spread is not None else None
    at = {m.code: m for m in tree.moves()} if asked else {}

    def estimate(m: RootMove) -> Estimate:
        return _estimate(m, obs.seat, sd)

    def move_estimate(m: RootMove) -> MoveEstimate:
        move = legal[codes.index(m.code)]
        return MoveEstimate(**asdict(estimate(m)), move=move.to_json(), action=observed.actions.from_move(move))

    mine = obs.to_move
    return Analysis(
        game=info.id,
        moves_played=obs.moves_played,
        seat=obs.seat,
        to_move=observed.player,
        analyst=bot.spec,
        iterations=tree.iterations,
        position=estimate(chosen),
        moves=[move_estimate(m) for m in ranked[:top]] if mine else [],
        asked=[move_estimate(at[code]) for code in asked],
    )


def _code_of(obs: Observation, legal: Sequence[Any], codes: list[int], move: Any) -> int:
    """The core code of `move`, a legal move of the observation's seat (ValueError otherwise)."""
    if not obs.to_move:
        raise ValueError(f"seat {obs.seat} is not to move: only its own moves can be asked for")
    for i, m in enumerate(legal):
        if m == move:
            return codes[i]
    raise ValueError(f"not a legal move here: {move!r}")


def _estimate(m: RootMove, seat: int, sd: float | None) -> Estimate:
    margin = m.margins[seat]
    spread = m.spreads[seat]
    return Estimate(
        visits=m.visits,
        margin=margin,
        stderr=spread / math.sqrt(m.visits) if m.visits > 1 else None,
        win=win_chance(margin, sd if sd is not None else spread),
        scores=list(m.scores),
        margins=list(m.margins),
    )


def _final(obs: Observation, bot: StrongBot) -> Analysis:
    """A game over: the final scores, sure."""
    observed = obs.observed()
    scores = [float(s) for s in observed.scores]
    ms = margins(scores)
    position = Estimate(0, ms[obs.seat], 0.0, win_chance(ms[obs.seat], 0.0), scores, ms)
    return Analysis(observed.INFO.id, obs.moves_played, obs.seat, -1, bot.spec, 0, position, [], [])
