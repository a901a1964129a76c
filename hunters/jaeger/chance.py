"""External chance of a Jäger und Sammler game (`chance="external"`, OpenSpiel): every tile of the
summer layout, then of the winter deal, is a chance node. The functions behind `Game.chance_pending`,
`Game.chance_outcomes` and `Game.apply_chance`."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from hunters.errors import IllegalMoveError

from .tiles import token_of

if TYPE_CHECKING:
    from .game import Game

__all__ = ["apply", "outcomes", "pending", "summer_deal_spaces", "summer_spaces_left"]


def pending(game: Game) -> bool:
    """Whether a chance node is pending (only with chance="external")."""
    return game._summer_left is not None or (game._external and game._core.deal_space is not None)


def summer_spaces_left(game: Game) -> int:
    return len(summer_deal_spaces(game)) if game._summer_left is not None else 0


def summer_deal_spaces(game: Game) -> list[int]:
    """Tile spaces still to receive a summer tile in the external deal (ascending; the deal
    stops when the deck or the tile spaces run out, as the seeded deal does)."""
    left = game._summer_left or []
    dealt = len(game._outcomes)
    spaces = [v for v, k in enumerate(game._board.kinds) if k == "tile"]
    return spaces[dealt : dealt + len(left)]


def outcomes(game: Game) -> list[tuple[int, float]]:
    """The pending chance node's outcomes: (tile code laid on the next space, probability = how
    many such tiles are not laid yet / how many tiles are not laid yet), by code; [] when no
    chance node is pending. The tile code is `kind | value << 4` (see hunters.jaeger.learn)."""
    if game._summer_left is not None:
        counts: dict[int, int] = {}
        for c in game._summer_left:
            counts[c] = counts.get(c, 0) + 1
    elif pending(game):
        counts = dict(game._core.deal_outcomes())
    else:
        return []
    total = sum(counts.values())
    return [(c, n / total) for c, n in sorted(counts.items())]


def apply(game: Game, outcome: int) -> None:
    """Resolve the pending chance node: lay tile code `outcome` (one of `chance_outcomes()`) on
    the next space (`events` gets what completing a deal causes: the winter set-up, a season
    end). IllegalMoveError (NO_CHANCE_PENDING, NOT_AN_OUTCOME) otherwise, changing nothing."""
    if not pending(game):
        raise IllegalMoveError("NO_CHANCE_PENDING", "no chance node is pending", outcome)
    try:  # ints and numpy integers, not bools or floats
        code = None if isinstance(outcome, bool) else operator.index(outcome)
    except TypeError:
        code = None
    if code is None or code not in dict(outcomes(game)):
        raise IllegalMoveError("NOT_AN_OUTCOME", f"{outcome!r} is not among the chance outcomes", outcome)
    outcome = code
    left = game._summer_left
    if left is not None:
        v = summer_deal_spaces(game)[0]
        game._core.lay(v, outcome)
        left.remove(outcome)
        game._summer = game._summer.copy()
        game._summer[v] = token_of(outcome)
        game._outcomes.append(outcome)
        if left and summer_deal_spaces(game):
            return
        game._summer_left = None
        game._lay_out(game._core.nplayers, True)
        return
    events = game._events_of(game._core.deal_apply(outcome))
    game._outcomes.append(outcome)
    if game._core.deal_space is None:  # the winter deck as dealt (observed_by)
        summer = sum(1 for t in game._summer if t is not None)
        game._winter = [t for t in map(token_of, game._outcomes[summer:]) if t is not None]
    game._events.extend(events)
