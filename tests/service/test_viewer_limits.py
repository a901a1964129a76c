"""The viewer's connections: bounded per client address, and a server out of file descriptors logs
its failed accepts once per episode, not once a second."""

import http.client
import json
import socket
import subprocess
import sys
import time

from .helpers import limited
from .test_serve_command import free_port


def get(port, path="/"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def open_stream(port, match_id):
    """An open server-sent event stream (a connection the viewer holds)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/matches/{match_id}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    head = s.recv(4096)
    return s, head.split(b"\r\n", 1)[0]


def test_connections_per_client_address_are_bounded(server_factory):
    from hunters.v1 import matches_pb2

    from .helpers import stubs

    server = server_factory(http_port=0, http_per_client=3)
    _, stub, _ = stubs(server.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1)
    match_id = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config)).match.match_id
    held = [open_stream(server.http_port, match_id) for _ in range(3)]
    assert all(status == b"HTTP/1.1 200 OK" for _, status in held)
    s, status = open_stream(server.http_port, match_id)
    assert status == b"HTTP/1.1 503 Service Unavailable"
    s.close()
    held.pop()[0].close()
    deadline = time.monotonic() + 30
    while True:  # the viewer notices the closed stream at once (a read that ends), then has room
        s, status = open_stream(server.http_port, match_id)
        s.close()
        if status == b"HTTP/1.1 200 OK":
            break
        assert time.monotonic() < deadline
        time.sleep(0.05)
    for s, _ in held:
        s.close()


def test_out_of_file_descriptors_is_logged_once_per_episode(tmp_path):
    port, http_port = free_port(), free_port()

    proc = subprocess.Popen(
        limited(
            [
                *(sys.executable, "-m", "hunters.cli", "serve"),
                *("--port", str(port), "--http", str(http_port), "--db", str(tmp_path / "m.db")),
                *("--http-connections-per-client", "1000"),
            ],
            nofile=48,  # the hard limit too: the server takes the hard one
        ),
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if get(http_port)[0] == 200:
                    break
            except OSError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        held = [socket.create_connection(("127.0.0.1", http_port), timeout=10) for _ in range(60)]
        time.sleep(3.5)  # asyncio retries a failed accept every second
        for s in held:
            s.close()
        time.sleep(2)  # an accept that works past a quiet second and a half ends the episode
        deadline = time.monotonic() + 30
        while True:
            try:
                if get(http_port)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.2)
        # the backlog's closed connections may still fail to be accepted for a while: a request past
        # a quiet second and a half is the one that ends the episode
        time.sleep(2)
        assert get(http_port)[0] == 200
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=30)
    lines = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    failed = [line for line in lines if line["msg"] == "viewer cannot accept connections"]
    assert len(failed) == 1 and "Too many open files" in failed[0]["error"], stderr[-2000:]
    assert any(line["msg"] == "viewer accepts connections again" for line in lines)
    assert "socket.accept() out of system resource" not in stderr
