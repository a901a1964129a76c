"""`hunters serve --workers 2` on one SQLite file: the kernel spreads connections over both workers
and each move is played by the worker its connection reached, every watcher (on either worker) sees
every move, a version race across workers has exactly one winner, and a worker killed with -9 under
load loses no acknowledged move and is started again by the parent."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hunters.carcassonne import Game
from hunters.status import error_info
from hunters.v1 import matches_pb2, matches_pb2_grpc
from hunters.wire import adapter

from .helpers import bearer
from .test_watch_and_persistence import free_port

AD = adapter("carcassonne_hg")
SERVE = [sys.executable, "-m", "hunters.cli", "serve"]


class Workers:
    """`hunters serve --workers 2` in a subprocess, its log (JSON lines, DEBUG) in a file."""

    def __init__(self, tmp_path, workers=2, extra=()):
        self.db = str(tmp_path / "workers.db")
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.log_path = tmp_path / "workers.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [
                *SERVE,
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--workers",
                str(workers),
                "--log-level",
                "DEBUG",
                *extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )
        self.channels = []
        started = wait_for(lambda: len(self.logged("serving")) == workers or self.proc.poll() is not None, 60)
        assert started and self.proc.poll() is None, self.log_path.read_text()

    def logged(self, msg):
        lines = []
        for line in self.log_path.read_text().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("msg") == msg:
                lines.append(record)
        return lines

    def connection(self):
        """A channel on a connection of its own."""
        channel = grpc.insecure_channel(self.address, options=[("grpc.use_local_subchannel_pool", 1)])
        grpc.channel_ready_future(channel).result(timeout=30)
        self.channels.append(channel)
        return channel

    def by_worker(self, each=1, tries=64):
        """{worker: [channels]}: new connections until each of the two workers holds `each` of them."""
        found = {0: [], 1: []}
        for _ in range(tries):
            if all(len(v) >= each for v in found.values()):
                return found
            channel = self.connection()
            found[worker_of(channel)].append(channel)
        raise AssertionError(f"the connections did not reach both workers: {[len(v) for v in found.values()]}")

    def stop(self):
        for channel in self.channels:
            channel.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            assert self.proc.wait(timeout=30) == 0
        self._log.close()


def worker_of(channel):
    """Which worker serves this connection: the one whose own health-check name is SERVING."""
    health = health_pb2_grpc.HealthStub(channel)
    for worker in (0, 1):
        try:
            status = health.Check(health_pb2.HealthCheckRequest(service=f"hunters.worker.{worker}"), timeout=10)
        except grpc.RpcError as exc:
            assert exc.code() == grpc.StatusCode.NOT_FOUND
            continue
        assert status.status == health_pb2.HealthCheckResponse.SERVING
        return worker
    raise AssertionError("no worker named itself")


def wait_for(predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


@pytest.fixture(scope="module")
def workers(tmp_path_factory):
    running = Workers(tmp_path_factory.mktemp("workers"))
    yield running
    running.stop()


def create(channel, seed):
    stub = matches_pb2_grpc.MatchServiceStub(channel)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=seed)
    return stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config))


def nth_move(local):
    moves = local.legal_moves()
    return moves[len(local.moves) * 7 % len(moves)]


def play(channel, created, local, **kwargs):
    move = nth_move(local)
    stub = matches_pb2_grpc.MatchServiceStub(channel)
    request = matches_pb2.PlayMoveRequest(match_id=created.match.match_id, move=AD.move_to_proto(move), **kwargs)
    reply = stub.PlayMove(request, metadata=bearer(created.seat_tokens[local.player]), timeout=10)
    local.play(move)
    return reply


def test_each_connection_is_served_by_one_worker_and_both_serve(workers):
    """Moves alternate between a connection to worker 0 and one to worker 1; each is logged as played
    by the worker of its connection, and each is judged on the state the other worker made."""
    found = workers.by_worker()
    created = create(found[0][0], seed=11)
    local = Game.new(players=2, seed=11)
    used = {}
    for version in range(1, 21):
        worker = version % 2
        reply = play(found[worker][0], created, local, expected_version=version - 1)
        assert reply.version == version
        used[version] = worker
    assert wait_for(
        lambda: len([r for r in workers.logged("move played") if r["match_id"] == created.match.match_id]) == 20
    )
    played = {
        r["version"]: r["worker"] for r in workers.logged("move played") if r["match_id"] == created.match.match_id
    }
    assert played == used and set(played.values()) == {0, 1}


def test_every_watcher_on_either_worker_sees_every_move(workers):
    found = workers.by_worker(each=3)
    matches = [create(found[0][0], seed=20 + i) for i in range(3)]
    locals_ = [Game.new(players=2, seed=20 + i) for i in range(3)]
    watchers = []  # (match index, worker, call)
    for i, created in enumerate(matches):
        for worker in (0, 1):
            for channel in found[worker]:
                stub = matches_pb2_grpc.MatchServiceStub(channel)
                call = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=created.match.match_id, from_version=0))
                assert next(call).version == 0
                watchers.append((i, worker, call))
    moves = 30
    for n in range(moves):
        for i, created in enumerate(matches):
            play(found[n % 2][(n + i) % 3], created, locals_[i])
    events = {}
    for i, worker, call in watchers:
        got = [next(call) for _ in range(moves)]
        call.cancel()
        assert [e.version for e in got] == list(range(1, moves + 1)), (i, worker)
        assert [AD.move_from_proto(e.move) for e in got] == locals_[i].moves[:moves]
        events.setdefault(i, []).append([e.SerializeToString(deterministic=True) for e in got])
    for i, seen in events.items():  # both workers tell the same story, to the byte
        assert all(s == seen[0] for s in seen), i


RACES = 40


def version_on(stub, match_id):
    return stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match.version


def test_a_version_race_across_workers_has_exactly_one_winner(workers):
    found = workers.by_worker()
    stubs = {w: matches_pb2_grpc.MatchServiceStub(found[w][0]) for w in (0, 1)}
    wins = {0: 0, 1: 0}
    for race in range(RACES):
        created = create(found[race % 2][0], seed=100 + race)
        match_id = created.match.match_id
        local = Game.new(players=2, seed=100 + race)
        version = 0
        if race % 4 >= 2:  # some races at a later version, both workers' copies warm
            play(found[0][0], created, local)
            play(found[1][0], created, local)
            version = 2
        for stub in stubs.values():  # both workers hold the match in memory
            assert wait_for(lambda stub=stub, m=match_id, v=version: version_on(stub, m) == v)
        legal = local.legal_moves()
        token = bearer(created.seat_tokens[local.player])
        barrier = threading.Barrier(2)
        outcome = {}

        def move(worker, i, legal=legal, token=token, barrier=barrier, outcome=outcome, match_id=match_id, v=version):
            request = matches_pb2.PlayMoveRequest(
                match_id=match_id, move=AD.move_to_proto(legal[i % len(legal)]), expected_version=v
            )
            barrier.wait()
            try:
                outcome[worker] = stubs[worker].PlayMove(request, metadata=token, timeout=10).version
            except grpc.RpcError as exc:
                outcome[worker] = exc

        threads = [threading.Thread(target=move, args=(w, w * 3)) for w in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        winners = [w for w, o in outcome.items() if not isinstance(o, grpc.RpcError)]
        assert len(winners) == 1, outcome
        (winner,) = winners
        wins[winner] += 1
        assert outcome[winner] == version + 1
        loser = outcome[1 - winner]
        reason, meta = error_info(loser)
        assert (loser.code(), reason, meta.get("current_version")) == (
            grpc.StatusCode.ABORTED,
            "STALE_VERSION",
            str(version + 1),
        )
        db = sqlite3.connect(workers.db)
        try:
            assert db.execute("SELECT count(*) FROM moves WHERE match_id = ?", (match_id,)).fetchone()[0] == version + 1
        finally:
            db.close()
        for stub in stubs.values():  # and both workers follow the winner
            assert wait_for(lambda stub=stub, m=match_id, v=version + 1: version_on(stub, m) == v)
    print(f"\n{RACES} races across workers: worker 0 won {wins[0]}, worker 1 won {wins[1]}")


def test_kill_9_of_a_worker_under_load_loses_no_acknowledged_move(tmp_path):
    running = Workers(tmp_path)
    try:
        found = running.by_worker(each=4)
        victim_worker = 1
        (victim,) = [r["pid"] for r in running.logged("serving") if r["worker"] == victim_worker]
        matches = [create(found[0][0], seed=300 + i) for i in range(8)]
        acked = {}
        errors = []
        stop = threading.Event()

        def load(i):
            channel = found[i % 2][i // 2]  # four matches played through each worker
            local = Game.new(players=2, seed=300 + i)
            while not stop.is_set() and not local.is_over:
                try:
                    version = play(channel, matches[i], local, expected_version=len(local.moves)).version
                except grpc.RpcError as exc:
                    errors.append(exc.code())
                    return
                acked.setdefault(i, []).append(version)

        threads = [threading.Thread(target=load, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        assert wait_for(lambda: sum(map(len, acked.values())) >= 80, 30)
        os.kill(victim, signal.SIGKILL)
        assert wait_for(lambda: sum(map(len, acked.values())) >= 200, 30)  # the other worker plays on meanwhile
        stop.set()
        for t in threads:
            t.join(timeout=30)
        assert errors and all(code == grpc.StatusCode.UNAVAILABLE for code in errors), errors
        db = sqlite3.connect(running.db)
        try:
            for i, created in enumerate(matches):
                versions = acked.get(i, [])
                assert versions == list(range(1, len(versions) + 1))
                (stored,) = db.execute(
                    "SELECT count(*) FROM moves WHERE match_id = ?", (created.match.match_id,)
                ).fetchone()
                assert len(versions) <= stored <= len(versions) + 1, (i, versions, stored)
        finally:
            db.close()
        # the parent started the worker again: a new connection reaches it, and it serves every match
        assert wait_for(lambda: len([r for r in running.logged("serving") if r["worker"] == victim_worker]) == 2, 30)
        restarted = running.by_worker()[victim_worker][0]
        stub = matches_pb2_grpc.MatchServiceStub(restarted)
        for created in matches:
            stored = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=created.match.match_id)).match.version
            assert stored >= len(acked.get(matches.index(created), []))
        assert [r["status"] for r in running.logged("worker ended: restarting")] == [-signal.SIGKILL]
        print(f"\nkill -9 of a worker under load: {sum(map(len, acked.values()))} moves acknowledged, all stored")
    finally:
        running.stop()


def test_a_configuration_the_workers_refuse_stops_them_all_with_status_2():
    done = subprocess.run(
        [*SERVE, "--port", "0", "--db", ":memory:", "--workers", "2"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "hunters serve: error: workers share a database file, not an in-memory database" in done.stderr


def test_a_worker_hears_the_others_moves_only_of_the_matches_it_holds(tmp_path):
    """The watching thread hands the loop the other workers' moves of the matches in memory only
    (`follows`), counting the rest; abandonments and deletions always."""
    import asyncio

    from hunters.service.store import SQLiteStore

    async def run():
        path = str(tmp_path / "shared.db")
        a, b = SQLiteStore(path, shared=True), SQLiteStore(path, shared=True)
        a._origin = -1  # another worker's changes (both stores are in this process)
        a._db.execute("DROP TRIGGER temp.moves_told")
        a._db.execute(
            "CREATE TEMP TRIGGER moves_told AFTER INSERT ON main.moves BEGIN INSERT INTO changes (match_id, what,"
            " origin) VALUES (NEW.match_id, NEW.idx + 1, -1); END"
        )
        for match_id in ("held", "other"):
            await a.create(match_id, "carcassonne_hg", {}, b"", ["h0", "h1"], "admin", False)
        heard: list[str] = []

        async def on_change(change):
            heard.append(f"{change.match_id} {change.version if not (change.abandoned or change.deleted) else '-'}")

        async def on_resync():
            pass

        b.follows = lambda match_id: match_id == "held"
        await b.listen(on_change, on_resync)
        for idx in range(3):
            for match_id in ("held", "other"):
                await a.append_move(match_id, idx, idx % 2, {"i": idx}, False, None)
        await a.abandon("other")
        for _ in range(200):
            if len(heard) == 4:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        await a.close()
        await b.close()
        return heard, b.moves_passed_over

    heard, passed_over = asyncio.run(run())
    assert heard == ["held 1", "held 2", "held 3", "other -"]
    assert passed_over == 3


def _open_at_once(path, barrier, failures):
    from hunters.service.store import SQLiteStore

    barrier.wait()
    try:
        SQLiteStore(path, shared=True)
    except Exception as e:  # the failure is the finding
        failures.put(repr(e))


def test_workers_opening_a_new_database_at_once_all_open_it(tmp_path):
    """SQLite does not wait on its busy handler for `PRAGMA journal_mode=WAL`: two workers making a
    new file at the same instant found it locked about one time in four, and the server stopped."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    failures = ctx.Queue()
    for i in range(40):
        barrier = ctx.Barrier(2)
        procs = [
            ctx.Process(target=_open_at_once, args=(str(tmp_path / f"w{i}.db"), barrier, failures)) for _ in range(2)
        ]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
            assert p.exitcode == 0
    assert failures.empty(), failures.get()
