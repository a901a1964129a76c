"""The arena: seat rotation, reproducibility across --jobs, statistics, outputs, forfeits, CLI."""

import csv
import io
import json

import pytest

from hunters.bots import BOTS, Bot
from hunters.bots.arena import ArenaResult, lineups, play_game, pooled, run_arena
from hunters.bots.ratings import elo_ratings, mean_interval, pairwise, wilson_interval
from hunters.cli import main


def test_lineups_rotate_every_bot_through_every_seat():
    for nbots, players in [(2, 2), (3, 2), (3, 3), (2, 4), (4, 3), (1, 2)]:
        seats = lineups(nbots, players)
        for b in range(nbots):
            counts = [sum(1 for lu in seats if lu[p] == b) for p in range(players)]
            assert len(set(counts)) == 1 and counts[0] > 0, (nbots, players, counts)
    assert lineups(3, 2) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]


def test_arena_is_reproducible_and_balanced():
    a = run_arena("carcassonne_hg", 2, ["greedy", "random"], 6, seed=3)
    b = run_arena("carcassonne_hg", 2, ["greedy", "random"], 6, seed=3, jobs=2)
    key = lambda r: (r.index, r.seed, r.lineup, r.scores, r.winners, r.moves)
    assert [key(r) for r in a.results] == [key(r) for r in b.results]
    assert [r.lineup for r in a.results] == [[0, 1], [1, 0]] * 3
    assert [r.seed for r in a.results] == [3, 3, 4, 4, 5, 5]  # both lineups play the same deals
    stats = {s.bot: s for s in a.stats()}
    assert stats["greedy"].games == stats["random"].games == 6
    assert stats["greedy"].wins + stats["random"].wins == pytest.approx(6)
    assert stats["greedy"].win_rate > stats["random"].win_rate and stats["greedy"].elo > stats["random"].elo
    assert stats["greedy"].elo == pytest.approx(-stats["random"].elo)


def test_arena_outputs(tmp_path):
    r = run_arena("jaeger_sammler", 3, ["greedy", "random", "mcts:iterations=20"], 6, seed=1, keep_records=True)
    data = r.to_json()
    assert data["games"] == 6 and len(data["stats"]) == 3 and len(data["results"]) == 6
    json.dumps(data)
    rows = list(csv.DictReader(io.StringIO(r.to_csv())))
    assert [row["bot"] for row in rows] == ["greedy", "random", "mcts:iterations=20"]
    assert r.write_records(str(tmp_path)) == 6
    saved = json.loads((tmp_path / "game-00003.json").read_text())
    from hunters.jaeger import Game

    game = Game.from_record(saved["record"])
    assert game.is_over and game.scores == saved["scores"] and saved["bots"] == [r.bots[b] for b in r.results[3].lineup]
    assert "win rate" in r.table() and "Elo" in r.table()


class _Broken(Bot):
    name = "broken"

    def __init__(self, seed=0, mode="raise"):
        self.mode = mode

    def choose(self, obs):
        if self.mode == "raise":
            raise RuntimeError("boom")
        return "not a move"


@pytest.mark.parametrize("mode", ["raise", "illegal"])
def test_a_failing_bot_forfeits_and_the_arena_goes_on(monkeypatch, mode):
    monkeypatch.setitem(BOTS, "broken", _Broken)
    r = run_arena("carcassonne_hg", 2, ["random", f"broken:mode={mode}"], 2, seed=1)
    for g in r.results:
        broken_seat = g.lineup.index(1)
        assert g.forfeit["seat"] == broken_seat and g.winners == [1 - broken_seat]
        assert ("boom" in g.forfeit["reason"]) if mode == "raise" else ("illegal" in g.forfeit["reason"])
    stats = {s.bot: s for s in r.stats()}
    assert stats["random"].win_rate == 1.0 and stats[f"broken:mode={mode}"].forfeits == 2
    assert "forfeited" in r.table()


def test_play_game_uses_the_lineup():
    g = play_game("carcassonne_hg", 2, ["random", "greedy"], [1, 0], seed=5, keep_record=True)
    assert g.lineup == [1, 0] and g.record["seed"] == 5 and sum(g.decisions) == g.moves
    assert g.think_seconds[0] > 0


def test_statistics():
    lo, hi = wilson_interval(95, 100)
    assert 0.88 < lo < 0.95 < hi < 0.985
    assert wilson_interval(0, 0) == (0.0, 1.0)
    m, lo, hi = mean_interval([1, 2, 3, 4])
    assert m == 2.5 and lo < 2.5 < hi
    games = [([0, 1], [10, 5])] * 30 + [([1, 0], [10, 5])] * 10 + [([0, 1], [3, 3])] * 2
    wins, played = pairwise(games, 2)
    assert wins[0][1] == 31 and wins[1][0] == 11 and played[0][1] == 42
    elo, ci = elo_ratings(games, 2, bootstrap=50)
    # 31 of 42 (+1 virtual draw): 400 log10(31.5 / 11.5)
    import math

    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(31.5 / 11.5), abs=0.5)
    assert ci[0][0] < elo[0] < ci[0][1]


def test_cli_arena(tmp_path, capsys):
    out = tmp_path / "a.json"
    status = main(
        [
            "arena",
            "--game",
            "carcassonne_hg",
            "--players",
            "2",
            "--bot",
            "greedy",
            "--bot",
            "random",
            "--games",
            "4",
            "--jobs",
            "1",
            "--quiet",
            "--json",
            str(out),
            "--csv",
            str(tmp_path / "a.csv"),
            "--records",
            str(tmp_path / "rec"),
        ]
    )
    assert status == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "win rate" in text
    assert json.loads(out.read_text())["games"] == 4
    assert len(list((tmp_path / "rec").iterdir())) == 4
    with pytest.raises(SystemExit):
        main(["arena", "--bot", "nobot", "--games", "2", "--quiet"])
    with pytest.raises(SystemExit):
        main(["arena", "--players", "9", "--games", "2", "--quiet"])
    with pytest.raises(SystemExit):
        main(["arena", "--jobs", "-1", "--games", "2", "--quiet"])


def test_pooled_runs_are_one_run_of_all_their_games(tmp_path, capsys):
    """Two runs on consecutive deals, pooled (`hunters arena --pool`), are one result over the
    single run's deals and seatings, renumbered, with every game and margin of both; a run
    repeated, or of other bots, is refused."""
    whole = run_arena("carcassonne_hg", 2, ["greedy", "random"], 8, seed=40)
    halves = [run_arena("carcassonne_hg", 2, ["greedy", "random"], 4, seed=s) for s in (40, 42)]
    files = []
    for i, half in enumerate(halves):
        files.append(tmp_path / f"h{i}.json")
        files[-1].write_text(json.dumps(half.to_json()))
    back = [ArenaResult.from_json(json.loads(f.read_text())) for f in files]
    pool = pooled(back)
    key = lambda r: (r.seed, r.lineup, r.scores, r.winners, r.moves)
    # the second half's bots draw other seeds (derived from its own arena seed), so games may
    # differ; the deals, seatings and counts are the whole run's
    assert [(r.seed, r.lineup) for r in pool.results] == [(r.seed, r.lineup) for r in whole.results]
    assert [r.index for r in pool.results] == list(range(8))
    assert [key(r) for r in pool.results[:4]] == [key(r) for r in whole.results[:4]]
    stats = {s.bot: s for s in pool.stats()}
    assert stats["greedy"].games == 8 and stats["greedy"].wins + stats["random"].wins == pytest.approx(8)
    assert pool.margins(0, 1) == [
        r.scores[r.lineup.index(0)] - r.scores[r.lineup.index(1)] for r in [*halves[0].results, *halves[1].results]
    ]
    assert main(["arena", "--pool", *map(str, files), "--json", str(tmp_path / "p.json")]) == 0
    text = capsys.readouterr().out
    assert "8 games" in text and "pooled from 2 runs (seeds 40, 42)" in text and "mean margin" in text
    assert json.loads((tmp_path / "p.json").read_text())["games"] == 8
    with pytest.raises(ValueError, match="two runs played deal 40"):
        pooled([back[0], back[0]])
    other = run_arena("carcassonne_hg", 2, ["random", "greedy"], 2, seed=90)
    with pytest.raises(ValueError, match="cannot pool"):
        pooled([back[0], other])
    assert main(["arena", "--pool", str(files[0]), str(files[0])]) == 2
    assert "two runs played deal" in capsys.readouterr().err
