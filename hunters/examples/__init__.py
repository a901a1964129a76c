"""Examples that ship with the package (docs/learning.md): each is a module to run or to copy.

    python -m hunters.examples                 list them, with the path of each file
    python -m hunters.examples copy DIR        copy them into DIR, to read and change
    python -m hunters.examples.train_vs_random --game GAME --method codes --episodes 1000
    python -m hunters.examples.openspiel_mcts --game GAME --games 4 --simulations 200 --opponent greedy

They need the learning extra (``pip install "hunters-engine[rl]"``); listing and copying them do not.
"""

from __future__ import annotations

__all__ = ["EXAMPLES"]

EXAMPLES = {
    "train_vs_random": "three tiny learners against the random bot, numpy only (Gymnasium env)",
    "openspiel_mcts": "OpenSpiel's MCTS against the built-in bots (OpenSpiel game)",
}
"""Module name (``hunters.examples.<name>``) -> what it shows."""
