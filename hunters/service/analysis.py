"""Analyses of positions (`hunters.review.analyze`, the strong bot's search read) for
OracleService.Analyze and the play page's hints: which position, whose view, who may ask, and the
work run on an engine lane under the caller's bounds. No figure is computed here.

Who may see what: once a match is over, anyone may analyse any seat's view at any version (the
whole record is public then). Before, only a seat's own view, with that seat's token, in a match
created with hints allowed (`GameConfig.hints`): the analysis is made from the seat's observation,
so it holds nothing the seat may not see. A position the caller sends (config and moves) is the
caller's own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import grpc

from hunters.errors import NotSupportedError
from hunters.game_base import AnyGame
from hunters.review import Analysis, AnalysisCancelled, analyze
from hunters.v1 import oracle_pb2

from . import auth
from .engine import Cancel, Lane
from .errors import ServiceError, invalid
from .games import ServiceAdapter, adapter
from .perft import oracle_position
from .stopping import Stopper, TimeLeft

if TYPE_CHECKING:
    from .live import LiveMatch
    from .matches import MatchManager

__all__ = ["DEFAULT_TOP_K", "MAX_ANALYSIS_ITERATIONS", "MAX_TOP_K", "Analyses", "Position"]

MAX_ANALYSIS_ITERATIONS = 10_000
"""The default bound on an analysis's iterations (`hunters serve --max-analysis-iterations`): a few
seconds of one core in the built-in games, whose default is 300-400."""
MAX_TOP_K = 50
DEFAULT_TOP_K = 5


@dataclass(frozen=True)
class Position:
    """What an analysis reads: a game nobody changes (a match's published state) or how to make it
    (off the event loop: a replay), and the seat whose view it is (None: the default)."""

    ad: ServiceAdapter
    seat: int | None
    game: AnyGame | None = None
    build: Callable[[], AnyGame] | None = None

    def make(self) -> AnyGame:
        if self.game is not None:
            return self.game
        assert self.build is not None
        return self.build()


def seat_held(live: LiveMatch, token: str) -> int | None:
    """The seat `token` holds in `live`, or None."""
    for seat, h in enumerate(live.seat_hashes):
        if auth.matches(token, h):
            return seat
    return None


def _replay(ad: ServiceAdapter, record: dict[str, Any], moves: list[Any]) -> Callable[[], AnyGame]:
    def build() -> AnyGame:
        game: AnyGame = ad.from_record(dict(record, moves=[m.to_json() for m in moves]))
        return game

    return build


def analyse(position: Position, top: int, iterations: int | None, left: TimeLeft, cancel: Cancel) -> Analysis:
    """The analysis of `position` (run on an engine thread): its search stops inside the core when
    the time `left` runs out or the caller goes away (the job's cancel flag is its stop byte)."""
    game = position.make()
    seat = position.seat
    if seat is None and game.is_over:
        raise invalid("BAD_SEAT", "the game is over: name the seat whose view to analyse")
    if seat is None and game.player < 0:
        raise invalid("BAD_SEAT", "a chance node is pending: name the seat whose view to analyse")
    if seat is not None and not 0 <= seat < game.players:
        raise invalid("BAD_SEAT", f"seat must be from 0 to {game.players - 1}")
    with Stopper(left, cancel) as stopper:
        try:
            return analyze(game, seat, iterations=iterations, top=top, stop=cancel.flag)
        except AnalysisCancelled:
            raise stopper.error("the analysis", "ask for fewer iterations") from None
        except NotSupportedError as exc:
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION, "ANALYSIS_NOT_SUPPORTED", str(exc)) from None
        except ValueError as exc:  # what the checks above leave: a position no seat is to move in
            raise invalid("BAD_POSITION", str(exc)) from None


class Analyses:
    """Analyses on `lane` (its threads, each caller's calls at once and engine seconds) of matches
    of `manager`, at most `max_iterations` a search."""

    def __init__(self, manager: MatchManager | None, lane: Lane, max_iterations: int = MAX_ANALYSIS_ITERATIONS):
        self.manager = manager
        self.lane = lane
        self.max_iterations = max_iterations

    def bounds(self, top_k: int, iterations: int) -> tuple[int, int | None]:
        """(moves to list, iterations or None for the default) of a request, or INVALID_ARGUMENT."""
        if not 0 <= top_k <= MAX_TOP_K:
            raise invalid("BAD_TOP_K", f"top_k must be from 1 to {MAX_TOP_K} (0: {DEFAULT_TOP_K})")
        if not 0 <= iterations <= self.max_iterations:
            raise invalid(
                "BAD_ITERATIONS",
                f"iterations must be from 1 to {self.max_iterations} on this server (0: the strong bot's default)",
                limit=str(self.max_iterations),
            )
        return top_k or DEFAULT_TOP_K, iterations or None

    async def of_match(self, match_id: str, token: str | None, version: int | None, seat: int | None) -> Position:
        """The position of a stored match after `version` moves (None: the latest) from `seat`'s view,
        if the caller may see it (the module's docstring); a seat of None is the token's seat before
        the end."""
        assert self.manager is not None, "an analysis of a match needs the match manager"
        live = await self.manager.get(match_id)
        latest, game = live.version, live.game  # read together: the published state of one version
        at = latest if version is None else version
        if not 0 <= at <= latest:
            raise invalid("BAD_VERSION", f"version must be from 0 to the match's version {latest}")
        if not game.is_over:
            seat = self._own_seat(live, token, seat)
        if at == latest:
            return Position(live.adapter, seat, game=game)
        return Position(live.adapter, seat, build=_replay(live.adapter, live.record, live.moves[:at]))

    @staticmethod
    def _own_seat(live: LiveMatch, token: str | None, seat: int | None) -> int:
        """The seat a caller may analyse in a match not over: its token's, in a match with hints."""
        if not live.config.hints:
            raise ServiceError(
                grpc.StatusCode.FAILED_PRECONDITION,
                "HINTS_NOT_ALLOWED",
                "this match was created without hints: no seat's view is analysed before its end",
                match_id=live.match_id,
            )
        held = seat_held(live, auth.require_token(token))
        if held is None or (seat is not None and seat != held):
            raise ServiceError(
                grpc.StatusCode.PERMISSION_DENIED,
                "SEAT_TOKEN_REQUIRED",
                "before the end of a match only a seat's own view is analysed, with that seat's token"
                + ("" if seat is None else f": this token does not hold seat {seat}"),
                match_id=live.match_id,
            )
        return held

    @staticmethod
    def of_state(request: oracle_pb2.AnalyzeRequest) -> Position:
        """The position the caller sends (config and moves, replayed off the loop)."""
        ad = adapter(request.config.game)
        seat = request.seat if request.HasField("seat") else None
        return Position(ad, seat, build=lambda: oracle_position(request, ad))

    async def run(
        self, position: Position, top: int, iterations: int | None, caller: str | None, deadline: float | None
    ) -> Analysis:
        """The analysis, on the lane as one of `caller`'s calls (None: no per-caller bound), within
        its engine seconds and the `deadline` (seconds from now; None: none)."""
        lane = self.lane
        with lane.admitted(caller) as budget:
            spendable = lane.callers.left(budget) if lane.callers is not None and budget is not None else None
            left = TimeLeft(spendable, deadline)
            return await lane.run(analyse, position, top, iterations, left, budget=budget)

    async def hint(self, match_id: str, token: str, top: int, caller: str) -> dict[str, Any]:
        """The play page's hint: the analysis of the token's own seat's view of a match with hints,
        as JSON, each move with its words (`describe_move`)."""
        top_k, iterations = self.bounds(top, 0)
        position = await self.of_match(match_id, token, None, None)
        found = await self.run(position, top_k, iterations, caller, None)
        ad = position.ad

        def figures(e: Any) -> dict[str, Any]:
            return {"margin": e.margin, "win": e.win, "stderr": e.stderr, "visits": e.visits}

        return {
            "seat": found.seat,
            "version": found.moves_played,
            "to_move": found.to_move,
            "analyst": found.analyst,
            "position": figures(found.position),
            "moves": [
                {
                    "move": m.move,
                    "action": m.action,
                    "text": ad.describe_move(ad.Game.move_from_json(m.move)),
                    **figures(m),
                }
                for m in found.moves
            ],
        }
