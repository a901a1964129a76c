"""The plugin of tiny_tiles: what the shared layers find through the registry."""

from hunters.plugin import GamePlugin

from .game import NEIGHBOURS, TinyGame

__all__ = ["PLUGIN"]


def value(before: TinyGame, after: TinyGame, seat: int, move) -> float:
    """The greedy bot's one ply: points gained, plus a little for the centre (it gives another turn)
    and for cells beside one's own tiles."""
    gained = after.scores[seat] - before.scores[seat]
    own = sum(1 for n in NEIGHBOURS[move.cell] if after.view()["owner"][n] == seat)
    return gained + (1.5 if move.cell == 4 else 0.0) + 0.1 * own


PLUGIN = GamePlugin(id="tiny_tiles", game=TinyGame, wire="tests.tiny_tiles.wire:Adapter", value=value)
