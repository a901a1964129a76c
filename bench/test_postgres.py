"""Server replicas on PostgreSQL against the embedded SQLite store: PlayMove latency (one client,
the two servers called in turn so that drifts of a shared machine hit both alike), PlayMove
throughput of 16 concurrent clients, and the latency of a move played on one replica to a watcher
on another (LISTEN/NOTIFY). Each server is `hunters serve` in its own process; PostgreSQL is a
throwaway cluster (tests/service/pgcluster.py: Debian's postgresql package; skipped without it).
Run: python -m pytest bench/test_postgres.py --benchmark-enable -s"""

import contextlib
import os
import statistics
import tempfile
import threading
import time

import grpc
import pytest

from hunters.v1 import matches_pb2, matches_pb2_grpc
from tests.service.pgcluster import Cluster, binaries

from .test_service_bench import MOVES_PER_CLIENT, Player, _concurrent, serving

pytestmark = pytest.mark.skipif(binaries() is None, reason="PostgreSQL is not installed (apt-get install postgresql)")
LATENCY_ROUNDS = 1000
WATCHED_MOVES = 200


@pytest.fixture(scope="module")
def cluster():
    c = Cluster()
    yield c
    c.stop()


@contextlib.contextmanager
def both(cluster):
    """(SQLite server address, PostgreSQL server address)."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        serving(db=os.path.join(tmp, "bench.db")) as lite,
        serving(db=cluster.new_database()) as pg,
    ):
        yield lite, pg


def _quantiles(values):
    values = sorted(values)
    return statistics.median(values), values[int(0.99 * (len(values) - 1))]


@pytest.mark.benchmark(group="postgres")
def test_play_move_latency_postgres_vs_sqlite(benchmark, cluster):
    with both(cluster) as (lite, pg), grpc.insecure_channel(lite) as ch_lite, grpc.insecure_channel(pg) as ch_pg:
        stubs = {
            "sqlite": matches_pb2_grpc.MatchServiceStub(ch_lite),
            "postgres": matches_pb2_grpc.MatchServiceStub(ch_pg),
        }
        players = {name: (stub, Player(stub, seed=1)) for name, stub in stubs.items()}
        times = {"sqlite": [], "postgres": []}

        def pair():
            for name, (stub, player) in players.items():
                req, meta = player.next_request()
                t0 = time.perf_counter()
                stub.PlayMove(req, metadata=meta)
                times[name].append(time.perf_counter() - t0)

        benchmark.pedantic(pair, rounds=LATENCY_ROUNDS, warmup_rounds=50)
    summary = {name: _quantiles(t) for name, t in times.items()}
    for name, (p50, p99) in summary.items():
        benchmark.extra_info[f"{name}_p50_ms"] = p50 * 1000
        benchmark.extra_info[f"{name}_p99_ms"] = p99 * 1000
        print(f"\nPlayMove {name}: p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms ({len(times[name])} moves)")


@pytest.mark.benchmark(group="postgres")
def test_concurrent_play_moves_postgres_vs_sqlite(benchmark, cluster):
    seeds = iter(range(100, 10_000))

    def work(ch, i):
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        player = Player(stub, seed=next(seeds))
        requests = [player.next_request() for _ in range(MOVES_PER_CLIENT)]
        return [lambda r=r, m=m: stub.PlayMove(r, metadata=m) for r, m in requests]

    with both(cluster) as (lite, pg):
        rates = {"sqlite": [], "postgres": []}

        def pair():
            rates["sqlite"].append(_concurrent(lite, work))
            rates["postgres"].append(_concurrent(pg, work))

        benchmark.pedantic(pair, rounds=3)
    for name, r in rates.items():
        benchmark.extra_info[f"{name}_moves_per_second"] = statistics.median(r)
        print(f"\n16 clients, PlayMove on {name}: {statistics.median(r):.0f} moves/s")


@pytest.mark.benchmark(group="postgres")
def test_cross_replica_watch_latency(benchmark, cluster):
    db = cluster.new_database()
    with serving(db=db) as a, serving(db=db) as b, grpc.insecure_channel(a) as ch_a, grpc.insecure_channel(b) as ch_b:
        stub_a, stub_b = matches_pb2_grpc.MatchServiceStub(ch_a), matches_pb2_grpc.MatchServiceStub(ch_b)
        player = Player(stub_a, seed=3)
        seen, sent = {}, {}
        ready = threading.Event()
        state = {"match": None, "stream": None}

        def watch(match_id):
            stream = stub_b.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id), timeout=120)
            state["stream"] = stream
            with contextlib.suppress(grpc.RpcError):
                for event in stream:
                    seen[(match_id, event.version)] = time.perf_counter()
                    ready.set()

        watchers = []

        def one_move():
            if state["match"] != player.match_id or player.local.is_over:
                if player.local.is_over:
                    player._new()
                state["match"] = player.match_id
                ready.clear()
                watchers.append(threading.Thread(target=watch, args=(player.match_id,), daemon=True))
                watchers[-1].start()
                assert ready.wait(10)
            req, meta = player.next_request()
            sent[(req.match_id, req.expected_version + 1)] = time.perf_counter()
            stub_a.PlayMove(req, metadata=meta)
            time.sleep(0.005)

        benchmark.pedantic(one_move, rounds=WATCHED_MOVES)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(k in seen for k in sent):
            time.sleep(0.01)
    lags = [seen[k] - t for k, t in sent.items()]
    assert len(lags) == len(sent)
    p50, p99 = _quantiles(lags)
    benchmark.extra_info.update(watch_p50_ms=p50 * 1000, watch_p99_ms=p99 * 1000, watch_max_ms=max(lags) * 1000)
    print(
        f"\nmove on replica A (PlayMove sent) -> event on a watcher of replica B: p50 {p50 * 1000:.2f} ms, "
        f"p99 {p99 * 1000:.2f} ms, max {max(lags) * 1000:.2f} ms ({len(lags)} moves)"
    )
    assert p99 < 0.1
