"""The play routes (hunters/service/play.py) over HTTP, without a browser: a seat's token is taken
once and held in an HttpOnly, SameSite=Strict cookie scoped to the match; writes from another site
or with another match's cookie are refused; a move goes through the same MatchManager as PlayMove."""

import http.client
import json

import pytest

from hunters.client import Client
from tests.web.test_viewer_http import read_event

WRITE = {"Content-Type": "application/json", "X-Hunters-Request": "1"}


def request(port, method, path, body=None, headers=None, cookie=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    hdrs = dict(headers if headers is not None else (WRITE if method == "POST" else {}))
    if cookie:
        hdrs["Cookie"] = cookie
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=hdrs)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, resp.getheader("Set-Cookie"), json.loads(data) if data else None


def cookie_of(set_cookie):
    return set_cookie.split(";", 1)[0]


@pytest.fixture
def web(server_factory):
    running = server_factory(http_port=0)
    return running, running.http_port


def new_match(port, game="carcassonne_hg", bots=(), you=0, players=2, **extra):
    status, set_cookie, body = request(
        port, "POST", "/api/play", {"game": game, "players": players, "you": you, "bots": list(bots), **extra}
    )
    assert status == 200, body
    return body, set_cookie


def test_new_match_sets_a_scoped_httponly_strict_cookie_and_no_token_in_the_url(web):
    running, port = web
    body, set_cookie = new_match(port, seed=3)
    match_id = body["match_id"]
    assert body["url"] == f"/play/{match_id}"
    attrs = [a.strip().lower() for a in set_cookie.split(";")]
    assert f"path=/play/{match_id}" in attrs and "httponly" in attrs and "samesite=strict" in attrs
    assert "secure" not in attrs  # no TLS here
    token = cookie_of(set_cookie).split("=", 1)[1]
    live = running.call(lambda: running.manager.get(match_id))
    assert running.manager.seat_of(live, token) == 0
    assert [s["seat"] for s in body["open_seats"]] == [1]  # the other seat's token, for its player
    assert token not in json.dumps(body)
    status, _, seat = request(port, "GET", f"/play/{match_id}/seat", cookie=cookie_of(set_cookie))
    assert status == 200 and seat["seat"] == 0 and seat["to_move"] == 0 and seat["legal"]
    assert len(seat["legal"]) == len(live.game.legal_moves())
    status, _, seat = request(port, "GET", f"/play/{match_id}/seat")  # no cookie: watching
    assert status == 200 and seat["seat"] is None and seat["legal"] == []


def test_a_token_is_exchanged_once_for_the_cookie(web):
    _, port = web
    body, _ = new_match(port, you=None)
    match_id, open_seats = body["match_id"], body["open_seats"]
    assert [s["seat"] for s in open_seats] == [0, 1]
    status, set_cookie, joined = request(port, "POST", f"/play/{match_id}/join", {"token": open_seats[1]["token"]})
    assert status == 200 and joined["seat"] == 1 and "httponly" in set_cookie.lower()
    assert cookie_of(set_cookie) == f"hunters_seat={open_seats[1]['token']}"
    status, _, refused = request(port, "POST", f"/play/{match_id}/join", {"token": "f" * 64})
    assert status == 403 and refused["reason"] == "INVALID_TOKEN"


def test_an_open_seats_link_gives_the_seat_once_without_its_token_in_the_url(web):
    _, port = web
    body, _ = new_match(port, players=3, bots=[{"seat": 2, "bot": "random"}])
    match_id = body["match_id"]
    (friend,) = body["open_seats"]
    assert friend["seat"] == 1
    path, _, fragment = friend["link"].partition("#")
    assert path == f"/play/{match_id}" and fragment.startswith("invite=")
    assert friend["token"] not in friend["link"]  # the link holds an invite, not the token
    invite = fragment.removeprefix("invite=")
    status, set_cookie, joined = request(port, "POST", f"/play/{match_id}/join", {"invite": invite})
    assert status == 200 and joined["seat"] == 1
    assert cookie_of(set_cookie) == f"hunters_seat={friend['token']}"  # the seat's own cookie, as with a token
    status, _, seat = request(port, "GET", f"/play/{match_id}/seat", cookie=cookie_of(set_cookie))
    assert status == 200 and seat["seat"] == 1
    status, set_cookie, again = request(port, "POST", f"/play/{match_id}/join", {"invite": invite})
    assert status == 403 and again["reason"] == "BAD_INVITE" and "used" in again["error"] and set_cookie is None
    other, _ = new_match(port, you=None)
    status, _, wrong = request(port, "POST", f"/play/{other['match_id']}/join", {"invite": invite})
    assert status == 403 and wrong["reason"] == "BAD_INVITE"  # an invite opens its own match only
    forged = invite[:-4] + ("AAAA" if invite[-4:] != "AAAA" else "BBBB")
    for bad in (forged, "x" * 71, "not base64!"):
        status, _, refused = request(port, "POST", f"/play/{other['match_id']}/join", {"invite": bad})
        assert status == 403 and refused["reason"] == "BAD_INVITE"


def test_an_invite_expires():
    from hunters.service.errors import ServiceError
    from hunters.service.invites import LIFETIME, Invites

    now = [1_000_000.0]
    invites = Invites(b"k" * 32, clock=lambda: now[0])
    token = "ab" * 32
    code = invites.make("m1", 3, token)
    now[0] += LIFETIME + 1
    with pytest.raises(ServiceError) as exc:
        invites.take("m1", code)
    assert exc.value.reason == "BAD_INVITE" and "expired" in exc.value.message
    now[0] -= 2
    assert invites.take("m1", code) == (3, token)
    assert Invites(b"j" * 32).make("m1", 3, token) != code  # another database, another seal


def test_a_move_from_the_page_is_played_like_playmove_and_the_bot_replies(web):
    running, port = web
    body, set_cookie = new_match(port, bots=[{"seat": 1, "bot": "greedy"}], seed=4)
    match_id, cookie = body["match_id"], cookie_of(set_cookie)
    assert body["open_seats"] == []
    _, _, seat = request(port, "GET", f"/play/{match_id}/seat", cookie=cookie)
    move = seat["legal"][0]["move"]
    status, _, played = request(port, "POST", f"/play/{match_id}/move", {"move": move, "version": 0}, cookie=cookie)
    assert status == 200 and (played["version"], played["seat"]) == (1, 0)
    assert played["now"]["state"]["version"] >= 1 and played["now"]["seat"]["seat"] == 0
    with Client(f"127.0.0.1:{running.port}") as client:
        for _ in range(100):  # the bot's reply, through the same manager
            got = client.get_match(match_id)
            if got.version >= 2:
                break
        assert got.version == 2
        stored = running.call(lambda: running.manager.get(match_id))
        assert stored.moves[0].to_json() == move and stored.seats[:2] == [0, 1]


def test_a_stale_or_illegal_move_is_refused_with_its_reason_and_changes_nothing(web):
    running, port = web
    body, set_cookie = new_match(port, seed=5)
    match_id, cookie = body["match_id"], cookie_of(set_cookie)
    _, _, seat = request(port, "GET", f"/play/{match_id}/seat", cookie=cookie)
    move = seat["legal"][0]["move"]
    status, _, refused = request(port, "POST", f"/play/{match_id}/move", {"move": move, "version": 3}, cookie=cookie)
    assert status == 409 and refused["reason"] == "STALE_VERSION" and "expected version 3" in refused["error"]
    bad = dict(move, x=move["x"] + 40)
    status, _, refused = request(port, "POST", f"/play/{match_id}/move", {"move": bad, "version": 0}, cookie=cookie)
    assert status in (400, 409) and refused["reason"] and refused["error"]
    status, _, refused = request(port, "POST", f"/play/{match_id}/move", {"move": move}, cookie=cookie)
    assert status == 400 and refused["reason"] == "BAD_VERSION"
    assert running.call(lambda: running.manager.get(match_id)).version == 0
    # the other seat's turn is not this one's
    other = body["open_seats"][0]["token"]
    status, _, refused = request(
        port, "POST", f"/play/{match_id}/move", {"move": move, "version": 0}, cookie=f"hunters_seat={other}"
    )
    assert status == 409 and refused["reason"] == "NOT_YOUR_TURN"
    assert running.call(lambda: running.manager.get(match_id)).version == 0


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/json"},  # a cross-site form cannot add the custom header
        {**WRITE, "Origin": "https://evil.example"},
        {**WRITE, "Sec-Fetch-Site": "cross-site"},
        {"Content-Type": "application/x-www-form-urlencoded", "X-Hunters-Request": "1"},
    ],
)
def test_a_cross_site_write_is_refused(web, headers):
    running, port = web
    body, set_cookie = new_match(port, seed=6)
    match_id, cookie = body["match_id"], cookie_of(set_cookie)
    _, _, seat = request(port, "GET", f"/play/{match_id}/seat", cookie=cookie)
    move = {"move": seat["legal"][0]["move"], "version": 0}
    status, _, refused = request(port, "POST", f"/play/{match_id}/move", move, headers=headers, cookie=cookie)
    assert status in (403, 415) and refused["reason"] in ("CROSS_SITE", "BAD_BODY")
    status, _, _ = request(port, "POST", "/api/play", {"game": "carcassonne_hg", "players": 2}, headers=headers)
    assert status in (403, 415)
    assert running.call(lambda: running.manager.get(match_id)).version == 0
    # the same request from the page itself is played
    status, _, _ = request(
        port,
        "POST",
        f"/play/{match_id}/move",
        move,
        headers={**WRITE, "Origin": f"http://127.0.0.1:{port}"},
        cookie=cookie,
    )
    assert status == 200


def test_a_cookie_from_another_match_is_refused(web):
    running, port = web
    first, first_cookie = new_match(port, seed=7)
    second, _ = new_match(port, seed=7)  # the same deal: the same first move is legal in both
    cookie = cookie_of(first_cookie)
    _, _, seat = request(port, "GET", f"/play/{first['match_id']}/seat", cookie=cookie)
    move = {"move": seat["legal"][0]["move"], "version": 0}
    status, _, refused = request(port, "POST", f"/play/{second['match_id']}/move", move, cookie=cookie)
    assert status == 403 and refused["reason"] == "INVALID_TOKEN"
    status, _, refused = request(port, "GET", f"/play/{second['match_id']}/seat", cookie=cookie)
    assert status == 403 and refused["reason"] == "INVALID_TOKEN"
    assert running.call(lambda: running.manager.get(second["match_id"])).version == 0
    status, _, refused = request(port, "POST", f"/play/{second['match_id']}/move", move)  # no cookie at all
    assert status == 401 and refused["reason"] == "MISSING_TOKEN"


def test_describe_says_what_a_jaeger_turn_takes(web):
    running, port = web
    body, set_cookie = new_match(port, game="jaeger_sammler", seed=8)
    match_id, cookie = body["match_id"], cookie_of(set_cookie)
    _, _, seat = request(port, "GET", f"/play/{match_id}/seat", cookie=cookie)
    move = seat["legal"][-1]["move"]
    status, _, said = request(port, "POST", f"/play/{match_id}/describe", {"move": move}, cookie=cookie)
    live = running.call(lambda: running.manager.get(match_id))
    expected = live.game.describe(live.adapter.Game.move_from_json(move))
    assert status == 200 and json.loads(json.dumps(expected)) == said["detail"] and said["text"]


def test_bad_new_games_are_refused_in_the_contracts_words(web):
    _, port = web
    for body, reason in (
        ({"game": "chess", "players": 2}, "UNKNOWN_GAME"),
        ({"game": "carcassonne_hg", "players": 9}, "INVALID_CONFIG"),
        ({"game": "carcassonne_hg", "players": 2, "bots": [{"seat": 1, "bot": "nope"}]}, "INVALID_CONFIG"),
        ({"game": "carcassonne_hg", "players": 2, "you": 1, "bots": [{"seat": 1, "bot": "random"}]}, "INVALID_CONFIG"),
    ):
        status, set_cookie, refused = request(port, "POST", "/api/play", body)
        assert status == 400 and refused["reason"] == reason and set_cookie is None, refused
    status, _, offer = request(port, "GET", "/api/play")
    assert status == 200 and offer["create_token_required"] is False and "greedy" in offer["bots"]
    assert {g["game"] for g in offer["games"]} >= {"carcassonne_hg", "jaeger_sammler"}
    assert all(g["playable"] for g in offer["games"])


def test_a_server_with_a_create_token_says_so_and_takes_it(server_factory):
    running = server_factory(http_port=0, create_token="operator-secret")
    port = running.http_port
    assert request(port, "GET", "/api/play")[2]["create_token_required"] is True
    status, _, refused = request(port, "POST", "/api/play", {"game": "jaeger_sammler", "players": 2, "you": 0})
    assert status == 401 and refused["reason"] == "CREATE_TOKEN_REQUIRED"
    status, _, refused = request(
        port, "POST", "/api/play", {"game": "jaeger_sammler", "players": 2, "you": 0, "create_token": "guess"}
    )
    assert status == 403 and refused["reason"] == "CREATE_TOKEN_REQUIRED"
    status, set_cookie, made = request(
        port, "POST", "/api/play", {"game": "jaeger_sammler", "players": 2, "you": 0, "create_token": "operator-secret"}
    )
    assert status == 200 and made["match_id"] and set_cookie


def test_pages_and_game_scripts(web):
    _, port = web
    for path in ("/play", "/play/abc"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", path)
        resp = conn.getresponse()
        page = resp.read()
        assert resp.status == 200 and b"/static/play.js" in page
        assert "default-src 'self'" in resp.getheader("Content-Security-Policy")
    for game in ("carcassonne_hg", "jaeger_sammler"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/static/games/{game}/play.js")
        resp = conn.getresponse()
        assert resp.status == 200 and f'register("{game}"'.encode() in resp.read()
    assert request(port, "GET", "/static/games/chess/play.js")[0] == 404


def test_state_and_seat_in_one_read(web):
    _, port = web
    body, set_cookie = new_match(port, seed=9)
    match_id, cookie = body["match_id"], cookie_of(set_cookie)
    status, _, both = request(port, "GET", f"/play/{match_id}/state", cookie=cookie)
    _, _, seat = request(port, "GET", f"/play/{match_id}/seat", cookie=cookie)
    _, _, state = request(port, "GET", f"/api/matches/{match_id}")
    assert status == 200 and both == {"state": state, "seat": seat}
    assert body["open_seats"][0]["token"] not in json.dumps(both)


def test_over_https_with_the_grpc_certificate_the_cookie_is_secure(server_factory, tmp_path):
    import ssl

    from tests.service.helpers import make_cert

    cert, key = make_cert(tmp_path)
    running = server_factory(http_port=0, tls_cert=str(cert), tls_key=str(key))
    context = ssl.create_default_context(cafile=str(cert))
    conn = http.client.HTTPSConnection("127.0.0.1", running.http_port, timeout=10, context=context)
    body = {"game": "jaeger_sammler", "players": 2, "you": 0, "bots": [{"seat": 1, "bot": "random"}]}
    conn.request("POST", "/api/play", body=json.dumps(body), headers=WRITE)
    resp = conn.getresponse()
    made = json.loads(resp.read())
    attrs = [a.strip().lower() for a in resp.getheader("Set-Cookie").split(";")]
    assert resp.status == 200 and "secure" in attrs and f"path=/play/{made['match_id']}" in attrs
    conn.close()
    with pytest.raises((ConnectionError, http.client.HTTPException)):  # plain HTTP on the TLS port: no answer
        request(running.http_port, "GET", "/play")


def test_the_play_events_carry_the_state_and_the_seat(web):
    import socket

    _, port = web
    body, set_cookie = new_match(port, bots=[{"seat": 1, "bot": "random"}], seed=10)
    match_id, cookie = body["match_id"], cookie_of(set_cookie)
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /play/{match_id}/events HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\r\n".encode())
    stream = s.makefile("rb")
    assert stream.readline().startswith(b"HTTP/1.1 200")
    first = read_event(stream)
    _, _, now = request(port, "GET", f"/play/{match_id}/state", cookie=cookie)
    assert first == now and first["seat"]["seat"] == 0 and first["seat"]["legal"]
    move = first["seat"]["legal"][0]["move"]
    request(port, "POST", f"/play/{match_id}/move", {"move": move, "version": 0}, cookie=cookie)
    versions = [read_event(stream)["state"]["version"]]
    while versions[-1] < 2:  # the move, then the bot's reply (one event if the reply came first)
        versions.append(read_event(stream)["state"]["version"])
    assert versions in ([1, 2], [2])
    stream.close()
    s.close()
    # another match's cookie opens no stream
    other, _ = new_match(port, seed=10)
    assert request(port, "GET", f"/play/{other['match_id']}/events", cookie=cookie)[0] == 403
