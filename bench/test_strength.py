"""Strength of the `strong` bot against the reference bots, on shared deals with seats swapped
(the arena: game i plays lineup i mod 2 on deal i div 2), 2 players. Short by default (one deal,
both seatings, 0.2 s per move); for real figures raise the counts, e.g.

    HUNTERS_STRENGTH_GAMES=40 HUNTERS_STRENGTH_TIME=1 HUNTERS_STRENGTH_JOBS=2 \\
        python -m pytest bench/test_strength.py --benchmark-enable -q -s

`test_strong_time_scaling` plays the bot at 0.1, 0.3, 1 and 3 s per move against one fixed
reference, its own one-ply version (`HUNTERS_STRENGTH_TIMES=0.1,0.3` for fewer).
`test_strong_double_iterations` plays the bot at 2N iterations against N for each N of
`HUNTERS_STRENGTH_DOUBLING` (default 50; e.g. 200,400 in H&G, about 0.15 to 0.3 s a move on one
core with the game's default playout): doubling the time at fixed iterations, the same result on
every machine.

Each case prints the arena table and the strong bot's win rate (95% Wilson interval) and mean
margin, and records them in the benchmark's extra_info. Nothing is asserted about strength: with
small samples the intervals are wide (see docs/bots.md for measured figures).
"""

import os
import statistics

import pytest

from hunters.bots.arena import run_arena
from hunters.bots.ratings import wilson_interval

GAMES = int(os.environ.get("HUNTERS_STRENGTH_GAMES", "2"))
TIME = float(os.environ.get("HUNTERS_STRENGTH_TIME", "0.2"))
JOBS = int(os.environ.get("HUNTERS_STRENGTH_JOBS", "1"))
SEED = int(os.environ.get("HUNTERS_STRENGTH_SEED", "1000"))
SCALE_TIMES = [float(t) for t in os.environ.get("HUNTERS_STRENGTH_TIMES", "0.1,0.3,1,3").split(",")]
DOUBLING = [int(n) for n in os.environ.get("HUNTERS_STRENGTH_DOUBLING", "50").split(",")]
REFERENCE = "strong:iterations=1"
"""The fixed reference of the time scaling: the bot's own one-ply version (its estimate alone), which
every time budget is measured against, so that what the search adds shows as it grows."""


def duel(game: str, spec: str, opponent: str, games: int = GAMES, seed: int = SEED, jobs: int = JOBS):
    """Play `spec` against `opponent`; return (win rate, (low, high), mean margin, mean scores, arena)."""
    result = run_arena(game, 2, [spec, opponent], games, jobs=jobs, seed=seed)
    wins, margins, own, other = 0.0, [], [], []
    for r in result.results:
        seat = r.lineup.index(0)
        wins += r.win_shares()[seat]
        margins.append(r.scores[seat] - r.scores[1 - seat])
        own.append(r.scores[seat])
        other.append(r.scores[1 - seat])
    n = len(result.results)
    return (
        wins / n,
        wilson_interval(wins, n),
        statistics.fmean(margins),
        (statistics.fmean(own), statistics.fmean(other)),
        result,
    )


CASES = [
    ("carcassonne_hg", "greedy"),
    ("carcassonne_hg", "mcts:iterations=1000"),
    ("jaeger_sammler", "greedy"),
    ("jaeger_sammler", "mcts:iterations=1000"),
]


def _report(benchmark, game, spec, opponent):
    rate, (lo, hi), margin, (own, other), result = benchmark.pedantic(
        lambda: duel(game, spec, opponent), rounds=1, iterations=1
    )
    benchmark.extra_info.update(
        game=game,
        bot=spec,
        opponent=opponent,
        games=len(result.results),
        win_rate=rate,
        win_rate_low=lo,
        win_rate_high=hi,
        mean_margin=margin,
        mean_score=own,
        opponent_mean_score=other,
    )
    print(
        f"\n{result.table()}\n{spec} vs {opponent}: win {rate:.1%} ({lo:.1%}–{hi:.1%}), margin {margin:+.1f}, "
        f"scores {own:.1f} vs {other:.1f}"
    )
    return rate


@pytest.mark.benchmark(group="strength")
@pytest.mark.parametrize(("game", "opponent"), CASES)
def test_strong_vs_reference(benchmark, game, opponent):
    rate = _report(benchmark, game, f"strong:time={TIME:g}", opponent)
    assert 0.0 <= rate <= 1.0


@pytest.mark.benchmark(group="strength")
@pytest.mark.parametrize("game", ["carcassonne_hg", "jaeger_sammler"])
def test_strong_double_time(benchmark, game):
    rate = _report(benchmark, game, f"strong:time={2 * TIME:g}", f"strong:time={TIME:g}")
    assert 0.0 <= rate <= 1.0


@pytest.mark.benchmark(group="strength")
@pytest.mark.parametrize("seconds", SCALE_TIMES)
@pytest.mark.parametrize("game", ["carcassonne_hg", "jaeger_sammler"])
def test_strong_time_scaling(benchmark, game, seconds):
    """The same bot at each time per move (HUNTERS_STRENGTH_TIMES: 0.1, 0.3, 1, 3 s) against the
    fixed REFERENCE, on the same deals."""
    rate = _report(benchmark, game, f"strong:time={seconds:g}", REFERENCE)
    assert 0.0 <= rate <= 1.0


@pytest.mark.benchmark(group="strength")
@pytest.mark.parametrize("iterations", DOUBLING)
@pytest.mark.parametrize("game", ["carcassonne_hg", "jaeger_sammler"])
def test_strong_double_iterations(benchmark, game, iterations):
    """The bot at twice `iterations` against itself at `iterations` (machine-independent)."""
    rate = _report(benchmark, game, f"strong:iterations={2 * iterations}", f"strong:iterations={iterations}")
    assert 0.0 <= rate <= 1.0
