"""`hunters review`: the table, the JSON review and the SVG plot of a match with a blunder in it,
and one-line errors for files it cannot use."""

import json
import xml.etree.ElementTree as ET

import pytest

from hunters.cli import main
from hunters.jaeger import Game as JS
from hunters.review import Review, review_record
from hunters.review.plot import plot_svg
from tests.review.test_review import _with_bad_move

SVG = "{http://www.w3.org/2000/svg}"
AT = 20


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("review") / "match.json"
    path.write_text(json.dumps(_with_bad_move(JS, 0, AT, 30)))
    return path


def test_review_prints_the_table_and_writes_json_and_svg(record_file, tmp_path, capsys):
    out_json, out_svg = tmp_path / "review.json", tmp_path / "plot.svg"
    args = ["review", str(record_file), "--iterations", "30", "--seed", "2", "--top", "2", "--quiet"]
    assert main([*args, "--json", str(out_json), "--svg", str(out_svg)]) == 0
    text = capsys.readouterr().out
    review = Review.from_json(json.loads(out_json.read_text()))
    assert review == review_record(json.loads(record_file.read_text()), iterations=30, seed=2, top=2)
    bad = review.decisions[AT]
    assert bad.band == "blunder"
    line = next(row for row in text.splitlines() if row.split()[:2] == [str(AT + 1), str(bad.seat)])
    assert "blunder" in line and "<<" in line
    assert "strong:iterations=30" in text and "The costliest moves:" in text
    assert f"move {AT + 1}, seat {bad.seat}: blunder" in text
    root = ET.fromstring(out_svg.read_text())
    assert root.tag == f"{SVG}svg"
    lines = root.findall(f".//{SVG}polyline")
    assert [int(p.get("data-seat")) for p in lines] == [0, 1]
    marks = [g for g in root.iter(f"{SVG}g") if g.get("class") == "mark"]
    assert {(int(g.get("data-index")), g.get("data-band")) for g in marks} >= {(AT, "blunder")}
    assert len(marks) == sum(d.band in ("blunder", "mistake") for d in review.decisions)
    points = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "point"]
    assert len(points) == 2 * sum(d.kind == "decision" for d in review.decisions)
    assert out_svg.read_text().strip() == plot_svg(review)


def test_review_refuses_what_it_cannot_use(tmp_path, capsys):
    missing = tmp_path / "missing.json"
    assert main(["review", str(missing)]) == 2
    assert "hunters review:" in capsys.readouterr().err
    unfinished = JS.new(players=2, seed=1)
    unfinished.play(unfinished.legal_moves()[0])
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(unfinished.to_record()))
    assert main(["review", str(path), "--quiet"]) == 2
    assert "not over" in capsys.readouterr().err
    path.write_text("{not json")
    assert main(["review", str(path)]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_an_arena_game_file_is_replayed_rendered_and_reviewed_as_it_is(tmp_path, capsys):
    """`hunters arena --records DIR` writes each game with its bots and result around the record:
    the commands that take a record read that file too."""
    records = tmp_path / "games"
    arena = ["arena", "--game", "jaeger_sammler", "--bot", "random:seed=1", "--bot", "greedy", "--games", "1"]
    assert main([*arena, "--jobs", "1", "--quiet", "--records", str(records)]) == 0
    (game,) = records.iterdir()
    assert json.loads(game.read_text())["record"]["game"] == "jaeger_sammler"
    capsys.readouterr()
    assert main(["replay", str(game)]) == 0
    assert main(["render", str(game), "-o", str(tmp_path / "end.svg")]) == 0
    assert main(["review", str(game), "--iterations", "3", "--quiet"]) == 0
    assert "The costliest moves:" in capsys.readouterr().out
