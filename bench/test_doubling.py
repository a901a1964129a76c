"""Does `strong` get stronger with time? Fixed iterations stand for time (the same games on every
machine): for each game, `strong` at 2b iterations against itself at b, and the new `strong`
against the previous version `strong1` at equal b, on deals played with the seats swapped (the
arena: game i plays lineup i mod 2 on deal i div 2), 2 players. Each case prints the arena table
and the first bot's win rate with its 95% Wilson interval and mean margin, and records them in the
benchmark's extra_info; nothing is asserted about strength (small samples, wide intervals).

Short by default (2 games a case at b = 30). The issue's full run, 100 games a point at budgets of
about 0.1 → 0.2, 0.25 → 0.5 and 0.5 → 1 s a move (Jäger about 1 ms an iteration early in a season,
H&G about 0.7 ms with its playout of 4), hours of CPU:

    HUNTERS_DOUBLING_GAMES=100 HUNTERS_DOUBLING_BUDGETS=150,350,700 HUNTERS_DOUBLING_JOBS=2 \\
        python -m pytest bench/test_doubling.py --benchmark-enable -q -s

(figures and the smaller samples actually run: docs/bots.md, `strong`).
"""

import os

import pytest

from bench.test_strength import duel

GAMES = int(os.environ.get("HUNTERS_DOUBLING_GAMES", "2"))
BUDGETS = [int(b) for b in os.environ.get("HUNTERS_DOUBLING_BUDGETS", "30").split(",")]
SEED = int(os.environ.get("HUNTERS_DOUBLING_SEED", "5300"))
JOBS = int(os.environ.get("HUNTERS_DOUBLING_JOBS", "1"))
GAMES_IDS = ["carcassonne_hg", "jaeger_sammler"]


def _report(benchmark, game, spec, opponent):
    rate, (lo, hi), margin, (own, other), result = benchmark.pedantic(
        lambda: duel(game, spec, opponent, games=GAMES, seed=SEED, jobs=JOBS), rounds=1, iterations=1
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
    )
    print(
        f"\n{result.table()}\n{game}: {spec} vs {opponent}: win {rate:.1%} ({lo:.1%}–{hi:.1%}) of "
        f"{len(result.results)}, margin {margin:+.1f}, scores {own:.1f} vs {other:.1f}"
    )
    assert len(result.results) == GAMES and 0.0 <= lo <= rate <= hi <= 1.0
    return rate


@pytest.mark.benchmark(group="doubling")
@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("game", GAMES_IDS)
def test_strong_doubling(benchmark, game, budget):
    """`strong` at 2b iterations against `strong` at b."""
    _report(benchmark, game, f"strong:iterations={2 * budget}", f"strong:iterations={budget}")


@pytest.mark.benchmark(group="doubling")
@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("game", GAMES_IDS)
def test_strong_against_strong1(benchmark, game, budget):
    """The new `strong` against the previous version, `strong1`, at equal iterations."""
    _report(benchmark, game, f"strong:iterations={budget}", f"strong1:iterations={budget}")
