"""The strength ladder: every built-in bot against every other in one arena per game (2 players,
every ordered pair of bots on shared deals), with win rates, Elo and their 95% intervals, and
seconds per move. Short by default (one round of the lineups); `strong` plays its game's default
budget (fixed iterations: the same games on every machine) unless HUNTERS_LADDER_TIME gives it
seconds per move instead. For the README's figures raise the counts, e.g.

    HUNTERS_LADDER_ROUNDS=8 HUNTERS_LADDER_JOBS=2 \\
        python -m pytest bench/test_ladder.py --benchmark-enable -q -s

Each game prints the arena's table and records every bot's row in the benchmark's extra_info.
Nothing is asserted about strength (see docs/bots.md for measured figures), only that the ladder
holds every bot and every game it was asked for."""

import os

import pytest

import hunters
from hunters.bots.arena import lineups, run_arena

ROUNDS = int(os.environ.get("HUNTERS_LADDER_ROUNDS", "1"))
TIME = float(os.environ.get("HUNTERS_LADDER_TIME", "0"))
JOBS = int(os.environ.get("HUNTERS_LADDER_JOBS", "1"))
SEED = int(os.environ.get("HUNTERS_LADDER_SEED", "7000"))


def ladder_bots(time_per_move: float) -> list[str]:
    """The reference bots, weakest first, and the strong bot: at `time_per_move` seconds a move,
    or with its game's default iterations when that is 0."""
    strong = f"strong:time={time_per_move:g}" if time_per_move else "strong"
    return ["random", "greedy", "mcts:iterations=1000", strong]


@pytest.mark.benchmark(group="ladder")
@pytest.mark.parametrize("game", hunters.games.ids())
def test_ladder(benchmark, game):
    bots = ladder_bots(TIME)
    games = ROUNDS * len(lineups(len(bots), 2))
    result = benchmark.pedantic(lambda: run_arena(game, 2, bots, games, jobs=JOBS, seed=SEED), rounds=1, iterations=1)
    stats = result.stats()
    print(f"\n{result.table()}")
    benchmark.extra_info.update(
        game=game,
        games=len(result.results),
        bots={
            s.bot: {
                "win_rate": s.win_rate,
                "elo": s.elo,
                "elo_low": s.elo_low,
                "elo_high": s.elo_high,
                "seconds_per_move": s.seconds_per_move,
            }
            for s in stats
        },
    )
    assert len(result.results) == games and [s.bot for s in stats] == bots
