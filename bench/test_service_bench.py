"""Service benchmarks: latency of PlayMove and ListLegalMoves against a trivial RPC (the health
check) on loopback, throughput of 16 concurrent clients, SimulateGames against the in-process core.
The server runs in its own process (`hunters serve`), as it would beside a game server."""
import itertools
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hunters.carcassonne import Game, random_games
from hunters.service.games import adapter
from hunters.v1 import matches_pb2, matches_pb2_grpc, oracle_pb2, oracle_pb2_grpc

AD = adapter("carcassonne_hg")
CLIENTS = 16
MOVES_PER_CLIENT = 60
SIM_GAMES = 4000


@pytest.fixture(scope="module")
def address():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "hunters.cli", "serve", "--host", "127.0.0.1",
                                 "--port", str(port), "--db", os.path.join(tmp, "bench.db"), "--log-level", "WARNING"])
        addr = f"127.0.0.1:{port}"
        with grpc.insecure_channel(addr) as ch:
            grpc.channel_ready_future(ch).result(timeout=30)
        yield addr
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


class Player:
    """A match on the server mirrored by a local game, handing out the next PlayMove request."""

    def __init__(self, stub, seed):
        self.stub, self.seed = stub, seed
        self._new()

    def _new(self):
        resp = self.stub.CreateMatch(matches_pb2.CreateMatchRequest(
            config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=self.seed)))
        self.match_id, self.tokens = resp.match.match_id, resp.seat_tokens
        self.local = Game.new(players=2, seed=self.seed)
        self.seed += 1000

    def next_request(self):
        if self.local.is_over:
            self._new()
        moves = self.local.legal_moves()
        move = moves[len(self.local.moves) * 7 % len(moves)]
        req = matches_pb2.PlayMoveRequest(match_id=self.match_id, expected_version=len(self.local.moves),
                                          move=AD.move_to_proto(move))
        meta = (("authorization", f"Bearer {self.tokens[self.local.player]}"),)
        self.local.play(move)
        return req, meta


@pytest.mark.benchmark(group="service-latency")
def test_latency_interleaved(benchmark, address):
    """Median latency of the health check (a trivial RPC), PlayMove and ListLegalMoves (at decision 40),
    one of each per round so that drifts of a shared machine hit all three alike; medians and ratios go
    to extra_info. The benchmark's own timing is of the three calls together."""
    with grpc.insecure_channel(address) as ch:
        health_stub = health_pb2_grpc.HealthStub(ch)
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        hreq = health_pb2.HealthCheckRequest()
        player = Player(stub, seed=1)
        lister = Player(stub, seed=2)
        for _ in range(40):
            req, meta = lister.next_request()
            stub.PlayMove(req, metadata=meta)
        lreq = matches_pb2.ListLegalMovesRequest(match_id=lister.match_id)
        times = {"health": [], "play": [], "list": []}

        def setup():
            return (player.next_request(),), {}

        def trio(play):
            req, meta = play
            t0 = time.perf_counter()
            health_stub.Check(hreq)
            t1 = time.perf_counter()
            stub.PlayMove(req, metadata=meta)
            t2 = time.perf_counter()
            stub.ListLegalMoves(lreq)
            t3 = time.perf_counter()
            times["health"].append(t1 - t0)
            times["play"].append(t2 - t1)
            times["list"].append(t3 - t2)

        benchmark.pedantic(trio, setup=setup, rounds=3000, warmup_rounds=100)
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    benchmark.extra_info.update(health_median=med["health"], play_median=med["play"], list_median=med["list"],
                                play_ratio=med["play"] / med["health"], list_ratio=med["list"] / med["health"])


def _concurrent(address, work_per_client):
    """Run CLIENTS threads, each with its own channel; return calls per second."""
    start = threading.Barrier(CLIENTS + 1)
    counts = []

    def run(i):
        with grpc.insecure_channel(address) as ch:
            calls = work_per_client(ch, i)
            start.wait()
            n = 0
            for call in calls:
                call()
                n += 1
            counts.append(n)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - t0)


@pytest.mark.benchmark(group="service-throughput")
def test_concurrent_health_checks(benchmark, address):
    def work(ch, i):
        stub = health_pb2_grpc.HealthStub(ch)
        req = health_pb2.HealthCheckRequest()
        return [lambda: stub.Check(req)] * MOVES_PER_CLIENT

    rate = benchmark.pedantic(_concurrent, args=(address, work), rounds=3)
    benchmark.extra_info["calls_per_second"] = rate


@pytest.mark.benchmark(group="service-throughput")
def test_concurrent_play_moves(benchmark, address):
    seeds = itertools.count(100)

    def work(ch, i):
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        player = Player(stub, seed=next(seeds))
        requests = [player.next_request() for _ in range(MOVES_PER_CLIENT)]
        return [lambda r=r, m=m: stub.PlayMove(r, metadata=m) for r, m in requests]

    rate = benchmark.pedantic(_concurrent, args=(address, work), rounds=3)
    benchmark.extra_info["calls_per_second"] = rate


@pytest.mark.benchmark(group="simulate")
def test_simulate_games_server_vs_process(benchmark, address):
    """SimulateGames in the server against random_games in this process, interleaved pair by pair so
    that drifts of a shared machine hit both sides alike. Each round runs one of each; the medians of
    the two sides go to extra_info."""
    with grpc.insecure_channel(address) as ch:
        stub = oracle_pb2_grpc.OracleServiceStub(ch)
        req = oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=SIM_GAMES, seed=1)
        times = {"local": [], "server": []}

        def pair():
            t0 = time.perf_counter()
            random_games(SIM_GAMES, players=2, seed=1)
            t1 = time.perf_counter()
            last = list(stub.SimulateGames(req))[-1]
            times["local"].append(t1 - t0)
            times["server"].append(time.perf_counter() - t1)
            return last

        last = benchmark.pedantic(pair, rounds=9)
    assert last.done and last.games_done == SIM_GAMES
    local, server = (sorted(v)[len(v) // 2] for v in (times["local"], times["server"]))
    benchmark.extra_info.update(server_games_per_second=SIM_GAMES / server, local_games_per_second=SIM_GAMES / local,
                                ratio=local / server)
