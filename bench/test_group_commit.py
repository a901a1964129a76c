"""Group commit at the store: 16 players, each storing the moves of its own match one after another
(each waits for its move to be durable before the next, as the committer does), on SQLite with
synchronous=FULL (a sync per commit) and on PostgreSQL, with batches of up to 256 moves against
batches of one (every move its own commit), measured in turn within one run.

    python -m pytest bench/test_group_commit.py --benchmark-enable -s
"""

import asyncio
import os
import statistics
import tempfile
import time

import pytest

from hunters.service.stores import open_store
from tests.service.pgcluster import Cluster, binaries

PLAYERS = 16
MOVES = 40  # per player and round
ROUNDS = 3


async def _round(store, prefix: str) -> float:
    """Moves per second of PLAYERS players storing MOVES moves each."""
    for p in range(PLAYERS):
        made = await store.create(f"{prefix}-{p}", "carcassonne_hg", {}, b"", ["a", "b"], "admin", False)
        assert made is not None

    async def player(p: int) -> None:
        for i in range(MOVES):
            await store.append_move(f"{prefix}-{p}", i, i % 2, {"i": i}, False, None)

    began = time.perf_counter()
    await asyncio.gather(*(player(p) for p in range(PLAYERS)))
    return PLAYERS * MOVES / (time.perf_counter() - began)


def _compare(db: str) -> dict:
    store = open_store(db, "FULL")
    rates: dict[str, list[float]] = {"grouped": [], "alone": []}

    async def main() -> None:
        await store.open()
        for r in range(ROUNDS):
            for kind, size in (("grouped", 256), ("alone", 1)):
                store._moves.max_batch = size
                before = (store._moves.batches, store._moves.writes)
                rates[kind].append(await _round(store, f"{kind}{r}"))
                if kind == "grouped":
                    batches, writes = store._moves.batches - before[0], store._moves.writes - before[1]
                    rates.setdefault("moves_per_batch", []).append(writes / batches)
        await store.close()

    asyncio.run(main())
    med = {k: statistics.median(v) for k, v in rates.items()}
    return {
        "grouped_moves_per_s": round(med["grouped"]),
        "alone_moves_per_s": round(med["alone"]),
        "speedup": round(med["grouped"] / med["alone"], 2),
        "moves_per_batch": round(med["moves_per_batch"], 1),
    }


@pytest.mark.benchmark(group="group-commit")
def test_group_commit_sqlite_full(benchmark):
    with tempfile.TemporaryDirectory() as tmp:
        info = benchmark.pedantic(_compare, args=(os.path.join(tmp, "g.db"),), rounds=1, iterations=1)
    benchmark.extra_info.update(info)
    print(f"\ngroup commit, SQLite synchronous=FULL: {info}")


@pytest.mark.benchmark(group="group-commit")
@pytest.mark.skipif(binaries() is None, reason="PostgreSQL is not installed (apt-get install postgresql)")
def test_group_commit_postgres(benchmark):
    cluster = Cluster()
    try:
        info = benchmark.pedantic(_compare, args=(cluster.new_database(),), rounds=1, iterations=1)
    finally:
        cluster.stop()
    benchmark.extra_info.update(info)
    print(f"\ngroup commit, PostgreSQL (the throwaway cluster: fsync off): {info}")
