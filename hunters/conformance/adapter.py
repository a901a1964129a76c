"""Our own engine behind the conformance protocol (hunters.conformance.protocol): the protocol's
example, and what `hunters conformance --engine 'python -m hunters.conformance.adapter'` checks
clean. It plays every registered game; another engine's adapter does the same in its own language.

`Adapter` keeps one current game; a subclass may change what it answers (the runner's tests use
deliberately broken ones)."""

from __future__ import annotations

import sys
from typing import Any

import hunters
from hunters.game_base import AnyGame
from hunters.perft import chance_root, perft

from .protocol import PROTOCOL, serve
from .vectors import event_json, move_json

__all__ = ["Adapter", "main"]


class Adapter:
    """Answers protocol requests with the registered games (see the protocol's module docstring)."""

    name = "hunters"

    def __init__(self) -> None:
        self.game: AnyGame | None = None

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        method = getattr(self, f"op_{op}", None)
        if method is None:
            raise ValueError(f"unknown op {op!r}")
        answer: dict[str, Any] = method(request)
        return answer

    def current(self) -> AnyGame:
        if self.game is None:
            raise ValueError("no game: send 'new' first")
        return self.game

    def position(self) -> dict[str, Any]:
        game = self.current()
        out = {"player": game.player, "over": game.is_over, "scores": list(game.scores)}
        if game.is_over:
            out["winners"] = list(game.winners)
        return out

    def op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"engine": self.name, "protocol": PROTOCOL, "games": hunters.games.ids()}

    def op_new(self, request: dict[str, Any]) -> dict[str, Any]:
        record = request["record"]
        self.game = hunters.games.get(record["game"]).from_record(record)
        return {**self.position(), "events": [event_json(e) for e in self.game.events]}

    def legal(self) -> list[Any]:
        """The current position's legal moves as JSON."""
        return [move_json(m) for m in self.current().legal_moves()]

    def op_legal(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"moves": self.legal()}

    def play(self, move: Any) -> list[Any]:
        """Play a move given as JSON; its events as JSON."""
        game = self.current()
        return [event_json(e) for e in game.play(type(game).move_from_json(move))]

    def op_play(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"events": self.play(request["move"]), **self.position()}

    def op_perft(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self.current()
        depth, chance = int(request["depth"]), bool(request.get("chance", False))
        if not request.get("divide"):
            return {"count": perft(game, depth, chance=chance)}
        rows = perft(game, depth, divide=True, chance=chance)
        pending = chance_root(game, chance).player == -1
        key = "outcome" if pending else "move"
        return {"divide": [{key: move_json(k), "count": n} for k, n in rows]}


def main(adapter: Adapter | None = None) -> int:
    """Serve the protocol on stdin/stdout (``python -m hunters.conformance.adapter``)."""
    return serve(adapter or Adapter())


if __name__ == "__main__":
    sys.exit(main())
