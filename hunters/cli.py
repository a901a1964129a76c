"""The `hunters` command: serve, simulate, replay and bench games from the shell."""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Sequence


def _module(game_id: str):
    """The API package of a registered game."""
    import importlib

    from hunters import GAMES

    if game_id not in GAMES:
        raise SystemExit(f"unknown game {game_id!r}; registered: {', '.join(sorted(GAMES))}")
    return importlib.import_module(GAMES[game_id])


def _points_by_kind(game, players: int) -> dict[str, list[int]]:
    """carcassonne_hg: points per score-event reason; jaeger_sammler: the final-scoring parts."""
    if hasattr(game, "score_breakdown"):
        parts = game.score_breakdown()
        return {k: [p[k] for p in parts] for k in parts[0] if k != "total"}
    by_reason: dict[str, list[int]] = {}
    for e in game.events:
        for seat in e.seats:
            by_reason.setdefault(e.reason, [0] * players)[seat] += e.points
    return by_reason


def _simulate(args: argparse.Namespace) -> int:
    module = _module(args.game)
    rng = random.Random(args.seed)
    game = module.Game.new(players=args.players, seed=args.seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    if args.record:
        with open(args.record, "w", encoding="utf-8") as fh:
            json.dump(game.to_record(), fh)
    if args.json:
        print(json.dumps({"game": args.game, "seed": args.seed, "players": args.players, "moves": len(game.moves),
                          "scores": game.scores, "winners": game.winners,
                          "events": [e._asdict() for e in game.events]}))
        return 0
    print(f"{args.game}: {args.players} random players, seed {args.seed}")
    print(f"  {len(game.moves)} moves, {len(game.events)} events")
    for kind, pts in sorted(_points_by_kind(game, args.players).items()):
        print(f"  {kind:<13} " + "  ".join(f"seat {p}: {v:>3}" for p, v in enumerate(pts)))
    print("  scores        " + "  ".join(f"seat {p}: {v:>3}" for p, v in enumerate(game.scores)))
    print("  winner" + ("s" if len(game.winners) > 1 else "") + ": " + ", ".join(f"seat {w}" for w in game.winners))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from hunters.errors import InvalidRecordError

    with open(args.record, encoding="utf-8") as fh:
        record = json.load(fh)
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        print("invalid record: no game id", file=sys.stderr)
        return 1
    try:
        game = _module(record["game"]).Game.from_record(record)
    except InvalidRecordError as exc:
        print(f"invalid record: {exc}", file=sys.stderr)
        return 1
    print(repr(game))
    return 0


def _bench(args: argparse.Namespace) -> int:
    module = _module(args.game)
    t0 = time.perf_counter()
    res = module.random_games(args.games, players=args.players, seed=args.seed)
    core = args.games / (time.perf_counter() - t0)
    n_py = max(1, args.games // 20)
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    for i in range(n_py):
        game = module.Game.new(players=args.players, seed=args.seed + i)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
    py = n_py / (time.perf_counter() - t0)
    print(f"{args.game} core: {core:,.0f} random {args.players}-player games/s "
          f"({res.decisions / max(1, res.games):.1f} moves/game)")
    print(f"{args.game} python-driven: {py:,.0f} games/s")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from hunters.service.command import run

    return run(args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hunters", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    srv = sub.add_parser("serve", help="run the gRPC server (matches, oracle, simulation)")
    from hunters.service.command import add_arguments

    add_arguments(srv)
    srv.set_defaults(func=_serve)
    sim = sub.add_parser("simulate", help="play one seeded game between random players and print the result")
    sim.add_argument("--game", default="carcassonne_hg", help="game id (carcassonne_hg, jaeger_sammler)")
    sim.add_argument("--players", type=int, default=3, choices=range(2, 6))
    sim.add_argument("--seed", type=int, default=7)
    sim.add_argument("--json", action="store_true", help="print the result as JSON")
    sim.add_argument("--record", help="also write the game record (JSON) to this file")
    sim.set_defaults(func=_simulate)
    rep = sub.add_parser("replay", help="replay a JSON game record and print the final state")
    rep.add_argument("record")
    rep.set_defaults(func=_replay)
    ben = sub.add_parser("bench", help="quick throughput figures (the real benchmarks live in bench/)")
    ben.add_argument("--game", default="carcassonne_hg")
    ben.add_argument("--games", type=int, default=2000)
    ben.add_argument("--players", type=int, default=2, choices=range(2, 6))
    ben.add_argument("--seed", type=int, default=1)
    ben.set_defaults(func=_bench)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
