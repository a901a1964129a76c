"""The clients' external bots (clients/typescript/examples/seat-bot.ts, clients/go/cmd/seatbot) play
arena games as `cmd:` programs against a built-in bot.

Marked `clients` (run with --clients): they need the clients built, which CI does after the Python
suite (.ci/run runs this test at its end). The TypeScript bot must be compiled (`npm ci && npm run
build` in clients/typescript); the Go bot is built here with clients/go/scripts/go.sh. Without a
toolchain or a build the tests skip, saying why, unless HUNTERS_REQUIRE_CLIENTS=1 (CI)."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hunters.bots.arena import run_arena
from hunters.cli import main

pytestmark = pytest.mark.clients

ROOT = Path(__file__).resolve().parents[2]
TS_DIR = ROOT / "clients" / "typescript"
GO_DIR = ROOT / "clients" / "go"
ARGS = "{address} {match} {token} {seat}"


def _unavailable(reason: str) -> None:
    if os.environ.get("HUNTERS_REQUIRE_CLIENTS") == "1":
        pytest.fail(f"HUNTERS_REQUIRE_CLIENTS=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def ts_bot() -> str:
    node = shutil.which("node")
    built = TS_DIR / "dist" / "examples" / "seat-bot.js"
    source = TS_DIR / "examples" / "seat-bot.ts"
    if node is None:
        _unavailable("no node on PATH (the TypeScript client needs Node >= 20)")
    if not built.exists():
        _unavailable(f"{built.relative_to(ROOT)} is not built: run `npm ci && npm run build` in clients/typescript")
    if built.stat().st_mtime < source.stat().st_mtime:
        _unavailable(f"{built.relative_to(ROOT)} is older than its source: run `npm run build` in clients/typescript")
    return f"cmd:{node} {built} {ARGS} 7"


@pytest.fixture(scope="module")
def go_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    if shutil.which("go") is None:
        _unavailable("no go on PATH (the Go client needs Debian's golang-go and gRPC packages)")
    exe = tmp_path_factory.mktemp("seatbot") / "seatbot"
    build = subprocess.run(
        [str(GO_DIR / "scripts" / "go.sh"), "build", "-o", str(exe), "./cmd/seatbot"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if build.returncode != 0:
        _unavailable(f"the Go seat bot does not build (clients/README.md lists the packages): {build.stderr[-500:]}")
    return f"cmd:{exe} {ARGS} 7"


@pytest.mark.parametrize("bot", ["ts_bot", "go_bot"])
def test_a_client_bot_plays_arena_games_against_random(bot, request):
    spec = request.getfixturevalue(bot)
    r = run_arena("carcassonne_hg", 2, [spec, "random"], 2, seed=5, keep_records=True)
    assert all(g.forfeit is None for g in r.results), [g.forfeit for g in r.results]
    assert sorted(g.lineup.index(0) for g in r.results) == [0, 1]  # the program played each seat once
    for g in r.results:
        assert g.moves > 40 and g.record is not None and len(g.record["moves"]) == g.moves
        assert sum(g.decisions) == g.moves and g.decisions[g.lineup.index(0)] > 20
        assert len(g.winners) >= 1
    assert [s.games for s in r.stats()] == [2, 2]


def test_hunters_arena_between_the_two_client_bots(ts_bot, go_bot, tmp_path, capsys):
    out = tmp_path / "arena.json"
    argv = ["arena", "--bot", ts_bot, "--bot", go_bot, "--games", "2", "--jobs", "1", "--quiet", "--json", str(out)]
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "seat-bot.js" in table and "seatbot" in table
    summary = json.loads(out.read_text())
    assert summary["games"] == 2
    assert [g["forfeit"] for g in summary["results"]] == [None, None]
    assert all(g["moves"] > 40 for g in summary["results"])
