"""Server CPU per call, as a multiple of a health check's, all measured in one run.

The server runs in its own process (`hunters serve`, SQLite); its CPU is read from
`/proc/<pid>/stat` (user + system, every thread) before and after a few thousand calls, so the
figure is the server's own work whatever else the shared machine is doing. Each round measures, in
turn:

- health: gRPC health checks, one after another on one connection (the reference: a trivial call);
- unary: one Python bot plays both seats of H&G matches with ListLegalMoves then PlayMove
  (`changes_only`, as the clients' bot loops play), CPU per move; unary_whole: the same with whole
  replies (the board in every reply, as before `changes_only`);
- seat: two Python bots play a match's two seats, each on a PlaySeat stream (`Client.play_seat`,
  which opens it `changes_only`), CPU per move; seat_whole: streams of whole events.

The medians over the rounds of each kind's CPU per call, and their ratios to the health check's, go
to extra_info (`seat_per_health`, `unary_per_health`). `--workers 2` is measured the same way with
`-k workers2` (CPU of the parent and its worker processes).

    python -m pytest bench/test_server_cpu.py --benchmark-enable -s
"""

import os
import statistics
import threading

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hunters.client import Client

from .test_service_bench import _children, _cpu, serving

GAME = "carcassonne_hg"
ROUNDS = 3
HEALTH_CALLS = 2000
MATCHES = 6  # matches per round and kind (about 75 moves each)


def _server_cpu(pid: int) -> float:
    return _cpu(pid) + sum(_cpu(kid) for kid in _children(pid))


def _middle(n: int) -> int:
    return n // 2


def _health(address: str) -> int:
    with grpc.insecure_channel(address) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        for _ in range(HEALTH_CALLS):
            stub.Check(health_pb2.HealthCheckRequest())
    return HEALTH_CALLS


def _unary(address: str, seed: int, changes_only: bool = True) -> int:
    moves = 0
    with Client(address) as c:
        for k in range(MATCHES):
            match = c.create_match(GAME, 2, seed=seed + k)
            while True:
                legal = c.legal_moves(match.match_id)
                result = c.play(
                    match.match_id,
                    token=match.seat_tokens[legal.player],
                    action=legal[_middle(len(legal))][1],
                    expected_version=legal.version,
                    changes_only=changes_only,
                )
                moves += 1
                if result.is_over:
                    break
    return moves


def _seat_bot(address: str, match_id: str, token: str, changes_only: bool) -> None:
    with Client(address) as c:
        c.play_seat(match_id, token, lambda turn: turn.actions[_middle(len(turn.actions))], changes_only=changes_only)


def _seat(address: str, seed: int, changes_only: bool = True) -> int:
    moves = 0
    with Client(address) as c:
        for k in range(MATCHES):
            match = c.create_match(GAME, 2, seed=seed + k)
            threads = [
                threading.Thread(target=_seat_bot, args=(address, match.match_id, match.seat_tokens[s], changes_only))
                for s in (0, 1)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            info = c.get_match(match.match_id)
            assert info.status == 2, "the match did not end"  # MATCH_STATUS_OVER
            moves += info.version
    return moves


def _measure(pid: int, work) -> float:
    """Server CPU seconds per call of `work()` (which returns how many calls or moves it made)."""
    before = _server_cpu(pid)
    n = work()
    return (_server_cpu(pid) - before) / n


def _run(benchmark, *extra: str) -> None:
    per: dict[str, list[float]] = {"health": [], "unary": [], "unary_whole": [], "seat": [], "seat_whole": []}
    procs: list = []
    with serving(*extra, "--max-matches", "100000", procs=procs) as address:
        pid = procs[0].pid
        _health(address)  # warm: connections, caches, the first matches' imports
        _seat(address, 1)

        def rounds() -> None:
            for r in range(ROUNDS):
                per["health"].append(_measure(pid, lambda: _health(address)))
                # every kind its own deals (the encoded legal moves of a deal seen before are cached)
                per["unary"].append(_measure(pid, lambda r=r: _unary(address, 1000 + 10 * r)))
                per["unary_whole"].append(_measure(pid, lambda r=r: _unary(address, 2000 + 10 * r, False)))
                per["seat"].append(_measure(pid, lambda r=r: _seat(address, 3000 + 10 * r)))
                per["seat_whole"].append(_measure(pid, lambda r=r: _seat(address, 4000 + 10 * r, False)))

        benchmark.pedantic(rounds, rounds=1, iterations=1)
    med = {k: statistics.median(v) for k, v in per.items()}
    info = {f"{k}_us": round(v * 1e6, 1) for k, v in med.items()}
    info.update(
        {f"{k}_per_health": round(med[k] / med["health"], 2) for k in per if k != "health"},
        rounds={k: [round(x * 1e6) for x in v] for k, v in per.items()},
    )
    benchmark.extra_info.update(info)
    print(f"\nserver CPU per call {' '.join(extra) or '(1 worker)'}: {info}")


@pytest.mark.benchmark(group="server-cpu")
def test_server_cpu_per_call(benchmark):
    _run(benchmark)


@pytest.mark.benchmark(group="server-cpu")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="two workers need two cores")
def test_server_cpu_per_call_workers2(benchmark):
    _run(benchmark, "--workers", "2")
