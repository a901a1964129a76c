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
        assert len(faults) == 1 and how.split()[0] in faults[0]["error"], (how, faults)


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


def _chattr(flag, path):
    return subprocess.run(["chattr", flag, path], capture_output=True).returncode == 0


def _restart_fails(db, port):
    """`hunters serve` on `db`: its exit status and stderr when it refuses to start, else None."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "hunters.cli", "serve", "--port", str(port), "--db", db],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.terminate()
        proc.communicate(timeout=30)
        return None
    return proc.returncode, proc.stderr.read()


FILE_FAULTS = {
    "the -wal deleted": ("-wal", "delete", "write-ahead log"),
    "the -wal replaced": ("-wal", "replace", "write-ahead log"),
    "the -shm made immutable": ("-shm", "immutable", "immutable"),
    "the -shm truncated": ("-shm", "truncate", "truncated"),
    "the database truncated": ("", "truncate", "truncated"),
}


@pytest.mark.parametrize("fault", list(FILE_FAULTS))
def test_a_file_of_the_database_deleted_replaced_truncated_or_made_immutable(tmp_path, fault):
    """Each fault is noticed before the next acknowledgement: UNAVAILABLE / STORAGE_UNAVAILABLE, health
    NOT_SERVING, one log line naming it, the process alive (no SIGBUS). After a kill -9, every move
    acknowledged is still there (the log's faults: the log this server held open was copied into the
    database file first), or, the database file itself truncated, the next start refuses it, naming
    the cause and a remedy."""
    suffix, how, said = FILE_FAULTS[fault]
    db = str(tmp_path / "faults.db")
    victim = db + suffix
    if how == "immutable":
        (tmp_path / "probe").touch()
        if not _chattr("+i", str(tmp_path / "probe")):
            pytest.skip("chattr +i needs root and a file system with inode flags")
        _chattr("-i", str(tmp_path / "probe"))
    port = free_port()
    proc = _serve(db, port)
    acknowledged = {}
    try:
        _, stub, _ = stubs(port)
        for _ in range(3):
            mid, tokens = two_seats(create(stub))
            for i in range(4):  # the last of them still only in the log: no checkpoint yet
                acknowledged[mid] = play(stub, mid, tokens[i % 2]).version
        if how == "delete":
            os.remove(victim)
        elif how == "replace":
            shutil.copy(victim, victim + ".copy")
            os.replace(victim + ".copy", victim)
        elif how == "truncate":
            os.truncate(victim, 0)
        else:
            assert _chattr("+i", victim)
        refused = 0
        for _ in range(5):  # every further move is refused, none acknowledged
            try:
                acknowledged[mid] = play(stub, mid, tokens[acknowledged[mid] % 2]).version
            except grpc.RpcError:
                code, reason, _ = rpc_error(play, stub, mid, tokens[acknowledged[mid] % 2])
                assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"), fault
                refused += 1
        assert refused == 5, fault
        eventually(lambda: health(port) == health_pb2.HealthCheckResponse.NOT_SERVING)
        assert proc.poll() is None, "the server died"
        proc.kill()  # kill -9
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)
        if how == "immutable":
            _chattr("-i", victim)
    faults, lines = _faults_logged(stderr)
    assert len(faults) == 1 and said in faults[0]["error"], (fault, faults)
    assert not [line for line in lines if line["level"] == "ERROR" and line["msg"] != "database fault"], lines
    if suffix == "" and how == "truncate":
        failed = _restart_fails(db, free_port())
        assert failed is not None, "a truncated database was opened as if nothing happened"
        status, text = failed
        assert status == 2 and "truncated" in text and "backup" in text and "hunters db check" in text, text
        return
    restarted = _serve(db, port)
    restarted.terminate()
    restarted.communicate(timeout=30)
    for mid, version in acknowledged.items():  # every acknowledged move is in the database
        assert stored_moves(db, mid) == version, (fault, mid)


def test_a_start_on_an_immutable_index_is_refused_with_the_cause(tmp_path):
    db = str(tmp_path / "immutable.db")
    port = free_port()
    proc = _serve(db, port)
    proc.kill()
    proc.communicate(timeout=30)
    if not _chattr("+i", db + "-shm"):
        pytest.skip("chattr +i needs root and a file system with inode flags")
    try:
        failed = _restart_fails(db, port)
    finally:
        _chattr("-i", db + "-shm")
    assert failed is not None
    status, text = failed
    assert status == 2 and "immutable" in text and "chattr -i" in text, text


def test_a_start_on_a_damaged_file_names_the_cause_and_a_remedy(tmp_path):
    db = str(tmp_path / "damaged.db")
    port = free_port()
    proc = _serve(db, port)
    _, stub, _ = stubs(port)
    create(stub)
    proc.terminate()
    proc.communicate(timeout=30)
    with open(db, "r+b") as f:  # the schema's page overwritten: "database disk image is malformed"
        f.seek(100)
        f.write(b"\xff" * 3000)
    failed = _restart_fails(db, port)
    assert failed is not None
    status, text = failed
    assert status == 2 and "damaged" in text and "backup" in text and f"hunters db check {db}" in text, text
    check = subprocess.run([sys.executable, "-m", "hunters.cli", "db", "check", db], capture_output=True, text=True)
    assert check.returncode == 1 and "damaged" in check.stdout and "backup" in check.stderr, check
