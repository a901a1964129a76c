"""Small helpers for service tests: raw stubs, error inspection, a finished match."""

import subprocess
import sys

import grpc
import pytest

from hunters.status import error_info
from hunters.v1 import matches_pb2, matches_pb2_grpc, oracle_pb2_grpc, state_pb2
from hunters.wire import adapter


def sql(running, statement):
    """Run one SQL statement on a running server's database (SQLite or PostgreSQL) from outside the
    server; the rows it returns."""
    if "://" in running.store.path:
        import psycopg

        with psycopg.connect(running.store.path, autocommit=True) as conn:
            cur = conn.execute(statement)
            return cur.fetchall() if cur.description else []
    import sqlite3

    db = sqlite3.connect(running.store.path)
    try:
        with db:
            return db.execute(statement).fetchall()
    finally:
        db.close()


def stubs(port):
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    return channel, matches_pb2_grpc.MatchServiceStub(channel), oracle_pb2_grpc.OracleServiceStub(channel)


def two_hosts(server_factory, **kwargs):
    """A server on every address, and the oracle stubs of two hosts: 127.0.0.1 and ::1 (the server
    keys callers by host, and a test on one machine has these two)."""
    running = server_factory(address="[::]:0", **kwargs)
    here = oracle_pb2_grpc.OracleServiceStub(grpc.insecure_channel(f"127.0.0.1:{running.port}"))
    there = oracle_pb2_grpc.OracleServiceStub(grpc.insecure_channel(f"[::1]:{running.port}"))
    return running, here, there


def bearer(token):
    return (("authorization", f"Bearer {token}"),)


def rpc_error(fn, *args, **kwargs):
    """Call fn, expect a gRPC error; return (code, reason, metadata)."""
    try:
        fn(*args, **kwargs)
    except grpc.RpcError as err:
        reason, metadata = error_info(err)
        return err.code(), reason, metadata
    raise AssertionError("expected an RpcError")


def create(stub, players=2, seed=5, options=None):
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=players, seed=seed)
    if isinstance(options, dict):
        adapter("carcassonne_hg").options_to_proto(options, config)
    elif options is not None:
        config.carcassonne.CopyFrom(options)
    return stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config))


def over(state):
    """A MatchState says the game is over."""
    return state.status == state_pb2.GAME_STATUS_OVER


def make_cert(tmp_path):
    """A self-signed certificate for localhost and 127.0.0.1 and its key: (cert, key) paths; the test
    is skipped where openssl cannot make one."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    made = subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        capture_output=True,
    )
    if made.returncode:
        pytest.skip("openssl cannot make a test certificate here")
    return cert, key


def limited(argv, *, fsize=None, nofile=None, nice=None):
    """`argv` started under resource limits by a small Python program that sets them and execs it.

    Not `preexec_fn`: that makes subprocess fork() this process, whose gRPC threads may be inside
    gRPC at that moment, and the child can abort in gRPC's fork handlers before it reaches exec
    (seen: SIGABRT, "epoll_wait error: Bad file descriptor"); without it, the child is spawned."""
    setup = ["import os, resource, sys"]
    if fsize is not None:
        setup.append(f"resource.setrlimit(resource.RLIMIT_FSIZE, ({fsize}, resource.RLIM_INFINITY))")
    if nofile is not None:
        setup.append(f"resource.setrlimit(resource.RLIMIT_NOFILE, ({nofile}, {nofile}))")
    if nice is not None:
        setup.append(f"os.nice({nice})")
    setup.append("os.execv(sys.argv[1], sys.argv[1:])")
    return [sys.executable, "-c", "; ".join(setup), *argv]
