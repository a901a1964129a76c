"""The live viewer in a real browser: headless Chromium (Debian's `chromium`, no browser download)
driven by Playwright for Python. Bots play matches through the Python client while the page is open;
after each move the page must show it within a second, with as many tiles (pieces) drawn as the game
has placed; then the history is stepped back with the arrow keys and the buttons. Screenshots go to
$HUNTERS_SCREENSHOTS (default: the test's tmp dir).

Marked `browser`: deselected by default (the default run stays fast), run with ``--browser`` (.ci/run
does). Without Chromium or Playwright it is skipped with the reason, unless HUNTERS_REQUIRE_BROWSER=1
(.ci/run sets it), when it fails instead."""

import os
import random
import shutil
from pathlib import Path

import pytest

from hunters.client import Client
from tests.web.bots import create, play_one

pytestmark = pytest.mark.browser
CHROMIUM = os.environ.get("HUNTERS_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--mute-audio",
]


def unavailable(why):
    if os.environ.get("HUNTERS_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser test required but {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright for Python is not installed (pip install playwright; no browser download needed)")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set HUNTERS_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path):
    out = Path(os.environ.get("HUNTERS_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    return out


def drawn(page, selector):
    return page.evaluate(f"document.querySelectorAll('#board svg {selector}').length")


def wait_version(page, version, timeout_ms=1000):
    page.wait_for_function(f"document.getElementById('board').dataset.version === '{version}'", timeout=timeout_ms)


def placed_at(running, match_id, version):
    """(tiles or characters, occupants or packs) of the match after `version` moves, from the server's game."""

    async def count():
        live = await running.manager.get(match_id)
        game = live.adapter.from_record(dict(live.record, moves=[m.to_json() for m in live.moves[:version]]))
        if live.adapter.game_id == "carcassonne_hg":
            return len(game.board), len(game.occupants)
        return len(game.characters), len(game.supply_packs)

    return running.call(count)


GAMES = [("carcassonne_hg", 3, 30, "g.tile", "g.occupant"), ("jaeger_sammler", 3, None, "g.character", "g.pack")]


@pytest.mark.parametrize("game,players,moves,pieces,others", GAMES)
def test_watch_a_bot_match_live_and_step_back(browser, server_factory, shots, game, players, moves, pieces, others):
    running = server_factory(http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    page = browser.new_page(viewport={"width": 1400, "height": 950}, bypass_csp=True)  # CSP forbids eval
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    with Client(f"127.0.0.1:{running.port}") as client:
        info = create(client, game, players, seed=11)
        page.goto(base + "/")
        page.wait_for_selector(f'tr[data-match="{info.match_id}"]', timeout=5000)
        page.screenshot(path=str(shots / f"{game}-list.png"))
        page.click(f'tr[data-match="{info.match_id}"] a')
        page.wait_for_url(f"**/match/{info.match_id}")
        wait_version(page, 0, 5000)
        assert (drawn(page, pieces), drawn(page, others)) == placed_at(running, info.match_id, 0)

        rng = random.Random(11)
        version = 0
        while (moves is None or version < moves) and play_one(client, info, rng):
            version += 1
            wait_version(page, version)  # the page shows the move within a second
            assert (drawn(page, pieces), drawn(page, others)) == placed_at(running, info.match_id, version)
            if version == 10:
                page.screenshot(path=str(shots / f"{game}-live-10.png"))
        page.screenshot(path=str(shots / f"{game}-live-{version}.png"))
        assert page.locator("#log li").count() == version + 1
        if moves is None:  # played to the end: the page says so and shows the scores
            page.wait_for_function("document.getElementById('status').textContent.startsWith('over')", timeout=2000)
            assert "hidden" not in page.locator("#scores").inner_text()

        # back through the history: arrow keys, then the buttons, Home and End
        for back in (1, 2, 3):
            page.keyboard.press("ArrowLeft")
            wait_version(page, version - back)
            assert (drawn(page, pieces), drawn(page, others)) == placed_at(running, info.match_id, version - back)
        assert not page.locator("#follow").is_checked()
        page.keyboard.press("ArrowRight")
        wait_version(page, version - 2)
        page.click("#prev")
        wait_version(page, version - 3)
        page.screenshot(path=str(shots / f"{game}-back-{version - 3}.png"))
        page.keyboard.press("Home")
        wait_version(page, 0)
        assert (drawn(page, pieces), drawn(page, others)) == placed_at(running, info.match_id, 0)
        assert page.locator("#prev").is_disabled()
        page.click("#log li[data-version='5']")
        wait_version(page, 5)
        page.keyboard.press("End")
        wait_version(page, version)
        assert page.locator("#follow").is_checked()
        assert page.locator("#position").inner_text() == f"move {version} / {version}"
    page.close()
    assert errors == []
