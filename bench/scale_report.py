"""Ray against local processes on this machine, in one run: a local Ray cluster of N CPUs against a
pool of N local processes (multiprocessing), both playing the same units of random games through
`hunters.scale`, with the figures docs/scaling.md quotes (games/s per core, Ray's per-task cost).

    python bench/scale_report.py                 # 100,000 games per run, 2 workers (needs hunters-engine[ray])
    python bench/scale_report.py --games 20000 --rounds 1

Both sides are warm (workers started and `hunters` imported before the clock starts) and the runs
alternate local, Ray, local, Ray...; the ratio is of the best run of each (the machine is shared, and
the best run is the one least disturbed). Results are checked equal on every run.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hunters
from hunters import scale
from hunters.simulate import BLOCK, block_sizes, blocks_unit, merge_results, random_games_unit


def _noop(x: int) -> int:
    return x


def _core_run(pool: scale.Executor, game: str, games: int, blocks_per_unit: int) -> tuple[float, object]:
    units = [(game, 2, 1, games, first, n) for first, n in scale.chunks(len(block_sizes(games)), blocks_per_unit)]
    t0 = time.perf_counter()
    result = merge_results(2, list(scale.ordered(pool, blocks_unit, units)))
    return games / (time.perf_counter() - t0), result


def _python_run(pool: scale.Executor, game: str, games: int, size: int) -> tuple[float, object]:
    units = [(game, 2, 1, first, n) for first, n in scale.chunks(games, size)]
    t0 = time.perf_counter()
    parts = list(scale.ordered(pool, random_games_unit, units))
    return games / (time.perf_counter() - t0), [(p.moves, p.wins, p.totals) for p in parts]


def _compare(label: str, rounds: int, run_local, run_ray) -> tuple[float, float]:
    best_local = best_ray = 0.0
    for _ in range(rounds):
        rate_l, res_l = run_local()
        rate_r, res_r = run_ray()
        assert res_l == res_r, f"{label}: Ray and local results differ"
        best_local, best_ray = max(best_local, rate_l), max(best_ray, rate_r)
        print(f"  {label:<44} local {rate_l:>9,.0f}  ray {rate_r:>9,.0f} games/s", flush=True)
    return best_local, best_ray


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="core random games per run")
    parser.add_argument("--python-games", type=int, default=10_000, help="Python-driven games per run (0: skip)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each side (alternating)")
    args = parser.parse_args()
    import ray

    rows: list[tuple[str, str]] = []
    cls = hunters.games.get("carcassonne_hg")
    t0 = time.perf_counter()
    cls.random_games(4 * BLOCK, players=2, seed=1)
    per_core = 4 * BLOCK / (time.perf_counter() - t0)
    jcls = hunters.games.get("jaeger_sammler")
    t0 = time.perf_counter()
    jcls.random_games(8 * BLOCK, players=2, seed=1)
    jper_core = 8 * BLOCK / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    random_games_unit("carcassonne_hg", 2, 1, 0, 200)
    py_core = 200 / (time.perf_counter() - t0)
    rows += [
        ("H&G core random 2-player games/s, one process", f"{per_core:,.0f}"),
        ("Jäger core random 2-player games/s, one process", f"{jper_core:,.0f}"),
        ("H&G Python-driven random games/s, one process", f"{py_core:,.0f}"),
    ]

    temp = tempfile.mkdtemp(prefix="hray")
    t0 = time.perf_counter()
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    rows.append(("ray.init of a local cluster, s", f"{time.perf_counter() - t0:.1f}"))
    on_ray = scale.connect_ray(ray.get_runtime_context().gcs_address)
    local = scale.Local(args.workers)
    try:
        for pool in (local, on_ray):  # warm: workers started, hunters and its cores imported
            list(scale.ordered(pool, blocks_unit, [("carcassonne_hg", 2, 0, 64, 0, 1)] * (2 * args.workers)))
            list(scale.ordered(pool, blocks_unit, [("jaeger_sammler", 2, 0, 64, 0, 1)] * (2 * args.workers)))
        n, noop = 2000, ray.remote(_noop)
        ray.get(noop.remote(0))
        t0 = time.perf_counter()
        ray.get([noop.remote(i) for i in range(n)])
        rows.append(
            ("Ray: empty tasks, submit + get in bulk, ms per task", f"{(time.perf_counter() - t0) / n * 1e3:.2f}")
        )
        t0 = time.perf_counter()
        for i in range(200):
            next(iter(scale.ordered(on_ray, _noop, [(i,)])))
        rows.append(("Ray: one empty task's round trip, ms", f"{(time.perf_counter() - t0) / 200 * 1e3:.2f}"))
        t0 = time.perf_counter()
        for i in range(200):
            next(iter(scale.ordered(local, _noop, [(i,)])))
        rows.append(("local pool: one empty unit's round trip, ms", f"{(time.perf_counter() - t0) / 200 * 1e3:.2f}"))

        print(f"{args.games:,} core games per run, {args.workers} workers each side:", flush=True)
        for game in ("carcassonne_hg", "jaeger_sammler"):
            for blocks in (1, 8) if game == "carcassonne_hg" else (8,):
                label = f"{game}, {blocks * BLOCK} games per unit"
                best_l, best_r = _compare(
                    label,
                    args.rounds,
                    lambda g=game, b=blocks: _core_run(local, g, args.games, b),
                    lambda g=game, b=blocks: _core_run(on_ray, g, args.games, b),
                )
                rows.append(
                    (
                        f"{label}: local / Ray games/s, Ray ÷ local",
                        f"{best_l:,.0f} / {best_r:,.0f}, {best_r / best_l:.2f}",
                    )
                )
        if args.python_games:
            label = f"carcassonne_hg Python-driven, {args.python_games:,} games, 250 per unit"
            best_l, best_r = _compare(
                label,
                args.rounds,
                lambda: _python_run(local, "carcassonne_hg", args.python_games, 250),
                lambda: _python_run(on_ray, "carcassonne_hg", args.python_games, 250),
            )
            rows.append((f"{label}: local / Ray, ratio", f"{best_l:,.0f} / {best_r:,.0f}, {best_r / best_l:.2f}"))
    finally:
        local.close()
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    width = max(len(r[0]) for r in rows)
    print()
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
