"""`hunters review RECORD.json`: the review of a finished match on the command line, a table of its
decisions (the costliest marked), a summary per seat, and optionally the review as JSON and its
plot as SVG (docs/cli.md, docs/review.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

import hunters
from hunters.errors import InvalidRecordError, NotSupportedError
from hunters.recordfile import BadRecordFile, read_record
from hunters.wire import adapter

from .analysis import AnalysisCancelled
from .match import Decision, Review, review_record
from .plot import plot_svg

__all__ = ["add_parser", "format_review"]

WORST = 5
"""The costliest decisions marked in the table and listed after it."""


def add_parser(sub: Any, formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter) -> None:
    """Register the `review` subcommand on the `hunters` command's subparsers `sub`."""
    rev = sub.add_parser(
        "review",
        formatter_class=formatter_class,
        help="review a finished match from its JSON record with the strong bot's search: each decision's "
        "estimate, best move, cost and band (inaccuracy, mistake, blunder)",
    )
    rev.add_argument("record", help="path of a finished match's JSON record (as `hunters replay` takes)")
    rev.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="search iterations a decision (default: the strong bot's default in the game)",
    )
    rev.add_argument("--top", type=int, default=3, help="alternatives kept a decision (in --json)")
    rev.add_argument("--seed", type=int, default=0, help="the search's seed (the same seed, the same review)")
    rev.add_argument("--json", metavar="OUT", help="write the review as JSON to OUT")
    rev.add_argument("--svg", metavar="OUT", help="write the plot of every seat's estimated margin to OUT (SVG)")
    rev.add_argument("--quiet", action="store_true", help="no progress bar")
    rev.set_defaults(func=run, parser=rev)


def run(args: argparse.Namespace) -> int:
    """Run `hunters review` (exit 0; 2 for a record, option or file that cannot be used)."""

    def fail(message: str) -> int:
        print(f"hunters review: {message}", file=sys.stderr)
        return 2

    try:
        record = read_record(args.record)
    except BadRecordFile as exc:
        return fail(f"{args.record}: {exc}")
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=0, unit="decision", desc="review", file=sys.stderr, leave=False)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.update(done - bar.n)

    try:
        review = review_record(record, iterations=args.iterations, seed=args.seed, top=args.top, progress=progress)
    except (InvalidRecordError, NotSupportedError, ValueError) as exc:
        return fail(f"{args.record}: {exc}")
    except (KeyboardInterrupt, AnalysisCancelled):
        return fail("stopped")
    finally:
        if bar is not None:
            bar.close()
    print(format_review(review))
    outputs: list[tuple[str, Callable[[], str]]] = [
        (args.json, lambda: json.dumps(review.to_json(), indent=1)),
        (args.svg, lambda: plot_svg(review)),
    ]
    for path, make in outputs:
        if path:
            try:
                with open(path, "w", encoding="utf-8") as out:
                    out.write(make() + "\n")
            except OSError as exc:
                return fail(f"{path}: {exc.strerror or exc}")
    return 0


def format_review(review: Review) -> str:
    """The review as text: one line a decision (the `WORST` costliest marked ``<<``), the seats'
    summaries and the worst moves."""
    cls = hunters.games.get(review.game)
    words = adapter(review.game).describe_move

    def say(move: Any) -> str:
        return str(words(cls.move_from_json(move)))

    t = review.thresholds
    marked = review.worst(WORST)
    worst = {id(d) for d in marked}
    width = max([len(say(d.played)) for d in review.decisions if d.kind != "chance"] + [6])
    lines = [
        f"Review of a {review.game} match ({review.players} players) by {review.analyst}",
        f"Bands, in points of final margin a move cost: inaccuracy >= {t.inaccuracy:g}, "
        f"mistake >= {t.mistake:g}, blunder >= {t.blunder:g}",
        "",
        f"{'move':>5} {'seat':>4} {'before':>7} {'cost':>6}  {'band':<11} {'':2} {'played':<{width}}  best",
    ]
    for d in review.decisions:
        lines.append(_line(d, say, id(d) in worst, width))
    lines += [
        "",
        f"{'seat':>4} {'score':>6} {'searched':>8} {'forced':>6} {'best':>5} {'mean cost':>9}"
        "  inaccuracies mistakes blunders",
    ]
    for s in review.seats:
        lines.append(
            f"{s.seat:>4} {review.scores[s.seat]:>6} {s.decisions:>8} {s.forced:>6} {s.best:>5} {s.mean_cost:>9.2f}"
            f"  {s.inaccuracies:>12} {s.mistakes:>8} {s.blunders:>8}"
        )
    if marked:
        lines += ["", "The costliest moves:"]
        for d in marked:
            lines.append(
                f"  move {d.index + 1}, seat {d.seat}: {d.band}, cost {d.cost or 0:.1f}: "
                f"played {say(d.played)}; best {say(d.best)}"
            )
    return "\n".join(lines)


def _line(d: Decision, say: Any, mark: bool, width: int) -> str:
    if d.kind == "chance":
        return f"{'':>5} {'':>4} {'':>7} {'':>6}  {'chance':<11} {'':2} outcome {d.played}"
    if d.kind == "forced" or d.before is None:
        return f"{d.index + 1:>5} {d.seat:>4} {'':>7} {'':>6}  {'forced':<11} {'':2} {say(d.played)}"
    best = "=" if d.band == "best" else say(d.best)
    return (
        f"{d.index + 1:>5} {d.seat:>4} {d.before.margin:>+7.1f} {d.cost or 0:>6.1f}  {d.band or '':<11} "
        f"{'<<' if mark else '':2} {say(d.played):<{width}}  {best}"
    )
