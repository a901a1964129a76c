"""The review of a finished match: the review and the bot agree on every decision of the bot's own
games, a deliberately bad move is a blunder, forced moves and chance nodes are listed as such, and
progress, cancellation, the JSON form and bad input behave."""

import json
import random

import pytest

import hunters
from hunters.bots import StrongBot, make_bot, strategy_for
from hunters.carcassonne import Game as HG
from hunters.errors import InvalidRecordError, NotSupportedError
from hunters.jaeger import Game as JS
from hunters.review import BANDS, REVIEW_FORMAT, AnalysisCancelled, Review, Thresholds, review_record


def _selfplay(cls, seed, iterations, players=2):
    game = cls.new(players=players, seed=seed)
    bot = StrongBot(iterations=iterations, seed=seed)
    while not game.is_over:
        game.play(bot(game))
    return game


@pytest.mark.parametrize(("cls", "seed", "iterations"), [(HG, 1, 16), (HG, 2, 40), (JS, 1, 8)])
def test_the_review_calls_best_what_strong_played(cls, seed, iterations):
    """Strong against itself, reviewed with the same budget and seed: every searched decision's best
    move is the move played (the review reads the bot's own search)."""
    game = _selfplay(cls, seed, iterations)
    review = review_record(game.to_record(), iterations=iterations, seed=seed)
    searched = [d for d in review.decisions if d.kind == "decision"]
    assert len(review.decisions) == game.moves_played and len(searched) > 40
    assert all(d.best == d.played and d.band == "best" and d.cost == 0.0 for d in searched)
    assert all(s.best == s.decisions and s.mean_cost == 0.0 for s in review.seats)
    assert review.scores == game.scores and review.worst() == []


def _with_bad_move(cls, seed, at, iterations):
    """A strong self-play game (`iterations`, `seed`) where the move `at` is the mover's worst by
    the rules estimate."""
    game = cls.new(players=2, seed=seed)
    bot = StrongBot(iterations=iterations, seed=seed)
    strat = strategy_for(cls)
    while not game.is_over:
        if game.moves_played == at:
            state = game.search_state()
            _, order, _ = strat.child_estimates(state, state.legal_codes(), strat.SCALE)
            game.play(game.legal_moves()[order[-1]])
        else:
            game.play(bot(game))
    return game.to_record()


@pytest.mark.parametrize(("cls", "seed", "at", "iterations"), [(JS, 0, 20, 30), (HG, 0, 30, 60)])
def test_a_deliberately_bad_move_is_a_blunder(cls, seed, at, iterations):
    """The other moves are strong's at the review's budget and seed: the bad one is the costliest."""
    review = review_record(_with_bad_move(cls, seed, at, iterations), iterations=iterations, seed=seed)
    bad = review.decisions[at]
    assert bad.kind == "decision" and bad.index == at and bad.played != bad.best
    assert bad.band == "blunder" and bad.cost >= review.thresholds.blunder
    assert bad.after.visits == bad.before.visits  # the played move searched as often as the best
    assert bad.after.margin < bad.before.margin - review.thresholds.blunder + 1e-9
    assert review.worst(1) == [bad]
    summary = review.seats[bad.seat]
    assert summary.blunders >= 1 and summary.mean_cost > 0


def test_forced_moves_and_chance_nodes_are_listed_not_searched():
    """Jäger with explicit chance (its winter deal is a chance node): random play reaches a
    decision with a single legal move (seed 0, move 24)."""
    game = JS.new(players=2, seed=0, chance="external")
    rng = random.Random(0)
    forced = []
    while not game.is_over:
        if game.player == -1:
            outcomes = game.chance_outcomes()
            game.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
            continue
        moves = game.legal_moves()
        if len(moves) == 1:
            forced.append(game.moves_played)
        game.play(rng.choice(moves))
    record = game.to_record()
    assert forced and record["outcomes"]
    done = []
    review = review_record(record, iterations=4, seed=1, progress=lambda i, n: done.append((i, n)))
    kinds = [d.kind for d in review.decisions]
    assert kinds.count("chance") == len(record["outcomes"])
    assert [d.moves_played for d in review.decisions if d.kind == "forced"] == forced
    assert len(review.decisions) == len(record["moves"]) + len(record["outcomes"])
    for d in review.decisions:
        if d.kind == "decision":
            assert d.before is not None and d.band in BANDS
        else:
            assert (d.best, d.before, d.after, d.cost, d.band, d.alternatives) == (None,) * 6
    assert [d.played for d in review.decisions if d.kind == "chance"] == record["outcomes"]
    assert sorted(d.index for d in review.decisions if d.kind != "chance") == list(range(len(record["moves"])))
    assert done == [(i + 1, len(review.decisions)) for i in range(len(review.decisions))]
    assert sum(s.forced for s in review.seats) == len(forced)


def test_json_round_trip_and_format():
    game = _selfplay(HG, 3, 6, players=3)
    review = review_record(game.to_record(), iterations=6, seed=2, top=2)
    data = json.loads(json.dumps(review.to_json()))
    assert data["format"] == REVIEW_FORMAT and data["game"] == "carcassonne_hg" and data["players"] == 3
    assert Review.from_json(data) == review
    assert all(len(d["alternatives"]) <= 2 for d in data["decisions"] if d["kind"] == "decision")
    with pytest.raises(ValueError, match="format"):
        Review.from_json({**data, "format": REVIEW_FORMAT + 1})
    with pytest.raises(ValueError, match="fields"):
        Review.from_json({k: v for k, v in data.items() if k != "seats"})


def test_progress_and_stop():
    record = _selfplay(HG, 4, 4).to_record()
    stop = bytearray(1)

    def progress(done, total):
        if done == 3:
            stop[0] = 1

    with pytest.raises(AnalysisCancelled):
        review_record(record, iterations=4, progress=progress, stop=stop)
    with pytest.raises(AnalysisCancelled):
        review_record(record, iterations=4, stop=bytearray(b"\x01"))


def test_bad_input_is_refused_in_words():
    game = HG.new(players=2, seed=1)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    with pytest.raises(ValueError, match="not over"):
        review_record(game.to_record(), iterations=4)
    with pytest.raises(InvalidRecordError):
        review_record({**game.to_record(), "moves": [{"x": 99}]}, iterations=4)
    with pytest.raises(InvalidRecordError, match="registered game"):
        review_record({"game": "no_such_game"})
    with pytest.raises(ValueError, match="top"):
        review_record(game.to_record(), top=0)
    from tests.tiny_tiles.plugin import PLUGIN

    hunters.games.register(PLUGIN)
    try:
        tiny = hunters.games.get("tiny_tiles").new(players=2, seed=1)
        while not tiny.is_over:
            tiny.play(make_bot("random")(tiny))
        with pytest.raises(NotSupportedError, match="tiny_tiles does not support reviews"):
            review_record(tiny.to_record())
    finally:
        hunters.games.unregister("tiny_tiles")


def test_bands_by_threshold():
    t = Thresholds(2, 5, 10)
    assert [t.band(c) for c in (-1.0, 0.0, 1.9, 2.0, 4.9, 5.0, 10.0, 40.0)] == [
        "good",
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert t.band(50.0, best=True) == "best"
    with pytest.raises(ValueError):
        Thresholds(5, 2, 10)
    for cls in (HG, JS):  # each game's own thresholds, in points
        strat = strategy_for(cls)
        assert Thresholds.of(strat) == Thresholds(**strat.REVIEW_BANDS)
