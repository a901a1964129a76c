"""Run the benchmarks once and print the table of docs/performance.md (figures and ratios from one run).

    python bench/report.py            # full run (about a minute on 2 cores)

The service benchmarks start `hunters serve` in a subprocess on a free loopback port.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import run_benchmarks


def main() -> int:
    status, data = run_benchmarks("bench")
    if status or data is None:
        return status or 1
    stats = {b["name"]: b["stats"] for b in data["benchmarks"]}
    from bench.test_carcassonne_bench import CORE_GAMES

    core_game_s = stats["test_core_random_games"]["median"] / CORE_GAMES
    py_game_s = stats["test_python_driven_random_game"]["median"]
    ref_game_s = stats["test_reference_random_game"]["median"]
    rows = [
        ("complete random 2-player games/s, inside the core", f"{1 / core_game_s:,.0f}", ">= 5,000 (aim 20,000)"),
        ("complete random 2-player games/s, driven from Python", f"{1 / py_game_s:,.0f}", ">= 500"),
        (
            "legal moves at decision 40, core generation (median)",
            f"{stats['test_core_legal_moves_midgame']['median'] * 1e6:.1f} µs",
            "<= 20 µs",
        ),
        (
            "legal moves at decision 40, Game.legal_moves() (median)",
            f"{stats['test_api_legal_moves_midgame']['median'] * 1e6:.1f} µs",
            "",
        ),
        (
            "legal moves at decision 40, list(Game.legal_moves()) (median)",
            f"{stats['test_api_legal_moves_materialised_midgame']['median'] * 1e6:.1f} µs",
            "",
        ),
        ("clone() (median)", f"{stats['test_clone']['median'] * 1e6:.2f} µs", "<= 2 µs"),
        ("reference game time / core game time (same run)", f"{ref_game_s / core_game_s:,.0f}×", ">= 1,000×"),
    ]
    extra = {b["name"]: b.get("extra_info", {}) for b in data["benchmarks"]}
    latency = extra["test_latency_interleaved"]
    health_rate = extra["test_concurrent_health_checks"]["calls_per_second"]
    play_rate = extra["test_concurrent_play_moves"]["calls_per_second"]
    spread = extra["test_latency_with_2000_open_watch_streams[10-per-match]"]
    crowded = extra["test_latency_with_2000_open_watch_streams[100-per-match]"]
    create = extra["test_creation_cost_stays_flat"]
    rows += [
        (
            "gRPC health check (trivial RPC) median latency, loopback",
            f"{latency['health_median'] * 1e6:.0f} µs",
            "reference",
        ),
        ("PlayMove median latency / health check (interleaved)", f"{latency['play_ratio']:.2f}×", "<= 1.2×"),
        (
            "ListLegalMoves median latency / health check (decision 40, interleaved)",
            f"{latency['list_ratio']:.2f}×",
            "<= 1.5×",
        ),
        ("16 concurrent clients, separate matches: PlayMove calls/s", f"{play_rate:,.0f}", ""),
        ("16 concurrent clients: PlayMove rate / health-check rate", f"{play_rate / health_rate:.2f}", ">= 0.8"),
        (
            "2,000 open watch streams, 10 per match played: health p50 / idle health p50",
            f"{spread['health_ratio']:.2f}×",
            "<= 2×",
        ),
        (
            "2,000 open watch streams, 10 per match played: PlayMove p50 / idle PlayMove p50",
            f"{spread['play_ratio']:.2f}×",
            "<= 2×",
        ),
        ("2,000 open watch streams, 100 per match played: health p50 / idle", f"{crowded['health_ratio']:.2f}×", ""),
        ("2,000 open watch streams, 100 per match played: PlayMove p50 / idle", f"{crowded['play_ratio']:.2f}×", ""),
        ("CreateMatch median, matches 9,801-10,000 / matches 1-200", f"{create['ratio']:.2f}×", "<= 1.5×"),
        (
            "cancelled SimulateGames: engine idle after (slowest of 10)",
            f"{extra['test_cancelled_simulation_stops_engine_work']['slowest_stop'] * 1e3:.0f} ms",
            "<= 200 ms",
        ),
        (
            "SimulateGames in the server / random_games in process (games/s, interleaved)",
            f"{extra['test_simulate_games_server_vs_process']['ratio']:.2f}",
            ">= 0.9",
        ),
    ]
    from bench.test_jaeger_bench import CORE_GAMES as JS_CORE_GAMES

    js = {k[len("test_jaeger_") :]: v for k, v in stats.items() if k.startswith("test_jaeger_")}
    js_core = js["core_random_games"]["median"] / JS_CORE_GAMES
    rows += [
        ("jaeger_sammler: random 2-player games/s inside the core (uniform policy)", f"{1 / js_core:,.0f}", ">= 2,000"),
        (
            "jaeger_sammler: random 2-player games/s inside the core ('stay' policy, ~230 turns)",
            f"{JS_CORE_GAMES / js['core_random_games_stay']['median']:,.0f}",
            ">= 2,000",
        ),
        (
            "jaeger_sammler: random 2-player games/s driven from Python (uniform)",
            f"{1 / js['python_driven_random_game']['median']:,.0f}",
            "",
        ),
        (
            "jaeger_sammler: legal turns at mid-summer, core generation (median)",
            f"{js['core_legal_moves_midsummer']['median'] * 1e6:.1f} µs",
            "",
        ),
        (
            "jaeger_sammler: legal turns at mid-summer, Game.legal_moves() (median)",
            f"{js['api_legal_moves_midsummer']['median'] * 1e6:.1f} µs",
            "",
        ),
        ("jaeger_sammler: clone() (median)", f"{js['clone']['median'] * 1e6:.2f} µs", ""),
        (
            "jaeger_sammler: reference game time / core game time (same run)",
            f"{js['reference_random_game']['median'] / js_core:,.0f}×",
            "",
        ),
    ]
    print("\n| measure | figure | target |\n|---|---:|---|")
    for name, fig, target in rows:
        print(f"| {name} | {fig} | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
