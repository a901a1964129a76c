"""Server replicas on one PostgreSQL database (run with --postgres): a move accepted by one is seen by
all, a race on one match has exactly one winner (the database decides, by version), a watcher on one
replica sees the moves played on another at once (LISTEN/NOTIFY), and a replica killed with -9 under
load loses no acknowledged move while the other goes on serving."""

import os
import signal
import statistics
import subprocess
import sys
import threading
import time

import pytest

from hunters.carcassonne import Game
from hunters.client import Client, ServiceError
from hunters.service import ServerConfig, create_server
from hunters.v1 import matches_pb2
from hunters.wire import adapter

from .helpers import sql, stubs
from .test_watch_and_persistence import free_port

pytestmark = pytest.mark.postgres


@pytest.fixture
def replicas(postgres_cluster):
    """start(n, **config) -> n servers on one new database."""
    started = []

    def start(n=2, **kwargs):
        db = postgres_cluster.new_database()
        running = [create_server(ServerConfig(address="127.0.0.1:0", db=db, **kwargs)) for _ in range(n)]
        started.extend(running)
        return running

    yield start
    for running in started:
        running.stop(0)


def nth_move(local):
    """A deterministic legal move of `local`, varied along the game."""
    moves = local.legal_moves()
    return moves[len(local.moves) % len(moves)]


def wait_for(predicate, timeout=2.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


def test_a_move_on_one_replica_is_seen_by_every_other(replicas):
    a, b = replicas(2)
    with Client(f"127.0.0.1:{a.port}") as ca, Client(f"127.0.0.1:{b.port}") as cb:
        m = ca.create_match("carcassonne_hg", players=2, seed=3)
        local = Game.new(players=2, seed=3)
        assert cb.get_match(m.match_id).version == 0  # B caches the match now
        for i in range(6):  # alternate replicas, each move checked against the other's cached state
            here, there = (ca, cb) if i % 2 == 0 else (cb, ca)
            move = nth_move(local)
            assert here.play(m.match_id, move, token=m.seat_tokens[local.player], expected_version=i).version == i + 1
            local.play(move)
            assert wait_for(lambda there=there, i=i: there.get_match(m.match_id).version == i + 1)
        assert ca.record(m.match_id, m.admin_token) == cb.record(m.match_id, m.admin_token) == local.to_record()
        assert [m.match_id] == [x.match_id for x in cb.all_matches()]
        cb.delete_match(m.match_id, m.admin_token)
        assert wait_for(lambda: _gone(ca, m.match_id))


def _gone(client, match_id):
    try:
        client.get_match(match_id)
    except ServiceError as exc:
        return exc.reason == "MATCH_NOT_FOUND"
    return False


def test_racing_replicas_give_exactly_one_winner(replicas):
    a, b = replicas(2)
    with Client(f"127.0.0.1:{a.port}") as ca, Client(f"127.0.0.1:{b.port}") as cb:
        for seed in range(12):
            m = ca.create_match("carcassonne_hg", players=2, seed=seed)
            cb.get_match(m.match_id)  # both replicas hold the match at version 0
            local = Game.new(players=2, seed=seed)
            moves = local.legal_moves()
            barrier, results = threading.Barrier(2), [None, None]
            # each replica plays a different legal move for seat 0: the database keeps one
            threads = [
                threading.Thread(target=_race, args=(barrier, results, i, c, m, moves[i]))
                for i, c in enumerate((ca, cb))
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            won = [r for r in results if not isinstance(r, ServiceError)]
            lost = [r for r in results if isinstance(r, ServiceError)]
            assert len(won) == 1 and len(lost) == 1, results
            assert lost[0].reason == "STALE_VERSION" and lost[0].code.name == "ABORTED"
            winner = results.index(won[0])
            local.play(moves[winner])
            stored = sql(a, f"SELECT move FROM moves WHERE match_id = '{m.match_id}'")
            assert len(stored) == 1
            for c in (ca, cb):  # both replicas agree on the winner's move
                assert wait_for(lambda c=c, m=m: c.get_match(m.match_id).version == 1)
                assert c.record(m.match_id, m.admin_token) == local.to_record()
    at_database = a.manager.lost_races + b.manager.lost_races
    print(f"\n12 races: {at_database} decided by the database, {12 - at_database} by a cache already told")


def _race(barrier, results, i, client, m, move):
    barrier.wait()
    try:
        results[i] = client.play(m.match_id, move, token=m.seat_tokens[0], expected_version=0)
    except ServiceError as exc:
        results[i] = exc


def test_a_stale_cache_is_checked_against_the_database(replicas):
    """B hears nothing (its listener is stopped): its cached match stays behind. A move B's cache would
    accept loses at the database and is judged again on the state brought up to date, as a move
    queued behind another is on one server; a move B's cache would refuse is checked the same way."""
    a, b = replicas(2)
    with Client(f"127.0.0.1:{a.port}") as ca, Client(f"127.0.0.1:{b.port}") as cb:
        m = ca.create_match("carcassonne_hg", players=2, seed=7)
        local = Game.new(players=2, seed=7)
        cb.get_match(m.match_id)
        b.call(lambda: b.store._listener.cancel())
        time.sleep(0.1)
        for _ in range(2):
            move = nth_move(local)
            ca.play(m.match_id, move, token=m.seat_tokens[local.player])
            local.play(move)
        time.sleep(0.2)
        assert cb.get_match(m.match_id).version == 0  # stale, as the test intends
        # seat 0 at version 0 in B's view, with the version it expects: STALE_VERSION
        with pytest.raises(ServiceError) as lost:
            cb.play(m.match_id, nth_move(Game.new(players=2, seed=7)), token=m.seat_tokens[0], expected_version=0)
        assert lost.value.reason == "STALE_VERSION"
        assert cb.get_match(m.match_id).version == 2  # the loser caught up
        assert cb.record(m.match_id, m.admin_token) == local.to_record()
        # A plays seat 0 again; seat 1's move on B, refused by B's stale cache (seat 0 to move there),
        # is accepted once B has read the database: a player who was told of A's move can play on B.
        move = nth_move(local)
        ca.play(m.match_id, move, token=m.seat_tokens[0], expected_version=2)
        local.play(move)
        time.sleep(0.1)
        assert cb.get_match(m.match_id).version == 2
        second = nth_move(local)
        assert cb.play(m.match_id, second, token=m.seat_tokens[1], expected_version=3).version == 4
        local.play(second)
        # and without an expected version, seat 1 playing twice is refused as on one server
        with pytest.raises(ServiceError) as refused:
            cb.play(m.match_id, nth_move(local), token=m.seat_tokens[1])
        assert refused.value.reason == "NOT_YOUR_TURN"
        # A hears of B's move by notification: reads there are up to date within moments, not at once
        assert wait_for(lambda: ca.get_match(m.match_id).version == 4, timeout=10.0)
        assert ca.record(m.match_id, m.admin_token) == local.to_record()


def test_limits_retries_and_expiry_hold_across_replicas(replicas):
    a, b = replicas(2, max_live_matches=3, idle_seconds=3600)
    with Client(f"127.0.0.1:{a.port}") as ca, Client(f"127.0.0.1:{b.port}") as cb:
        made = [ca.create_match("carcassonne_hg", players=2, seed=1), cb.create_match("carcassonne_hg", players=2)]
        made.append(ca.create_match("carcassonne_hg", players=2))
        for c in (ca, cb):  # the limit is counted in the database, for every replica
            with pytest.raises(ServiceError) as full:
                c.create_match("carcassonne_hg", players=2)
            assert full.value.reason == "TOO_MANY_MATCHES"
        m = made[0]
        local = Game.new(players=2, seed=1)
        move = nth_move(local)
        first = ca.play(m.match_id, move, token=m.seat_tokens[0], request_id="r-1")
        again = cb.play(m.match_id, move, token=m.seat_tokens[0], request_id="r-1")  # a retry on the other replica
        assert first.version == again.version == 1 and again.state == first.state
        with pytest.raises(ServiceError) as reused:
            cb.play(m.match_id, local.legal_moves()[-1], token=m.seat_tokens[0], request_id="r-1")
        assert reused.value.reason == "REQUEST_ID_REUSED"
        cb.get_match(made[1].match_id)
        # A's sweep abandons every idle match once; B, which holds two of them, is told
        assert sorted(a.call(lambda: a.manager.expire(now=time.time() + 4000))) == sorted(x.match_id for x in made)
        assert b.call(lambda: b.manager.expire(now=time.time() + 4000)) == []
        _, stub_b, _ = stubs(b.port)

        def abandoned_on_b(match_id):
            match = stub_b.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match
            return match.status == matches_pb2.MATCH_STATUS_ABANDONED

        assert wait_for(lambda: abandoned_on_b(made[1].match_id))
        assert wait_for(lambda: abandoned_on_b(m.match_id))
        with pytest.raises(ServiceError) as closed:
            cb.play(m.match_id, nth_move(local), token=m.seat_tokens[1])
        assert closed.value.reason == "MATCH_ABANDONED"
        cb.create_match("carcassonne_hg", players=2)  # abandoned matches no longer count


def test_a_watcher_on_one_replica_sees_moves_played_on_another_at_once(replicas):
    a, b = replicas(2)
    moves = 40
    with Client(f"127.0.0.1:{a.port}") as ca, Client(f"127.0.0.1:{b.port}") as cb:
        m = ca.create_match("carcassonne_hg", players=2, seed=11)
        local = Game.new(players=2, seed=11)
        seen, events = {}, {"a": [], "b": []}
        ready = {"a": threading.Event(), "b": threading.Event()}

        def watch(name, client):
            for event in client.watch(m.match_id, from_version=0, timeout=60):
                if name == "b":
                    seen[event.version] = time.perf_counter()
                events[name].append(event)
                ready[name].set()
                if event.version >= moves or event.match_over:
                    return

        watchers = [threading.Thread(target=watch, args=("a", ca)), threading.Thread(target=watch, args=("b", cb))]
        for watcher in watchers:
            watcher.start()
        assert ready["a"].wait(10) and ready["b"].wait(10)
        sent, acked = {}, {}
        for i in range(moves):
            if local.is_over:
                break
            move = nth_move(local)
            sent[i + 1] = time.perf_counter()
            ca.play(m.match_id, move, token=m.seat_tokens[local.player], expected_version=i)
            acked[i + 1] = time.perf_counter()
            local.play(move)
            time.sleep(0.01)
        for watcher in watchers:
            watcher.join(timeout=20)
        assert sorted(seen) == list(range(len(local.moves) + 1))
        # B's watchers are shown what A's are, event for event (public state only: no seed, no draw order)
        assert events["b"] == events["a"] and len(events["a"]) == len(local.moves) + 1
        after_send = sorted(seen[v] - sent[v] for v in sent)
        after_ack = sorted(seen[v] - acked[v] for v in acked)
        p50, p99 = statistics.median(after_send), after_send[int(0.99 * (len(after_send) - 1))]
        print(
            f"\ncross-replica watch latency over {len(sent)} moves, from PlayMove sent on A to the event on B: "
            f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {after_send[-1] * 1000:.1f} ms; "
            f"from A's reply: p50 {statistics.median(after_ack) * 1000:.1f} ms, max {after_ack[-1] * 1000:.1f} ms"
        )
        assert p50 < 0.1 and after_send[-1] < 1.0  # the goal is 100 ms; a loaded 2-core machine gets slack


def test_bot_seats_make_one_move_each_with_two_replicas(replicas):
    a, b = replicas(2)
    with Client(f"127.0.0.1:{a.port}") as ca, Client(f"127.0.0.1:{b.port}") as cb:
        m = ca.create_match("carcassonne_hg", players=2, seed=5, bots={1: "random"})
        # B resumes the bot matches, as a replica starting now would: both replicas play seat 1
        b.call(b.manager.resume_bots())
        local = Game.new(players=2, seed=5)
        for i in range(8):  # seat 0 plays on either replica; seat 1 is the server's
            c = ca if i % 2 else cb
            record = c.record(m.match_id, m.admin_token)
            while len(local.moves) < len(record["moves"]):
                local.play(local.move_from_json(record["moves"][len(local.moves)]))
            if local.is_over:
                break
            assert local.player == 0
            move = nth_move(local)
            c.play(m.match_id, move, token=m.seat_tokens[0], expected_version=len(local.moves))
            local.play(move)
            for either in (ca, cb):  # the bot's answer, seen on both replicas
                assert wait_for(lambda e=either: e.get_match(m.match_id).version == len(local.moves) + 1, 5)
        stored = sql(a, f"SELECT idx, seat FROM moves WHERE match_id = '{m.match_id}' ORDER BY idx")
        assert [i for i, _ in stored] == list(range(len(stored)))  # one move per version, no gap, no double
        assert [s for _, s in stored] == [i % 2 for i in range(len(stored))]


def test_a_stalled_bot_seat_is_taken_over_by_another_replica(postgres_cluster):
    """A's bot never plays (as if A died while its bot was to move): B takes the seat over once the
    match has had no move for its bot_takeover_seconds."""
    db = postgres_cluster.new_database()
    a = create_server(ServerConfig(address="127.0.0.1:0", db=db, bot_takeover_seconds=0))
    b = create_server(ServerConfig(address="127.0.0.1:0", db=db, bot_takeover_seconds=0.5))
    try:
        with Client(f"127.0.0.1:{a.port}") as ca, Client(f"127.0.0.1:{b.port}") as cb:
            a.manager.closing = True  # A starts no bot
            m = ca.create_match("carcassonne_hg", players=2, seed=4, bots={0: "random"})
            a.manager.closing = False
            assert a.call(lambda: a.manager.cached(m.match_id).bot_task) is None
            t0 = time.monotonic()
            assert wait_for(lambda: ca.get_match(m.match_id).version == 1, 10)  # played by B's bot
            assert time.monotonic() - t0 < 5
            assert a.call(lambda: a.manager.cached(m.match_id).bot_task) is None
            stored = sql(a, f"SELECT idx, seat FROM moves WHERE match_id = '{m.match_id}'")
            assert stored == [(0, 0)]
            local = Game.new(players=2, seed=4)
            local.play(local.move_from_json(cb.record(m.match_id, m.admin_token)["moves"][0]))
            move = nth_move(local)  # seat 1 answers on A, which then plays its bot seat: the game goes on
            ca.play(m.match_id, move, token=m.seat_tokens[1], expected_version=1)
            assert wait_for(lambda: cb.get_match(m.match_id).version == 3, 10)
    finally:
        a.stop(0)
        b.stop(0)


def test_replicas_ride_out_lost_database_connections(replicas):
    """Every connection to the database is cut (as by a restart of PostgreSQL): calls that hit a dead
    connection answer UNAVAILABLE / DATABASE_UNAVAILABLE, the pools reconnect, and each replica's
    listener comes back and catches up with what it missed."""
    a, b = replicas(2)
    with Client(f"127.0.0.1:{a.port}") as ca, Client(f"127.0.0.1:{b.port}") as cb:
        m = ca.create_match("carcassonne_hg", players=2, seed=9)
        local = Game.new(players=2, seed=9)
        cb.get_match(m.match_id)
        sql(
            a,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        move = nth_move(local)
        refusals = []
        for _ in range(20):  # each failure takes a dead connection out of the pool
            try:
                assert ca.play(m.match_id, move, token=m.seat_tokens[0], request_id="cut-1").version == 1
                break
            except ServiceError as exc:
                refusals.append((exc.code.name, exc.reason))
        else:
            raise AssertionError(refusals)
        assert set(refusals) <= {("UNAVAILABLE", "DATABASE_UNAVAILABLE")}
        local.play(move)
        # B's listener was cut too: it reconnects and catches up (the notification may be lost)
        assert wait_for(lambda: cb.get_match(m.match_id).version == 1, 10)
        second = nth_move(local)
        for _ in range(20):
            try:
                assert cb.play(m.match_id, second, token=m.seat_tokens[1], request_id="cut-2").version == 2
                break
            except ServiceError as exc:
                assert (exc.code.name, exc.reason) == ("UNAVAILABLE", "DATABASE_UNAVAILABLE")
        assert wait_for(lambda: ca.get_match(m.match_id).version == 2, 10)


def _serve(db, port):
    proc = subprocess.Popen(
        [sys.executable, "-m", "hunters.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    import grpc

    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        grpc.channel_ready_future(channel).result(timeout=30)
    except grpc.FutureTimeoutError:
        proc.kill()
        raise AssertionError(proc.communicate()[1].decode()) from None
    finally:
        channel.close()
    return proc


def test_kill_9_of_a_replica_under_load_loses_no_acknowledged_move(postgres_cluster):
    db = postgres_cluster.new_database()
    port = free_port()
    victim = _serve(db, port)
    survivor = create_server(ServerConfig(address="127.0.0.1:0", db=db))
    acked = {}  # match id -> versions acknowledged by the victim
    errors = []
    stop = threading.Event()
    try:
        with Client(f"127.0.0.1:{port}") as c:
            matches = [c.create_match("carcassonne_hg", players=2, seed=s) for s in range(6)]

        def load(m, seed):
            local = Game.new(players=2, seed=seed)
            with Client(f"127.0.0.1:{port}") as c:
                while not stop.is_set() and not local.is_over:
                    move = nth_move(local)
                    try:
                        version = c.play(m.match_id, move, token=m.seat_tokens[local.player]).version
                    except ServiceError as exc:
                        errors.append(exc)
                        return
                    local.play(move)
                    acked.setdefault(m.match_id, []).append(version)

        threads = [threading.Thread(target=load, args=(m, s)) for s, m in enumerate(matches)]
        for t in threads:
            t.start()
        assert wait_for(lambda: sum(map(len, acked.values())) >= 30, 30)
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait()
        stop.set()
        for t in threads:
            t.join(timeout=30)
        assert all(e.code.name in ("UNAVAILABLE", "CANCELLED", "UNKNOWN") for e in errors), errors
        total = sum(map(len, acked.values()))
        with Client(f"127.0.0.1:{survivor.port}") as c:
            for m in matches:
                versions = acked.get(m.match_id, [])
                assert versions == list(range(1, len(versions) + 1))
                stored = sql(survivor, f"SELECT count(*) FROM moves WHERE match_id = '{m.match_id}'")[0][0]
                assert stored >= len(versions)  # at most one move the victim stored but could not answer
                assert stored <= len(versions) + 1
                # the survivor serves every match, from the database, and plays on
                info = c.get_match(m.match_id)
                assert info.version == stored
                record = c.record(m.match_id, m.admin_token)
                local = adapter("carcassonne_hg").from_record(record)
                if not local.is_over:
                    move = nth_move(local)
                    version = c.play(m.match_id, move, token=m.seat_tokens[local.player]).version
                    assert version == stored + 1
            assert c.create_match("carcassonne_hg", players=2).version == 0
        print(f"\nkill -9 under load: {total} moves acknowledged before the kill, all stored")
    finally:
        stop.set()
        if victim.poll() is None:
            victim.kill()
            victim.wait()
        survivor.stop(0)


def test_a_database_outage_is_not_serving_until_the_database_is_back(caplog):
    """PostgreSQL stopped while serving, then started again: health turns NOT_SERVING within a few
    seconds with no call in flight, moves answer UNAVAILABLE / DATABASE_UNAVAILABLE meanwhile (the
    fault logged once), and once the database is back health is SERVING, moves go on and everything
    acknowledged is there."""
    from grpc_health.v1 import health_pb2

    from .pgcluster import Cluster
    from .test_storage_faults import eventually, health

    cluster = Cluster()  # its own: the session's cluster must not go down under other tests
    server = None
    try:
        server = create_server(ServerConfig(address="127.0.0.1:0", db=cluster.new_database()))
        with Client(f"127.0.0.1:{server.port}") as c:
            m = c.create_match("carcassonne_hg", players=2, seed=5)
            local = Game.new(players=2, seed=5)
            move = nth_move(local)
            assert c.play(m.match_id, move, token=m.seat_tokens[0]).version == 1
            local.play(move)
            assert health(server.port) == health_pb2.HealthCheckResponse.SERVING
            cluster.pause()
            eventually(lambda: health(server.port) == health_pb2.HealthCheckResponse.NOT_SERVING, 15)
            second = nth_move(local)
            with pytest.raises(ServiceError) as refused:
                c.play(m.match_id, second, token=m.seat_tokens[1], request_id="during")
            assert (refused.value.code.name, refused.value.reason) == ("UNAVAILABLE", "DATABASE_UNAVAILABLE")
            cluster.resume()
            eventually(lambda: health(server.port) == health_pb2.HealthCheckResponse.SERVING, 30)
            for _ in range(20):  # a connection the pool still holds from before may fail once more
                try:
                    assert c.play(m.match_id, second, token=m.seat_tokens[1], request_id="during").version == 2
                    break
                except ServiceError as exc:
                    assert (exc.code.name, exc.reason) == ("UNAVAILABLE", "DATABASE_UNAVAILABLE")
            else:
                raise AssertionError("moves never went on after the database came back")
            record = c.record(m.match_id, admin_token=m.admin_token)
            assert len(record["moves"]) == 2
    finally:
        if server is not None:
            server.stop(0)
        cluster.stop()
    faults = [r for r in caplog.records if r.getMessage() == "database fault"]
    assert len(faults) == 1, [r.__dict__.get("error") for r in faults]
    lost = [r for r in caplog.records if r.getMessage() == "listening connection lost" and r.levelname == "WARNING"]
    assert len(lost) == 1, len(lost)
