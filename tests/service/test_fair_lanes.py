"""The engine lanes are fair: a caller is its host (not a token it can invent), waiting is not
charged as engine time, the bot lane shares its threads between hosts and matches, every oracle
method is behind the oracle token, a call is refused on its metadata and size before its request is
parsed, and a Perft stops inside its count when the caller's engine seconds run out."""

import asyncio
import threading
import time

import grpc

from hunters.service.engine import Callers, Lane
from hunters.v1 import matches_pb2, oracle_pb2

from .helpers import bearer, rpc_error, stubs


def test_waiting_for_a_thread_is_not_charged():
    """A job that waited behind another is charged its own time on the thread, not its wait."""

    async def run() -> tuple[float, float]:
        lane = Lane("test", threads=1, queue=8, callers=Callers(jobs=4, seconds_per_minute=60.0))
        gate = threading.Event()

        def hold(cancel):
            gate.wait(5)

        def quick(cancel):
            return None

        with lane.admitted("first") as first, lane.admitted("second") as second:
            held = asyncio.ensure_future(lane.run(hold, budget=first))
            await asyncio.sleep(0.05)
            queued = asyncio.ensure_future(lane.run(quick, budget=second))
            await asyncio.sleep(0.5)  # the second job waits for the only thread
            gate.set()
            await held
            await queued
            await asyncio.sleep(0)
        lane.shutdown()
        return 60.0 - first.seconds, 60.0 - second.seconds

    held_cost, queued_cost = asyncio.run(run())
    assert held_cost >= 0.4 and queued_cost < 0.1


def test_the_bot_lane_shares_its_threads_between_hosts_then_matches():
    """One thread; a host queues five thinks, then another host one: the second host's think runs
    next, not sixth. Within one host, a match with a think running yields to one without."""

    async def run() -> list[str]:
        lane = Lane("bots", threads=1, queue=64)
        order: list[str] = []

        def think(name, cancel):
            time.sleep(0.02)
            order.append(name)

        jobs = [asyncio.ensure_future(lane.wait_run(think, f"a{i}", keys=("host-a", "match-a1"))) for i in range(5)]
        await asyncio.sleep(0)
        jobs.append(asyncio.ensure_future(lane.wait_run(think, "a-other-match", keys=("host-a", "match-a2"))))
        jobs.append(asyncio.ensure_future(lane.wait_run(think, "b", keys=("host-b", "match-b"))))
        await asyncio.gather(*jobs)
        lane.shutdown()
        return order

    order = asyncio.run(run())
    assert order[0] == "a0" and order[1] == "b"  # the other host first
    assert order.index("a-other-match") < order.index("a1")  # then host a's other match
    assert sorted(order) == sorted(["a0", "a1", "a2", "a3", "a4", "a-other-match", "b"])


def test_a_priority_still_goes_first():
    """A bot facing a person (priority 0) goes before bots playing bots, whatever the shares."""

    async def run() -> list[str]:
        lane = Lane("bots", threads=1, queue=64)
        order: list[str] = []

        def think(name, cancel):
            time.sleep(0.01)
            order.append(name)

        jobs = [asyncio.ensure_future(lane.wait_run(think, "busy", priority=1, keys=("host-a",)))]
        await asyncio.sleep(0)
        jobs.append(asyncio.ensure_future(lane.wait_run(think, "bots-only", priority=1, keys=("host-b",))))
        jobs.append(asyncio.ensure_future(lane.wait_run(think, "facing-a-person", priority=0, keys=("host-a",))))
        await asyncio.gather(*jobs)
        lane.shutdown()
        return order

    assert asyncio.run(run()) == ["busy", "facing-a-person", "bots-only"]


def test_every_oracle_method_is_behind_the_oracle_token(server_factory):
    server = server_factory(oracle_token="oracle-secret")
    _, _, oracle = stubs(server.port)
    listing = oracle_pb2.ListConformanceVectorsRequest()
    for call in (
        lambda **kw: oracle.ListConformanceVectors(listing, **kw),
        lambda **kw: oracle.GetConformanceVectors(oracle_pb2.GetConformanceVectorsRequest(), **kw),
    ):
        code, reason, _ = rpc_error(call)
        assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN")
        code, reason, _ = rpc_error(call, metadata=bearer("made-up"))
        assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ORACLE_TOKEN_REQUIRED")
    assert oracle.ListConformanceVectors(listing, metadata=bearer("oracle-secret")).files


def test_a_call_is_refused_on_its_metadata_and_size_before_it_is_parsed(server):
    """A request over its method's size is refused unread; a busy caller's next call is refused as
    busy even when its bytes are garbage (they were never parsed)."""
    channel, _, oracle = stubs(server.port)
    huge = oracle_pb2.EvaluateRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1))
    huge.config.json = "x" * (2 << 20)
    code, reason, meta = rpc_error(oracle.Evaluate, huge)
    assert (code, reason, meta["limit"]) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE", str(1 << 20))
    raw = channel.unary_unary("/hunters.v1.OracleService/Evaluate")
    code, reason, _ = rpc_error(raw, b"\xff\xff\xff garbage")
    assert reason == "MALFORMED_REQUEST"  # (an idle caller's garbage is parsed, and refused so)
    big = oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=5_000_000, seed=1)
    first = oracle.SimulateGames(big)
    next(first)
    raw_sim = channel.unary_stream("/hunters.v1.OracleService/SimulateGames")
    code, reason, _ = rpc_error(lambda: list(raw_sim(b"\xff\xff\xff garbage")))
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CALLER_BUSY")
    first.cancel()


def test_a_perft_stops_inside_its_count_when_the_callers_seconds_run_out(server_factory):
    """A depth-7 Perft from the start would take many minutes; with one engine second a minute
    the count stops inside the first root child, and says why."""
    server = server_factory(caller_engine_seconds=1.0)
    _, _, oracle = stubs(server.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    request = oracle_pb2.PerftRequest(config=config, depth=7, divide=True)
    code, reason, meta = rpc_error(lambda: list(oracle.Perft(request, timeout=120)))
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CALLER_BUDGET_EXHAUSTED")
    assert float(meta["retry_after_seconds"]) > 0
    assert server.call(lambda: server.engine.busy) == 0  # the core's count stopped


def test_a_perft_past_its_deadline_stops_inside_its_count(server):
    """The call's deadline stops the core's count too, and says so (not as a spent budget)."""
    _, _, oracle = stubs(server.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    request = oracle_pb2.PerftRequest(config=config, depth=7, divide=True)
    code, _, _ = rpc_error(lambda: list(oracle.Perft(request, timeout=1.5)))
    assert code == grpc.StatusCode.DEADLINE_EXCEEDED
    end = time.monotonic() + 10
    while server.call(lambda: server.engine.busy) and time.monotonic() < end:
        time.sleep(0.05)
    assert server.call(lambda: server.engine.busy) == 0  # the core's count stopped
