"""Helpers of the Jäger und Sammler rule tests (tests/jaeger/test_rules_*.py): tiny boards written as
a line of cells (the board is data), so that each test shows exactly the situation its rule is
about; expected results are worked out by hand from the rules, not computed.

Cells: S summer camp, W winter camp, - an empty tile space, else a tile token (berries, tubers,
herbs, jug, necklace, pelt, skull, weapon, mammoth<value>, path, cave). Space ids are cell positions
(| starts a separate line and takes no id).
"""

import pytest

from hunters.jaeger import Game, IllegalMoveError, Move
from hunters.jaeger.conformance import line_game

CAMPS = {"S": "summer_camp", "W": "winter_camp"}


def line(cells: str, start, *, edges=(), winter=(), stall_rounds=None, **options) -> Game:
    """A game on a board given as text (see the module docstring); `start` lists each seat's spaces,
    `edges` adds adjacencies, `winter` is the winter deck. The stall limit is off unless given."""
    return line_game(cells, start, edges=edges, winter=winter, stall_rounds=stall_rounds, **options)


def mv(*steps) -> Move:
    return Move.of(*steps)


def refused(g: Game, move: Move, reason: str) -> None:
    """The move is refused with `reason` and nothing changes."""
    before = (g.to_record(), g.tiles, g.characters, g.scores, g.player, g.events)
    with pytest.raises(IllegalMoveError) as exc:
        g.play(move)
    assert exc.value.reason == reason, exc.value
    assert (g.to_record(), g.tiles, g.characters, g.scores, g.player, g.events) == before
    assert move not in g.legal_moves()


def kinds(events, *names):
    """(kind, seat, space, tile) of the events of the given kinds; by default of the steps' events."""
    return [(e.kind, e.seat, e.space, e.tile) for e in events if (e.kind in names if names else e.step is not None)]


# Seat 1 parks on a pair of camps ("| S S" at the end of a board) and shuttles between them.
def shuttle(g: Game, a: int, b: int) -> None:
    here = [v for s, v in g.characters if s == g.player][0]
    other = b if here == a else a
    g.play(mv((here, other), (other, here)))
