"""Seat streams from the three clients: moves per second of one match played by two bots, each on
its seat stream, against two bots on the loop before seat streams (WatchMatch, then ListLegalMoves
and PlayMove at each turn), one server (`hunters serve`, its own process, loopback) for all.

    python bench/seat_clients_report.py            # 10 games per side and client
    python bench/seat_clients_report.py 20

Python runs bench/test_seat_bench.py's bots (two threads of this process); Go runs
clients/go/cmd/seatbench (built first, offline: clients/go/scripts/go.sh); TypeScript runs
clients/typescript/dist/examples/seat-bench.js (`npm run build` first). Each client alternates its
two sides game by game, so drifts of a shared machine hit both alike; a client whose toolchain is
missing is skipped with a note.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.test_seat_bench import SIDES  # noqa: E402
from bench.test_service_bench import serving  # noqa: E402


def python_side(address: str, games: int) -> str:
    rates: dict[str, list[float]] = {"stream": [], "watch_unary": []}
    for g in range(games):
        for side in ("stream", "watch_unary") if g % 2 == 0 else ("watch_unary", "stream"):
            n, seconds = SIDES[side](address, 500 + g)
            rates[side].append(n / seconds)
    s, w = (statistics.median(rates[k]) for k in ("stream", "watch_unary"))
    return f"python: stream {s:.0f} moves/s, watch+unary {w:.0f} moves/s, ratio {s / w:.2f}"


def go_side(address: str, games: int) -> str:
    go = ROOT / "clients" / "go"
    if shutil.which("go") is None:
        return "go: skipped (no Go toolchain; see clients/README.md)"
    binary = go / ".gopath" / "bin" / "seatbench"
    subprocess.run([str(go / "scripts" / "go.sh"), "build", "-o", str(binary), "./cmd/seatbench"], check=True)
    out = subprocess.run([str(binary), "-addr", address, "-games", str(games)], check=True, capture_output=True)
    return out.stdout.decode().strip()


def typescript_side(address: str, games: int) -> str:
    script = ROOT / "clients" / "typescript" / "dist" / "examples" / "seat-bench.js"
    if shutil.which("node") is None or not script.exists():
        return "typescript: skipped (no node, or not built: cd clients/typescript && npm ci && npm run build)"
    out = subprocess.run(["node", str(script), address, str(games)], check=True, capture_output=True)
    return out.stdout.decode().strip()


def main(argv: list[str]) -> int:
    games = int(argv[1]) if len(argv) > 1 else 10
    with serving() as address:
        for side in (python_side, go_side, typescript_side):
            print(side(address, games), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
