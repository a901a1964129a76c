"""The SQLite store under real faults: another process holding the write lock, a full disk (a
file-size limit on the server's process), the database file deleted or replaced while serving.
Affected calls answer UNAVAILABLE with a reason within a bounded time, everything else goes on,
health says NOT_SERVING while writes cannot succeed, and nothing acknowledged is lost."""

import json
import os
import resource
import shutil
import subprocess
import sys
import textwrap
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hunters.service import ServerConfig, create_server
from hunters.service.healthcheck import check
from hunters.v1 import matches_pb2

from .helpers import bearer, create, limited, rpc_error, stubs
from .test_serve_command import free_port


def health(port):
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    with channel:
        return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5).status


def play(stub, match_id, token, request_id=""):
    legal = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=match_id), timeout=10)
    return stub.PlayMove(
        matches_pb2.PlayMoveRequest(match_id=match_id, action=legal.moves[0].action, request_id=request_id),
        metadata=bearer(token),
        timeout=10,
    )


def two_seats(created):
    return created.match.match_id, created.seat_tokens


def eventually(condition, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.05)


def stored_moves(db, match_id):
    import sqlite3

    conn = sqlite3.connect(db, timeout=30)
    try:
        return conn.execute("SELECT COUNT(*) FROM moves WHERE match_id = ?", (match_id,)).fetchone()[0]
    finally:
        conn.close()


@pytest.fixture
def sqlite_server(tmp_path):
    """A server on SQLite whatever the store of the other tests (these faults are SQLite's)."""
    server = create_server(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "locked.db"), db_busy_timeout=1.0))
    yield server
    server.stop(0)


def test_another_process_holding_the_write_lock(sqlite_server):
    server = sqlite_server
    db = server.store.path
    _, stub, _ = stubs(server.port)
    mid, tokens = two_seats(create(stub))
    acknowledged = play(stub, mid, tokens[0]).version
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
                import sqlite3, sys
                db = sqlite3.connect({db!r}, isolation_level=None)
                db.execute("BEGIN IMMEDIATE")
                print("held", flush=True)
                sys.stdin.read()  # until the test closes it
                db.execute("ROLLBACK")
            """),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        start = time.monotonic()
        code, reason, _ = rpc_error(play, stub, mid, tokens[1])
        took = time.monotonic() - start
        assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "DATABASE_BUSY")
        assert took < 10  # the busy timeout (1 s), not the 30 s the loop used to wait
        # eight writes at once: each waits one busy timeout from when it came, not one each in turn
        answers = []

        def one():
            start = time.monotonic()
            code, reason, _ = rpc_error(stub.CreateMatch, matches_pb2.CreateMatchRequest(config=create_config()))
            answers.append((code, reason, time.monotonic() - start))

        callers = [threading.Thread(target=one) for _ in range(8)]
        for t in callers:
            t.start()
        for t in callers:
            t.join()
        assert {(c, r) for c, r, _ in answers} == {(grpc.StatusCode.UNAVAILABLE, "DATABASE_BUSY")}
        assert max(t for _, _, t in answers) < 4, answers  # 8 s if they waited in turn
        # what needs no write goes on: health, reading the match, its legal moves
        assert health(server.port) == health_pb2.HealthCheckResponse.SERVING
        assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match.version == acknowledged
        assert stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)).moves
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    acknowledged = play(stub, mid, tokens[1]).version
    assert acknowledged == 2 and stored_moves(db, mid) == 2


def create_config():
    return matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=7)


def _serve(db, port, fsize=None):
    """`hunters serve` in its own process (optionally under a file-size limit: a full disk)."""

    proc = subprocess.Popen(
        limited([sys.executable, "-m", "hunters.cli", "serve", "--port", str(port), "--db", db], fsize=fsize),
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not check(f"127.0.0.1:{port}", 0.5):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() else ""
        time.sleep(0.1)
    return proc


def _faults_logged(stderr):
    lines = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    return [line for line in lines if line["msg"] == "database fault"], lines


def test_a_full_disk(tmp_path):
    """RLIMIT_FSIZE on the server's process: once its files reach the limit, writes fail as on a full
    disk. Moves answer UNAVAILABLE / STORAGE_UNAVAILABLE (never INTERNAL), health goes NOT_SERVING,
    reads go on, one log line; raised again, the next probe write works and health comes back."""
    db = str(tmp_path / "full.db")
    port = free_port()
    proc = _serve(db, port, fsize=256 * 1024)
    try:
        _, stub, _ = stubs(port)
        acknowledged = {}
        refused = None
        for n in range(2000):  # each match's record and moves take a few kB: the limit comes soon
            try:
                created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=create_config()), timeout=10)
                mid, tokens = two_seats(created)
                acknowledged[mid] = 0
                for i in range(6):
                    acknowledged[mid] = play(stub, mid, tokens[i % 2]).version
            except grpc.RpcError as err:
                refused = err
                break
        assert refused is not None, "the file-size limit was never reached"
        code, reason, _ = rpc_error(lambda: (_ for _ in ()).throw(refused))
        assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"), refused
        for _ in range(5):  # more writes: the same answer, no new log line
            code, reason, _ = rpc_error(stub.CreateMatch, matches_pb2.CreateMatchRequest(config=create_config()))
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE")
        eventually(lambda: health(port) == health_pb2.HealthCheckResponse.NOT_SERVING)
        some = next(iter(acknowledged))
        assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=some)).match.version == acknowledged[some]
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        eventually(lambda: health(port) == health_pb2.HealthCheckResponse.SERVING)
        created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=create_config()))
        mid, tokens = two_seats(created)
        acknowledged[mid] = play(stub, mid, tokens[0]).version
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=30)
    faults, lines = _faults_logged(stderr)
    assert len(faults) == 1 and faults[0]["reason"] == "STORAGE_UNAVAILABLE", faults
    assert not [line for line in lines if line["level"] == "ERROR" and line["msg"] != "database fault"], lines
    for mid, version in acknowledged.items():  # every acknowledged move is in the database
        assert stored_moves(db, mid) >= version, mid


def test_the_database_deleted_or_replaced_while_serving(tmp_path):
    for how in ("deleted", "replaced by a read-only copy"):
        db = str(tmp_path / f"{how[:7]}.db")
        port = free_port()
        proc = _serve(db, port)
        try:
            _, stub, _ = stubs(port)
            mid, tokens = two_seats(create(stub))
            play(stub, mid, tokens[0])
            if how == "deleted":
                os.remove(db)
            else:
                copy = db + ".copy"
                shutil.copy(db, copy)
                os.chmod(copy, 0o444)
                os.replace(copy, db)
            code, reason, _ = rpc_error(play, stub, mid, tokens[1])
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"), how
            eventually(lambda port=port: health(port) == health_pb2.HealthCheckResponse.NOT_SERVING)
            assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match.version == 1
            time.sleep(1.5)  # probes keep failing: the server never writes to another file than it opened
            assert health(port) == health_pb2.HealthCheckResponse.NOT_SERVING
        finally:
            proc.terminate()
            _, stderr = proc.communicate(timeout=30)
        faults, _ = _faults_logged(stderr)
        assert len(faults) == 1 and "deleted or replaced" in faults[0]["error"], (how, faults)


def test_the_database_made_read_only_while_serving(tmp_path):
    """chmod a-w on the database file: the open connection could still write, but the file was marked
    read-only (and a restart could not open it), so moves answer UNAVAILABLE / STORAGE_UNAVAILABLE,
    health goes NOT_SERVING, reads go on, one log line; writable again, the same move (by its
    request id) is accepted once and health comes back."""
    db = str(tmp_path / "readonly.db")
    port = free_port()
    proc = _serve(db, port)
    try:
        _, stub, _ = stubs(port)
        mid, tokens = two_seats(create(stub))
        play(stub, mid, tokens[0])
        os.chmod(db, 0o444)
        for _ in range(3):
            code, reason, _ = rpc_error(play, stub, mid, tokens[1], "after-chmod")
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE")
        eventually(lambda: health(port) == health_pb2.HealthCheckResponse.NOT_SERVING)
        assert stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match.version == 1
        os.chmod(db, 0o644)
        eventually(lambda: health(port) == health_pb2.HealthCheckResponse.SERVING)
        action = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)).moves[0].action
        request = matches_pb2.PlayMoveRequest(match_id=mid, action=action, request_id="after-chmod")
        for _ in range(2):  # the same request twice: one move, the same answer
            assert stub.PlayMove(request, metadata=bearer(tokens[1]), timeout=10).version == 2
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=30)
    faults, _ = _faults_logged(stderr)
    assert len(faults) == 1 and "read-only" in faults[0]["error"], faults
    assert stored_moves(db, mid) == 2
