"""OracleService.Perft and the conformance-vector RPCs: the streamed divide and total agree with
the published vectors of both games; bounds (depth, positions expanded), cancellation, and the
vector files served as the package holds them."""

import dataclasses
import hashlib
import json
import time

import grpc
import pytest

import hunters
from hunters.conformance import vectors
from hunters.perft import perft
from hunters.plugin import GamePlugin
from hunters.v1 import matches_pb2, oracle_pb2
from hunters.wire import adapter
from tests.tiny_tiles.game import TinyDuel, TinyGame
from tests.tiny_tiles.plugin import PLUGIN

from .helpers import rpc_error, stubs


def config_of(record: dict) -> matches_pb2.GameConfig:
    """The GameConfig of a vector's record: its seed and its explicit piles or layouts."""
    game = record["game"]
    config = matches_pb2.GameConfig(game=game, players=record["players"])
    if record.get("seed") is not None:
        config.seed = record["seed"]
    if "normal_deck" in record:
        options = {"normal_deck": record["normal_deck"], "menhir_deck": record["menhir_deck"]}
    else:
        options = {k: v for k, v in record["options"].items() if v is not None}
        options.update(summer=record["summer"], winter=record["winter"], start=record["start"])
    adapter(game).options_to_proto(options, config)
    return config


def request_of(vector: dict, divide: bool = True) -> oracle_pb2.PerftRequest:
    record = vector["record"]
    ad = adapter(record["game"])
    cls = hunters.games.get(record["game"])
    moves = [ad.move_to_proto(cls.move_from_json(m)) for m in record["moves"]]
    return oracle_pb2.PerftRequest(
        config=config_of(record), moves=moves, depth=vector["depth"], chance=vector["chance"], divide=divide
    )


def key_of(line: oracle_pb2.PerftResponse, game: str):
    if line.HasField("outcome"):
        return {"outcome": line.outcome}
    return {"move": vectors.move_json(adapter(game).move_from_proto(line.move.move))}


CHEAP = [v for g in vectors.games_with_vectors() for v in vectors.load(g, "perft") if v["counts"][-1] <= 3_000_000]


@pytest.mark.parametrize("vector", CHEAP, ids=lambda v: f"{v['game']}-{v['name']}")
def test_the_streamed_divide_and_total_are_the_vectors(server, vector):
    _, _, oracle = stubs(server.port)
    lines = list(oracle.Perft(request_of(vector)))
    total = lines.pop()
    assert total.done and not any(line.done for line in lines)
    assert total.count == vector["counts"][-1]
    assert [{**key_of(line, vector["game"]), "count": line.count} for line in lines] == vector["divide"]
    assert [line.nodes for line in lines] == sorted(line.nodes for line in lines)
    only = list(oracle.Perft(request_of(vector, divide=False)))
    assert len(only) == 1 and only[0].done and only[0].count == vector["counts"][-1]


def test_every_game_s_vectors_are_checked_through_the_rpc():
    assert {v["game"] for v in CHEAP} == set(vectors.games_with_vectors())
    assert any(v["chance"] for v in CHEAP) and any(v["depth"] >= 3 for v in CHEAP)


def test_bounds_and_refusals(server):
    _, _, oracle = stubs(server.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    for depth in (0, 9):
        code, reason, _ = rpc_error(lambda d=depth: list(oracle.Perft(oracle_pb2.PerftRequest(config=config, depth=d))))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_DEPTH")
    code, reason, meta = rpc_error(
        lambda: list(oracle.Perft(oracle_pb2.PerftRequest(config=config, depth=3, divide=True, max_nodes=100)))
    )
    assert (code, reason, meta) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "PERFT_NODE_LIMIT", {"limit": "100"})
    # exactly the nodes a count expands are allowed
    nodes = list(oracle.Perft(oracle_pb2.PerftRequest(config=config, depth=3)))[-1].nodes
    assert list(oracle.Perft(oracle_pb2.PerftRequest(config=config, depth=3, max_nodes=nodes)))[-1].count == 54604
    unseeded = matches_pb2.GameConfig(game="carcassonne_hg", players=2)
    code, reason, _ = rpc_error(lambda: list(oracle.Perft(oracle_pb2.PerftRequest(config=unseeded, depth=1))))
    assert reason == "INVALID_CONFIG"


class Unbranching(TinyDuel):
    """tiny_tiles for two, whose chance view the game refuses (as a game whose draws cannot be
    offered as chance nodes from this position would)."""

    INFO = dataclasses.replace(TinyDuel.INFO, id="tiny_unbranching")
    __slots__ = ()

    def chance_view(self) -> TinyDuel:
        raise ValueError("tiny_unbranching cannot branch over its chance")


def test_a_game_that_cannot_branch_over_its_chance_is_bad_perft(tmp_path, server_factory):
    """The plug-in's chance mode counts its draws as chance nodes; a game that refuses to branch
    over its chance is BAD_PERFT in chance mode, and counts as usual without it."""
    plugins = [PLUGIN, GamePlugin(id="tiny_unbranching", game=Unbranching, wire=PLUGIN.wire)]
    for plugin in plugins:
        hunters.games.register(plugin)
    try:
        running = server_factory(db=str(tmp_path / "tiny.db"))
        _, _, oracle = stubs(running.port)
        config = matches_pb2.GameConfig(game=PLUGIN.id, players=2, seed=1)
        # the first tile is in hand; the second turn's draw is a chance node of three kinds
        chance = list(oracle.Perft(oracle_pb2.PerftRequest(config=config, depth=2, chance=True)))[-1].count
        assert chance == perft(TinyGame.new(2, seed=1), 2, chance=True) > 0
        config = matches_pb2.GameConfig(game="tiny_unbranching", players=2, seed=1)
        assert list(oracle.Perft(oracle_pb2.PerftRequest(config=config, depth=2)))[-1].count > 0
        code, reason, _ = rpc_error(
            lambda: list(oracle.Perft(oracle_pb2.PerftRequest(config=config, depth=2, chance=True)))
        )
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_PERFT")
    finally:
        for plugin in plugins:
            hunters.games.unregister(plugin.id)


def test_a_cancelled_perft_stops_its_engine_work(server):
    channel, _, oracle = stubs(server.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    call = oracle.Perft(oracle_pb2.PerftRequest(config=config, depth=7, divide=True))
    time.sleep(0.5)
    assert server.call(lambda: server.engine.busy) == 1  # one root child counted in the core
    call.cancel()
    cancelled = time.perf_counter()
    while server.call(lambda: server.engine.busy):
        assert time.perf_counter() - cancelled < 2, "the core's count went on after the cancel"
        time.sleep(0.01)
    channel.close()


def test_the_vector_files_are_served_as_published(server):
    _, _, oracle = stubs(server.port)
    listed = oracle.ListConformanceVectors(oracle_pb2.ListConformanceVectorsRequest()).files
    assert {(f.game, f.version, f.name) for f in listed} == {
        (g, vectors.VERSION, name) for g in vectors.games_with_vectors() for name in vectors.FILES
    }
    for f in listed:
        got = oracle.GetConformanceVectors(oracle_pb2.GetConformanceVectorsRequest(game=f.game, name=f.name))
        text = (vectors.vector_folder(f.game) / f.name).read_text()
        assert got.content == text and got.file == f
        assert hashlib.sha256(got.content.encode()).hexdigest() == f.sha256
        assert f.vectors == len(text.splitlines()) == len(vectors.load(f.game, f.name.split(".")[0].rstrip("s")))
        assert json.loads(got.schema)["title"].startswith("hunters conformance vector")
    one = oracle.ListConformanceVectors(oracle_pb2.ListConformanceVectorsRequest(game=listed[0].game)).files
    assert {f.game for f in one} == {listed[0].game}
    get = oracle_pb2.GetConformanceVectorsRequest
    for request, code, reason in (
        (get(game="chess", name="perft.jsonl"), "INVALID_ARGUMENT", "UNKNOWN_GAME"),
        (get(game=listed[0].game, name="x"), "NOT_FOUND", "NO_VECTORS"),
        (get(game=listed[0].game, name="perft.jsonl", version="v9"), "NOT_FOUND", "NO_VECTORS"),
    ):
        got_code, got_reason, _ = rpc_error(oracle.GetConformanceVectors, request)
        assert (got_code.name, got_reason) == (code, reason)


def test_the_python_client_counts_and_fetches_vectors(client):
    lines = list(client.perft("carcassonne_hg", 2, depth=2, seed=1, divide=True))
    assert len(lines) == 16 and lines[-1].done and lines[-1].count == 656
    assert sum(line.count for line in lines[:-1]) == 656
    vector = vectors.load("jaeger_sammler", "perft")[0]
    assert [line.count for line in client.perft("jaeger_sammler", 2, depth=2, seed=1)] == [vector["counts"][2]]
    files = client.conformance_vectors("jaeger_sammler")
    assert {f.name for f in files} == set(vectors.FILES)
    assert client.conformance_vector_file("jaeger_sammler", "perft.jsonl") == vectors.load("jaeger_sammler", "perft")
