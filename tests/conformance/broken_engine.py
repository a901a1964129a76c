"""Deliberately broken engines for the conformance runner's tests: our adapter with one fault
(``python -m tests.conformance.broken_engine FAULT``):

- ``drop-retakes``: a missing rule: no move of carcassonne_hg takes a meeple back with the shaman
  (its legal moves and its perft to depth 2 leave them out);
- ``wrong-score``: seat 0's final score is one too many;
- ``crash``: the process dies at its 40th move;
- ``hang``: the 30th request for legal moves never gets an answer;
- ``garbled``: the 10th answer is not JSON."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from hunters.conformance.adapter import Adapter
from hunters.conformance.protocol import serve


class Broken(Adapter):
    name = "broken"

    def __init__(self, fault: str):
        super().__init__()
        self.fault = fault
        self.plays = self.listings = 0

    def legal(self) -> list[Any]:
        self.listings += 1
        if self.fault == "hang" and self.listings == 30:
            time.sleep(3600)
        moves = super().legal()
        if self.fault == "drop-retakes":
            moves = [m for m in moves if not (isinstance(m, dict) and m.get("retake") is not None)]
        return moves

    def play(self, move: Any) -> list[Any]:
        self.plays += 1
        if self.fault == "crash" and self.plays == 40:
            print("broken engine: giving up at move 40", file=sys.stderr, flush=True)
            os._exit(3)
        return super().play(move)

    def position(self) -> dict[str, Any]:
        out = super().position()
        if self.fault == "wrong-score" and out["over"]:
            out["scores"] = [out["scores"][0] + 1, *out["scores"][1:]]
        return out

    def op_perft(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.fault != "drop-retakes" or request.get("chance") or int(request["depth"]) > 2:
            return super().op_perft(request)  # deeper counts from the core: a lazy engine, still wrong below
        game = self.current()
        depth = int(request["depth"])

        def count(d: int) -> int:  # naive enumeration over this engine's own (faulty) legal moves
            if self.current().is_over:
                return 1 if d == 0 else 0
            if d == 0:
                return 1
            moves = self.legal()
            if d == 1:
                return len(moves)
            total, here = 0, self.current()
            for m in moves:
                self.game = here.clone()
                super(Broken, self).play(m)
                total += count(d - 1)
            self.game = here
            return total

        if not request.get("divide"):
            result = count(depth)
            self.game = game
            return {"count": result}
        rows = []
        for m in self.legal():
            self.game = game.clone()
            super().play(m)
            rows.append({"move": m, "count": count(depth - 1)})
        self.game = game
        return {"divide": rows}


class Garbled(Broken):
    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        self.listings += 1
        if self.listings == 10:
            sys.stdout.write("this is not JSON\n")
            sys.stdout.flush()
            time.sleep(0.2)
        return super().__call__(request)


if __name__ == "__main__":
    fault = sys.argv[1]
    sys.exit(serve(Garbled(fault) if fault == "garbled" else Broken(fault)))
