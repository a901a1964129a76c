"""The plugin of tiny_tiles: what the shared layers find through the registry."""

from hunters.plugin import GamePlugin

from .game import NEIGHBOURS, TinyDuel, TinyGame

__all__ = ["DUEL", "PLUGIN"]


def value(before: TinyGame, after: TinyGame, seat: int, move) -> float:
    """The greedy bot's one ply: points gained, plus a little for the centre (it gives another turn)
    and for cells beside one's own tiles."""
    gained = after.scores[seat] - before.scores[seat]
    own = sum(1 for n in NEIGHBOURS[move.cell] if after.view()["owner"][n] == seat)
    return gained + (1.5 if move.cell == 4 else 0.0) + 0.1 * own


PLUGIN = GamePlugin(id="tiny_tiles", game=TinyGame, wire="tests.tiny_tiles.wire:Adapter", value=value)

DUEL = GamePlugin(id="tiny_tiles_duel", game=TinyDuel, wire="tests.tiny_tiles.wire:Adapter", value=value)
"""The same game for two players only, `tiny_tiles_duel`: what the shared harness (which takes each
game's player range from its `GameInfo`) runs to show a game need not seat three."""
