"""The `hunters` command line: simulate, replay and bench for every registered game."""
import json

import pytest

from hunters.cli import main


@pytest.mark.parametrize("game", ["carcassonne_hg", "jaeger_sammler"])
def test_simulate_json_and_replay(game, tmp_path, capsys):
    record = tmp_path / "game.json"
    assert main(["simulate", "--game", game, "--players", "3", "--seed", "4", "--json", "--record", str(record)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == game and out["players"] == 3 and len(out["scores"]) == 3
    assert out["winners"] and all(out["scores"][w] == max(out["scores"]) for w in out["winners"])
    assert main(["replay", str(record)]) == 0
    assert f"scores={out['scores']}" in capsys.readouterr().out
    assert main(["simulate", "--game", game, "--players", "3", "--seed", "4"]) == 0
    text = capsys.readouterr().out
    assert f"{game}: 3 random players, seed 4" in text and "winner" in text


def test_replay_refuses_a_bad_record(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "carcassonne_hg", "players": 2, "seed": 1,
                               "moves": [{"x": 0, "y": 0, "rotation": 0}]}))
    assert main(["replay", str(bad)]) == 1
    assert "POSITION_OCCUPIED" in capsys.readouterr().err
    bad.write_text("[]")
    assert main(["replay", str(bad)]) == 1


def test_unknown_game():
    with pytest.raises(SystemExit):
        main(["simulate", "--game", "chess"])


def test_bench(capsys):
    assert main(["bench", "--games", "40"]) == 0
    assert "games/s" in capsys.readouterr().out
