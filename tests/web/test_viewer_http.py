"""The viewer's HTTP side (`hunters serve --http`), without a browser: pages, JSON, pictures and
server-sent events come from the same MatchManager as gRPC and show only the public view."""

import http.client
import json
import random
import signal
import socket
import time
import xml.etree.ElementTree as ET

import pytest

from hunters import pictures
from hunters.client import Client
from tests.web.bots import create, play_one

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def viewer(server_factory):
    running = server_factory(http_port=0)
    with Client(f"127.0.0.1:{running.port}") as client:
        yield running, client


def get(port, path, method="GET"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, resp.getheader("Content-Type"), body


def get_json(port, path):
    status, kind, body = get(port, path)
    assert kind == "application/json", (status, body)
    return status, json.loads(body)


def test_off_by_default(server):
    assert server.http_port is None


def test_pages_and_assets(viewer):
    running, _ = viewer
    port = running.http_port
    for path, kind in (
        ("/", "text/html"),
        ("/match/abc", "text/html"),
        ("/static/viewer.js", "text/javascript"),
        ("/static/viewer.css", "text/css"),
    ):
        status, ctype, body = get(port, path)
        assert status == 200 and ctype.startswith(kind) and body
    status, _, body = get(port, "/")
    assert b"/static/viewer.js" in body and b"http" not in body.replace(b"http-equiv", b"")  # no CDN
    assert get(port, "/static/../matches.py")[0] == 404
    assert get(port, "/static/nope.js")[0] == 404
    assert get(port, "/", method="HEAD")[:2] == (200, "text/html; charset=utf-8")
    assert get(port, "/api/matches", method="POST")[0] == 405


@pytest.mark.parametrize("game,players", [("carcassonne_hg", 3), ("jaeger_sammler", 2)])
def test_state_log_and_pictures_follow_the_match(viewer, game, players):
    running, client = viewer
    port = running.http_port
    info = create(client, game, players, seed=5)
    rng = random.Random(5)
    for _ in range(6):
        assert play_one(client, info, rng)
    status, page = get_json(port, "/api/matches")
    assert status == 200 and [m["match_id"] for m in page["matches"]] == [info.match_id]
    assert page["matches"][0]["version"] == 6 and page["matches"][0]["game"] == game

    status, state = get_json(port, f"/api/matches/{info.match_id}")
    assert status == 200 and state["version"] == state["latest"] == 6
    live = running.call(lambda: running.manager.get(info.match_id))
    assert state["view"] == json.loads(json.dumps(live.game.view()))
    assert state["svg"] == pictures.svg(live.game)
    assert [e["version"] for e in state["log"]] == [1, 2, 3, 4, 5, 6]
    assert [e["move"] for e in state["log"]] == [m.to_json() for m in live.moves]
    assert [e["seat"] for e in state["log"]] == live.seats
    all_events = [e for entry in state["log"] for e in entry["events"]]
    assert len(state["setup_events"]) + len(all_events) == len(live.game.events)

    for at in (0, 3):
        status, past = get_json(port, f"/api/matches/{info.match_id}?at={at}")
        assert status == 200 and past["version"] == at and past["latest"] == 6
        replayed = live.adapter.from_record(dict(live.record, moves=[m.to_json() for m in live.moves[:at]]))
        assert past["view"] == json.loads(json.dumps(replayed.view()))
        status, kind, svg = get(port, f"/api/matches/{info.match_id}/picture.svg?at={at}")
        assert status == 200 and kind.startswith("image/svg+xml") and svg.decode() == past["svg"]
        ET.fromstring(svg)
    # nothing hidden leaks: no seed, piles or tokens
    text = json.dumps(state)
    assert "seed" not in text and "normal_deck" not in text and info.seat_tokens[0] not in text


def test_bad_requests(viewer):
    running, client = viewer
    port = running.http_port
    info = create(client, "carcassonne_hg", 2, seed=1)
    assert get_json(port, "/api/matches/0123456789abcdef")[0] == 404
    assert get_json(port, "/api/matches/bad$id")[0] == 400
    assert get_json(port, f"/api/matches/{info.match_id}?at=1")[0] == 400
    assert get_json(port, f"/api/matches/{info.match_id}?at=x")[0] == 400
    assert get_json(port, "/api/matches?game=chess")[1]["matches"] == []
    assert get_json(port, "/api/matches?game=no%20such%20game")[0] == 400
    assert get_json(port, "/api/matches?page_token=forged")[0] == 400
    assert get_json(port, "/api/nothing")[0] == 404
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:  # not HTTP at all
        s.sendall(b"\x00" * 10 + b"\r\n\r\n")
        assert s.recv(100).split(b"\r\n")[0] in (b"HTTP/1.0 400 Bad Request", b"HTTP/1.1 400 Bad Request")


def read_event(stream):
    """The data of the next server-sent event (comment lines skipped)."""
    data = None
    while True:
        line = stream.readline()
        assert line, "stream closed"
        line = line.decode().rstrip("\n")
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and data is not None:
            return data


def test_events_arrive_within_a_second_of_a_move(viewer):
    running, client = viewer
    info = create(client, "carcassonne_hg", 2, seed=3)
    rng = random.Random(3)
    s = socket.create_connection(("127.0.0.1", running.http_port), timeout=5)
    s.sendall(f"GET /api/matches/{info.match_id}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    stream = s.makefile("rb")
    assert stream.readline().startswith(b"HTTP/1.1 200")
    while stream.readline() not in (b"\r\n", b""):
        pass
    assert read_event(stream) == {"version": 0, "over": False, "open": True}
    delays = []
    for v in range(1, 6):
        t0 = time.monotonic()
        play_one(client, info, rng)
        assert read_event(stream) == {"version": v, "over": False, "open": True}
        delays.append(time.monotonic() - t0)
    assert max(delays) < 1.0
    stream.close()
    s.close()
    # the browser going away ends its stream at once, without waiting for a change
    time.sleep(0.3)
    viewer_obj = running._started.viewer
    assert running.call(lambda: len(viewer_obj._streams)) == 0


def test_stop_ends_open_event_streams(server_factory):
    running = server_factory(http_port=0)
    with Client(f"127.0.0.1:{running.port}") as client:
        info = create(client, "jaeger_sammler", 2, seed=1)
    s = socket.create_connection(("127.0.0.1", running.http_port), timeout=5)
    s.sendall(f"GET /api/matches/{info.match_id}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert s.recv(100).startswith(b"HTTP/1.1 200")
    t0 = time.monotonic()
    running.stop(0)
    assert time.monotonic() - t0 < 3
    s.settimeout(3)
    while s.recv(4096):
        pass
    s.close()


def test_serve_command_http_option(tmp_path):
    """`hunters serve --http PORT` serves the viewer beside gRPC; a bad --http is one line, exit 2."""
    from tests.service.test_serve_command import free_port, refused, start

    db = str(tmp_path / "m.db")
    assert "--http" in refused(["--port", "0", "--db", db, "--http", "70000"])
    port = free_port()
    assert "--http" in refused(["--port", str(port), "--db", db, "--http", str(port)])
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert "Address already in use" in refused(["--port", "0", "--db", db, "--http", str(taken.getsockname()[1])])
    http_port = free_port()
    proc = start(["--db", db, "--http", str(http_port)], port)
    try:
        status, _, body = get(http_port, "/")
        assert status == 200 and b"hunters" in body
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
