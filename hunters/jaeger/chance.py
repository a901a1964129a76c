"""External chance of a Jäger und Sammler game (`chance="external"`, OpenSpiel): every tile of the
summer layout, then of the winter deal, is a chance node. What `Game.chance_pending`,
`Game.chance_outcomes` and `Game.apply_chance` compute, from the parts of the game they are given:
the core game, `summer_left` (the summer tile codes not dealt yet while the external summer deal is
under way, else None) and whether the game's chance is external. The game changes its own state."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hunters.errors import IllegalMoveError

from .tiles import token_of

if TYPE_CHECKING:
    from ._core import CoreGame

__all__ = ["checked_outcome", "outcomes", "pending", "seeded", "summer_deal_spaces", "winter_dealt"]


def pending(core: CoreGame, summer_left: list[int] | None, external: bool) -> bool:
    """Whether a chance node is pending (only with chance="external")."""
    return summer_left is not None or (external and core.deal_space is not None)


def summer_deal_spaces(kinds: Sequence[str], dealt: int, left: list[int]) -> list[int]:
    """Tile spaces still to receive a summer tile in the external deal (ascending), on a board of
    space `kinds` after `dealt` tiles, `left` still to deal (the deal stops when the deck or the
    tile spaces run out, as the seeded deal does)."""
    spaces = [v for v, k in enumerate(kinds) if k == "tile"]
    return spaces[dealt : dealt + len(left)]


def outcomes(core: CoreGame, summer_left: list[int] | None, external: bool) -> list[tuple[int, float]]:
    """The pending chance node's outcomes: (tile code laid on the next space, probability = how
    many such tiles are not laid yet / how many tiles are not laid yet), by code; [] when no
    chance node is pending. The tile code is `kind | value << 4` (see hunters.jaeger.learn)."""
    if summer_left is not None:
        counts: dict[int, int] = {}
        for c in summer_left:
            counts[c] = counts.get(c, 0) + 1
    elif pending(core, summer_left, external):
        counts = dict(core.deal_outcomes())
    else:
        return []
    total = sum(counts.values())
    return [(c, n / total) for c, n in sorted(counts.items())]


def checked_outcome(core: CoreGame, summer_left: list[int] | None, external: bool, outcome: Any) -> int:
    """`outcome` as the tile code of one of the pending chance node's outcomes (ints and numpy
    integers, not bools or floats); IllegalMoveError (NO_CHANCE_PENDING, NOT_AN_OUTCOME) otherwise."""
    if not pending(core, summer_left, external):
        raise IllegalMoveError("NO_CHANCE_PENDING", "no chance node is pending", outcome)
    try:
        code = None if isinstance(outcome, bool) else operator.index(outcome)
    except TypeError:
        code = None
    if code is None or code not in dict(outcomes(core, summer_left, external)):
        raise IllegalMoveError("NOT_AN_OUTCOME", f"{outcome!r} is not among the chance outcomes", outcome)
    return code


def seeded(order: Sequence[int], dealt: Sequence[int], possible: Sequence[int]) -> int:
    """The next outcome of a deal that follows `order` (a deck as a seed shuffled it), `dealt` being
    the outcomes so far: the first tile of `order` that no dealt tile matches (one match each) and
    that is `possible` (the pending node's outcomes); after the seed's own outcomes, order[len(dealt)]."""
    unmatched: dict[int, int] = {}
    for c in dealt:
        unmatched[c] = unmatched.get(c, 0) + 1
    for c in order:
        if unmatched.get(c, 0):
            unmatched[c] -= 1
        elif c in possible:
            return c
    raise IllegalMoveError("NOT_AN_OUTCOME", "the seed's deck has no tile left for this node", None)


def winter_dealt(summer: list[str | None], dealt: list[int]) -> list[str]:
    """The winter deck as the external deal laid it (`observed_by`), from the summer layout and the
    outcomes dealt so far (the summer tiles first)."""
    laid = sum(1 for t in summer if t is not None)
    return [t for t in map(token_of, dealt[laid:]) if t is not None]
