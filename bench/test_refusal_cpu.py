"""Server CPU per refused call, as a multiple of a health check's, measured in one run.

The server runs in its own process (`hunters serve` with `--caller-engine-seconds 0.0001`, so that
after one `Evaluate` this host's engine seconds are spent); its CPU is read from `/proc/<pid>/stat`
around each batch. Each round measures, in turn: health checks, `Evaluate` requests of 128 KB
refused as CALLER_BUDGET_EXHAUSTED (the flood of an attack from one host), the same refusal of a
small `Evaluate` (what the refusal itself costs, apart from receiving 128 KB), and `SimulateGames`
requests of 8 KB refused as REQUEST_TOO_LARGE. Both are refused before their requests are parsed.
The medians' ratios to the health check's go to extra_info (`budget_per_health`,
`too_large_per_health`).

    python -m pytest bench/test_refusal_cpu.py --benchmark-enable -s
"""

import statistics

import grpc
import pytest

from hunters.status import error_info
from hunters.v1 import matches_pb2, oracle_pb2, oracle_pb2_grpc

from .test_server_cpu import _health, _server_cpu
from .test_service_bench import serving

ROUNDS = 3
CALLS = 2000


def _refused(address: str, request, method: str, reason: str) -> int:
    with grpc.insecure_channel(address) as ch:
        call = getattr(oracle_pb2_grpc.OracleServiceStub(ch), method)
        for _ in range(CALLS):
            try:
                result = call(request)
                if method == "SimulateGames":
                    list(result)
            except grpc.RpcError as err:
                assert error_info(err)[0] == reason
            else:
                raise AssertionError("the call was not refused")
    return CALLS


@pytest.mark.benchmark(group="refusal-cpu")
def test_a_refused_call_costs_about_a_health_check(benchmark):
    evaluate = oracle_pb2.EvaluateRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1))
    evaluate.config.json = "x" * (128 << 10)
    small = oracle_pb2.EvaluateRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1))
    too_large = oracle_pb2.SimulateGamesRequest(game="x" * (8 << 10), players=2, games=1)
    per: dict[str, list[float]] = {"health": [], "budget": [], "budget_small": [], "too_large": []}
    procs: list = []
    with serving("--caller-engine-seconds", "0.0001", procs=procs) as address:
        pid = procs[0].pid
        with grpc.insecure_channel(address) as ch:  # spend this host's engine seconds
            stub = oracle_pb2_grpc.OracleServiceStub(ch)
            stub.Evaluate(
                oracle_pb2.EvaluateRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1))
            )
        _health(address)

        def measure(work) -> float:
            before = _server_cpu(pid)
            n = work()
            return (_server_cpu(pid) - before) / n

        def rounds() -> None:
            for _ in range(ROUNDS):
                per["health"].append(measure(lambda: _health(address)))
                per["budget"].append(
                    measure(lambda: _refused(address, evaluate, "Evaluate", "CALLER_BUDGET_EXHAUSTED"))
                )
                per["budget_small"].append(
                    measure(lambda: _refused(address, small, "Evaluate", "CALLER_BUDGET_EXHAUSTED"))
                )
                per["too_large"].append(
                    measure(lambda: _refused(address, too_large, "SimulateGames", "REQUEST_TOO_LARGE"))
                )

        benchmark.pedantic(rounds, rounds=1, iterations=1)
    med = {k: statistics.median(v) for k, v in per.items()}
    info = {f"{k}_us": round(v * 1e6, 1) for k, v in med.items()}
    info.update({f"{k}_per_health": round(med[k] / med["health"], 2) for k in per if k != "health"})
    benchmark.extra_info.update(info)
    print(f"\nserver CPU per refused call: {info}")
