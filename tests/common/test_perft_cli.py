"""`hunters perft` over the registry, and the generic perft a game gets from GameBase (the third
game, tests/tiny_tiles, has no perft of its own)."""

import json

import pytest

import hunters
from hunters.cli import main
from hunters.perft import perft
from tests.tiny_tiles.game import TinyGame
from tests.tiny_tiles.plugin import PLUGIN


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("game", hunters.games.ids())
def test_perft_of_a_record_and_its_divide(game, tmp_path, capsys):
    g = hunters.games.get(game).new(players=2, seed=3)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(g.to_record()))
    status, out, _ = run(["perft", str(path), "--depth", "2"], capsys)
    assert status == 0 and int(out) == g.perft(2) > 0
    status, out, _ = run(["perft", str(path), "--depth", "1", "--divide"], capsys)
    lines = out.splitlines()
    assert status == 0 and lines[-1] == f"total {g.perft(1)}" and len(lines) == g.perft(1) + 1


def test_perft_errors_are_one_line_with_status_2(tmp_path, capsys):
    path = tmp_path / "rec.json"
    path.write_text("{}")
    status, _, err = run(["perft", str(path), "--depth", "1"], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1


def test_the_generic_perft_of_the_third_game():
    hunters.games.register(PLUGIN)
    try:
        game = TinyGame.new(players=2, seed=1)
        # every decision places the tile in hand on an empty cell of the 3x3 board
        assert [perft(game, d) for d in range(5)] == [1, 9, 72, 504, 3024]
        end = game.clone()
        while not end.is_over:
            end.play(end.legal_moves()[0])
        assert [perft(end, 0), perft(end, 1)] == [1, 0]
        rows = perft(game, 2, divide=True)
        assert [m for m, _ in rows] == list(game.legal_moves()) and {n for _, n in rows} == {8}
    finally:
        hunters.games.unregister(PLUGIN.id)
