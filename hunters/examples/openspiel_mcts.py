"""OpenSpiel's own MCTS against the built-in bots of `hunters.bots`, on a game registered with OpenSpiel
by `hunters.rl.openspiel` (tile draws and layouts are chance nodes).

    python -m hunters.examples.openspiel_mcts --game GAME --games 4 --simulations 200 --opponent greedy

(GAME a registered game id with chance nodes, default the first; ``python -m hunters.examples copy
DIR`` copies this file out to change it.)

Seats alternate between the two programs from game to game; chance nodes are sampled from their
probabilities with the seeded generator. OpenSpiel's MCTS searches the OpenSpiel state (its random
rollouts sample the chance nodes), which is the true state: in Jäger und Sammler it so knows the other
seats' face-down tiles, which a seat may not (OpenSpiel's MCTSBot has no information sets); our bot
sees `Observation.of(game)` of the same position, as always. Prints each game's scores and totals.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import hunters
from hunters.bots import make_bot
from hunters.capabilities import ExplicitChance, Learnable, supports
from hunters.rl.openspiel import register


def play_match(
    game: Any,
    games: int = 2,
    simulations: int = 100,
    opponent: str = "random",
    seed: int = 0,
    perfect_information: bool | None = None,
    verbose: bool = True,
) -> dict[str, float]:
    """Play `games` two-player games, OpenSpiel's MCTS against the bot `opponent`; returns the MCTS
    side's wins, draws and losses (by `hunters.learn.terminal_rewards`) and mean scores."""
    os_game = pyspiel.load_game(f"{register(game, perfect_information)}(players=2)")
    rng = np.random.default_rng(seed)
    totals = {"mcts_wins": 0.0, "draws": 0.0, "mcts_losses": 0.0, "mcts_score": 0.0, "bot_score": 0.0}
    for g in range(games):
        mcts_seat = g % 2
        searcher = mcts.MCTSBot(
            os_game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + g)),
            random_state=np.random.RandomState(seed + g),
        )
        bot = make_bot(opponent, seed=seed + g)
        state = os_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == mcts_seat:
                state.apply_action(searcher.step(state))
            else:
                hunters_game = state.hunters_game
                state.apply_action(hunters_game.compact.from_move(bot(hunters_game)))
        scores = state.hunters_game.scores
        result = state.returns()[mcts_seat]
        key = "mcts_wins" if result > 0 else "mcts_losses" if result < 0 else "draws"
        totals[key] += 1
        totals["mcts_score"] += scores[mcts_seat] / games
        totals["bot_score"] += scores[1 - mcts_seat] / games
        if verbose:
            print(f"game {g}: MCTS seat {mcts_seat}, scores {scores}, MCTS {key.split('_')[-1]}")
    if verbose:
        print(f"MCTS({simulations}) vs {opponent}: {totals}")
    return totals


def chance_games() -> list[str]:
    """The registered games OpenSpiel can play: the learning surface and explicit chance."""
    needs = (Learnable, ExplicitChance)
    return [g for g in hunters.games.ids() if all(supports(hunters.games.get(g), c) for c in needs)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    games = chance_games()
    parser.add_argument("--game", choices=games, default=games[0] if games else None)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--opponent", default="random", help="a hunters.bots spec: random, greedy, mcts:...")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    play_match(args.game, args.games, args.simulations, args.opponent, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
