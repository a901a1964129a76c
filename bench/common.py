"""Helpers shared by the benchmark suites and their report scripts."""

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_benchmarks(target: str, *options: str) -> tuple[int, dict[str, Any] | None]:
    """Run pytest-benchmark once on `target` (a path under the repository), gc off; return pytest's
    exit status and the JSON report (None when pytest wrote none, or an empty one)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            str(ROOT / target),
            "-q",
            *options,
            "--benchmark-enable",
            "--benchmark-disable-gc",
            f"--benchmark-json={out}",
            "-p",
            "no:cacheprovider",
        ]
        status = subprocess.run(cmd, cwd=ROOT).returncode
        text = out.read_text() if out.exists() else ""
        return status, json.loads(text) if text.strip() else None


class Cycle:
    """Call f on each position in turn (one position per benchmark call)."""

    def __init__(self, items, f):
        self.items, self.f, self.i = items, f, 0

    def __call__(self):
        self.i = (self.i + 1) % len(self.items)
        return self.f(self.items[self.i])
