"""numpy is imported only when learning is used: each game's `Game` imports its learn module inside
the learning methods (`from . import learn`), so playing, copying, viewing and recording a game
imports no numpy."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import sys
from hunters.{pkg} import Game

g = Game.new(players=2, seed=3)
for _ in range(6):
    g.play(g.legal_moves()[0])
g.clone(), g.view(), g.observed_by(0), g.determinized(1, 5), g.actions.legal(), g.actions.mask()
Game.from_record(g.to_record())
before = "numpy" in sys.modules
g.learn_layout()
print(before, "numpy" in sys.modules)
"""


@pytest.mark.parametrize("pkg", ["carcassonne", "jaeger"])
def test_numpy_waits_for_learning(pkg):
    out = subprocess.run(
        [sys.executable, "-c", PLAY.format(pkg=pkg)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.split() == ["False", "True"]
