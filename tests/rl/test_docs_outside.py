"""docs/learning.md as a newcomer meets it, outside the checkout: every snippet, every row of the
first table, every Gymnasium id, every OpenSpiel name and every example command runs as written in a
new interpreter whose working directory is a temporary folder (the package importable, nothing
imported before), and the page's figures about the code and its tests are those of the code and the
tests.

Snippets are the ```python blocks marked with a ``<!-- snippet -->`` line just above them; every
Python block of the page must be marked. Example commands (``python -m hunters.examples...``) run
with their sizes cut down (``--episodes 2 --eval-games 2``, one game of 2 simulations): their full
runs are the slow tests the page quotes."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "learning.md"
TEXT = PAGE.read_text("utf-8")
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)
MARK = "<!-- snippet -->"
GYM_ID = re.compile(r"""["'`]((?:[\w.]+:)?hunters/\w+?-(?:SelfPlay-)?v0)["'`]""")
SPIEL_NAME = re.compile(r'"(python_hunters_\w+(?:\([^")]*\))?)"')


def _run(code: str, cwd: Path, timeout: float = 300) -> str:
    """`code` in a new interpreter in `cwd`, with the checkout on PYTHONPATH only (as an installed
    package would be importable); its stdout, or the failure with its stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{code}\n--- failed:\n{done.stderr[-3000:]}"
    return done.stdout


def snippets() -> list[tuple[int, str]]:
    """(line, source) of every marked snippet; every python block must be marked."""
    out = []
    for m in FENCE.finditer(TEXT):
        line = TEXT.count("\n", 0, m.start()) + 1
        before = TEXT[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        assert before.strip() == MARK, f"docs/learning.md:{line}: a python block without {MARK} above it"
        out.append((line + 1, m.group(1)))
    return out


SNIPPETS = snippets()


def test_the_page_has_its_snippets():
    assert len(SNIPPETS) >= 6


@pytest.mark.parametrize("line,source", SNIPPETS, ids=[f"line{line}" for line, _ in SNIPPETS])
def test_snippet_runs_outside_the_checkout(line, source, tmp_path):
    _run(source, tmp_path)


def table_rows() -> list[tuple[str, str, str]]:
    """(what, import, call) of every row of the page's first table."""
    table = TEXT.split("| what | import | call | seats |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append((cells[0], cells[1].strip("`"), cells[2].strip("`")))
    return rows


ROWS = table_rows()


@pytest.mark.parametrize("what,imports,call", ROWS, ids=[r[0] for r in ROWS])
def test_first_table_row_runs_as_written(what, imports, call, tmp_path):
    out = _run(f"{imports}\nmade = {call}\nprint(type(made).__name__)", tmp_path)
    assert out.strip()


def test_every_gymnasium_id_on_the_page_works_as_written(tmp_path):
    """Ids are written ``hunters.rl.gym:hunters/...`` (a bare ``hunters/...`` id needs an import
    first under Gymnasium 1.x); with only ``import gymnasium``, each makes its env."""
    ids = sorted(set(GYM_ID.findall(TEXT)))
    assert len(ids) >= 3
    bare = [i for i in ids if not i.startswith("hunters.rl.gym:")]
    assert not bare, f"ids that Gymnasium 1.x cannot find without an import: {bare}"
    lines = ["import gymnasium"]
    for i in ids:
        if "-SelfPlay-" in i:
            lines.append(f"gymnasium.make_vec({i!r}, num_envs=2).reset(seed=0)")
        else:
            lines.append(f"gymnasium.make({i!r}).reset(seed=0)")
            lines.append(f"gymnasium.make_vec({i!r}, num_envs=2, vectorization_mode='sync').reset(seed=0)")
    _run("\n".join(lines), tmp_path)


def test_every_openspiel_name_on_the_page_loads(tmp_path):
    names = sorted(set(SPIEL_NAME.findall(TEXT)))
    assert len(names) >= 2
    lines = ["import pyspiel", "import hunters.rl.openspiel"]
    lines += [f"pyspiel.load_game({n!r}).new_initial_state()" for n in names]
    _run("\n".join(lines), tmp_path)


def example_commands() -> list[str]:
    return sorted(set(re.findall(r"`(python -m hunters\.examples[^`]*)`", TEXT)))


COMMANDS = example_commands()


def _cut(command: str) -> list[str]:
    argv = shlex.split(command)[1:]
    for flag, small in (("--episodes", "2"), ("--games", "1"), ("--simulations", "2")):
        if flag in argv:
            argv[argv.index(flag) + 1] = small
    if "hunters.examples.train_vs_random" in argv:
        argv += ["--eval-games", "2"]
    return argv


@pytest.mark.parametrize("command", COMMANDS)
def test_example_command_runs_outside_the_checkout(command, tmp_path):
    argv = _cut(command)
    if argv[-1] == "DIR":
        argv[-1] = str(tmp_path / "copied")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_pages_figures_are_the_codes_and_the_tests():
    """Action counts, game-length bounds and the slow tests' targets as the page states them."""
    import hunters
    from hunters.rl.openspiel import string_bound
    from tests.rl.test_example import SLOW_TARGETS

    hg, js = hunters.games.get("carcassonne_hg"), hunters.games.get("jaeger_sammler")
    hg_actions, js_actions = hg.new().learn_layout().actions, js.new().learn_layout().actions
    assert f"{hg_actions:,} for\n  Hunters & Gatherers" in TEXT or f"{hg_actions:,} for Hunters" in TEXT
    assert f"{js_actions:,} for Jäger und Sammler" in TEXT
    assert f"H&G:\n  {hg.INFO.max_game_length}," in TEXT or f"H&G: {hg.INFO.max_game_length}," in TEXT
    assert f"{js.INFO.max_game_length:,} =" in TEXT
    assert f"{string_bound(js.new(chance='external').learn_layout(), 2):,} characters" in TEXT
    for test, target in SLOW_TARGETS.items():
        said = re.search(re.escape(test) + r"`(.*?)(?:;|\.)\s", TEXT, re.S)
        assert said, f"docs/learning.md does not quote {test}"
        words = " ".join(said.group(1).split())
        assert f"for {target['episodes']} episodes" in words, words
        assert f"at least {target['at_least']:.0%} of {target['games']} games" in words, words
