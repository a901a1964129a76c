"""`hunters conformance --engine`: our own adapter passes clean on every game's vectors and seeded
games; each deliberately broken engine (tests/conformance/broken_engine.py) is reported with its
fault: a missing rule (the legal moves it lacks), a wrong score, a crash, a hang (the per-request
timeout, never a hang of the runner), a garbled answer. The record a divergence gives replays to
the position it names."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hunters
from hunters.conformance import vectors
from hunters.conformance.protocol import Engine
from hunters.conformance.runner import Runner

ROOT = Path(__file__).resolve().parents[2]
OURS = [sys.executable, "-m", "hunters.conformance.adapter"]


def broken(fault: str) -> list[str]:
    return [sys.executable, "-m", "tests.conformance.broken_engine", fault]


def run(command: list[str], timeout: float = 10.0, **kw) -> tuple[Runner, object]:
    engine = Engine(command, timeout=timeout, cwd=str(ROOT))
    runner = Runner(engine, vectors.games_with_vectors(), progress=False, **{"random_games": 2, **kw})
    try:
        return runner, runner.run()
    finally:
        engine.close()


def test_our_adapter_passes_clean():
    runner, found = run(OURS, perft_depth=2)
    assert found is None, found.text()
    for game_id in vectors.games_with_vectors():
        c = runner.checked[game_id]
        assert c["perft"] == len(vectors.load(game_id, "perft"))
        assert c["replay"] == len(vectors.load(game_id, "replay"))
        assert c["random"] == 2 and c["decisions"] > 100


def test_a_missing_rule_is_reported_as_the_moves_it_lacks():
    _, found = run(broken("drop-retakes"))
    assert found is not None and (found.game, found.what) == ("carcassonne_hg", "legal moves")
    assert any(line.startswith("missing (legal for us)") for line in found.diff)
    assert not any(line.startswith("extra") for line in found.diff)
    assert all("takes back" in line for line in found.diff if line.startswith("    tile"))
    game = hunters.games.get(found.game).from_record(found.record)  # the minimal record: that position
    assert game.tile == 88 and any(m.retake is not None for m in game.legal_moves())


def test_a_wrong_score_is_reported_with_both_scores():
    _, found = run(broken("wrong-score"))
    assert found is not None and found.what == "scores"
    (line,) = [d for d in found.diff if d.startswith("scores:")]
    theirs, ours = (json.loads("[" + part.split("[", 1)[1]) for part in line.split(", ours"))
    assert theirs == [ours[0] + 1, *ours[1:]]
    game = hunters.games.get(found.game).from_record(found.record)
    assert found.diff[0].startswith("after") and not game.is_over  # the position before the game's last move


def test_a_crash_is_reported_with_the_engine_s_last_words():
    _, found = run(broken("crash"))
    assert found is not None and found.what == "fault"
    assert "crash" in found.diff[0] and "code 3" in found.diff[0] and "giving up at move 40" in found.diff[0]


def test_a_hang_is_a_timeout_not_a_hang_of_the_runner():
    start = time.perf_counter()
    runner, found = run(broken("hang"), timeout=1.0)
    assert time.perf_counter() - start < 60
    assert found is not None and found.what == "fault" and "timeout" in found.diff[0]
    assert runner.engine._proc.poll() is not None  # the child was killed


def test_a_garbled_answer_is_reported():
    _, found = run(broken("garbled"))
    assert found is not None and found.what == "fault" and "not JSON" in found.diff[0]


def test_the_command_line_from_outside_the_source_tree(tmp_path):
    """As a user runs it: the CLI in a scratch folder, our adapter clean (exit 0), a broken engine
    reported (exit 1) with the divergence also written as JSON."""
    hunters_cli = [sys.executable, "-m", "hunters.cli", "conformance", "--quiet", "--games", "1", "--perft-depth", "1"]
    ok = subprocess.run([*hunters_cli, "--engine", " ".join(OURS)], cwd=tmp_path, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.strip().endswith("no divergence")
    report = tmp_path / "found.json"
    engine = f"{sys.executable} {ROOT / 'tests' / 'conformance' / 'broken_engine.py'} wrong-score"
    bad = subprocess.run(
        [*hunters_cli, "--engine", engine, "--report", str(report)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "DIVERGENCE" in bad.stdout and json.loads(report.read_text())["what"] == "scores"


@pytest.mark.parametrize("args", [["--game", "chess"], []])
def test_usage_errors(args, capsys):
    from hunters.cli import main

    assert main(["conformance", *args]) == 2
    assert "hunters conformance:" in capsys.readouterr().err


def _docs_exchange() -> tuple[list[dict], list[dict]]:
    """The requests and answers of docs/conformance.md's protocol example."""
    text = (ROOT / "docs" / "conformance.md").read_text()
    lines = [line for line in text.splitlines() if line.startswith(("> {", "< {"))]
    requests = [json.loads(line[2:]) for line in lines if line[0] == ">"]
    answers = [json.loads(line[2:]) for line in lines if line[0] == "<"]
    assert len(requests) == len(answers) >= 4
    return requests, answers


def test_the_docs_protocol_example_is_what_our_adapter_answers():
    requests, answers = _docs_exchange()
    assert [r["op"] for r in requests][:2] == ["hello", "new"] and requests[-1]["op"] == "quit"
    proc = subprocess.run(
        OURS,
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in proc.stdout.splitlines()] == answers


def test_an_engine_of_its_own_plays_the_docs_protocol_example():
    """The example's record lists its chance outcomes (the piles in draw order): the reference
    oracle of tests/reference/, which knows no seed of ours, gives the same answers."""
    from tests.conformance import mutants

    requests, answers = _docs_exchange()
    record = next(r["record"] for r in requests if r["op"] == "new")
    assert record["seed"] is None and record["normal_deck"] and "menhir_deck" in record
    engine = mutants.engine(record["game"])
    for request, answer in zip(requests[1:-1], answers[1:-1], strict=True):  # hello names the engine; quit ends
        assert {"id": request["id"], "ok": True, **engine(request)} == answer, request["op"]
