"""The viewer's review routes (hunters/service/reviewweb.py) and the play page's hints (play.py)
over HTTP, without a browser: a hint is the seat's own analysis (Analyze's, for the cookie's seat) and
only in a match created with hints; a review is asked for from the pages only, shows its progress,
then the review with the plot, the worst moves and each decision's two boards."""

import json
import time

import pytest

from hunters.client import Client
from tests.service.test_analyze import finished_match
from tests.web.test_play_http import WRITE, cookie_of, new_match, request
from tests.web.test_viewer_http import get_json


@pytest.fixture
def web(server_factory):
    running = server_factory(http_port=0, review_iterations=12)
    return running, running.http_port


def test_a_hint_is_the_seats_own_analysis_in_a_match_with_hints(web):
    running, port = web
    body, set_cookie = new_match(port, seed=3, hints=True)
    match_id, cookie = body["match_id"], cookie_of(set_cookie)
    status, _, seat = request(port, "GET", f"/play/{match_id}/seat", cookie=cookie)
    assert status == 200 and seat["hints"] is True
    assert get_json(port, f"/api/matches/{match_id}")[1]["hints"] is True
    status, _, hint = request(port, "POST", f"/play/{match_id}/hint", {"top": 2}, cookie=cookie)
    assert status == 200, hint
    assert hint["seat"] == 0 and hint["version"] == 0 and len(hint["moves"]) == 2
    legal = {json.dumps(m["move"], sort_keys=True) for m in seat["legal"]}
    assert all(json.dumps(m["move"], sort_keys=True) in legal and m["text"] for m in hint["moves"])
    with Client(f"127.0.0.1:{running.port}") as client:  # the same as Analyze with the seat's token
        token = cookie.split("=", 1)[1]
        analysis = client.analyze(match_id, token=token, top_k=2)
    assert [m.action for m in analysis.moves] == [m["action"] for m in hint["moves"]]
    assert [m.margin for m in analysis.moves] == [m["margin"] for m in hint["moves"]]


def test_a_hint_is_refused_with_its_reason(web):
    _, port = web
    body, set_cookie = new_match(port, seed=3)  # no hints
    match_id, cookie = body["match_id"], cookie_of(set_cookie)
    status, _, refused = request(port, "POST", f"/play/{match_id}/hint", {}, cookie=cookie)
    assert (status, refused["reason"]) == (409, "HINTS_NOT_ALLOWED")
    hinted, _ = new_match(port, seed=3, hints=True)
    status, _, refused = request(port, "POST", f"/play/{hinted['match_id']}/hint", {})  # no seat here
    assert (status, refused["reason"]) == (401, "MISSING_TOKEN")
    headers = {"Content-Type": "application/json"}  # no write header: another site's page
    status, _, refused = request(port, "POST", f"/play/{hinted['match_id']}/hint", {}, headers=headers, cookie=cookie)
    assert (status, refused["reason"]) == (403, "CROSS_SITE")
    status, _, refused = request(port, "POST", "/api/play", {"game": "carcassonne_hg", "players": 2, "hints": 1})
    assert (status, refused["reason"]) == (400, "INVALID_CONFIG")


def test_a_review_from_the_viewer(web):
    running, port = web
    with Client(f"127.0.0.1:{running.port}") as client:
        made = finished_match(client, seed=4)
        record = client.get_record(made.match_id)
    base = f"/api/matches/{made.match_id}/review"
    status, first = get_json(port, base)
    assert status == 200 and first["status"] == "not_requested" and "review" not in first
    status, _, refused = request(port, "POST", base, headers={})  # not from the pages
    assert (status, refused["reason"]) == (403, "CROSS_SITE")
    status, _, started = request(port, "POST", base, headers=WRITE)
    assert status == 200 and started["status"] in ("running", "done")
    end = time.monotonic() + 120
    while (got := get_json(port, base)[1])["status"] == "running":
        assert time.monotonic() < end
        time.sleep(0.05)
    assert got["status"] == "done" and got["done"] == got["total"] == len(record["moves"])
    review = got["review"]
    assert len(review["decisions"]) == len(record["moves"]) and review["svg"].startswith("<svg")
    assert review["worst"] and all(
        review["decisions"][i]["band"] in ("inaccuracy", "mistake", "blunder") for i in review["worst"]
    )
    costs = [review["decisions"][i]["cost"] for i in review["worst"]]
    assert costs == sorted(costs, reverse=True)
    i = review["worst"][0]
    status, decision = get_json(port, f"{base}/{i}")
    d = review["decisions"][i]
    assert status == 200 and decision["played"] == d["played"] and decision["best"] == d["best"] != d["played"]
    assert decision["played_svg"].startswith("<svg") and decision["best_svg"].startswith("<svg")
    assert decision["played_svg"] != decision["best_svg"]
    assert get_json(port, f"{base}/{len(review['decisions'])}")[0] == 400
    assert get_json(port, f"{base}/x")[0] == 400
    with Client(f"127.0.0.1:{running.port}") as client:
        live = client.create_match("carcassonne_hg", players=2, seed=1)
    status, refused = get_json(port, f"/api/matches/{live.match_id}/review")
    assert (status, refused["reason"]) == (409, "MATCH_NOT_OVER")
    assert get_json(port, "/api/matches/no-such-match/review")[0] == 404
    assert running.call(lambda: running.reviews.computed) == 1
