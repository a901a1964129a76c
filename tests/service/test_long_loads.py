"""A long match is read from the store off the event loop: its rows and their JSON (tens of
milliseconds at 20,000 moves) on the database thread (SQLite) or a worker thread (PostgreSQL's
JSON), while a short read stays on the loop, where it costs no thread handoff."""

import asyncio
import json
import threading

from hunters.service import store_postgres
from hunters.service.stores import open_store


def fill(store, moves):
    store._db.execute(
        "INSERT INTO matches (match_id, game, record, config, seat_hashes, admin_hash, created_at)"
        " VALUES ('m', 'jaeger_sammler', '{}', x'', '[]', '', 0)"
    )
    store._db.executemany(
        "INSERT INTO moves (match_id, idx, seat, move, played_at) VALUES ('m', ?, ?, ?, 0)",
        [(i, i % 2, json.dumps({"n": i})) for i in range(moves)],
    )


def threads_of(store, method, call):
    """The threads `method` of the store ran on while `call` ran on an event loop."""
    seen = []
    real = getattr(store, method)

    def spy(*args):
        seen.append(threading.current_thread().name)
        return real(*args)

    setattr(store, method, spy)

    async def run():
        loop_thread = threading.current_thread().name
        result = await call()
        return loop_thread, result

    loop_thread, result = asyncio.run(run())
    return ["loop" if name == loop_thread else "thread" for name in seen], result


def test_a_long_match_is_loaded_on_the_database_thread(tmp_path):
    store = open_store(str(tmp_path / "x.db"))
    fill(store, 1000)
    where, stored = threads_of(store, "_load", lambda: store.load("m"))
    assert where == ["thread"]
    assert [m["n"] for _, m in stored.moves] == list(range(1000))


def test_moves_read_on_the_loop_only_when_few(tmp_path):
    store = open_store(str(tmp_path / "x.db"))
    fill(store, 1000)
    where, (moves, _) = threads_of(store, "_moves_from", lambda: store.moves_from("m", 990))
    assert where == ["loop"] and [m["n"] for _, m in moves] == list(range(990, 1000))
    where, (moves, _) = threads_of(store, "_moves_from", lambda: store.moves_from("m", 10))
    assert where == ["thread"] and [m["n"] for _, m in moves] == list(range(10, 1000))
    where, (moves, _) = threads_of(store, "_moves_from", lambda: store.moves_from("m", 1000))
    assert where == ["loop"] and moves == []


def test_postgres_parses_many_moves_on_a_thread(monkeypatch):
    used = []
    real = asyncio.to_thread

    async def to_thread(fn, *args):
        used.append(fn)
        return await real(fn, *args)

    monkeypatch.setattr(store_postgres.asyncio, "to_thread", to_thread)
    few = [(0, '{"n": 0}')] * store_postgres.ON_LOOP_ROWS
    assert asyncio.run(store_postgres._parsed(few)) == [(0, {"n": 0})] * len(few) and not used
    many = [*few, (1, '{"n": 1}')]
    assert asyncio.run(store_postgres._parsed(many))[-1] == (1, {"n": 1}) and len(used) == 1
