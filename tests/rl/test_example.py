"""The shipped examples (`hunters.examples`) run: OpenSpiel's MCTS against our bots on every game
with chance, the learners of train_vs_random (trained to the figures docs/learning.md states: slow),
and ``python -m hunters.examples`` lists and copies them from any working directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from hunters.examples import EXAMPLES
from tests.tiny_tiles.game import TinyGame

ROOT = Path(__file__).resolve().parents[2]

SLOW_TARGETS = {
    "test_training_example_beats_random": {"episodes": 1000, "games": 400, "at_least": 0.9},
    "test_feature_learner_beats_random_in_hunters_and_gatherers": {"episodes": 300, "games": 400, "at_least": 0.9},
}
"""What each slow test trains and the win rate it asserts (docs/learning.md states them; checked by
tests/rl/test_docs_outside.py)."""


def load_example():
    from hunters.examples import openspiel_mcts

    return openspiel_mcts


def _outside(args: list[str], cwd: Path) -> str:
    """`python -m ...` run in `cwd` (outside the checkout), the package importable."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_examples_are_listed_copied_and_run_as_modules(tmp_path):
    listing = _outside(["-m", "hunters.examples"], tmp_path)
    for name in EXAMPLES:
        assert f"hunters.examples.{name}:" in listing
        assert (ROOT / "hunters" / "examples" / f"{name}.py").is_file()
    _outside(["-m", "hunters.examples", "copy", "mine"], tmp_path)
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == sorted(f"{n}.py" for n in EXAMPLES)
    out = _outside(["mine/train_vs_random.py", "--method", "codes", "--episodes", "3"], tmp_path)
    assert "win rate against random" in out
    out = _outside(["-m", "hunters.examples.openspiel_mcts", "--games", "1", "--simulations", "2"], tmp_path)
    assert "MCTS(2)" in out


def test_mcts_against_our_bots(chance_cls, capsys):
    example = load_example()
    tiny = chance_cls is TinyGame
    totals = example.play_match(
        chance_cls,
        games=2,
        simulations=30 if tiny else 4,
        opponent="greedy",
        perfect_information=True if tiny else None,
    )
    assert totals["mcts_wins"] + totals["draws"] + totals["mcts_losses"] == 2
    assert "MCTS(" in capsys.readouterr().out


@pytest.mark.parametrize("game_id", ["carcassonne_hg", "jaeger_sammler"])
def test_command_line(game_id):
    """The command line takes registered game ids (the tiny test game is not registered)."""
    assert load_example().main(["--game", game_id, "--games", "1", "--simulations", "2"]) == 0


@pytest.mark.slow
def test_training_example_beats_random():
    """hunters/examples/train_vs_random.py: a code-preference policy trained for 1,000 episodes wins
    at least 90% of 400 games against `random` (untrained: about half)."""
    from hunters.examples import train_vs_random as module

    target = SLOW_TARGETS["test_training_example_beats_random"]
    result = module.train_codes("jaeger_sammler", episodes=target["episodes"], seed=0, eval_games=target["games"])
    assert result["before"] < 0.6
    assert result["after"] >= target["at_least"]


@pytest.mark.slow
def test_feature_learner_beats_random_in_hunters_and_gatherers():
    """hunters/examples/train_vs_random.py --method features: a linear value of the core's afterstate
    table (`Game.learn_afterstates`) trained for 300 episodes wins at least 90% of 400 games against
    `random` (untrained, every move valued alike: about half)."""
    from hunters.examples import train_vs_random as module

    target = SLOW_TARGETS["test_feature_learner_beats_random_in_hunters_and_gatherers"]
    result = module.train_features("carcassonne_hg", episodes=target["episodes"], seed=0, eval_games=target["games"])
    assert result["before"] < 0.6
    assert result["after"] >= target["at_least"]
