"""The web side against slow and hostile clients, over real sockets: a body that never finishes is
cut off after the (configurable) body timeout while others are served; a huge declared body is 413
before anything is read; a host's bodies in progress are capped; event streams and page loads have
separate caps; deeply nested or undecodable JSON is a 400 in the API's words with no error logged."""

import http.client
import json
import logging
import socket
import time

import pytest

from hunters.client import Client
from hunters.service.webguard import WRITES, json_depth
from tests.web.bots import create

WRITE = {"Content-Type": "application/json", "X-Hunters-Request": "1"}
NEW_GAME = {"game": "carcassonne_hg", "players": 2, "you": 0}


def request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def post(port, path, data):
    return request(port, "POST", path, data if isinstance(data, bytes) else json.dumps(data), WRITE)


def slow_post(port, path, declared=200, sent=b'{"game": "carc'):
    """A POST whose headers and first bytes are sent, the rest never."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Hunters-Request: 1\r\n"
    s.sendall(f"{head}Content-Length: {declared}\r\n\r\n".encode() + sent)
    return s


def until_closed(s):
    """All the server sends until it closes the connection (a socket timeout if it never does)."""
    chunks = []
    while chunk := s.recv(65536):
        chunks.append(chunk)
    s.close()
    return b"".join(chunks)


def eventually(condition, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.02)


def test_a_slow_body_is_cut_off_after_the_timeout_while_others_are_served(server_factory):
    running = server_factory(http_port=0, http_body_timeout=1.0)
    port = running.http_port
    slow = [slow_post(port, "/api/play") for _ in range(3)]
    assert request(port, "GET", "/")[0] == 200
    status, body = post(port, "/api/play", NEW_GAME)
    assert status == 200, body
    for s in slow:
        answer = until_closed(s)  # the server answers, then closes the connection
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        refused = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert refused == {"error": "the body did not arrive within 1 s", "reason": "BODY_TIMEOUT"}
    assert running._started.viewer.guard.gates[WRITES].in_progress == 0


def test_a_huge_declared_body_is_refused_before_it_is_read(server_factory):
    running = server_factory(http_port=0)
    s = slow_post(running.http_port, "/api/play", declared=10 * 1024**3, sent=b"")
    answer = until_closed(s)  # nothing of the body was sent: answered (and closed) all the same
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["reason"] == "BODY_TOO_LARGE"
    status, body = post(running.http_port, "/api/play", {**NEW_GAME, "pad": "x" * 70_000})  # as sent
    assert status == 413 and json.loads(body)["reason"] == "BODY_TOO_LARGE"
    conn = http.client.HTTPConnection("127.0.0.1", running.http_port, timeout=10)
    chunks = (b"[" + b"1," * 40_000 + b"1]" for _ in range(1))  # no declared length: counted as it comes
    conn.request("POST", "/api/play", body=chunks, headers=WRITE, encode_chunked=True)
    resp = conn.getresponse()
    assert resp.status == 413 and json.loads(resp.read())["reason"] == "BODY_TOO_LARGE"
    conn.close()


def test_a_hosts_bodies_in_progress_are_capped(server_factory):
    running = server_factory(http_port=0, http_writes_per_client=2, http_body_timeout=60)
    port, gate = running.http_port, running._started.viewer.guard.gates[WRITES]
    slow = [slow_post(port, "/api/play") for _ in range(2)]
    eventually(lambda: gate.in_progress == 2)
    status, body = post(port, "/api/play", NEW_GAME)
    assert status == 503 and b"your address" in body
    assert request(port, "GET", "/")[0] == 200  # page loads have room of their own
    for s in slow:
        s.close()  # a client gone: its request ends at once, and its room is free again
    eventually(lambda: gate.in_progress == 0)
    status, body = post(port, "/api/play", NEW_GAME)
    assert status == 200, body


def open_stream(port, match_id):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/matches/{match_id}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return s, s.recv(4096).split(b"\r\n", 1)[0]


def test_streams_and_page_loads_have_separate_caps(server_factory):
    running = server_factory(http_port=0, http_streams=2)
    port = running.http_port
    with Client(f"127.0.0.1:{running.port}") as client:
        match_id = create(client, "carcassonne_hg", 2, seed=1).match_id
    held = [open_stream(port, match_id) for _ in range(2)]
    assert [status for _, status in held] == [b"HTTP/1.1 200 OK"] * 2
    s, status = open_stream(port, match_id)
    s.close()
    assert status == b"HTTP/1.1 503 Service Unavailable"  # the streams are full...
    assert request(port, "GET", "/")[0] == 200  # ... and a page load is served all the same
    assert request(port, "GET", f"/api/matches/{match_id}")[0] == 200
    for s, _ in held:
        s.close()


@pytest.mark.parametrize("path", ["/api/play", "/play/{id}/join", "/play/{id}/move", "/play/{id}/describe"])
@pytest.mark.parametrize("depth", [33, 1000, 10_000])
def test_deeply_nested_json_is_refused_without_an_error_logged(server_factory, caplog, path, depth):
    running = server_factory(http_port=0)
    with Client(f"127.0.0.1:{running.port}") as client:
        match_id = create(client, "carcassonne_hg", 2, seed=1).match_id
    path = path.format(id=match_id)
    caplog.set_level(logging.DEBUG)
    for data in ('{"move": ' + "[" * depth + "]" * depth + "}", "[" * depth, '{"a": ' * depth):
        status, body = post(running.http_port, path, data.encode())
        assert status == 400, body
        assert json.loads(body) == {
            "error": "the body's JSON nests arrays and objects deeper than 32",
            "reason": "BAD_BODY",
        }
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Traceback" not in caplog.text


def test_json_as_deep_as_the_limit_is_read(server_factory):
    running = server_factory(http_port=0)
    nested = {"game": "carcassonne_hg", "players": 2, "you": 0, "x": json.loads("[" * 31 + "]" * 31)}
    status, body = post(running.http_port, "/api/play", nested)  # 32 deep with the body itself
    assert status == 200, body
    # brackets in strings are not nesting
    status, body = post(running.http_port, "/api/play", {**NEW_GAME, "x": "[{" * 1000})
    assert status == 200, body


def test_a_body_in_an_unknown_charset_is_refused(server_factory):
    running = server_factory(http_port=0)
    headers = {**WRITE, "Content-Type": "application/json; charset=no-such-charset"}
    status, body = request(running.http_port, "POST", "/api/play", json.dumps(NEW_GAME), headers)
    assert status == 400 and json.loads(body) == {"error": "the body is not JSON", "reason": "BAD_BODY"}


@pytest.mark.parametrize(
    ("data", "depth"),
    [
        (b"", 0),
        (b"1", 0),
        (b"[]", 1),
        (b'{"a": [1, {"b": []}], "c": {}}', 4),
        (b'["]]]", "\\"[[[["]', 1),  # brackets in strings, escaped quotes
        (b"[[[", 3),  # malformed: as deep as a parser would go
        (b"]]][[", 0),  # (a parser stops at the first ])
        (b"[" * 100_000, 100_000),
    ],
)
def test_json_depth(data, depth):
    assert json_depth(data) == depth


def test_an_event_stream_not_read_is_closed_after_the_write_deadline(monkeypatch):
    """A stream whose reader stopped reading (its write never completes: the socket's buffers are
    full) is aborted after WRITE_SECONDS, freeing its slot and descriptor, instead of waiting for ever."""
    import asyncio

    from hunters.service import web

    monkeypatch.setattr(web, "WRITE_SECONDS", 0.05)
    aborted = []

    class Transport:
        def abort(self):
            aborted.append(True)

    class Request:
        transport = Transport()

    class Stuck:
        async def write(self, data):
            await asyncio.Event().wait()  # the peer never reads

    async def send():
        await web._send(Request(), Stuck(), b"data: {}\n\n")

    with pytest.raises(ConnectionResetError, match=r"not read for 0\.05 s"):
        asyncio.run(send())
    assert aborted == [True]
