"""The pictures are checked against the state they draw: every placed tile at its coordinates and
rotation, every piece once, nothing else; only what `view()` shows."""

import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from hunters import pictures
from hunters.carcassonne import Game as HG
from hunters.carcassonne import svg as hg_svg
from hunters.carcassonne.tiles import tile_data
from hunters.cli import main
from hunters.jaeger import Game as JS
from hunters.jaeger import svg as js_svg

NS = "{http://www.w3.org/2000/svg}"


def groups(picture, cls):
    root = ET.fromstring(picture)  # well-formed XML, or this raises
    return [g for g in root.iter(f"{NS}g") if g.get("class") == cls]


def played(cls, players, seed, moves=None):
    g = cls.new(players=players, seed=seed)
    rng = random.Random(seed)
    states = [g.clone()]
    while not g.is_over and (moves is None or g.moves_played < moves):
        g.play(rng.choice(g.legal_moves()))
        states.append(g.clone())
    return states


def translate(transform):
    m = re.match(r"translate\(([-\d.]+),([-\d.]+)\)", transform)
    return float(m.group(1)), float(m.group(2))


# -- Hunters & Gatherers ---------------------------------------------------------------------------
def check_hg(game):
    view = game.view()
    picture = hg_svg.svg(game)
    tiles = groups(picture, "tile")
    drawn = sorted(
        (int(g.get("data-x")), int(g.get("data-y")), int(g.get("data-tile")), int(g.get("data-rotation")))
        for g in tiles
    )
    assert drawn == sorted(game.board)
    # each tile group is turned by its rotation about the tile's centre
    for g in tiles:
        assert f"rotate({90 * int(g.get('data-rotation'))} 32 32)" in g.get("transform")
    occupants = Counter(
        (int(g.get("data-zone")), int(g.get("data-seat")), g.get("data-kind")) for g in groups(picture, "occupant")
    )
    assert occupants == Counter(game.occupants)
    assert all(n == 1 for n in occupants.values())
    hand = groups(picture, "hand")
    assert [int(g.get("data-tile")) for g in hand] == ([] if game.is_over else [game.tile])
    assert [int(g.get("data-score")) for g in groups(picture, "score")] == game.scores
    last = [r for r in ET.fromstring(picture).iter(f"{NS}rect") if r.get("class") == "last"]
    assert [int(r.get("data-tile")) for r in last] == ([game.board[-1][2]] if len(game.board) > 1 else [])
    assert picture == hg_svg.svg_of_view(view)
    return picture, tiles


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 7), (5, 11)])
def test_hg_picture_matches_state_throughout_a_game(players, seed):
    states = played(HG, players, seed)
    for game in [*states[:: max(1, len(states) // 8)], states[-1]]:
        check_hg(game)


def test_hg_pieces_stand_on_their_zone_of_the_turned_tile():
    game = played(HG, 3, 5)[-1]
    picture, tiles = check_hg(game)
    at = {int(g.get("data-tile")): translate(g.get("transform")) for g in tiles}
    rotation = {t: r for _, _, t, r in game.board}
    for g in groups(picture, "occupant"):
        tile, local = divmod(int(g.get("data-zone")), 10)
        u, v = hg_svg.zone_anchor(tile, local, rotation[tile])
        px, py = at[tile]
        dx, dy = hg_svg.PIECE_OFFSET
        assert translate(g.get("transform")) == pytest.approx((px + u * 64 + dx, py + v * 64 + dy), abs=0.02)


def test_zone_anchor_turns_with_the_tile_as_the_contract_says():
    # side facing direction d after r turns is the unrotated side (d - r) mod 4: a meadow that has
    # one whole side d (and nothing else) lies nearest the side (d + r) mod 4 once turned
    mids = [(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)]
    checked = 0
    for t in tile_data():
        for local in {s["zone"] for s in t["sides"] if s["type"] != "river"}:
            own = [d for d, s in enumerate(t["sides"]) if s.get("zone") == local]
            in_rivers = any(local in s.get("zones", ()) for s in t["sides"])
            if len(own) != 1 or in_rivers:
                continue
            for r in range(4):
                u, v = hg_svg.zone_anchor(t["id"], local, r)
                near = min(range(4), key=lambda d: (mids[d][0] - u) ** 2 + (mids[d][1] - v) ** 2)
                assert near == (own[0] + r) % 4, (t["id"], local, r)
                checked += 1
    assert checked > 100


def test_every_tile_draws_its_marks():
    sheet = "".join(hg_svg.tile_svg(t["id"]) for t in tile_data())
    for t in tile_data():
        one = hg_svg.tile_svg(t["id"])
        for zone in t["zones"]:
            for animal in zone.get("animals", []):
                assert f'data-animal="{animal}"' in one
            if zone.get("power"):
                assert f'data-power="{zone["power"]}"' in one
    powers = re.findall(r'data-power="(\w+)"', sheet)
    assert sorted(powers) == sorted(["shaman", "logboat", "hunting_trap", "pit_trap", "wild_fire", "raft"])
    assert sheet.count('class="mushrooms"') == 2
    animals = Counter(re.findall(r'data-animal="(\w+)"', sheet))
    assert animals == Counter(a for t in tile_data() for z in t["zones"] for a in z.get("animals", []))


def test_hg_repr_svg_and_record_at():
    states = played(HG, 2, 3, moves=12)
    game = states[-1]
    assert game._repr_svg_() == hg_svg.svg(game)
    record = game.to_record()
    assert hg_svg.svg(record, at=5) == hg_svg.svg(states[5]) == hg_svg.svg(game, at=5)
    assert hg_svg.svg(record) == hg_svg.svg(game)
    with pytest.raises(ValueError, match="at must be"):
        hg_svg.svg(record, at=13)
    with pytest.raises(TypeError):
        hg_svg.svg("nonsense")


# -- Jäger und Sammler ---------------------------------------------------------------------------
def check_js(game):
    view = game.view()
    picture = js_svg.svg(game)
    spaces = groups(picture, "space")
    assert [int(g.get("data-space")) for g in spaces] == list(range(game.board.n))
    assert [g.get("data-tile") or None for g in spaces] == game.tiles
    assert [g.get("data-kind") for g in spaces] == list(game.board.kinds)
    chars = Counter((int(g.get("data-seat")), int(g.get("data-space"))) for g in groups(picture, "character"))
    assert chars == Counter(game.characters)
    packs = Counter((int(g.get("data-space")), int(g.get("data-seat"))) for g in groups(picture, "pack"))
    assert packs == Counter(game.supply_packs)
    scores = [g.get("data-score") for g in groups(picture, "score")]
    if game.is_over:
        assert [int(s) for s in scores] == game.scores
    else:  # face-down tiles and scores stay hidden, as in view()
        assert scores == [""] * game.players
        assert "ber " not in picture
    assert picture == js_svg.svg_of_view(view, game.board.to_json())
    return picture


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 9)])
def test_js_picture_matches_state_throughout_a_game(players, seed):
    states = played(JS, players, seed)
    assert states[-1].is_over
    for game in [*states[:: max(1, len(states) // 8)], states[-1]]:
        check_js(game)


def test_js_picture_shows_the_open_collections_option():
    game = JS.new(players=2, seed=4, open_collections=True)
    rng = random.Random(4)
    for _ in range(10):
        game.play(rng.choice(game.legal_moves()))
    picture = js_svg.svg(game)
    assert [int(g.get("data-score")) for g in groups(picture, "score")] == game.scores
    assert "ber " in picture


def test_js_explicit_board_with_and_without_positions():
    spaces = [
        {"kind": "summer_camp", "pos": [0, 0]},
        {"kind": "tile", "pos": [1, 0]},
        {"kind": "winter_camp", "pos": [2, 0]},
        {"kind": "tile", "pos": [0, 1]},
    ]
    board = {"spaces": spaces, "adjacency": [[0, 1], [1, 2], [0, 3], [1, 3]]}
    for b in (board, dict(board, spaces=[{"kind": s["kind"]} for s in spaces])):
        game = JS.new(players=2, board=b, summer={1: "berries", 3: "herbs"}, winter=["pelt"], start=[[0], [0]])
        check_js(game)


def test_js_repr_svg_and_record_at():
    states = played(JS, 3, 2, moves=9)
    game = states[-1]
    assert game._repr_svg_() == js_svg.svg(game)
    assert js_svg.svg(game.to_record(), at=4) == js_svg.svg(states[4])


# -- the registry-wide entry point and the command -----------------------------------------------
def test_pictures_dispatch_by_game_id():
    for cls, mod in ((HG, hg_svg), (JS, js_svg)):
        game = cls.new(players=2, seed=1)
        assert pictures.svg(game) == mod.svg(game)
        assert pictures.svg(game.to_record(), at=0) == mod.svg(game)


def test_render_command(tmp_path, capsys):
    game = played(HG, 2, 8, moves=15)[-1]
    rec = tmp_path / "rec.json"
    rec.write_text(json.dumps(game.to_record()))
    out = tmp_path / "pic.svg"
    assert main(["render", str(rec), "--at", "7", "-o", str(out)]) == 0
    assert out.read_text() == hg_svg.svg(game.to_record(), at=7)
    assert main(["render", str(rec), "--at", "99", "-o", str(out)]) == 2
    assert "at must be an int from 0 to 15" in capsys.readouterr().err
    rec.write_text("{}")
    assert main(["render", str(rec), "-o", str(out)]) == 2
    assert "invalid record: no game id" in capsys.readouterr().err


def test_render_png(tmp_path):
    pytest.importorskip("cairosvg", reason="PNG output needs the optional extra hunters-engine[png] (cairosvg)")
    rec = tmp_path / "rec.json"
    rec.write_text(json.dumps(played(JS, 2, 8, moves=5)[-1].to_record()))
    out = tmp_path / "pic.png"
    assert main(["render", str(rec), "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_module_examples_run():
    import doctest

    for mod in (hg_svg, js_svg):
        result = doctest.testmod(mod)
        assert result.attempted > 0 and result.failed == 0


def test_a_game_without_pictures_says_so():
    import hunters

    class Plain(HG):
        INFO = HG.INFO.__class__(**{**HG.INFO.__dict__, "id": "plain_test"})

    Plain.__module__ = "tests.pictures.plain"  # a package with no svg module
    hunters.games.register(Plain)
    try:
        with pytest.raises(ValueError, match="draws no pictures"):
            pictures.svg_module("plain_test")
    finally:
        hunters.games.unregister("plain_test")
