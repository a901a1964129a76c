"""External bots are programs: the arena serves the match, starts the program for its seat, and
forfeits a program that crashes or runs out of time."""

import sys
from pathlib import Path

import pytest

from hunters.bots.arena import run_arena
from hunters.cli import main

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
RANDOM_BOT = f"cmd:{PY} {ROOT / 'examples' / 'bots' / 'random_bot.py'} {{address}} {{match}} {{token}} {{seat}}"


def test_an_external_program_plays_its_seat():
    r = run_arena("carcassonne_hg", 2, [RANDOM_BOT, "greedy"], 2, seed=4, keep_records=True)
    assert all(g.forfeit is None for g in r.results), [g.forfeit for g in r.results]
    for g in r.results:
        assert g.moves > 40 and g.record is not None and len(g.record["moves"]) == g.moves
        assert sum(g.decisions) == g.moves
    stats = {s.bot: s for s in r.stats()}
    assert stats["greedy"].wins == 2  # random seldom beats greedy: a real game was played


def test_the_builtin_bots_as_programs():
    play = (
        f"cmd:{PY} -m hunters.cli play --address {{address}} --match {{match}} --token {{token}} --seat {{seat}} "
        "--bot greedy:seed=1 --quiet"
    )
    r = run_arena("jaeger_sammler", 2, [play, "random"], 2, seed=2)
    assert all(g.forfeit is None for g in r.results), [g.forfeit for g in r.results]


def test_a_crashing_program_forfeits():
    crash = f"cmd:{PY} -c 'import sys; print(\"oops\", file=sys.stderr); sys.exit(3)'"
    r = run_arena("carcassonne_hg", 2, [crash, "random"], 2, seed=1)
    for g in r.results:
        seat = g.lineup.index(0)
        assert g.forfeit["seat"] == seat and "status 3" in g.forfeit["reason"] and "oops" in g.forfeit["reason"]
        assert g.winners == [1 - seat]


def test_a_slow_program_forfeits_on_time():
    sleeper = f"cmd:{PY} -c 'import time; time.sleep(60)'"
    r = run_arena("carcassonne_hg", 2, [sleeper, "random"], 1, seed=1, move_time=0.5)
    assert "no move within 0.5 s" in r.results[0].forfeit["reason"]
    assert "forfeited" in r.table()


def test_bad_external_specs_are_refused():
    with pytest.raises(ValueError):
        run_arena("carcassonne_hg", 2, ["cmd:", "random"], 1)
    with pytest.raises(ValueError):
        run_arena("carcassonne_hg", 2, ["cmd:prog {nope}", "random"], 1)
    with pytest.raises(SystemExit):
        main(["arena", "--bot", "cmd:x", "--bot", "random", "--move-time", "0", "--quiet"])
