"""tiny_tiles on the wire: the contract's generic JSON messages (moves, events and views as JSON), and
the rebuild of a game from its public history for `hunters play`."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from hunters.wire import GameAdapter, RemoteError

from .game import KINDS, TinyGame

__all__ = ["Adapter"]


class Adapter(GameAdapter):
    """The generic adapter, with a rebuild (the pile's drawn tiles as each state's hand showed them,
    the undrawn rest in kind order) and words for the viewer's log."""

    def rebuild(self, players: int, options: dict[str, Any], states: Sequence[Any], moves: Sequence[Any]) -> TinyGame:
        views = [json.loads(st.json) for st in states]
        drawn = [v["hand"] for v in views if v["hand"] >= 0]
        rest = list(KINDS)
        for kind in drawn:
            rest.remove(kind)
        game = self.Game.new(players=players, seed=0, pile=drawn + rest, **options)
        for m in moves:
            game.play(m)
        if game.view()["owner"] != views[-1]["owner"]:
            raise RemoteError("the rebuilt game does not match the server's state")
        return game

    def describe_move(self, move: Any) -> str:
        return f"a tile on cell {move.cell}"

    def describe_event(self, event: Any, seat_name: Callable[[int], str]) -> str:
        return f"{seat_name(event.seat)} +{event.points} on cell {event.cell}"
