"""Statistics of an arena: win rates with Wilson intervals, mean scores, Elo ratings (a
Bradley-Terry fit on pairwise results) with bootstrap intervals. Plain Python, no dependencies."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

__all__ = ["elo_ratings", "mean_interval", "pairwise", "wilson_interval"]

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (successes may be fractional: tied wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a normal 95% interval (z × standard error)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (m, m - half, m + half)


Game = tuple[Sequence[int], Sequence[float]]
"""One game for the ratings: (bot index by seat, score by seat)."""


def pairwise(games: Sequence[Game], nbots: int) -> tuple[list[list[float]], list[list[float]]]:
    """(wins, played): for every pair of seats held by different bots, a higher score is a win
    (1), an equal score half a win each."""
    wins = [[0.0] * nbots for _ in range(nbots)]
    played = [[0.0] * nbots for _ in range(nbots)]
    for lineup, scores in games:
        for a in range(len(lineup)):
            for b in range(a + 1, len(lineup)):
                i, j = lineup[a], lineup[b]
                if i == j:
                    continue
                played[i][j] += 1
                played[j][i] += 1
                if scores[a] > scores[b]:
                    wins[i][j] += 1
                elif scores[a] < scores[b]:
                    wins[j][i] += 1
                else:
                    wins[i][j] += 0.5
                    wins[j][i] += 0.5
    return wins, played


def _fit(wins: list[list[float]], played: list[list[float]], iterations: int = 300) -> list[float]:
    """Elo of each bot (mean 0) by the minorization-maximization fit of Bradley-Terry (Hunter
    2004), with one virtual draw between every pair as a prior (keeps a perfect record finite)."""
    n = len(wins)
    w = [[wins[i][j] + (0.5 if i != j else 0.0) for j in range(n)] for i in range(n)]
    m = [[played[i][j] + (1.0 if i != j else 0.0) for j in range(n)] for i in range(n)]
    gamma = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denom = sum(m[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            new.append(sum(w[i]) / denom if denom > 0 else gamma[i])
        mean_log = sum(math.log(g) for g in new) / n
        gamma = [g / math.exp(mean_log) for g in new]
    return [400 * math.log10(g) for g in gamma]


def elo_ratings(
    games: Sequence[Game], nbots: int, bootstrap: int = 200, seed: int = 0
) -> tuple[list[float], list[tuple[float, float]]]:
    """Elo ratings (mean 0) and their 95% bootstrap intervals (games resampled with replacement)."""
    if nbots < 2:
        return [0.0] * nbots, [(0.0, 0.0)] * nbots
    ratings = _fit(*pairwise(games, nbots))
    if not games or bootstrap <= 0:
        return ratings, [(r, r) for r in ratings]
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(nbots)]
    for _ in range(bootstrap):
        resampled = [games[rng.randrange(len(games))] for _ in games]
        for i, r in enumerate(_fit(*pairwise(resampled, nbots), iterations=100)):
            samples[i].append(r)
    intervals = []
    for s in samples:
        s.sort()
        intervals.append((s[int(0.025 * (len(s) - 1))], s[math.ceil(0.975 * (len(s) - 1))]))
    return ratings, intervals
