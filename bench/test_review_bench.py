"""Benchmarks of the review of a finished match (hunters.review), figures in docs/review.md:

    python -m pytest bench/test_review_bench.py --benchmark-enable -q -s            # the time
    python -m pytest bench/test_review_bench.py --benchmark-enable -q -s --slow     # and agreement

- `test_review_cpu_seconds`: CPU seconds (one core: the review is single-threaded) to review a
  2-player game at the default budget (the `strong` bot's, 400 iterations in H&G), one game of
  strong against each of greedy, mcts:iterations=1000 and random (`HUNTERS_REVIEW_GAMES` games
  each); the target is at most 60 s for an H&G game.
- `test_review_agrees_with_strong` (slow): `HUNTERS_REVIEW_AGREE_GAMES` (50) games of strong
  against itself at `HUNTERS_REVIEW_ITERATIONS` (30) iterations, reviewed at that budget and seed:
  the share of searched decisions whose best move is the bot's own (the target: at least 95%; by
  construction all of them).
"""

import os
import statistics
import time

import pytest

import hunters
from hunters.bots import StrongBot, make_bot
from hunters.review import review_record

GAMES = int(os.environ.get("HUNTERS_REVIEW_GAMES", "1"))
AGREE_GAMES = int(os.environ.get("HUNTERS_REVIEW_AGREE_GAMES", "50"))
AGREE_ITERATIONS = int(os.environ.get("HUNTERS_REVIEW_ITERATIONS", "30"))
GAME_IDS = hunters.games.ids()


def _play(cls, specs, seed):
    bots = [make_bot(spec, seed=seed) for spec in specs]
    game = cls.new(players=len(bots), seed=seed)
    while not game.is_over:
        game.play(bots[game.player](game))
    return game


@pytest.mark.benchmark(group="review")
@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("opponent", ["greedy", "mcts:iterations=1000", "random"])
def test_review_cpu_seconds(benchmark, game_id, opponent):
    cls = hunters.games.get(game_id)
    lineups = [["strong", opponent] if i % 2 == 0 else [opponent, "strong"] for i in range(GAMES)]
    records = [_play(cls, specs, 9700 + i).to_record() for i, specs in enumerate(lineups)]
    seconds, decisions = [], []

    def review_all():
        for record in records:
            start = time.process_time()
            review = review_record(record)
            seconds.append(time.process_time() - start)
            decisions.append(sum(d.kind == "decision" for d in review.decisions))

    benchmark.pedantic(review_all, rounds=1, warmup_rounds=0)
    benchmark.extra_info.update(
        cpu_seconds_mean=statistics.mean(seconds),
        cpu_seconds_max=max(seconds),
        searched_decisions_mean=statistics.mean(decisions),
    )
    print(
        f"\n{game_id} strong vs {opponent}: review {statistics.mean(seconds):.1f} s CPU a game "
        f"(max {max(seconds):.1f}), {statistics.mean(decisions):.0f} searched decisions"
    )
    assert all(d > 10 for d in decisions)


@pytest.mark.slow
@pytest.mark.benchmark(group="review")
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_review_agrees_with_strong(benchmark, game_id):
    cls = hunters.games.get(game_id)
    agree = total = 0

    def run():
        nonlocal agree, total
        for i in range(AGREE_GAMES):
            seed = 9800 + i
            bot = StrongBot(iterations=AGREE_ITERATIONS, seed=seed)
            game = cls.new(players=2, seed=seed)
            while not game.is_over:
                game.play(bot(game))
            review = review_record(game.to_record(), iterations=AGREE_ITERATIONS, seed=seed)
            searched = [d for d in review.decisions if d.kind == "decision"]
            agree += sum(d.best == d.played for d in searched)
            total += len(searched)

    benchmark.pedantic(run, rounds=1, warmup_rounds=0)
    share = agree / total
    benchmark.extra_info.update(games=AGREE_GAMES, iterations=AGREE_ITERATIONS, decisions=total, agreement=share)
    print(
        f"\n{game_id}: {AGREE_GAMES} games, {total} searched decisions, "
        f"the review's best is strong's move in {share:.2%}"
    )
    assert share >= 0.95
