"""The `hunters` command line: version, help defaults, simulate (one game or many), replay and bench
for every registered game; errors are one line with exit status 2."""

import argparse
import json

import pytest

import hunters
from hunters.cli import build_parser, main

GAMES = hunters.games.ids()


def run(argv, capsys):
    """(exit status, stdout, stderr) of one command, argparse exits included."""
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def test_version(capsys):
    status, out, _ = run(["--version"], capsys)
    assert status == 0 and out.strip() == f"hunters {hunters.__version__}"


def _commands():
    return sorted(build_parser()._subparsers._group_actions[0].choices)


@pytest.mark.parametrize("command", _commands())
def test_help_shows_every_default(command, capsys):
    """Every option with a default names it (options without a help text too), and none says
    "(default: None)" or names its default twice."""
    status, out, _ = run([command, "--help"], capsys)
    assert status == 0
    text = " ".join(out.split())
    assert "(default: None)" not in text
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    for action in sub._actions:
        if action.default in (None, False, argparse.SUPPRESS) or action.dest == "help":
            continue
        own = " ".join((action.help or "").split())
        if "default" in own:  # the text says it in its own words
            assert f"(default: {action.default})" not in text, action.dest
        else:
            assert f"(default: {action.default})" in text, action.dest


@pytest.mark.parametrize("game", GAMES)
def test_simulate_json_record_and_replay(game, tmp_path, capsys):
    record = tmp_path / "game.json"
    status, out, _ = run(
        ["simulate", "--game", game, "--players", "3", "--seed", "4", "--json", "--record", str(record)], capsys
    )
    assert status == 0
    res = json.loads(out)
    assert res["game"] == game and res["players"] == 3 and len(res["scores"]) == 3
    assert res["winners"] and all(res["scores"][w] == max(res["scores"]) for w in res["winners"])
    assert [sum(pts[p] for pts in res["points_by_kind"].values()) for p in range(3)] == res["scores"]
    status, out, _ = run(["replay", str(record)], capsys)
    game_obj = hunters.games.get(game).from_record(json.loads(record.read_text()))
    assert status == 0 and out.strip() == game_obj.summary()
    assert "<Game" not in out and "winner" in out and "total" in out
    status, out, _ = run(["replay", str(record), "--at", "3"], capsys)
    assert status == 0 and "3 moves: seat" in out and "winner" not in out


@pytest.mark.parametrize("game", GAMES)
def test_simulate_one_game_text(game, capsys):
    status, out, _ = run(["simulate", "--game", game, "--players", "2", "--seed", "4"], capsys)
    assert status == 0 and f"{game}: 2 random players, seed 4" in out and "winner" in out


@pytest.mark.parametrize("game", GAMES)
def test_simulate_many_games_aggregates(game, capsys):
    status, out, _ = run(
        ["simulate", "--game", game, "--players", "2", "--games", "6", "--seed", "1", "--json"], capsys
    )
    assert status == 0
    res = json.loads(out)
    cls = hunters.games.get(game)
    singles = [cls.from_record(json.loads(json.dumps(_one(cls, 1 + i).to_record()))) for i in range(6)]
    assert res["games"] == 6 and res["mean_scores"] == [sum(g.scores[p] for g in singles) / 6 for p in range(2)]
    assert res["win_rates"] == [sum(p in g.winners for g in singles) / 6 for p in range(2)]
    assert sum(res["win_rates"]) >= 1 and set(res["mean_points_by_kind"]) == set(singles[0].points_by_kind())
    status, out, _ = run(["simulate", "--game", game, "--players", "2", "--games", "6"], capsys)
    assert status == 0 and "win rate" in out and "mean score" in out


def _one(cls, seed):
    import random

    rng = random.Random(seed)
    g = cls.new(players=2, seed=seed)
    while not g.is_over:
        g.play(rng.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--game", "jaeger_sammler", "--players", "5"],
        ["simulate", "--game", "carcassonne_hg", "--players", "1"],
        ["simulate", "--game", "chess"],
        ["simulate", "--games", "0"],
        ["simulate", "--games", "2", "--record", "x.json"],
        ["bench", "--game", "jaeger_sammler", "--players", "6"],
        ["simulate", "--players", "three"],
        ["frobnicate"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv, capsys):
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("hunters")


def test_replay_errors_are_one_line_with_status_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    cases = {
        "missing": (tmp_path / "nope.json", "No such file"),
        "illegal": (
            json.dumps({"game": "carcassonne_hg", "players": 2, "seed": 1, "moves": [{"x": 0, "y": 0, "rotation": 0}]}),
            "POSITION_OCCUPIED",
        ),
        "not json": ("{oops", "not JSON"),
        "no game": ("[]", "no game id"),
        "unknown game": (json.dumps({"game": "chess"}), "unknown game"),
        "bad config": (json.dumps({"game": "jaeger_sammler", "players": 9}), "bad configuration"),
    }
    for name, (content, needle) in cases.items():
        path = content if name == "missing" else bad
        if name != "missing":
            bad.write_text(content)
        status, out, err = run(["replay", str(path)], capsys)
        assert status == 2 and out == "", name
        assert len(err.strip().splitlines()) == 1 and needle in err, (name, err)
    bad.write_text(json.dumps({"game": "carcassonne_hg", "players": 2, "seed": 1, "moves": []}))
    status, _, err = run(["replay", str(bad), "--at", "5"], capsys)
    assert status == 2 and "--at" in err


@pytest.mark.parametrize("game", GAMES)
def test_bench(game, capsys):
    status, out, _ = run(["bench", "--game", game, "--games", "40", "--quiet"], capsys)
    assert status == 0 and out.count("games/s") == 2 and game in out


@pytest.mark.parametrize("argv", [["bench", "--games", "60"], ["simulate", "--games", "4", "--players", "2"]])
def test_progress_bar_on_a_terminal(argv, capsys, monkeypatch):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    status, _, err = run(argv, capsys)
    assert status == 0 and "carcassonne_hg" in err
    total = argv[argv.index("--games") + 1]
    assert f"{total}/{total}" in err
    status, _, err = run([*argv, "--quiet"], capsys)
    assert status == 0 and err == ""


@pytest.mark.parametrize(
    "given, target",
    [
        ("localhost", "localhost:50051"),
        ("localhost:6000", "localhost:6000"),
        ("10.0.0.7", "10.0.0.7:50051"),
        ("10.0.0.7:6000", "10.0.0.7:6000"),
        ("[::1]", "[::1]:50051"),
        ("[::1]:6000", "[::1]:6000"),
        ("::1", "[::1]:50051"),
        ("fe80::1:2", "[fe80::1:2]:50051"),
        ("unix:/run/hunters.sock", "unix:/run/hunters.sock"),
        ("dns:///example.org:7000", "dns:///example.org:7000"),
    ],
)
def test_a_server_address_without_a_port_means_the_default_port(given, target):
    """One parser for every command that takes a server address: `hunters play` and `hunters
    arena --address` (the health check too: tests/bots/test_remote.py); the default port is
    `hunters serve`'s."""
    from hunters.address import DEFAULT_PORT, server_address

    assert DEFAULT_PORT == 50051 and build_parser().parse_args(["serve"]).port == DEFAULT_PORT
    assert server_address(given) == target
    play = ["play", "--address", given, "--match", "m", "--token", "t", "--seat", "0"]
    assert build_parser().parse_args(play).address == target
    assert build_parser().parse_args(["arena", "--address", given]).address == target


@pytest.mark.parametrize(
    "given, says",
    [
        ("", "names no host"),
        (":6000", "names no host"),
        ("localhost:", "the port must be a number from 1 to 65535"),
        ("localhost:0", "not '0'"),
        ("localhost:70000", "not '70000'"),
        ("localhost:http", "not 'http'"),
        ("[::1", "closing ']'"),
        ("[::1]6000", "after ']'"),
    ],
)
def test_a_bad_server_address_is_a_one_line_error(given, says, capsys):
    status, _, err = run(["play", "--address", given, "--match", "m", "--token", "t", "--seat", "0"], capsys)
    last = err.strip().splitlines()[-1]  # after the usage
    assert status == 2 and last.startswith("hunters play: error: argument --address: ") and says in last
