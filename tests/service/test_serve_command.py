"""`hunters serve` and the health-check tool as an operator meets them: one clear line and exit
status 2 for every ordinary mistake, TLS health checks, a prompt stop on SIGTERM mid-simulation."""

import argparse
import errno
import os
import signal
import socket
import subprocess
import sys
import time

import grpc
import pytest

from hunters.service import ServerConfig
from hunters.service.command import add_arguments
from hunters.service.healthcheck import main as healthcheck
from hunters.v1 import oracle_pb2, oracle_pb2_grpc

from .helpers import make_cert

SERVE = [sys.executable, "-m", "hunters.cli", "serve"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def refused(args, env=None):
    """Run `hunters serve ARGS`, expect exit 2 with exactly one line on stderr; return that line."""
    proc = subprocess.run(SERVE + args, capture_output=True, text=True, timeout=60, env=dict(os.environ, **(env or {})))
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


def test_ordinary_mistakes_are_one_line_and_exit_2(tmp_path):
    db = str(tmp_path / "m.db")
    cert, key = make_cert(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert "Address already in use" in refused(["--port", str(port), "--db", db])
    assert "database" in refused(["--port", "0", "--db", str(tmp_path / "missing" / "dir" / "m.db")])
    assert "no such file" in refused(
        ["--port", "0", "--db", db, "--tls-cert", str(tmp_path / "none.pem"), "--tls-key", str(key)]
    )
    assert "both --tls-cert and --tls-key" in refused(["--port", "0", "--db", db, "--tls-cert", str(cert)])
    assert "not a PEM certificate" in refused(
        ["--port", "0", "--db", db, "--tls-cert", str(key), "--tls-key", str(key)]
    )
    assert "--log-level" in refused(["--log-level", "LOUD"])
    assert "--port" in refused(["--port", "70000", "--db", db])
    assert "--idle-timeout" in refused(["--idle-timeout", "nan"])
    # numbers past what gRPC or a C int holds, and an environment variable that is not a number
    assert "--max-message-bytes" in refused(["--max-message-bytes", "2147483648", "--db", db])
    assert "--max-concurrent-rpcs" in refused(["--max-concurrent-rpcs", "99999999999", "--db", db])
    assert "HUNTERS_PORT" in refused(["--db", db], env={"HUNTERS_PORT": "abc"})
    numeric = ("--engine-threads", "--bot-threads", "--max-bot-iterations", "--max-match-bot-iterations")
    for option in (*numeric, "--grace", "--http"):
        assert option in refused([option, "-1", "--db", db])
    for option in ("--http-body-timeout", "--http-cache-mb", "--http-streams"):
        assert option in refused([option, "0", "--db", db])
    assert "no such file" in refused(["--port", "0", "--db", db, "--create-token-file", str(tmp_path / "none")])
    # a PostgreSQL nobody answers at (port 1): the URL in the line, its password hidden
    line = refused(["--port", "0", "--db", "postgresql://hunters:s3cret@127.0.0.1:1/hunters"])
    assert "cannot use the database postgresql://hunters:***@127.0.0.1:1/hunters" in line and "s3cret" not in line


def start(args, port, env=None):
    proc = subprocess.Popen(
        [*SERVE, "--port", str(port), *args],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=dict(os.environ, **(env or {})),
    )
    deadline = time.monotonic() + 30
    while healthcheck(["--address", f"127.0.0.1:{port}", "--timeout", "0.5", *_tls_args(env)]) != 0:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return proc


def _tls_args(env):
    if env and env.get("HUNTERS_TLS_CERT"):
        return ["--tls-ca", env["HUNTERS_TLS_CERT"], "--tls-server-name", "localhost"]
    return []


def test_healthcheck_speaks_tls_configured_like_the_server(tmp_path, monkeypatch):
    cert, key = make_cert(tmp_path)
    port = free_port()
    env = {"HUNTERS_TLS_CERT": str(cert), "HUNTERS_TLS_KEY": str(key), "HUNTERS_DB": str(tmp_path / "m.db")}
    proc = start([], port, env)
    try:
        monkeypatch.setenv("HUNTERS_TLS_CERT", str(cert))  # as the container's HEALTHCHECK sees it
        assert healthcheck(["--address", f"localhost:{port}"]) == 0
        monkeypatch.delenv("HUNTERS_TLS_CERT")
        assert healthcheck(["--address", f"localhost:{port}", "--timeout", "1"]) == 1  # plaintext fails
        assert (
            healthcheck(["--address", f"127.0.0.1:{port}", "--tls-ca", str(cert), "--tls-server-name", "localhost"])
            == 0
        )
        assert healthcheck(["--address", f"localhost:{port}", "--tls-ca", str(tmp_path / "none.pem")]) == 2
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0


def test_sigterm_during_a_simulation_stops_within_the_grace(tmp_path):
    port = free_port()
    proc = start(["--db", str(tmp_path / "m.db"), "--grace", "1"], port)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        call = oracle_pb2_grpc.OracleServiceStub(channel).SimulateGames(
            oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=10_000_000, seed=1)
        )
        assert next(call).games_done > 0
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        took = time.monotonic() - sent
        assert took < 6, f"stopping took {took:.1f} s with a 1 s grace"
        with pytest.raises(grpc.RpcError):
            for _ in call:
                pass
    finally:
        channel.close()
        if proc.poll() is None:
            proc.kill()


def test_sigterm_with_a_watch_stream_open_exits_0_without_a_traceback(tmp_path):
    """The stream outlives the grace and is cancelled; its task must end before the event loop does
    (torn down by asyncio.run, gRPC printed a CancelledError traceback for each open stream)."""
    from hunters.client import Client

    port = free_port()
    proc = start(["--db", str(tmp_path / "m.db"), "--grace", "0.5"], port)
    try:
        with Client(f"127.0.0.1:{port}") as client:
            m = client.create_match("carcassonne_hg", players=2, seed=1)
            watches = [client.watch(m.match_id) for _ in range(3)]
            assert [next(w).version for w in watches] == [0, 0, 0]
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=20) == 0
        stderr = proc.stderr.read().decode()
        assert '"stopped"' in stderr and "Traceback" not in stderr, stderr
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_ipv6_wildcard_falls_back_to_ipv4_where_ipv6_is_off(monkeypatch):
    """`--host [::]` (the container's) dual-stacks; on a kernel without IPv6 the check before binding
    accepts it as gRPC does, on IPv4 alone, and still refuses a port in use."""
    from hunters.service import command

    real_socket = socket.socket

    def no_ipv6(family=socket.AF_INET, *args, **kwargs):
        if family == socket.AF_INET6:
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return real_socket(family, *args, **kwargs)

    monkeypatch.setattr(socket, "socket", no_ipv6)
    port = free_port()
    command._check_port("[::]", port)
    with real_socket() as busy:
        busy.bind(("0.0.0.0", port))
        busy.listen()
        with pytest.raises(OSError, match=f"cannot listen on 0.0.0.0:{port}"):
            command._check_port("[::]", port)


def test_the_default_bind_is_loopback(monkeypatch):
    monkeypatch.delenv("HUNTERS_HOST", raising=False)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args([]).host == "127.0.0.1"
    assert ServerConfig().address == "127.0.0.1:50051"


def test_an_ipv6_host_is_bracketed_for_grpc():
    """`--host ::` listens on every address: gRPC needs an IPv6 literal in brackets."""
    from hunters.address import join

    assert [join(h, 5) for h in ("::", "[::]", "::1", "127.0.0.1", "localhost")] == [
        "[::]:5",
        "[::]:5",
        "[::1]:5",
        "127.0.0.1:5",
        "localhost:5",
    ]


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_port_0_logs_the_ports_bound(tmp_path, host):
    """`--port 0` (and `--http 0`, `--metrics-port 0`): the serving line names the ports the server
    bound, in its address too, and each answers there."""
    import json
    import urllib.request

    from hunters.address import join

    zeros = ["--port", "0", "--http", "0", "--metrics-port", "0"]
    proc = subprocess.Popen(
        [*SERVE, "--host", host, *zeros, "--log-format", "json", "--db", str(tmp_path / "m.db")],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    try:
        assert proc.stderr is not None
        serving = json.loads(proc.stderr.readline())
        assert serving["msg"] == "serving", serving
        ports = [serving["port"], serving["http_port"], serving["metrics_port"]]
        assert 0 not in ports and len(set(ports)) == 3, serving
        assert serving["address"] == join(host, serving["port"])
        assert healthcheck(["--address", serving["address"], "--timeout", "10"]) == 0
        web = "[::1]" if ":" in host else host
        for port, path in ((serving["http_port"], "/"), (serving["metrics_port"], "/metrics")):
            with urllib.request.urlopen(f"http://{web}:{port}{path}", timeout=10) as reply:
                assert reply.status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
