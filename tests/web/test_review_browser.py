"""Hints and reviews in a real browser (headless Debian Chromium driven by Playwright): a person plays
a whole game with hints on, asking for hints (and playing one); a hint in a match without hints is
refused with the server's reason; a person opens a finished match's review, watches its progress,
clicks the plot and follows a blunder link to the two boards side by side. Screenshots go to
$HUNTERS_SCREENSHOTS (default: the test's tmp dir).

Marked `browser` (run with ``--browser``), skipped without Chromium or Playwright as test_browser.py."""

import random
import threading
import time

import pytest

from hunters.client import Client
from hunters.service import reviews as reviews_module
from tests.service.test_analyze import finished_match
from tests.web.test_browser import browser, drawn, placed_at, shots  # noqa: F401 (fixtures)
from tests.web.test_play_browser import agree, hg_move, settle

pytestmark = pytest.mark.browser


def new_game(page, base, hints):
    """A new H&G game from the form: you against greedy, hints as asked; its match id."""
    page.goto(base + "/play")
    page.wait_for_selector("#new-game-id option", state="attached")
    page.select_option("#new-game-id", "carcassonne_hg")
    page.select_option("#new-players", "2")
    page.select_option("select[data-seat='0']", "you")
    page.select_option("select[data-seat='1']", "bot:greedy")
    if hints:
        page.check("#new-hints")
    page.click("#new-start")
    page.wait_for_url("**/play/*")
    return page.url.rsplit("/", 1)[1]


def test_a_person_plays_a_whole_game_with_hints(browser, server_factory, shots):  # noqa: F811
    running = server_factory(http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    context = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    rng = random.Random(8)
    hints = played_hints = 0
    with Client(f"127.0.0.1:{running.port}") as client:
        match_id = new_game(page, base, hints=True)
        token = next(c["value"] for c in context.cookies() if c["path"] == f"/play/{match_id}")
        assert client.get_match(match_id).config.hints
        while True:
            version = settle(page)
            got = agree(page, client, running, match_id, "g.tile", "g.occupant")
            if got.state.status == 2:
                break
            assert page.locator("#hint-button").is_visible() and page.locator("#hint-off").is_hidden()
            if version % 8 == 0:  # a hint now and then (the H key or the button), sometimes played
                if hints % 2:
                    page.keyboard.press("h")
                else:
                    page.click("#hint-button")
                page.wait_for_selector(f"#hint-moves ol[data-version='{version}'] li")
                hints += 1
                shown = [
                    int(a) for a in page.locator("#hint-moves li").evaluate_all("ls => ls.map(l => l.dataset.action)")
                ]
                legal = {action for _, action in client.legal_moves(match_id)}
                assert len(shown) == 3 and set(shown) <= legal
                expected = client.analyze(match_id, token=token, top_k=3)  # the seat's own analysis
                assert shown == [m.action for m in expected.moves]
                if hints == 1:
                    page.screenshot(path=str(shots / "hint-shown.png"))
                if hints % 3 == 1:  # the first suggestion played from the hint
                    page.locator("#hint-moves button.play-hint").first.click()
                    page.wait_for_function(f"Number(document.getElementById('board').dataset.version) > {version}")
                    moved = next(iter(client.watch(match_id, version + 1, timeout=10)))
                    assert (moved.seat, moved.move) == (0, expected.moves[0].move)
                    played_hints += 1
                    continue
            hg_move(page, rng)
            page.wait_for_function(f"Number(document.getElementById('board').dataset.version) > {version}")
        page.screenshot(path=str(shots / "hint-game-over.png"))
        final = client.get_match(match_id)
        assert final.state.status == 2 and hints >= 3 and played_hints >= 1
        record = client.get_record(match_id)
        assert len(record["moves"]) == final.version
    assert page.locator("#hint-button").is_hidden()  # the game is over: no hint
    context.close()
    assert errors == []


def test_a_hint_in_a_match_without_hints_is_refused_with_its_reason(browser, server_factory, shots):  # noqa: F811
    running = server_factory(http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    context = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    page = context.new_page()
    match_id = new_game(page, base, hints=False)
    settle(page)
    assert page.locator("#hint-button").is_hidden() and page.locator("#hint-off").is_visible()
    page.keyboard.press("h")  # asked anyway: the server refuses, and the page says why
    page.wait_for_selector("#error:not([hidden])")
    assert "HINTS_NOT_ALLOWED" in page.locator("#error").inner_text()
    assert page.locator("#hint-moves li").count() == 0
    page.screenshot(path=str(shots / "hint-refused.png"))
    with Client(f"127.0.0.1:{running.port}") as client:
        assert client.get_match(match_id).version == 0  # nothing changed
    context.close()


class Gate:
    """Holds the review's search after `at` decisions until opened (see tests/service/test_reviews.py)."""

    def __init__(self, monkeypatch, at):
        self.reached, self.opened = threading.Event(), threading.Event()
        real = reviews_module.review_record

        def held(record, progress=None, stop=None, **kwargs):
            def told(done, total):
                progress(done, total)
                if done == at:
                    self.reached.set()
                    end = time.monotonic() + 60
                    while not self.opened.wait(0.01) and not stop[0]:
                        assert time.monotonic() < end

            return real(record, progress=told, stop=stop, **kwargs)

        monkeypatch.setattr(reviews_module, "review_record", held)


def test_a_person_reviews_a_match_clicks_the_plot_and_follows_a_blunder_link(
    browser,  # noqa: F811
    server_factory,
    shots,  # noqa: F811
    monkeypatch,
):
    gate = Gate(monkeypatch, at=20)
    running = server_factory(http_port=0, review_iterations=40)
    base = f"http://127.0.0.1:{running.http_port}"
    with Client(f"127.0.0.1:{running.port}") as client:
        made = finished_match(client, seed=11)  # random against greedy: random blunders
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/match/{made.match_id}")
    page.wait_for_selector("#review-ask:not([hidden])")
    assert page.locator("#review-link").is_visible()
    page.click("#review-start")
    assert gate.reached.wait(60)
    page.wait_for_function("document.getElementById('review-progress').value === 20")
    text = page.locator("#review-progress-text").inner_text()
    assert text.startswith("20 of ") and "decisions reviewed" in text
    page.locator("#review").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "review-progress.png"))
    gate.opened.set()
    page.wait_for_selector("#review-done:not([hidden])", timeout=120_000)
    review = running.call(lambda: running.reviews.review(made.match_id))[1]
    points = page.locator("#review-plot circle.point")
    searched = [i for i, d in enumerate(review.decisions) if d.kind == "decision"]
    assert points.count() == 2 * len(searched)  # a point per seat and searched decision
    page.locator("#review-plot").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "review-plot.png"))

    # a click on the plot: the nearest decision, its boards side by side, the main board there
    target = searched[len(searched) // 2]
    point = page.locator(f"#review-plot circle.point[data-index='{target}'][data-seat='0']")
    point.click(force=True)
    page.wait_for_function(f"document.getElementById('review-decision').dataset.shown === '{target}'")
    d = review.decisions[target]
    page.wait_for_function(f"document.getElementById('board').dataset.version === '{d.moves_played}'")
    assert drawn(page, "g.tile") == placed_at(running, made.match_id, d.moves_played)[0]
    tiles = placed_at(running, made.match_id, d.moves_played)[0] + 1
    for side in ("#review-played", "#review-best"):
        assert page.locator(f"{side} .pic svg g.tile").count() == tiles  # the board after the move
    assert f"move {d.index + 1}," in page.locator("#review-decision-title").inner_text()
    page.screenshot(path=str(shots / "review-clicked-point.png"))

    # a blunder in the list of the costliest moves: followed, the two boards side by side
    blunders = page.locator("#review-worst a.band-blunder")
    assert blunders.count() >= 1
    link = blunders.first
    index = int(link.get_attribute("data-index"))
    blunder = review.decisions[index]
    assert blunder.band == "blunder" and link.get_attribute("href") == f"#decision-{index}"
    link.click()
    page.wait_for_function(f"document.getElementById('review-decision').dataset.shown === '{index}'")
    assert page.evaluate("location.hash") == f"#decision-{index}"
    title = page.locator("#review-decision-title").inner_text()
    assert "blunder" in title and f"cost {blunder.cost:.1f}" in title
    page.wait_for_function(f"document.getElementById('board').dataset.version === '{blunder.moves_played}'")
    played = page.locator("#review-played figcaption").inner_text()
    best = page.locator("#review-best figcaption").inner_text()
    assert played.startswith("played: ") and best.startswith("suggested: ") and played[8:] != best[11:]
    assert page.locator("#review-plot .selected").count() >= 1
    page.locator("#review-decision").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "review-blunder.png"), full_page=False)
    page.screenshot(path=str(shots / "review-page.png"), full_page=True)

    # the link itself, opened afresh, shows that decision
    other = browser.new_page(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    other.goto(f"{base}/match/{made.match_id}#decision-{index}")
    other.wait_for_function(f"document.getElementById('review-decision').dataset.shown === '{index}'")
    other.close()
    page.close()
    assert running.call(lambda: running.reviews.computed) == 1
    assert errors == []
