"""The coverage map (docs/conformance.md#coverage): for every rule of a game's engine contract that
the protocol observes, the published vectors that catch an engine breaking that rule when the runner
checks them at `PERFT_DEPTH` (replays whole, perft counts to depth 2).

Each game's suite names its rules (``CONTRACT``: section, rule, text); the map is
``coverage.json`` beside the game's vectors. The tests make it (tests/conformance/coverage.py: an
engine that breaks each rule, played against every vector) and prove every line of it in CI
(tests/conformance/test_coverage.py). Nothing here names a game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import vectors

__all__ = ["FILE", "PERFT_DEPTH", "load", "markdown", "path", "rule_vectors", "rules", "write"]

FILE = "coverage.json"
PERFT_DEPTH = 2
"""The perft depth the map is proven at: an engine too slow for depth 3 still meets every rule."""


def path(game_id: str, version: str = vectors.VERSION) -> Path:
    return vectors.vector_folder(game_id, version) / FILE


def rules(game_id: str) -> list[tuple[str, str, str]]:
    """(section, rule, text) of every rule of the game's contract, from its suite."""
    contract = getattr(vectors.suite(game_id), "CONTRACT", ())  # a game may publish vectors without a map
    return [(str(section), str(rule), str(text)) for section, rule, text in contract]


def load(game_id: str, version: str = vectors.VERSION) -> dict[str, Any]:
    """The game's published map: ``{"game", "version", "perft_depth", "rules": [{"section",
    "rule", "text", "vectors": [{"kind", "name", "where", "what", "depth"}]}]}`` (``depth``, for a
    perft vector caught by a wrong count: the depth of that count; else caught on the way to its
    position)."""
    found: dict[str, Any] = json.loads(path(game_id, version).read_text())
    return found


def rule_vectors(game_id: str, rule: str) -> list[tuple[str, str]]:
    """(kind, name) of the vectors the map names for `rule` (KeyError for a rule it lacks)."""
    for row in load(game_id)["rules"]:
        if row["rule"] == rule:
            return [(v["kind"], v["name"]) for v in row["vectors"]]
    raise KeyError(f"{game_id} has no rule {rule!r}; its rules: {', '.join(r for _, r, _ in rules(game_id))}")


def write(game_id: str, caught: dict[str, list[dict[str, Any]]]) -> Path:
    """Write the game's map: its contract's rules in order, each with the vectors in `caught`."""
    out = {
        "game": game_id,
        "version": int(vectors.VERSION[1:]),
        "perft_depth": PERFT_DEPTH,
        "rules": [
            {"section": section, "rule": rule, "text": text, "vectors": caught.get(rule, [])}
            for section, rule, text in rules(game_id)
        ],
    }
    target = path(game_id)
    target.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    return target


def _caught(v: dict[str, Any]) -> str:
    if v["kind"] == "replay":
        return f"replay `{v['name']}` ({v['what']})"
    how = f"perft {v['depth']}" if "depth" in v else "its moves"
    return f"perft `{v['name']}` ({how}: {v['what']})"


def markdown(game_ids: list[str] | None = None) -> str:
    """The maps as the tables of docs/conformance.md#coverage."""
    parts = []
    for game_id in game_ids or [g for g in vectors.games_with_vectors() if path(g).exists()]:
        lines = [
            f"**{game_id}**",
            "",
            "| section | rule | what the contract says | caught by (at: what differs) |",
            "|---|---|---|---|",
        ]
        previous = None
        for row in load(game_id)["rules"]:
            section = row["section"] if row["section"] != previous else ""
            previous = row["section"]
            by = ", ".join(_caught(v) for v in row["vectors"]) or "**nothing**"
            lines.append(f"| {section} | `{row['rule']}` | {row['text']} | {by} |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"
