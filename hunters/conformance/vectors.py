"""Conformance vectors (docs/conformance.md): JSON lines any program can read, one folder per
version in each game's package (its plugin's ``conformance`` suite names the folder).

Two kinds of line, both described by ``vector.schema.json`` beside this module:

- ``perft``: a position (a record: configuration, explicit piles or layouts, moves so far), whether
  chance mode is meant, the counts at depths 0 to ``depth``, and the divide of the deepest depth;
- ``replay``: a whole game: every decision's seat, legal-move count, move, events and scores, and
  the final scores; ``covers`` names the rules it exercises (the suite's `covered`).

`generate` makes them from the engine (the game's own perft and play); `write` puts them in the
package; `load` reads them back."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hunters
from hunters.game_base import AnyGame
from hunters.perft import chance_root, perft

__all__ = [
    "FILES",
    "SCHEMA",
    "VERSION",
    "event_json",
    "games_with_vectors",
    "generate",
    "load",
    "move_json",
    "suite",
    "vector_folder",
    "write",
]

VERSION = "v1"
"""The format version written; a folder of that name holds each game's files."""
FILES = ("perft.jsonl", "replays.jsonl")
SCHEMA = Path(__file__).resolve().parent / "vector.schema.json"
"""The JSON Schema (draft 2020-12) of one line of either file."""


def _plain(value: Any) -> Any:
    """JSON-ready data (tuples become lists) exactly as a reader of the JSON gets it."""
    return json.loads(json.dumps(value))


def move_json(move: Any) -> Any:
    """A move (or a chance outcome) as its records carry it."""
    return _plain(move.to_json() if hasattr(move, "to_json") else move)


def event_json(event: Any) -> Any:
    """An event as JSON data: a named tuple's fields by name, else the event itself."""
    return _plain(event._asdict() if hasattr(event, "_asdict") else event)


def suite(game_id: str) -> Any:
    """The game's conformance suite (its plugin's ``conformance``), or None."""
    return hunters.games.plugin(game_id).conformance_suite


def games_with_vectors() -> list[str]:
    """Registered games whose plugin has a conformance suite."""
    return [g for g in hunters.games.ids() if suite(g) is not None]


def vector_folder(game_id: str, version: str = VERSION) -> Path:
    found = suite(game_id)
    if found is None:
        raise KeyError(f"{game_id} publishes no conformance vectors")
    return Path(found.VECTORS) / version


def load(game_id: str, kind: str | None = None, version: str = VERSION) -> list[dict[str, Any]]:
    """The published vectors of a game (``kind``: "perft" or "replay" only), in file order."""
    out: list[dict[str, Any]] = []
    for name in FILES:
        path = vector_folder(game_id, version) / name
        if path.exists():
            out += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [v for v in out if kind is None or v["type"] == kind]


def _header(kind: str, game_id: str, scenario: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": kind,
        "version": int(VERSION[1:]),
        "game": game_id,
        "name": scenario["name"],
        "description": scenario["description"],
    }


def perft_vector(cls: type[AnyGame], scenario: dict[str, Any]) -> dict[str, Any]:
    """Counts at depths 0..depth and the divide at `depth` of the scenario's position."""
    game = cls.from_record(scenario["record"])
    depth, chance = scenario["depth"], scenario.get("chance", False)
    key = "outcome" if chance_root(game, chance).player == -1 else "move"
    return {
        **_header("perft", cls.INFO.id, scenario),
        "record": _plain(scenario["record"]),
        "chance": chance,
        "depth": depth,
        "counts": [perft(game, d, chance=chance) for d in range(depth + 1)],
        "divide": [{key: move_json(k), "count": n} for k, n in perft(game, depth, divide=True, chance=chance)],
    }


def replay_vector(cls: type[AnyGame], found: Any, scenario: dict[str, Any]) -> dict[str, Any]:
    """The scenario's record played move by move, then seeded random moves to the game's end
    (``random.Random(seed).choice(legal_moves())``), every decision recorded."""
    record = scenario["record"]
    game = cls.from_record(dict(record, moves=[]))
    setup = [event_json(e) for e in game.events]
    given = [cls.move_from_json(m) for m in record.get("moves", [])]
    rng = random.Random(scenario.get("seed", 0))
    steps: list[dict[str, Any]] = []
    while not game.is_over:
        legal = game.legal_moves()
        step = {"player": game.player, "legal": len(legal), "info": _plain(found.step_info(game))}
        move = given[len(steps)] if len(steps) < len(given) else rng.choice(list(legal))
        step["move"] = move_json(move)
        step["events"] = [event_json(e) for e in game.play(move)]
        step["scores"] = list(game.scores)
        steps.append(step)
    vector = {
        **_header("replay", cls.INFO.id, scenario),
        "record": _plain(game.to_record()),
        "setup_events": setup,
        "steps": steps,
        "final": {
            "over": game.is_over,
            "scores": list(game.scores),
            "winners": list(game.winners),
            "info": _plain(found.step_info(game)),
        },
    }
    vector["covers"] = sorted(found.covered(vector))
    return vector


def generate(game_id: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(file name, vector) of every scenario of the game's suite, made by the engine."""
    found = suite(game_id)
    if found is None:
        raise KeyError(f"{game_id} publishes no conformance vectors")
    cls = hunters.games.get(game_id)
    for scenario in found.scenarios():
        if scenario["type"] == "perft":
            yield "perft.jsonl", perft_vector(cls, scenario)
        else:
            yield "replays.jsonl", replay_vector(cls, found, scenario)


def dumps(vector: dict[str, Any]) -> str:
    """One line of a vector file."""
    return json.dumps(vector, separators=(",", ":"), ensure_ascii=False)


def write(game_id: str, folder: Path | None = None) -> dict[str, int]:
    """Generate the game's vectors into `folder` (default: the package's current version folder);
    returns the lines written per file."""
    folder = folder or vector_folder(game_id)
    folder.mkdir(parents=True, exist_ok=True)
    lines: dict[str, list[str]] = {name: [] for name in FILES}
    for name, vector in generate(game_id):
        lines[name].append(dumps(vector))
    for name, rows in lines.items():
        (folder / name).write_text("".join(row + "\n" for row in rows))
    return {name: len(rows) for name, rows in lines.items()}
