"""Run the bot benchmarks once (the slow ones included) and print the table of docs/performance.md.

    python bench/bots_report.py      # minutes: 200-game arenas on 2 cores

HUNTERS_BENCH_STRENGTH_GAMES / HUNTERS_BENCH_JAEGER_GAMES set the arena sizes (200 / 40).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import run_benchmarks


def main() -> int:
    status, data = run_benchmarks("bench/test_bots_bench.py", "-s", "--slow")
    if data is None:
        return status or 1
    from bench.test_bots_bench import ITERATIONS, PLAYOUTS

    b = {x["name"]: x for x in data["benchmarks"]}
    rows = []

    def rate(name, per_call, label, target=""):
        if name in b:
            rows.append((label, f"{per_call / b[name]['stats']['median']:,.0f}", target))

    rate(
        "test_hg_mcts_playouts_at_decision_40",
        PLAYOUTS,
        "H&G: MCTS playouts/s from decision 40 (one core)",
        ">= 30,000",
    )
    rate("test_hg_mcts_iterations_at_decision_40", ITERATIONS, "H&G: IS-MCTS iterations/s from decision 40")
    rate("test_jaeger_mcts_playouts_mid_summer", PLAYOUTS // 4, "Jäger: MCTS playouts/s mid-summer ('stay' policy)")
    rate("test_jaeger_mcts_iterations_mid_summer", ITERATIONS, "Jäger: IS-MCTS iterations/s mid-summer")
    for name, label, target in [
        ("test_hg_mcts_vs_random", "H&G 2p: mcts(1000) win rate vs random", ">= 95%"),
        ("test_hg_mcts_vs_greedy", "H&G 2p: mcts(1000) win rate vs greedy", ">= 65%"),
        ("test_jaeger_mcts_vs_random", "Jäger 2p: mcts(1000) win rate vs random", ""),
        ("test_jaeger_mcts_vs_greedy", "Jäger 2p: mcts(1000) win rate vs greedy", ""),
    ]:
        if name in b:
            e = b[name]["extra_info"]
            rows.append(
                (
                    f"{label} ({e['games']} games)",
                    f"{e['win_rate']:.1%} ({e['win_rate_low']:.1%}–{e['win_rate_high']:.1%})",
                    target,
                )
            )
    if "test_hg_mcts_vs_mcts_game_seconds" in b:
        rows.append(
            (
                "H&G 2p: seconds per mcts(1000) vs mcts(1000) game",
                f"{b['test_hg_mcts_vs_mcts_game_seconds']['stats']['median']:.1f}",
                "",
            )
        )
    if "test_arena_jobs_speedup" in b:
        speedup = b["test_arena_jobs_speedup"]["extra_info"]["speedup"]
        rows.append(("arena --jobs 2 / --jobs 1 speed-up", f"{speedup:.2f}x", ">= 1.7x"))
    print("\n| measure | figure | target |\n|---|---:|---|")
    for label, fig, target in rows:
        print(f"| {label} | {fig} | {target} |")
    return status


if __name__ == "__main__":
    sys.exit(main())
