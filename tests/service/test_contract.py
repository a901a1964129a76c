"""The hunters.v1 contract: typed options and their validation, hidden information in Match.config
and the Jäger state, strict JSON, and GameService content checked against the game packages."""

import json
import subprocess
import sys

import grpc
import pytest

from hunters import games as registry
from hunters.carcassonne import Game as CGame
from hunters.carcassonne import actions as c_actions
from hunters.carcassonne.tiles import MENHIR_TILES, NORMAL_TILES, START_TILE, tile_data
from hunters.jaeger import ACTION_SPACE_SIZE as J_ACTIONS
from hunters.jaeger import DEFAULT_OPTIONS, default_board
from hunters.jaeger import Game as JGame
from hunters.jaeger.tiles import KINDS
from hunters.jaeger.tiles import data as jaeger_data
from hunters.status import error_info
from hunters.v1 import (
    carcassonne_pb2,
    games_pb2,
    games_pb2_grpc,
    jaeger_pb2,
    matches_pb2,
    moves_pb2,
    oracle_pb2,
)
from hunters.wire import MAX_JSON_DEPTH, WireError, adapter, loads_json

from .helpers import over, rpc_error, stubs

CARC, JAEGER = adapter("carcassonne_hg"), adapter("jaeger_sammler")


def config(game="jaeger_sammler", players=2, seed=3, **opts):
    c = matches_pb2.GameConfig(game=game, players=players, seed=seed)
    if game == "jaeger_sammler" and opts:
        JAEGER.options_to_proto(opts, c)
    elif opts:
        CARC.options_to_proto(opts, c)
    return c


def create_error(stub, cfg):
    return rpc_error(stub.CreateMatch, matches_pb2.CreateMatchRequest(config=cfg))


def grid(rows, cols, missing=(), summer=((0, 0),), winter=((0, 1),)):
    return {
        "grid": {"rows": rows, "cols": cols, "offset": "odd-r", "missing": [list(m) for m in missing]},
        "camps": {"summer": [list(c) for c in summer], "winter": [list(c) for c in winter]},
    }


# -- option validation ------------------------------------------------------------------------
def _bad_jaeger_configs():
    c = config()
    c.jaeger.board.grid.rows, c.jaeger.board.grid.cols = 0, 5
    yield "grid rows 0", c
    c = config()
    c.jaeger.board.grid.rows, c.jaeger.board.grid.cols = 2**31 - 1, 2**31 - 1  # refused before allocating
    yield "huge grid", c
    c = config()
    c.jaeger.board.grid.rows, c.jaeger.board.grid.cols = 1024, 1024
    yield "grid over the space limit", c
    c = config()
    c.jaeger.board.grid.rows, c.jaeger.board.grid.cols = 3, 3
    c.jaeger.board.grid.missing.extend(jaeger_pb2.JaegerCell(row=0, col=0) for _ in range(1025))
    yield "too many missing cells", c
    c = config()
    c.jaeger.board.grid.rows, c.jaeger.board.grid.cols = 3, 3
    c.jaeger.board.grid.offset = 9
    yield "unknown offset", c
    c = config()
    c.jaeger.board.explicit.SetInParent()
    yield "explicit board without spaces", c
    c = config()
    c.jaeger.board.explicit.spaces.extend(jaeger_pb2.JaegerBoardSpace() for _ in range(100_000))
    yield "explicit board too big", c
    c = config()
    c.jaeger.board.explicit.spaces.add()
    c.jaeger.board.explicit.adjacency.extend(jaeger_pb2.JaegerAdjacency(a=0, b=0) for _ in range(9000))
    yield "too many neighbour pairs", c
    c = config()
    c.jaeger.board.SetInParent()
    yield "board without a layout", c
    yield (
        "straight jumps without positions",
        config(
            board={
                "spaces": [{"kind": "tile"}] * 3 + [{"kind": "summer_camp"}, {"kind": "winter_camp"}],
                "adjacency": [[0, 1], [1, 2], [2, 3], [3, 4]],
            },
            straight_jumps=True,
        ),
    )
    yield "too few summer mammoths", config(mammoths_summer=[4, 6])
    yield "mammoth value 0", config(mammoths_summer=[4, 6, 0])
    yield "mammoth value 99", config(mammoths_winter=[99] * 12)
    yield "too many mammoth values", config(mammoths_winter=[3] * 5000)
    yield "stall_rounds negative", config(stall_rounds=-1)
    yield "stall_rounds too big", config(stall_rounds=10_001)
    c = config()
    c.jaeger.winter_start = 7
    yield "unknown winter_start", c
    c = config()
    c.jaeger.ties = 9
    yield "unknown ties", c
    c = config()
    c.jaeger.summer_layout.tiles.add(space=13, tile=jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_BERRIES))
    c.jaeger.summer_layout.tiles.add(space=13, tile=jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_HERBS))
    yield "a space laid twice", c
    c = config()
    c.jaeger.summer_layout.tiles.add(space=13, tile=jaeger_pb2.JaegerTile())
    yield "a tile without a kind", c
    c = config()
    c.jaeger.summer_layout.tiles.add(space=13, tile=jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_MAMMOTH))
    yield "a mammoth without a value", c
    c = config()
    c.jaeger.summer_layout.tiles.add(
        space=13, tile=jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_JUG, mammoth_value=3)
    )
    yield "a value on a jug", c
    c = config()
    c.jaeger.summer_layout.tiles.add(space=9999, tile=jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_JUG))
    yield "a space off the board", c
    c = config()
    c.jaeger.summer_layout.tiles.add(space=15, tile=jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_JUG))
    yield "a tile on a camp", c
    c = config()
    c.jaeger.winter_deck.tiles.add(kind=55)
    yield "an unknown winter tile", c
    c = config()
    c.jaeger.start.add(spaces=[15])
    yield "start for one seat of two", c
    c = config()
    c.jaeger.start.extend(jaeger_pb2.JaegerStartSpaces(spaces=[15]) for _ in range(50))
    yield "start for 50 seats", c


@pytest.mark.parametrize("case", list(_bad_jaeger_configs()), ids=lambda case: case[0])
def test_each_bad_jaeger_option_is_invalid_config(server, case):
    _, stub, oracle = stubs(server.port)
    _, cfg = case
    code, reason, _ = create_error(stub, cfg)
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG")
    code, reason, _ = rpc_error(oracle.Evaluate, oracle_pb2.EvaluateRequest(config=cfg))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG")
    assert list(server.call(server.store.page(0, 10, None))) == []


def test_bad_carcassonne_options_are_invalid_config(server):
    _, stub, _ = stubs(server.port)
    cases = [
        {"normal_deck": [1, 1]},
        {"normal_deck": [88]},
        {"menhir_deck": [3]},
        {"normal_deck": [-5]},
        {"normal_deck": [2**31 - 1]},
        {"normal_deck": [*list(NORMAL_TILES), 0]},
        {"menhir_deck": list(MENHIR_TILES) * 2},
        {"normal_deck": [START_TILE]},
    ]
    for opts in cases:
        code, reason, _ = create_error(stub, config("carcassonne_hg", **opts))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG"), opts
    with pytest.raises(WireError, match="unknown carcassonne_hg options"):
        config("carcassonne_hg", colour="red")


@pytest.mark.parametrize(
    "game,wrong",
    [
        ("carcassonne_hg", "jaeger"),
        ("jaeger_sammler", "carcassonne"),
        ("carcassonne_hg", "json"),
        ("jaeger_sammler", "json"),
    ],
)
def test_options_of_the_wrong_game_are_refused(server, game, wrong):
    _, stub, _ = stubs(server.port)
    cfg = matches_pb2.GameConfig(game=game, players=2, seed=1)
    if wrong == "json":
        cfg.json = "{}"
    else:
        getattr(cfg, wrong).SetInParent()
    try:
        stub.CreateMatch(matches_pb2.CreateMatchRequest(config=cfg))
    except grpc.RpcError as err:
        assert (err.code(), error_info(err)[0]) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG")
        assert f"{wrong} options are not options of {game}" in err.details()
    else:
        raise AssertionError("accepted options of another game")


def test_valid_jaeger_options_take_effect(client):
    board = grid(3, 4, missing=[(2, 3)], summer=[(0, 0)], winter=[(2, 0)])
    m = client.create_match(
        "jaeger_sammler",
        players=2,
        seed=4,
        options={
            "board": board,
            "stall_rounds": 0,
            "winter_start": "seat0",
            "ties": "no_winner",
            "straight_jumps": True,
            "mammoths_summer": [5, 5, 5],
            "winter": ["berries"] * 3,
            "summer": {1: "mammoth7", 2: "weapon"},
        },
    )
    local = JGame.new(
        players=2,
        seed=4,
        board=board,
        stall_rounds=0,
        winter_start="seat0",
        ties="no_winner",
        straight_jumps=True,
        mammoths_summer=[5, 5, 5],
        winter=["berries"] * 3,
        summer={1: "mammoth7", 2: "weapon"},
    )
    assert m.state == JAEGER.state(local, 0)
    assert len(m.state.jaeger.board) == 11
    tiles = {sp.space: sp.tile for sp in m.state.jaeger.board if sp.HasField("tile")}
    assert tiles == {
        1: jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_MAMMOTH, mammoth_value=7),
        2: jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_WEAPON),
    }
    cfg = client.get_match(m.match_id)
    pairs = client.legal_moves(m.match_id)
    assert pairs == local.actions.pairs() and cfg.version == 0


def test_carcassonne_explicit_decks_including_empty_ones(client):
    m = client.create_match("carcassonne_hg", players=2, seed=1, options={"normal_deck": [3, 17, 5]})
    assert m.state.carcassonne.tile == 3 and m.state.carcassonne.normal_pile == 2
    assert m.state.carcassonne.menhir_pile == len(MENHIR_TILES)  # the unset deck is shuffled
    done = client.create_match("carcassonne_hg", players=2, seed=1, options={"normal_deck": [], "menhir_deck": []})
    assert over(done.state)


# -- hidden information -----------------------------------------------------------------------
def test_public_config_hides_the_seed_and_explicit_piles(server):
    _, stub, _ = stubs(server.port)
    cfg = config("carcassonne_hg", normal_deck=[3, 17, 5], menhir_deck=[88])
    created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=cfg)).match
    seen = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=created.match_id)).match
    listed = stub.ListMatches(matches_pb2.ListMatchesRequest()).matches[0]
    for m in (created, seen, listed):
        assert m.config == matches_pb2.GameConfig(game="carcassonne_hg", players=2)
    # after the end the whole config is open
    cfg = config("carcassonne_hg", normal_deck=[], menhir_deck=[])
    done = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=cfg)).match
    assert done.config.seed == 3 and done.config.carcassonne.HasField("normal_deck")


def test_public_config_of_jaeger_keeps_the_board_and_drops_layouts():
    board = grid(3, 4)
    cfg = config(board=board, stall_rounds=3, summer={1: "berries"}, winter=["herbs"], start=[[0], [0]])
    public = JAEGER.public_config(cfg)
    assert not public.HasField("seed")
    assert not public.jaeger.HasField("summer_layout") and not public.jaeger.HasField("winter_deck")
    assert public.jaeger.board == cfg.jaeger.board and public.jaeger.stall_rounds == 3
    assert list(public.jaeger.start) == list(cfg.jaeger.start)
    assert CARC.public_config(config("carcassonne_hg", normal_deck=[3])) == matches_pb2.GameConfig(
        game="carcassonne_hg", players=2
    )


def test_jaeger_state_shows_face_down_tiles_only_as_counts_before_the_end():
    hidden_game = JGame.new(players=2, seed=11)
    open_game = JGame.new(players=2, seed=11, open_collections=True)
    for _ in range(6):
        move = hidden_game.legal_moves()[0]
        hidden_game.play(move)
        open_game.play(move)
    kinds = ("berries", "tubers", "herbs", "jug", "necklace", "pelt", "skull")
    hidden, open_state = JAEGER.state(hidden_game, 6), JAEGER.state(open_game, 6)
    assert list(hidden.scores) == [] and list(hidden.jaeger.score_breakdown) == []
    assert list(open_state.scores) == open_game.scores
    for h, o in zip(hidden.jaeger.collections, open_state.jaeger.collections):
        assert not any(h.HasField(k) for k in kinds)
        assert all(o.HasField(k) for k in kinds)
        assert h.face_down == o.face_down == sum(getattr(o, k) for k in kinds)
        assert list(h.mammoths) == list(o.mammoths) and h.weapons == o.weapons
    assert sum(h.face_down for h in hidden.jaeger.collections) > 0


# -- strict JSON ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        '{"retake": 2147483648}',
        '{"x": -2147483649}',
        '{"x": 1.5}',
        '{"x": 1e400}',
        '{"x": NaN}',
        "[Infinity]",
        "[" * 100_000 + "]" * 100_000,
        "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1),
        '{"a": ',
        "x" * 2_000_000,
    ],
)
def test_loads_json_refuses(text):
    with pytest.raises(ValueError):
        loads_json(text)


def test_loads_json_accepts_plain_data():
    text = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert loads_json(text) is not None
    assert loads_json('{"a": [1, -2147483648, 2147483647, "[[[", true, null]}') == {
        "a": [1, -(2**31), 2**31 - 1, "[[[", True, None]
    }


@pytest.mark.parametrize("text", ['{"retake": 2147483648}', "[" * 100_000 + "]" * 100_000, '{"x": 0.5}'])
def test_malformed_json_moves_are_malformed_not_internal(server, text):
    _, stub, oracle = stubs(server.port)
    created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config("carcassonne_hg")))
    req = matches_pb2.PlayMoveRequest(match_id=created.match.match_id, move=moves_pb2.Move(json=text))
    code, reason, _ = rpc_error(stub.PlayMove, req, metadata=(("authorization", "Bearer " + created.seat_tokens[0]),))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED")
    resp = oracle.Evaluate(oracle_pb2.EvaluateRequest(config=config("carcassonne_hg"), moves=[req.move]))
    assert (resp.legal, resp.illegal.reason) == (False, "MALFORMED")


# -- GameService ------------------------------------------------------------------------------
def _games(server):
    return games_pb2_grpc.GameServiceStub(grpc.insecure_channel(f"127.0.0.1:{server.port}"))


def test_list_games(server):
    games = _games(server).ListGames(games_pb2.ListGamesRequest()).games
    assert [g.game for g in games] == registry.ids()
    by_id = {g.game: g for g in games}
    assert (by_id["carcassonne_hg"].min_players, by_id["carcassonne_hg"].max_players) == (2, 5)
    assert by_id["carcassonne_hg"].action_space_size == c_actions.ACTION_SPACE_SIZE
    assert (by_id["jaeger_sammler"].min_players, by_id["jaeger_sammler"].max_players) == (2, 4)
    assert by_id["jaeger_sammler"].action_space_size == J_ACTIONS
    assert all(g.display_name for g in games)
    code, reason, _ = rpc_error(_games(server).GetGameInfo, games_pb2.GetGameInfoRequest(game="chess"))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME")


def _enum_name(enum, number, prefix):
    return enum.Name(number)[len(prefix) :].lower() if number else None


def test_carcassonne_info_is_the_package_data(server):
    info = _games(server).GetGameInfo(games_pb2.GetGameInfoRequest(game="carcassonne_hg")).carcassonne
    assert info.start_tile == START_TILE and tuple(info.normal_tiles) == NORMAL_TILES
    assert tuple(info.menhir_tiles) == MENHIR_TILES
    assert len(info.tiles) == len(tile_data()) == 95
    for pb, t in zip(info.tiles, tile_data()):
        assert (
            pb.id == t["id"]
            and _enum_name(carcassonne_pb2.CarcassonneTileKind, pb.kind, "CARCASSONNE_TILE_KIND_") == t["kind"]
        )
        assert [
            (_enum_name(carcassonne_pb2.CarcassonneZoneType, s.type, "CARCASSONNE_ZONE_TYPE_"), list(s.zones))
            for s in pb.sides
        ] == [(s["type"], s.get("zones", [s.get("zone")])) for s in t["sides"]]
        for z, zd in zip(pb.zones, t["zones"], strict=True):
            assert z.local == zd["local"]
            assert _enum_name(carcassonne_pb2.CarcassonneZoneType, z.type, "CARCASSONNE_ZONE_TYPE_") == zd["type"]
            assert [
                _enum_name(carcassonne_pb2.CarcassonneAnimal, a, "CARCASSONNE_ANIMAL_") for a in z.animals
            ] == zd.get("animals", [])
            assert z.fish == zd.get("fish", 0)
            assert (z.lake if z.HasField("lake") else None) == zd.get("lake")
            assert _enum_name(carcassonne_pb2.CarcassonnePower, z.power, "CARCASSONNE_POWER_") == zd.get("power")
            assert _enum_name(
                carcassonne_pb2.CarcassonneForestKind, z.forest_kind, "CARCASSONNE_FOREST_KIND_"
            ) == zd.get("kind")
    powers = {t.id for t in info.tiles for z in t.zones if z.power}
    assert {88, 93, 94, 92, 85, 91} <= powers


def test_carcassonne_action_layout_decodes_legal_actions(server):
    a = _games(server).GetGameInfo(games_pb2.GetGameInfoRequest(game="carcassonne_hg")).carcassonne.actions
    assert a.side**2 * a.rotations * a.occupant_slots * a.retake_slots == c_actions.ACTION_SPACE_SIZE
    game = CGame.new(players=2, seed=21)
    checked = 0
    while not game.is_over and checked < 3000:
        own = sorted(z for z, s, k in game.occupants if s == game.player and k == "meeple")
        for move, action in game.actions.pairs():
            rest, ret = divmod(action, a.retake_slots)
            rest, slot = divmod(rest, a.occupant_slots)
            pos, rot = divmod(rest, a.rotations)
            y, x = divmod(pos, a.side)
            assert (x - a.bound, y - a.bound, rot) == (move.x, move.y, move.rotation)
            if slot == 0:
                assert move.occupant is None
            elif slot < a.hut_slot_base:
                assert (move.occupant.kind, move.occupant.zone) == (
                    "meeple",
                    game.tile * 10 + slot - a.meeple_slot_base,
                )
            else:
                assert (move.occupant.kind, move.occupant.zone) == ("hut", game.tile * 10 + slot - a.hut_slot_base)
            assert (move.retake is None) if ret == 0 else move.retake == own[ret - 1]
            checked += 1
        game.play(game.legal_moves()[-1])
    assert checked > 100


def test_jaeger_info_is_the_package_data_and_decodes_actions(server):
    info = _games(server).GetGameInfo(games_pb2.GetGameInfoRequest(game="jaeger_sammler")).jaeger
    board, d = default_board(), jaeger_data()
    assert [list(s.neighbours) for s in info.board] == [list(s) for s in board.slots]
    assert [(s.cell.row, s.cell.col) for s in info.board] == [tuple(c) for c in board.coords]
    assert [_enum_name(jaeger_pb2.JaegerSpaceKind, s.kind, "JAEGER_SPACE_KIND_") for s in info.board] == list(
        board.kinds
    )
    assert tuple(info.summer_camps) == board.summer_camps and tuple(info.winter_camps) == board.winter_camps
    assert [_enum_name(jaeger_pb2.JaegerTileKind, k.kind, "JAEGER_TILE_KIND_") for k in info.tile_kinds] == list(KINDS)
    assert {
        _enum_name(jaeger_pb2.JaegerTileKind, k.kind, "JAEGER_TILE_KIND_"): k.summer_count
        for k in info.tile_kinds
        if k.summer_count
    } == d["tiles"]["summer"]
    assert list(info.goods_points_by_count) == d["goods_points_by_count"]
    defaults = matches_pb2.GameConfig(game="jaeger_sammler", players=2)
    defaults.jaeger.CopyFrom(info.default_options)
    kwargs = JAEGER.options_kwargs(defaults)
    assert {k: v for k, v in kwargs.items() if k != "board"} == {
        k: v for k, v in DEFAULT_OPTIONS.items() if k != "board"
    }
    a = info.actions
    assert a.steps * (a.steps + 1) == J_ACTIONS and a.slots == a.directions + a.caves + 1
    game = JGame.new(players=3, seed=2)
    checked = 0
    while not game.is_over and checked < 5000:
        caves = sorted(v for v, t in enumerate(game.tiles) if t == "cave")
        for move, action in game.actions.pairs():
            first, second = divmod(action, a.steps + 1)
            decoded = []
            for step in [first] + ([second - 1] if second else []):
                src, slot = divmod(step, a.slots)
                if slot < a.directions:
                    dst = info.board[src].neighbours[slot]
                elif slot < a.directions + a.caves:
                    dst = caves[slot - a.directions]
                else:
                    dst = None
                decoded.append((src, dst))
            assert decoded == [(s.src, s.dst) for s in move.steps]
            checked += 1
        game.play(game.legal_moves()[checked % len(game.legal_moves())])
    assert checked > 100


def test_the_client_imports_no_server_module():
    code = (
        "import sys, hunters.client; bad = [m for m in sys.modules if m.startswith('hunters.service')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_reflection_lists_every_service(server):
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    reply = next(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    names = {s.name for s in reply.list_services_response.service}
    assert {"hunters.v1.MatchService", "hunters.v1.OracleService", "hunters.v1.GameService"} <= names
    json.dumps(sorted(names))


def test_grpcurl_examples_of_the_docs_parse_through_reflection(server):
    """Each `-d` body of docs/clients.md parses (JSON mapping) into its method's request type,
    found through server reflection as grpcurl would."""
    import re
    from pathlib import Path

    from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    text = Path(__file__).resolve().parents[2].joinpath("docs", "clients.md").read_text()
    examples = re.findall(r"-d '(.*?)'.*?(hunters\.v1\.\w+)/(\w+)", text, re.S)
    assert len(examples) >= 6
    stub = reflection_pb2_grpc.ServerReflectionStub(grpc.insecure_channel(f"127.0.0.1:{server.port}"))
    pool = descriptor_pool.DescriptorPool()
    for service in {s for _, s, _ in examples}:
        reply = next(
            stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(file_containing_symbol=service)]))
        )
        files = [
            descriptor_pb2.FileDescriptorProto.FromString(b)
            for b in reply.file_descriptor_response.file_descriptor_proto
        ]
        pending = {f.name: f for f in files}
        while pending:  # add files after their dependencies
            for name, f in list(pending.items()):
                if all(d not in pending for d in f.dependency):
                    try:
                        pool.FindFileByName(name)
                    except KeyError:
                        pool.Add(f)
                    del pending[name]
    for body, service, method in examples:
        request_type = pool.FindServiceByName(service).FindMethodByName(method).input_type
        msg = message_factory.GetMessageClass(request_type)()
        json_format.Parse(body.replace("<id>", "x").replace("\n", " "), msg)


def test_options_round_trip_through_the_wire():
    """What the client encodes (options_to_proto) the server decodes (options_kwargs) unchanged."""
    explicit = {
        "spaces": [
            {"kind": "tile", "pos": [0, 0]},
            {"kind": "summer_camp", "pos": [1, 0]},
            {"kind": "winter_camp", "pos": [0, 1]},
        ],
        "adjacency": [[0, 1], [0, 2]],
    }
    cases = [
        {
            "board": grid(3, 4, missing=[(2, 3)]),
            "stall_rounds": 0,
            "winter_start": "seat0",
            "ties": "no_winner",
            "straight_jumps": True,
            "mammoths_summer": [5, 5, 5],
            "mammoths_winter": [3] * 12,
        },
        {"board": explicit, "summer": {0: "mammoth7"}, "winter": ["berries", "skull"], "start": [[1], [1]]},
        {"summer": {}, "winter": []},
    ]
    for opts in cases:
        kwargs = JAEGER.options_kwargs(config(**opts))
        if "board" in opts and "grid" in opts["board"]:
            kwargs["board"]["grid"] = {
                k: v for k, v in kwargs["board"]["grid"].items() if k not in ("type", "orientation")
            }
        assert kwargs == opts
    for opts in ({"normal_deck": [3, 17]}, {"menhir_deck": []}, {"normal_deck": [], "menhir_deck": [88, 90]}):
        assert CARC.options_kwargs(config("carcassonne_hg", **opts)) == opts
