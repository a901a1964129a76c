"""A 20,000-move match (Jäger und Sammler, a season that never stalls out: every move a round trip
that takes no tile) watched from version 0 and shown by the viewer: the work per message stays
constant (counted in moves decoded and played, not in seconds)."""

import asyncio
import json
import sqlite3
import threading

import pytest

from hunters.jaeger import Game
from hunters.jaeger import game as jaeger_game
from hunters.service import ServerConfig, create_server
from hunters.service.games import adapter
from hunters.service.reads import ByteCache
from hunters.service.watchers import CHUNK_MESSAGES, REPLAYS_PER_HOST, HostSlots
from hunters.service.web import Viewer
from hunters.v1 import matches_pb2

from .helpers import bearer, stubs

MOVES = 20_000


def long_game(n, seed=1):
    game = Game.new(players=2, seed=seed, stall_rounds=10_000)
    for _ in range(n):
        for move in game.legal_moves():
            steps = move.to_json()["steps"]
            if steps[-1]["dst"] == steps[0]["src"]:  # out and back: no tile taken
                game.play(move)
                break
        else:
            raise AssertionError("no round trip")
    return game


@pytest.fixture
def long_match(tmp_path):
    """(server, match id, admin token): the match created by one server, its moves written straight into the
    database (fast), served by a second server that reads it from there (SQLite whatever the store
    of the other tests: what is measured is the watch, not the store)."""
    db = str(tmp_path / "long.db")
    first = create_server(ServerConfig(address="127.0.0.1:0", db=db))
    _, stub, _ = stubs(first.port)
    config = matches_pb2.GameConfig(game="jaeger_sammler", players=2, seed=1)
    config.jaeger.stall_rounds = 10_000
    made = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config))
    match_id = made.match.match_id
    first.stop(0)
    game = long_game(MOVES)
    conn = sqlite3.connect(db)
    with conn:
        conn.executemany(
            "INSERT INTO moves (match_id, idx, seat, move, played_at) VALUES (?, ?, ?, ?, 0)",
            [(match_id, i, i % 2, json.dumps(m.to_json())) for i, m in enumerate(game.moves)],
        )
    conn.close()
    second = create_server(ServerConfig(address="127.0.0.1:0", db=db))
    _, stub, _ = stubs(second.port)
    assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match.version == MOVES
    yield second, match_id, made.admin_token
    second.stop(0)


class Counted:
    """Counts the moves decoded and played while installed."""

    def __init__(self, monkeypatch):
        self.decoded = self.played = 0
        decode, play = jaeger_game._decode, Game.play

        def counting_decode(*args, **kwargs):
            self.decoded += 1
            return decode(*args, **kwargs)

        def counting_play(game, move):
            self.played += 1
            return play(game, move)

        monkeypatch.setattr(jaeger_game, "_decode", counting_decode)
        monkeypatch.setattr(Game, "play", counting_play)


def test_watching_a_long_match_from_the_start_is_linear(long_match, monkeypatch):
    server, match_id, _ = long_match
    _, stub, _ = stubs(server.port)
    work = Counted(monkeypatch)
    stream = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id), timeout=600)
    versions = []
    for event in stream:  # the match goes on: the stream stays open after its latest version
        versions.append(event.version)
        if event.version == MOVES:
            break
    stream.cancel()
    assert versions == list(range(MOVES + 1))
    assert work.played <= MOVES + 1 and work.decoded <= 2 * MOVES, (work.played, work.decoded)


def test_the_viewer_shows_a_long_match_with_bounded_work(long_match, monkeypatch):
    server, match_id, _ = long_match
    viewer = Viewer(server.manager)
    state = server.call(viewer.state(match_id, None))  # the first page: the latest state and its log
    assert state["latest"] == MOVES and len(state["log"]) <= 500
    assert state["log"][-1]["version"] == MOVES
    work = Counted(monkeypatch)
    for at in (1, MOVES // 2, MOVES - 7, MOVES // 2 + 300):
        shown = server.call(viewer.state(match_id, str(at)))
        assert shown["version"] == at and at in [e["version"] for e in shown["log"]]
        assert len(shown["log"]) <= 500
    # each ?at= replays from a checkpoint kept every few hundred moves, not from the start
    assert work.played <= 4 * 1000, work.played
    assert work.decoded == 0, work.decoded


class Threads:
    """The names of the threads that played moves or built records while installed."""

    def __init__(self, monkeypatch):
        self.played, self.recorded = set(), set()
        play, to_record = Game.play, Game.to_record

        def playing(game, move):
            self.played.add(threading.current_thread().name)
            return play(game, move)

        def recording(game):
            self.recorded.add(threading.current_thread().name)
            return to_record(game)

        monkeypatch.setattr(Game, "play", playing)
        monkeypatch.setattr(Game, "to_record", recording)


def test_a_watch_from_the_latest_version_replays_nothing(long_match, monkeypatch):
    server, match_id, _ = long_match
    _, stub, _ = stubs(server.port)
    work = Counted(monkeypatch)
    stream = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id, from_version=MOVES), timeout=60)
    first = next(stream)
    stream.cancel()
    assert first.version == MOVES and first.HasField("move") and first.state.version == MOVES
    assert work.played == 0 and work.decoded == 0, (work.played, work.decoded)


def test_the_latest_version_of_a_loaded_match_has_its_events(long_match):
    """Loading a match plays its last move apart, so that the current version is encoded with the
    events of that move (as when it was played), without a replay."""
    server, match_id, _ = long_match
    _, stub, _ = stubs(server.port)
    game = long_game(MOVES - 1)
    move = next(m for m in game.legal_moves() if m.to_json()["steps"][-1]["dst"] == m.to_json()["steps"][0]["src"])
    events = [adapter("jaeger_sammler").event(e) for e in game.play(move)]
    stream = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id, from_version=MOVES), timeout=60)
    first = next(stream)
    stream.cancel()
    assert first.version == MOVES and list(first.events) == events


def test_history_and_records_are_built_off_the_event_loop(long_match, monkeypatch):
    server, match_id, admin = long_match
    _, stub, _ = stubs(server.port)
    threads = Threads(monkeypatch)
    stream = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id), timeout=60)
    for event in stream:
        if event.version == 3 * CHUNK_MESSAGES:
            break
    stream.cancel()
    for _ in range(2):
        reply = stub.GetRecord(matches_pb2.GetRecordRequest(match_id=match_id), metadata=bearer(admin), timeout=60)
        assert len(json.loads(reply.record_json)["moves"]) == MOVES
    assert threads.played == {"hunters-reads_0"}, threads.played
    assert threads.recorded == {"hunters-reads_0"}, threads.recorded
    assert len(server.manager.records) == 1  # the second caller was answered from the cache


def test_a_watcher_that_does_not_read_costs_two_chunks(long_match):
    """The stream builds one chunk of history ahead of the one being sent, no more."""
    server, match_id, _ = long_match
    watching = server.manager.watching
    encode, built = watching.encode, []

    def counting(*args):
        built.append(args[1])
        return encode(*args)

    watching.encode = counting

    async def first_message():
        stream = server.manager.watch(match_id, 0)
        try:
            return await stream.__anext__()
        finally:
            await stream.aclose()

    try:
        assert matches_pb2.WatchMatchResponse.FromString(server.call(first_message())).version == 0
    finally:
        watching.encode = encode
    assert 0 < len(built) <= 2 * CHUNK_MESSAGES, len(built)


def test_the_record_cache_is_bounded_in_bytes():
    cache = ByteCache(100)
    for i in range(10):
        cache.put(i, bytes(30))
    assert cache.nbytes <= 100 and len(cache) == 3 and cache.get(9) is not None and cache.get(0) is None
    cache.put("big", bytes(101))  # larger than the whole cache: not kept
    assert cache.get("big") is None and cache.nbytes <= 100


def test_the_viewer_builds_a_long_log_off_the_event_loop(long_match, monkeypatch):
    server, match_id, _ = long_match
    threads = Threads(monkeypatch)
    state = server.call(Viewer(server.manager).state(match_id, None))
    assert [e["version"] for e in state["log"]][-3:] == [MOVES - 2, MOVES - 1, MOVES]
    assert threads.played == {"hunters-reads_0"}, threads.played


def test_a_hosts_history_watchers_take_turns_and_another_host_does_not_wait(long_match):
    """Three unread watches from version 0 from one host: two replay history, the third waits for
    a slot (costing nothing); a watch from another host replays at once."""
    server, match_id, _ = long_match
    slots = server.manager.watching.replaying

    async def scenario():
        streams = [server.manager.watch(match_id, 0, host="peer:10.0.0.1") for _ in range(3)]
        firsts = [asyncio.ensure_future(s.__anext__()) for s in streams]
        await asyncio.sleep(0.5)
        started = [f.done() for f in firsts]
        other = server.manager.watch(match_id, 0, host="peer:10.0.0.2")
        first_other = await asyncio.wait_for(other.__anext__(), 10)
        held = dict(slots._held)
        for f in firsts:
            f.cancel()
        await asyncio.gather(*firsts, return_exceptions=True)
        for s in [*streams, other]:
            await s.aclose()
        await asyncio.sleep(0.2)  # (the inner streams are closed by the loop's finalizer, soon after)
        return started, first_other, held, dict(slots._held)

    started, first_other, held, after = server.call(scenario())
    assert started.count(True) == REPLAYS_PER_HOST == 2  # the third of the host waits for a slot
    assert matches_pb2.WatchMatchResponse.FromString(first_other).version == 0
    assert held == {"peer:10.0.0.1": 2, "peer:10.0.0.2": 1}
    assert after == {}  # every slot handed back


def test_host_slots_hand_over_in_order_and_forget_cancelled_waiters():
    slots = HostSlots(1)

    async def run():
        await slots.acquire("a")
        second = asyncio.ensure_future(slots.acquire("a"))
        third = asyncio.ensure_future(slots.acquire("a"))
        await asyncio.sleep(0)
        second.cancel()  # gave up while waiting: it takes nothing
        await asyncio.sleep(0)
        slots.release("a")  # to the third
        await asyncio.wait_for(third, 1)
        held = dict(slots._held)
        slots.release("a")
        return held, dict(slots._held), dict(slots._waiting)

    assert asyncio.run(run()) == ({"a": 1}, {}, {})
