"""Making the coverage map (hunters/conformance/coverage.py) from the mutants:

    python -m tests.conformance.coverage GAME [RULE ...] [--write]

For each rule (default: every rule of the game's contract), the runner at perft depth 2 plays the
rule's mutant (tests/conformance/mutants/) on each vector the reference engines can play, alone,
and prints the vectors that catch it. `--write` keeps the cheapest few per rule (a perft vector and
a replay where both catch it) in the game's coverage.json and renders docs/conformance.md's tables
again. After `hunters conformance --generate` changes the vectors, run it for every game."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from hunters.conformance import coverage, vectors
from hunters.conformance.runner import Divergence, Runner

from . import mutants
from .mutants import LocalEngine

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "conformance.md"
BEGIN, END = "<!-- coverage map: made by python -m tests.conformance.coverage -->", "<!-- end of the coverage map -->"
KEEP = 3  # vectors kept per rule


def checkable(game_id: str) -> list[tuple[str, str]]:
    """(kind, name) of the vectors the reference engines can play: every replay, and the perft
    vectors outside chance mode (the oracles have none)."""
    return [(v["type"], v["name"]) for v in vectors.load(game_id) if not v.get("chance")]


def run(game_id: str, rule: str, only: list[tuple[str, str]]) -> tuple[Runner, Divergence | None]:
    """The runner at the map's perft depth, no random games, on the vectors `only`, against the
    game's engine that breaks `rule` (``control``: none)."""
    runner = Runner(
        LocalEngine(mutants.engine(game_id, rule)),
        [game_id],
        random_games=0,
        perft_depth=coverage.PERFT_DEPTH,
        progress=False,
        only={(game_id, kind, name) for kind, name in only},
    )
    return runner, runner.run()


def _cost(game_id: str, found: Divergence, kind: str, name: str) -> int:
    """A stable measure of what finding it costs: the decisions played to the position, plus for a
    wrong count the positions the engine plays to make it (its first line: ``perft D: ...``)."""
    counted = re.match(r"perft (\d+): ", found.diff[0]) if found.diff else None
    if kind == "perft" and counted:
        vector = next(v for v in vectors.load(game_id, "perft") if v["name"] == name)
        return len(vector["record"].get("moves", [])) + vector["counts"][int(counted.group(1)) - 1]
    return len(found.record.get("moves") or [])


def entry(kind: str, name: str, found: Divergence) -> dict[str, Any]:
    """A line of the map: the vector, where and what the runner found, and for a wrong count the
    depth of the first one."""
    out: dict[str, Any] = {"kind": kind, "name": name, "where": found.where, "what": found.what}
    counted = re.match(r"perft (\d+): ", found.diff[0]) if found.diff else None
    direct = re.search(r", depth (\d+)$", found.where)
    if kind == "perft" and (counted or direct):
        out["depth"] = int((counted or direct).group(1))  # type: ignore[union-attr]
    return out


def catching(game_id: str, rule: str) -> list[dict[str, Any]]:
    """Every vector that catches the rule's mutant, cheapest first, with where and what."""
    found = []
    for kind, name in checkable(game_id):
        _, divergence = run(game_id, rule, [(kind, name)])
        if divergence is not None:
            found.append({**entry(kind, name, divergence), "cost": _cost(game_id, divergence, kind, name)})
    return sorted(found, key=lambda c: (c["cost"], c["kind"], c["name"]))


def keep(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cheapest perft vector that catches it (by its counts rather than on the way to its
    position, where one does), the cheapest replay, then the next cheapest."""
    perft = [c for c in found if c["kind"] == "perft"]
    counted = [c for c in perft if "depth" in c]
    kept = (counted or perft)[:1] + [c for c in found if c["kind"] == "replay"][:1]
    kept += [c for c in found if c not in kept][: KEEP - len(kept)]
    order = {id(c): i for i, c in enumerate(found)}
    return [{k: v for k, v in c.items() if k != "cost"} for c in sorted(kept, key=lambda c: order[id(c)])]


def render_docs() -> None:
    text = DOCS.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOCS.write_text(text[:start] + "\n\n" + coverage.markdown() + "\n" + text[end:])


def refresh(game_id: str) -> int:
    """Play each vector the map names against its rule's mutant again and write where and what."""
    kept: dict[str, list[dict[str, Any]]] = {}
    for row in coverage.load(game_id)["rules"]:
        kept[row["rule"]] = []
        for v in row["vectors"]:
            _, found = run(game_id, row["rule"], [(v["kind"], v["name"])])
            if found is None:
                print(f"{row['rule']}: {v['kind']} {v['name']} no longer catches it: run without --refresh")
                return 1
            kept[row["rule"]].append(entry(v["kind"], v["name"], found))
    print(f"wrote {coverage.write(game_id, kept)}")
    render_docs()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.conformance.coverage")
    parser.add_argument("game")
    parser.add_argument("rules", nargs="*")
    parser.add_argument("--write", action="store_true", help="write the game's coverage.json and the docs' tables")
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="no search: play the vectors the map names again and write what is found there (after the runner's "
        "words change)",
    )
    args = parser.parse_args(argv)
    if args.refresh:
        return refresh(args.game)
    names = [rule for _, rule, _ in coverage.rules(args.game)]
    chosen = args.rules or names
    kept: dict[str, list[dict[str, Any]]] = {}
    if args.write and args.rules:  # the other rules keep what the map has
        kept = {row["rule"]: row["vectors"] for row in coverage.load(args.game)["rules"]}
    for rule in chosen:
        found = catching(args.game, rule)
        kept[rule] = keep(found)
        shown = ", ".join(f"{c['kind']}:{c['name']} ({c['what']}, cost {c['cost']})" for c in found)
        print(f"{rule}: {shown or 'NOT COVERED'}", flush=True)
    if args.write:
        print(f"wrote {coverage.write(args.game, kept)}")
        render_docs()
    return 0


if __name__ == "__main__":
    sys.exit(main())
