"""The shape of the strong search's tree in Jäger und Sammler decisions: why more iterations add
little (docs/bots.md, `strong`). Plays two self-play games (`strong1:iterations=40`), takes every
12th decision, and for each searches it at each budget, printing the turns and the distinct
positions they reach, whether the determinizations' one-ply best turns differ, and per budget the
root moves searched, how many got more than 5 visits, the top visits, the rank by estimate of the
move chosen and the visits reaching each depth (1: the root's move, 2: the reply, 3: the next own
turn).

    python bench/search_shape_report.py [BUDGETS] [BOT]      # default 150,300,600 strong1
"""

from __future__ import annotations

import collections
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hunters.bots import Observation, make_bot
from hunters.bots.strong import strategy_for
from hunters.jaeger import Game


def _depths(node: Any, depth: int = 0, acc: collections.Counter[int] | None = None) -> collections.Counter[int]:
    acc = acc if acc is not None else collections.Counter()
    acc[depth] += node.visits
    for child in node.children.values():
        _depths(child, depth + 1, acc)
    return acc


def _decisions(seed: int, every: int = 12) -> list[Observation]:
    game = Game.new(players=2, seed=seed)
    bot = make_bot("strong1:iterations=40,seed=1")
    out, k = [], 0
    while not game.is_over:
        if len(game.legal_moves()) > 1 and k % every == 5:
            out.append(Observation.of(game))
        game.play(bot(game))
        k += 1
    return out


def main(budgets: list[int], spec: str) -> None:
    for seed in (1, 2):
        for obs in _decisions(seed):
            game = obs.observed()
            state, strat = game.search_state(), strategy_for(game)
            legal = state.legal_codes()
            flat, order, _ = strat.child_estimates(state, legal, strat.SCALE)
            players = len(flat) // len(legal)
            distinct = len({tuple(flat[i * players : (i + 1) * players]) for i in range(len(legal))})
            bests = set()
            for j in range(8):
                det = obs.determinized(1000 + j).search_state()
                codes = det.legal_codes()
                bests.add(codes[strat.child_estimates(det, codes, strat.SCALE)[1][0]])
            print(
                f"turn {state.turns} season {state.season}: {len(legal)} turns, {distinct} positions, "
                f"{len(bests)} one-ply best of 8 determinizations"
            )
            ranking = [legal[i] for i in order]
            for budget in budgets:
                bot = make_bot(f"{spec}:iterations={budget},seed=3")
                t0 = time.perf_counter()
                tree = bot.new_search(obs, strat)  # type: ignore[attr-defined]
                tree.run(budget)
                ms = (time.perf_counter() - t0) * 1000 / budget
                moves = tree.moves()
                visits = sorted((m.visits for m in moves), reverse=True)
                chosen = tree.choice(moves).code
                print(
                    f"  {budget}: {ms:.2f} ms/iteration, {len(moves)} root moves, "
                    f"{sum(v > 5 for v in visits)} over 5 visits, top {visits[:4]}, "
                    f"chosen rank {ranking.index(chosen)}, visits by depth {dict(_depths(tree.root))}"
                )


if __name__ == "__main__":
    main(
        [int(b) for b in (sys.argv[1] if len(sys.argv) > 1 else "150,300,600").split(",")],
        sys.argv[2] if len(sys.argv) > 2 else "strong1",
    )
