"""The `hunters` command: serve, simulate, replay, perft, render and bench games from the shell.

Every game subcommand works for every registered game through the game contract
(`hunters.game_base.GameBase`): nothing here knows a game's rules.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

import hunters
from hunters.address import DEFAULT_PORT, server_address_argument
from hunters.errors import InvalidRecordError
from hunters.game_base import AnyGame
from hunters.perft import perft
from hunters.recordfile import BadRecordFile, read_record
from hunters.scale import ScaleError
from hunters.simulate import random_games


class _Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """--help names each option's default, unless it has none (None, a flag's False) or its text
    already says what it is."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or action.default in (None, False, argparse.SUPPRESS):
            return text
        return super()._get_help_string(action)


_ADDRESS_FORMS = f"HOST:PORT, [IPv6]:PORT, or HOST alone for the default port {DEFAULT_PORT}"

_RAY_HELP = (
    "spread the games over the Ray cluster at ADDRESS (HOST:PORT of its head, or auto for the one "
    "`ray start` runs here; needs hunters-engine[ray]): the same results as a local run"
)


def _game_class(parser: argparse.ArgumentParser, game_id: str, players: int | None = None) -> type[AnyGame]:
    """The registered class of `game_id`, with `players` checked against its range (exit 2 if not)."""
    if game_id not in hunters.games:
        parser.error(f"unknown game {game_id!r}; registered: {', '.join(hunters.games.ids())}")
    cls = hunters.games.get(game_id)
    info = cls.INFO
    if players is not None and not info.min_players <= players <= info.max_players:
        parser.error(f"{game_id} is played by {info.min_players} to {info.max_players} players, not {players}")
    return cls


def _random_game(cls: type[AnyGame], players: int, seed: int) -> AnyGame:
    from hunters.simulate import random_game

    return random_game(cls, players, seed)


def _seats(values: Sequence[Any], fmt: str = "{:>9}") -> str:
    return "".join(fmt.format(v) for v in values)


def _simulate(args: argparse.Namespace) -> int:
    cls = _game_class(args.parser, args.game, args.players)
    if args.games < 1:
        args.parser.error("--games must be at least 1")
    if args.record and args.games != 1:
        args.parser.error("--record needs --games 1")
    if args.games == 1:
        return _simulate_one(cls, args)
    if args.workers < 1:
        args.parser.error("--workers must be at least 1")
    n, players = args.games, args.players
    try:
        tally = _simulate_many(args, n, players)
    except ScaleError as exc:
        print(f"hunters simulate: error: {exc}", file=sys.stderr)
        return 2
    moves, wins, totals, kinds = tally.moves, tally.wins, tally.totals, tally.kinds
    result = {
        "game": args.game,
        "games": n,
        "players": players,
        "seed": args.seed,
        "mean_moves": moves / n,
        "win_rates": [w / n for w in wins],
        "mean_scores": [t / n for t in totals],
        "mean_points_by_kind": {k: [v / n for v in pts] for k, pts in kinds.items()},
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"{args.game}: {n} games, {players} random players, seeds {args.seed}..{args.seed + n - 1}, "
        f"{moves / n:.1f} moves per game"
    )
    print(f"  {'':<14}" + _seats([f"seat {p}" for p in range(players)]))
    print(f"  {'win rate':<14}" + _seats([f"{r:.1%}" for r in result["win_rates"]]))
    print(f"  {'mean score':<14}" + _seats([f"{s:.1f}" for s in result["mean_scores"]]))
    for kind, pts in result["mean_points_by_kind"].items():
        print(f"  {kind:<14}" + _seats([f"{v:.1f}" for v in pts]))
    return 0


def _simulate_many(args: argparse.Namespace, n: int, players: int) -> Any:
    """Games 0..n-1 (seed + i) in units of consecutive games, on --workers processes or the --ray
    cluster, tallied in unit order: the same result wherever they ran."""
    from hunters import scale
    from hunters.simulate import Tally, random_games_unit

    pool = scale.executor(args.workers, args.ray)
    size = max(1, min(250, -(-n // (4 * pool.workers))))  # ≥ 4 units per worker, ≤ 0.3 s each
    units = [(args.game, players, args.seed, first, count) for first, count in scale.chunks(n, size)]
    tally = Tally(0, players, wins=[0] * players, totals=[0] * players)
    with pool, tqdm(total=n, desc=args.game, unit="game", disable=args.quiet or None, file=sys.stderr) as bar:
        for part in scale.ordered(pool, random_games_unit, units):
            tally.add(part)
            bar.update(part.games)
    return tally


def _simulate_one(cls: type[AnyGame], args: argparse.Namespace) -> int:
    game = _random_game(cls, args.players, args.seed)
    if args.record:
        with open(args.record, "w", encoding="utf-8") as fh:
            json.dump(game.to_record(), fh)
    if args.json:
        print(
            json.dumps(
                {
                    "game": args.game,
                    "seed": args.seed,
                    "players": args.players,
                    "moves": game.moves_played,
                    "scores": game.scores,
                    "winners": game.winners,
                    "points_by_kind": game.points_by_kind(),
                    "events": [e._asdict() for e in game.events],
                }
            )
        )
        return 0
    print(f"{args.game}: {args.players} random players, seed {args.seed}")
    print(game.summary())
    return 0


def _replay(args: argparse.Namespace) -> int:
    def fail(message: str) -> int:
        print(f"hunters replay: {args.record}: {message}", file=sys.stderr)
        return 2

    try:
        record = read_record(args.record)
    except BadRecordFile as exc:
        return fail(str(exc))
    cls = hunters.games.get(record["game"])
    moves = record.get("moves", [])
    if args.at is not None:
        if not isinstance(moves, list) or not 0 <= args.at <= len(moves):
            return fail(f"--at must be 0..{len(moves) if isinstance(moves, list) else 0}")
        record = dict(record, moves=moves[: args.at])
    try:
        game = cls.from_record(record)
    except InvalidRecordError as exc:
        return fail(f"invalid record: {exc}")
    print(game.summary())
    return 0


def _perft(args: argparse.Namespace) -> int:
    def fail(message: str) -> int:
        print(f"hunters perft: {args.record}: {message}", file=sys.stderr)
        return 2

    try:
        record = read_record(args.record)
    except BadRecordFile as exc:
        return fail(str(exc))
    if not 0 <= args.depth <= 64:
        return fail("--depth must be 0..64")
    try:
        game = hunters.games.get(record["game"]).from_record(record)
    except InvalidRecordError as exc:
        return fail(f"invalid record: {exc}")
    try:
        if args.divide:
            rows = perft(game, args.depth, divide=True, chance=args.chance)
            for key, count in rows:
                shown = key.to_json() if hasattr(key, "to_json") else key
                print(f"{json.dumps(shown, separators=(',', ':'))} {count}")
            print(f"total {sum(count for _, count in rows)}")
        else:
            print(perft(game, args.depth, chance=args.chance))
    except ValueError as exc:
        return fail(str(exc))
    return 0


def _conformance(args: argparse.Namespace) -> int:
    from hunters.conformance import vectors

    def fail(message: str) -> int:
        print(f"hunters conformance: {message}", file=sys.stderr)
        return 2

    games = args.game or vectors.games_with_vectors()
    for game_id in games:
        if game_id not in hunters.games or vectors.suite(game_id) is None:
            return fail(f"{game_id!r} publishes no conformance vectors; those that do: {vectors.games_with_vectors()}")
    if args.generate:
        for game_id in games:
            folder = Path(args.out) / game_id / vectors.VERSION if args.out else vectors.vector_folder(game_id)
            written = vectors.write(game_id, folder)
            print(f"{game_id}: " + ", ".join(f"{n} {name}" for name, n in written.items()) + f" in {folder}")
        return 0
    if not args.engine:
        return fail("give --engine CMD (the engine to check) or --generate")
    if args.games < 0 or args.perft_depth < 0:
        return fail("--games and --perft-depth must be 0 or more")
    only = None
    if args.rule:
        from hunters.conformance import coverage

        only = set()
        for rule in args.rule:
            having = [g for g in games if rule in {r for _, r, _ in coverage.rules(g)}]
            if not having:
                return fail(
                    f"no rule {rule!r} in the coverage map of {', '.join(games)} (docs/conformance.md#coverage)"
                )
            only |= {(g, kind, name) for g in having for kind, name in coverage.rule_vectors(g, rule)}
        games = [g for g in games if any(o[0] == g for o in only)]
    from hunters.conformance import runner

    return runner.main(
        args.engine,
        games,
        random_games=args.games,
        seed=args.seed,
        timeout=args.timeout,
        perft_depth=args.perft_depth,
        quiet=args.quiet,
        report=args.report,
        only=only,
    )


def _render(args: argparse.Namespace) -> int:
    def fail(message: str) -> int:
        print(f"hunters render: {message}", file=sys.stderr)
        return 2

    try:
        record = read_record(args.record)
    except BadRecordFile as exc:
        return fail(f"{args.record}: {exc}")
    from hunters import pictures

    try:
        picture = pictures.svg(record, at=args.at)
    except (InvalidRecordError, ValueError) as exc:
        return fail(f"{args.record}: {exc}")
    png = args.output.lower().endswith(".png")
    try:
        data = pictures.to_png(picture) if png else picture.encode("utf-8")
    except RuntimeError as exc:
        return fail(str(exc))
    try:
        with open(args.output, "wb") as out:
            out.write(data)
    except OSError as exc:
        return fail(f"{args.output}: {exc.strerror or exc}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    cls = _game_class(args.parser, args.game, args.players)
    if args.games < 1:
        args.parser.error("--games must be at least 1")
    chunk = max(1, args.games // 50)
    decisions = 0
    t0 = time.perf_counter()
    with tqdm(
        total=args.games, desc=f"{args.game} core", unit="game", disable=args.quiet or None, file=sys.stderr
    ) as bar:
        done = 0
        while done < args.games:
            k = min(chunk, args.games - done)
            decisions += random_games(cls, k, players=args.players, seed=args.seed + done).decisions
            done += k
            bar.update(k)
    core = args.games / (time.perf_counter() - t0)
    n_py = max(1, args.games // 20)
    t0 = time.perf_counter()
    for i in tqdm(range(n_py), desc=f"{args.game} python", unit="game", disable=args.quiet or None, file=sys.stderr):
        _random_game(cls, args.players, args.seed + i)
    py = n_py / (time.perf_counter() - t0)
    print(
        f"{args.game} core: {core:,.0f} random {args.players}-player games/s ({decisions / args.games:.1f} moves/game)"
    )
    print(f"{args.game} python-driven: {py:,.0f} games/s")
    return 0


def _pool(args: argparse.Namespace) -> int:
    """`hunters arena --pool FILE...`: one table over earlier runs' games."""
    import statistics

    from hunters.bots.arena import ArenaResult, pooled

    try:
        runs = []
        for name in args.pool:
            with open(name, encoding="utf-8") as fh:
                runs.append(ArenaResult.from_json(json.load(fh)))
        result = pooled(runs)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"hunters arena: error: cannot pool {', '.join(args.pool)}: {exc!r}", file=sys.stderr)
        return 2
    print(result.table())
    print(f"pooled from {len(runs)} runs (seeds {', '.join(str(r.seed) for r in runs)})")
    if len(result.bots) == 2 and result.players == 2:
        margins = result.margins(0, 1)
        sd = statistics.stdev(margins) if len(margins) > 1 else 0.0
        print(f"{result.bots[0]} - {result.bots[1]}: mean margin {statistics.fmean(margins):+.1f} (sd {sd:.1f})")
    _write_arena(args, result)
    return 0


def _write_arena(args: argparse.Namespace, result: Any) -> None:
    """An arena's --json and --csv files, when asked for."""
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result.to_json(), fh, indent=1)
    if args.csv:
        with open(args.csv, "w", encoding="utf-8", newline="") as fh:
            fh.write(result.to_csv())


def _arena(args: argparse.Namespace) -> int:
    from hunters.bots import make_bot
    from hunters.bots.arena import run_arena

    if args.pool:
        return _pool(args)

    _game_class(args.parser, args.game, args.players)
    from hunters.bots.external import is_external

    specs = args.bot or ["mcts", "greedy", "random"]
    for spec in specs:
        try:
            if not is_external(spec):
                make_bot(spec)
        except ValueError as exc:
            args.parser.error(f"--bot {spec!r}: {exc}")
    if args.move_time <= 0:
        args.parser.error("--move-time must be > 0")
    if args.games < 1:
        args.parser.error("--games must be at least 1")
    if args.jobs < 0:
        args.parser.error("--jobs must be >= 0 (0: one per CPU)")
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)

    def bar(stream: Any, total: int) -> Any:
        return tqdm(
            stream, total=total, desc=f"{args.game} arena", unit="game", disable=args.quiet or None, file=sys.stderr
        )

    pool = None
    if args.ray is not None:
        if any(is_external(spec) for spec in specs):
            args.parser.error("--ray plays built-in bots only (external cmd: bots run on this machine)")
        from hunters.scale import connect_ray

        try:
            pool = connect_ray(args.ray)
        except ScaleError as exc:
            print(f"hunters arena: error: {exc}", file=sys.stderr)
            return 2
    try:
        result = run_arena(
            args.game,
            args.players,
            specs,
            args.games,
            jobs=jobs,
            seed=args.seed,
            keep_records=bool(args.records),
            progress=bar,
            address=args.address,
            move_time=args.move_time,
            executor=pool,
        )
    except ValueError as exc:
        args.parser.error(str(exc))
    finally:
        if pool is not None:
            pool.close()
    print(result.table())
    _write_arena(args, result)
    if args.records:
        result.write_records(args.records)
    return 0


def _play(args: argparse.Namespace) -> int:
    from hunters.bots import make_bot
    from hunters.bots.remote import RemoteError, play_match
    from hunters.status import ServiceError

    try:
        bot = make_bot(args.bot)
    except ValueError as exc:
        args.parser.error(f"--bot {args.bot!r}: {exc}")
    log = None if args.quiet else (lambda line: print(line, file=sys.stderr))
    try:
        last = play_match(args.address, args.match, args.token, args.seat, bot, log=log)
    except (RemoteError, ServiceError, ValueError) as exc:
        print(f"hunters play: {exc}", file=sys.stderr)
        return 1
    if last is not None:
        print(
            f"match {args.match}: version {last.version}, "
            + ("over" if last.match_over else "stopped")
            + (f", scores {list(last.state.scores)}, winners {list(last.state.winners)}" if last.match_over else "")
        )
    return 0


def _serve(args: argparse.Namespace) -> int:
    from hunters.service.command import run

    status: int = run(args)
    return status


def _db_check(args: argparse.Namespace) -> int:
    from hunters.service.sqlite_db import integrity

    try:
        problems = integrity(args.db)
    except FileNotFoundError:
        print(f"hunters db check: error: no such file: {args.db}", file=sys.stderr)
        return 2
    if not problems:
        print(f"{args.db}: ok")
        return 0
    print(f"{args.db}: damaged", *(f"  {p}" for p in problems), sep="\n")
    print(
        "Restore it from a backup (the server refuses a damaged file rather than lose moves in it); "
        "`sqlite3 FILE .recover` may save what is left of it.",
        file=sys.stderr,
    )
    return 1


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `hunters` command."""
    from hunters.bots import spec_forms  # the bots' help: every built-in bot and its options

    parser = argparse.ArgumentParser(prog="hunters", description=__doc__, formatter_class=_Formatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {hunters.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    ids = hunters.games.ids()

    srv = sub.add_parser("serve", help="run the gRPC server (matches, oracle, simulation)", formatter_class=_Formatter)
    from hunters.service.command import add_arguments as add_serve_arguments

    add_serve_arguments(srv)
    srv.set_defaults(func=_serve, parser=srv)

    dbp = sub.add_parser("db", help="look after the server's SQLite database", formatter_class=_Formatter)
    dbs = dbp.add_subparsers(dest="db_command", required=True)
    chk = dbs.add_parser(
        "check",
        formatter_class=_Formatter,
        help="check a database file (SQLite's integrity_check, read only); exit 1 when it is damaged",
    )
    chk.add_argument("db", help="the SQLite file (--db of `hunters serve`)")
    chk.set_defaults(func=_db_check, parser=chk)

    sim = sub.add_parser(
        "simulate",
        formatter_class=_Formatter,
        help="play seeded games between random players; print one game or the aggregate of many",
    )
    sim.add_argument("--game", default=ids[0], help="game id (" + ", ".join(ids) + ")")
    sim.add_argument("--players", type=int, default=3, help="number of players (checked against the game's range)")
    sim.add_argument("--seed", type=int, default=7, help="seed of the first game (game i uses seed + i)")
    sim.add_argument("--games", type=int, default=1, help="games to play; more than 1 prints win rates and means")
    sim.add_argument("--json", action="store_true", help="print the result as JSON")
    sim.add_argument("--record", help="also write the game record (JSON) to this file (with --games 1)")
    sim.add_argument("--workers", type=int, default=1, help="local worker processes for --games > 1")
    sim.add_argument("--ray", metavar="ADDRESS", help=_RAY_HELP)
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_simulate, parser=sim)

    rep = sub.add_parser(
        "replay",
        formatter_class=_Formatter,
        help="replay a JSON game record and print the final state (or that after --at moves)",
    )
    rep.add_argument("record", help="path of a record written by `simulate --record` or Game.to_record()")
    rep.add_argument("--at", type=int, default=None, help="show the state after this many moves (default: all)")
    rep.set_defaults(func=_replay, parser=rep)

    prf = sub.add_parser(
        "perft",
        formatter_class=_Formatter,
        help="count the leaves of the game tree DEPTH decisions below a record's position (engine contracts: Perft)",
    )
    prf.add_argument("record", help="path of a JSON game record (as `hunters replay` takes)")
    prf.add_argument("--depth", type=int, required=True, help="decisions below the position")
    prf.add_argument(
        "--divide", action="store_true", help="one line per child of the position (its move as JSON, its count)"
    )
    prf.add_argument(
        "--chance",
        action="store_true",
        help="branch over every outcome of each random draw instead of the record's order",
    )
    prf.set_defaults(func=_perft, parser=prf)

    con = sub.add_parser(
        "conformance",
        formatter_class=_Formatter,
        help="check another engine against the published vectors and seeded games (docs/conformance.md), "
        "or make the vectors again",
    )
    con.add_argument(
        "--engine",
        metavar="CMD",
        help="the engine's command line (run as a child process speaking the JSON-lines protocol on "
        "stdin/stdout), e.g. 'python -m hunters.conformance.adapter'",
    )
    con.add_argument(
        "--game", action="append", help="a game id, repeatable (default: every game that publishes vectors)"
    )
    con.add_argument("--games", type=int, default=50, help="seeded random games per game played against ours")
    con.add_argument("--seed", type=int, default=1, help="seed of the first random game (game i uses seed + i)")
    con.add_argument("--timeout", type=float, default=10.0, help="seconds the engine has for each request")
    con.add_argument("--perft-depth", type=int, default=3, help="deepest perft count asked of the engine")
    con.add_argument(
        "--rule",
        action="append",
        help="a rule of the coverage map, repeatable: only the vectors the map names for it (with --games 0: "
        "nothing else)",
    )
    con.add_argument("--report", help="also write the divergence found (or null) to this JSON file")
    con.add_argument("--quiet", action="store_true", help="no progress bar")
    con.add_argument("--generate", action="store_true", help="make the vectors again from our engine and write them")
    con.add_argument("--out", help="with --generate: write under OUT/<game>/<version>/ instead of the package")
    con.set_defaults(func=_conformance, parser=con)

    ren = sub.add_parser(
        "render",
        formatter_class=_Formatter,
        help="draw a JSON game record as an SVG picture (PNG with the extra hunters-engine[png])",
    )
    ren.add_argument("record", help="path of a record written by `simulate --record` or Game.to_record()")
    ren.add_argument("--at", type=int, default=None, help="draw the state after this many moves (default: all)")
    ren.add_argument("-o", "--output", required=True, help="picture file: .svg, or .png (needs cairosvg)")
    ren.set_defaults(func=_render, parser=ren)

    from hunters.review.command import add_parser as add_review_parser

    add_review_parser(sub, _Formatter)

    ben = sub.add_parser(
        "bench", formatter_class=_Formatter, help="quick throughput figures (the real benchmarks live in bench/)"
    )
    ben.add_argument("--game", default=ids[0], help="game id (" + ", ".join(ids) + ")")
    ben.add_argument("--games", type=int, default=2000, help="random games played in the core")
    ben.add_argument("--players", type=int, default=2, help="number of players")
    ben.add_argument("--seed", type=int, default=1, help="seed of the games")
    ben.add_argument("--quiet", action="store_true", help="no progress bar")
    ben.set_defaults(func=_bench, parser=ben)

    are = sub.add_parser(
        "arena",
        formatter_class=_Formatter,
        help="matches between bots, seats rotated: win rates, mean scores, Elo ratings",
    )
    are.add_argument("--game", default=ids[0], help="game id (" + ", ".join(ids) + ")")
    are.add_argument("--players", type=int, default=2, help="seats per game")
    are.add_argument(
        "--bot",
        action="append",
        metavar="SPEC",
        help=f"a bot, repeatable: {spec_forms()}, or a "
        "program 'cmd:./mybot {address} {match} {token} {seat}' (default: mcts, greedy, random)",
    )
    are.add_argument("--games", type=int, default=60, help="games to play (a multiple of the lineups balances seats)")
    are.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per CPU)")
    are.add_argument("--seed", type=int, default=0, help="game i is dealt with seed + i // lineups")
    are.add_argument("--json", metavar="FILE", help="write the summary and every game's result as JSON")
    are.add_argument("--csv", metavar="FILE", help="write one row per bot as CSV")
    are.add_argument("--records", metavar="DIR", help="write every game's record to DIR/game-<i>.json")
    are.add_argument(
        "--address",
        type=server_address_argument,
        help=f"server for external bots (cmd:...): {_ADDRESS_FORMS}; default: an embedded one",
    )
    are.add_argument("--move-time", type=float, default=10.0, help="seconds an external bot has per move")
    are.add_argument("--ray", metavar="ADDRESS", help=_RAY_HELP.replace("games", "games of built-in bots", 1))
    are.add_argument(
        "--pool",
        nargs="+",
        metavar="FILE",
        help="play nothing: one table over the games of earlier runs' --json files (the same game, seats and bots)",
    )
    are.add_argument("--quiet", action="store_true", help="no progress bar")
    are.set_defaults(func=_arena, parser=are)

    ply = sub.add_parser(
        "play",
        formatter_class=_Formatter,
        help="play one seat of a match on a server with a built-in bot, until the match ends",
    )
    ply.add_argument("--address", type=server_address_argument, required=True, help=f"the server: {_ADDRESS_FORMS}")
    ply.add_argument("--match", required=True, help="match id")
    ply.add_argument("--token", required=True, help="the seat's token")
    ply.add_argument(
        "--seat",
        type=int,
        required=True,
        help="the token's seat (0-based): checked against the seat the server gives the token, before any move",
    )
    ply.add_argument("--bot", default="mcts", help=f"bot spec: {spec_forms()}")
    ply.add_argument("--quiet", action="store_true", help="do not log each move")
    ply.set_defaults(func=_play, parser=ply)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
