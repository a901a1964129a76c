"""The cost of the metrics: PlayMove latency on a server with `--metrics-port` (the gRPC interceptor,
the commit and bot timings, scraped now and then) against one without, in one run, one call on each
per round in turn so that a shared machine's drifts hit both alike. Target: at most 5 % slower."""

import time
import urllib.request

import grpc
import pytest

from hunters.v1 import matches_pb2_grpc

from .test_service_bench import Player, serving

ROUNDS = 3000
SCRAPE_EVERY = 500  # rounds between two scrapes of /metrics (Prometheus' 15 s, scaled to the bench)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.benchmark(group="metrics-cost")
def test_play_move_latency_with_and_without_metrics(benchmark):
    metrics_port = _free_port()
    with (
        serving() as plain,
        serving("--metrics-port", str(metrics_port)) as metered,
        grpc.insecure_channel(plain) as a,
        grpc.insecure_channel(metered) as b,
    ):
        stubs = {"off": matches_pb2_grpc.MatchServiceStub(a), "on": matches_pb2_grpc.MatchServiceStub(b)}
        players = {k: Player(stub, seed=1) for k, stub in stubs.items()}  # the same games on both
        times: dict[str, list[float]] = {"off": [], "on": []}
        rounds = [0]

        def setup():
            return ({k: p.next_request() for k, p in players.items()},), {}

        def pair(requests):
            order = ("off", "on") if rounds[0] % 2 else ("on", "off")  # neither always goes first
            for k in order:
                req, meta = requests[k]
                t0 = time.perf_counter()
                stubs[k].PlayMove(req, metadata=meta)
                times[k].append(time.perf_counter() - t0)
            rounds[0] += 1
            if rounds[0] % SCRAPE_EVERY == 0:
                with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10) as r:
                    r.read()

        benchmark.pedantic(pair, setup=setup, rounds=ROUNDS, warmup_rounds=100)
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    mean = {k: sum(v) / len(v) for k, v in times.items()}
    benchmark.extra_info.update(
        off_median=med["off"],
        on_median=med["on"],
        median_ratio=med["on"] / med["off"],
        mean_ratio=mean["on"] / mean["off"],
    )
    print(
        f"\nPlayMove median: off {med['off'] * 1e6:.0f} us, on {med['on'] * 1e6:.0f} us, "
        f"ratio {med['on'] / med['off']:.3f} (mean ratio {mean['on'] / mean['off']:.3f})"
    )
