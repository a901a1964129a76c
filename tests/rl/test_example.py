"""examples/openspiel_mcts.py runs: OpenSpiel's MCTS against our bots, on every game with chance."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from tests.tiny_tiles.game import TinyGame

PATH = Path(__file__).resolve().parents[2] / "examples" / "openspiel_mcts.py"


def load_example():
    spec = importlib.util.spec_from_file_location("openspiel_mcts", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    """examples/train_vs_random.py: a code-preference policy trained for 1,000 episodes wins at
    least 90% of 400 games against `random` (untrained: about half)."""
    spec = importlib.util.spec_from_file_location("train_vs_random", PATH.parent / "train_vs_random.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.train_codes("jaeger_sammler", episodes=1000, seed=0, eval_games=400)
    assert result["before"] < 0.6
    assert result["after"] >= 0.9


@pytest.mark.slow
def test_feature_learner_beats_random_in_hunters_and_gatherers():
    """examples/train_vs_random.py --method features: a linear value of the core's afterstate table
    (`Game.learn_afterstates`) trained for 300 episodes wins at least 90% of 400 games against
    `random` (untrained, every move valued alike: about half)."""
    spec = importlib.util.spec_from_file_location("train_vs_random", PATH.parent / "train_vs_random.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.train_features("carcassonne_hg", episodes=300, seed=0, eval_games=400)
    assert result["before"] < 0.6
    assert result["after"] >= 0.9
