"""Engines with one rule broken on purpose, to prove the coverage map (docs/conformance.md#coverage).

Each game has a reference engine behind the conformance protocol: its reference oracle
(tests/reference/, written from the rules, sharing no code with the cores) answering `hello`,
`new`, `legal`, `play` and `perft`. That engine with every rule as the contract says is the
*control*: it passes the runner clean. A *mutant* is the same engine with exactly one rule of the
engine contract mis-implemented (a subclass of the oracle that changes that rule and nothing else),
registered under the rule's name in the map. A mutant, not a wrapper around our core: a broken rule
leads to positions our core never reaches (a second extra turn, a season that goes on), which only
an engine of its own can play on.

`python -m tests.conformance.mutants GAME RULE` serves one over stdin/stdout (`control` for the
control), so `hunters conformance --engine` can be pointed at it like at any other engine;
`LocalEngine` runs one in this process for the tests."""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from typing import Any

from hunters.conformance.protocol import PROTOCOL, EngineFault, serve

__all__ = ["CONTROL", "LocalEngine", "RefEngine", "engine", "mutant_names"]

CONTROL = "control"


class RefEngine:
    """The protocol over one reference game: `start(record)` makes the game of a record's
    configuration, and the game JSON of moves and events is translated here. Subclasses say how
    for their game; a mutant swaps `game_class` for the oracle with one rule changed."""

    game_id = ""
    game_class: Any = None

    def __init__(self) -> None:
        self.game: Any = None

    # -- what a game's engine says ------------------------------------------------------------
    def start(self, record: dict[str, Any]) -> Any:
        raise NotImplementedError

    def move_to_ref(self, move: Any) -> Any:
        raise NotImplementedError

    def move_json(self, move: Any) -> Any:
        raise NotImplementedError

    def event_json(self, event: Any) -> Any:
        raise NotImplementedError

    def position(self) -> dict[str, Any]:
        raise NotImplementedError

    def is_over(self, game: Any) -> bool:
        raise NotImplementedError

    def play_ref(self, game: Any, move: Any) -> None:
        game.play(move)

    def clone(self, game: Any) -> Any:
        return copy.deepcopy(game)

    # -- the protocol -------------------------------------------------------------------------
    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        method = getattr(self, f"op_{request.get('op')}", None)
        if method is None:
            raise ValueError(f"unknown op {request.get('op')!r}")
        answer: dict[str, Any] = method(request)
        return answer

    def op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"engine": type(self).__name__, "protocol": PROTOCOL, "games": [self.game_id]}

    def _legal(self, game: Any) -> list[Any]:
        return [] if self.is_over(game) else sorted(game.legal_moves(), key=repr)

    def _checked(self, move: Any) -> Any:
        ref = self.move_to_ref(move)
        if ref not in self._legal(self.game):
            raise ValueError(f"illegal move {move}")
        return ref

    def op_new(self, request: dict[str, Any]) -> dict[str, Any]:
        record = request["record"]
        if record.get("game") != self.game_id:
            raise ValueError(f"not a {self.game_id} record")
        self.game = self.start(record)
        for move in record.get("moves", []):
            self.play_ref(self.game, self._checked(move))
        return {**self.position(), "events": [self.event_json(e) for e in self.game.events]}

    def op_legal(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"moves": [self.move_json(m) for m in self._legal(self.game)]}

    def op_play(self, request: dict[str, Any]) -> dict[str, Any]:
        move = self._checked(request["move"])
        before = len(self.game.events)
        self.play_ref(self.game, move)
        return {"events": [self.event_json(e) for e in self.game.events[before:]], **self.position()}

    def _count(self, game: Any, depth: int) -> int:
        if self.is_over(game):
            return 1 if depth == 0 else 0
        if depth <= 1:
            return 1 if depth == 0 else len(self._legal(game))
        total = 0
        for move in self._legal(game):
            child = self.clone(game)
            self.play_ref(child, move)
            total += self._count(child, depth - 1)
        return total

    def op_perft(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("chance"):
            raise ValueError("the reference engines have no chance mode")
        depth = int(request["depth"])
        if not request.get("divide"):
            return {"count": self._count(self.game, depth)}
        rows = []
        for move in self._legal(self.game):
            child = self.clone(self.game)
            self.play_ref(child, move)
            rows.append({"move": self.move_json(move), "count": self._count(child, depth - 1)})
        return {"divide": rows}


class LocalEngine:
    """A protocol handler in this process, with the `request` of `hunters.conformance.protocol.Engine`
    (a refusal is an EngineFault of kind ``refused``; an exception of the handler one of kind
    ``crash``), for the runner's tests: no child process per mutant."""

    def __init__(self, handler: Callable[[dict[str, Any]], dict[str, Any]]):
        self.handler = handler
        self._next = 0

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        self._next += 1
        try:
            answer = self.handler({"id": self._next, "op": op, **fields})
        except (ValueError, KeyError) as exc:
            raise EngineFault("refused", f"{op!r} refused: {type(exc).__name__}: {exc}") from None
        except Exception as exc:
            raise EngineFault("crash", f"{op!r}: {type(exc).__name__}: {exc}") from None
        return {"id": self._next, "ok": True, **answer}

    def close(self) -> None:
        pass


def _games() -> dict[str, Any]:
    from . import carcassonne, jaeger

    return {carcassonne.GAME: carcassonne, jaeger.GAME: jaeger}


def mutant_names(game_id: str) -> list[str]:
    """The rules that have a mutant (the coverage map's rules: tests/conformance/test_coverage.py)."""
    return list(_games()[game_id].MUTANTS)


def engine(game_id: str, rule: str = CONTROL) -> RefEngine:
    """The reference engine of a game (`control`), or its mutant that breaks `rule`."""
    module = _games()[game_id]
    made: RefEngine = module.engine(rule)
    return made


def main(argv: list[str]) -> int:
    """Serve the protocol with one engine: ``GAME RULE`` (a mutant) or ``GAME control``."""
    if len(argv) != 2:
        print("usage: python -m tests.conformance.mutants GAME RULE|control", file=sys.stderr)
        return 2
    return serve(engine(argv[0], argv[1]))
