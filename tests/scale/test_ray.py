"""Simulations, arenas and SimulateGames on a local Ray cluster give exactly the results of a local run
with the same seeds; a cancelled SimulateGames stops submitting and cancels what it queued; a bad
address is one line and exit 2. Marked `ray`: run with --ray (needs hunters-engine[ray])."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import grpc
import pytest

from hunters.bots.arena import run_arena
from hunters.cli import main
from hunters.client import Client
from hunters.scale import connect_ray
from hunters.service import ServerConfig, create_server
from hunters.v1 import oracle_pb2, oracle_pb2_grpc

pytestmark = pytest.mark.ray
GAMES = ["carcassonne_hg", "jaeger_sammler"]
CLI = [sys.executable, "-m", "hunters.cli"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def hunters(*args, timeout=300):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("game", GAMES)
def test_simulate_on_ray_equals_the_local_run(game, ray_address, capsys):
    args = ["simulate", "--game", game, "--games", "700", "--seed", "5", "--players", "2", "--json", "--quiet"]
    assert main([*args, "--ray", ray_address]) == 0  # this process's connection to the cluster
    on_ray = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert on_ray == json.loads(capsys.readouterr().out)
    assert on_ray["games"] == 700


def test_simulate_from_a_driver_that_joins_the_cluster_by_address(ray_address, capsys):
    """`hunters simulate --ray HOST:PORT` in its own process: it joins the cluster and ships its hunters."""
    args = ["simulate", "--games", "400", "--seed", "9", "--json", "--quiet"]
    proc = hunters(*args, "--ray", ray_address)
    assert proc.returncode == 0, proc.stderr
    assert main([*args, "--workers", "2"]) == 0
    assert json.loads(proc.stdout) == json.loads(capsys.readouterr().out)


def _without_timings(result):
    data = result.to_json()
    for key in ("seconds", "jobs"):
        data.pop(key)
    for row in data["stats"]:
        row.pop("seconds_per_move")
    for r in data["results"]:
        r.pop("think_seconds")
    return data


@pytest.mark.parametrize("game", GAMES)
def test_arena_on_ray_equals_the_local_arena(game, ray_address):
    bots = ["greedy", "random", "mcts:iterations=10"]  # MCTS: its seeds must follow the game, not the worker
    local = run_arena(game, 2, bots, 18, jobs=1, seed=4, keep_records=True)
    pool = connect_ray(ray_address)
    on_ray = run_arena(game, 2, bots, 18, seed=4, keep_records=True, executor=pool)
    assert pool.submitted >= 4 and pool.unfinished() == 0
    assert _without_timings(on_ray) == _without_timings(local)
    assert [r.record for r in on_ray.results] == [r.record for r in local.results]


def test_arena_command_on_ray(ray_address, tmp_path, capsys):
    args = ["arena", "--bot", "greedy", "--bot", "random", "--games", "12", "--seed", "2", "--quiet"]
    assert main([*args, "--jobs", "1", "--json", str(tmp_path / "local.json")]) == 0
    assert main([*args, "--ray", ray_address, "--json", str(tmp_path / "ray.json")]) == 0
    local, on_ray = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("local", "ray"))
    for data in (local, on_ray):
        data.pop("seconds"), data.pop("jobs")
        for row in data["stats"]:
            row.pop("seconds_per_move")
        for r in data["results"]:
            r.pop("think_seconds")
    assert on_ray == local and len(local["results"]) == 12


def _final(address, game, games, seed):
    with Client(address) as c:
        updates = list(c.simulate(game, players=3, games=games, seed=seed))
    last = updates[-1]
    assert last.done and [u.games_done for u in updates] == sorted(u.games_done for u in updates)
    return (last.games_done, last.moves, list(last.mean_scores), list(last.wins))


def test_simulate_games_over_grpc_from_hunters_serve_on_ray(ray_address, tmp_path):
    """`hunters serve --ray ADDRESS` answers SimulateGames with the totals of a local server."""
    port = free_port()
    server = subprocess.Popen(
        [*CLI, "serve", "--port", str(port), "--db", str(tmp_path / "m.db"), "--ray", ray_address],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    local = create_server(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "local.db")))
    try:
        from hunters.service.healthcheck import check

        deadline = time.monotonic() + 60
        while not check(f"127.0.0.1:{port}", 1):
            assert server.poll() is None, server.stderr.read()
            assert time.monotonic() < deadline, "hunters serve --ray did not come up"
            time.sleep(0.2)
        for game, games in (("carcassonne_hg", 5000), ("jaeger_sammler", 4097)):  # partial last block, unit
            on_ray = _final(f"127.0.0.1:{port}", game, games, seed=2**64 - 3)
            assert on_ray == _final(f"127.0.0.1:{local.port}", game, games, seed=2**64 - 3)
            assert on_ray[0] == games
    finally:
        local.stop(0)
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0


def test_a_cancelled_simulation_on_ray_stops_submitting_and_cancels_its_tasks(ray_address, tmp_path):
    server = create_server(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "m.db"), ray_address=ray_address))
    try:
        scale = server._started.scale
        channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
        call = oracle_pb2_grpc.OracleServiceStub(channel).SimulateGames(
            oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=10_000_000, seed=1)
        )
        first = next(call)
        assert 0 < first.games_done < 10_000_000
        assert 0 < server.call(scale.unfinished) <= 2 * scale.workers  # a bounded window, not the whole run
        call.cancel()
        cancelled = time.perf_counter()
        while server.call(scale.unfinished):
            assert time.perf_counter() - cancelled < 3, "Ray tasks went on after the cancel"
            time.sleep(0.01)
        submitted = scale.submitted
        time.sleep(0.5)
        assert scale.submitted == submitted, "units were submitted after the cancel"
        # the cluster is free again: a new run is answered at once
        assert _final(f"127.0.0.1:{server.port}", "jaeger_sammler", 300, 1)[0] == 300
        channel.close()
    finally:
        server.stop(0)


@pytest.mark.parametrize("command", ["simulate", "arena", "serve"])
def test_an_unreachable_cluster_is_one_line_and_exit_2(command, tmp_path):
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    extra = {
        "simulate": ["--games", "10", "--quiet"],
        "arena": ["--games", "2", "--bot", "random", "--quiet"],
        "serve": ["--port", str(free_port()), "--db", str(tmp_path / "m.db")],
    }[command]
    t0 = time.perf_counter()
    proc = hunters(command, *extra, "--ray", address, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"cannot reach the Ray cluster at {address}" in lines[0], proc.stderr
    assert time.perf_counter() - t0 < 30
    assert not os.path.exists(tmp_path / "m.db")  # serve stopped before touching its database
