"""The play page's latency on loopback, in a real browser (headless Debian Chromium via Playwright):

- click -> move drawn: from the click on "confirm" (its handler) to the page showing the move (the
  POST that plays it, the state read back, the picture drawn), as the page measures it itself;
- other seat's move -> page: from just before another player's PlayMove (gRPC) to the page showing
  it (server-sent event, state read, picture drawn); a server bot's move reaches the page the same
  way (the manager publishes every stored move alike), plus its thinking. The same move is timed on
  the viewer's page of the match (/match/<id>), open beside it, for comparison;
- a server bot's move -> page: in a second match against the server's `greedy` bot, from the moment
  a gRPC watcher of the match hears the bot's move (WatchMatch, in this process) to the play page
  and the viewer's page showing it. (When the bot answers before the page's own POST returns, the
  page draws its move from that answer, earlier than any event.)

    python bench/play_report.py            # 30 moves each way, Hunters & Gatherers, 2 players
    python bench/play_report.py 60

Median, 90th percentile and max in milliseconds. The clocks compared are the browser's
`performance.timeOrigin + now()` and Python's `time.time()`, on one machine.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from hunters.client import Client
from hunters.service import ServerConfig, create_server
from hunters.status import ServiceError

CHROMIUM = "/usr/bin/chromium"


def main(rounds: int = 30) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = create_server(ServerConfig(address="127.0.0.1:0", db=str(Path(folder) / "m.db"), http_port=0))
        base = f"http://127.0.0.1:{server.http_port}"
        clicks: list[float] = []
        others: list[float] = []
        answers: list[float] = []  # the click's POST answered
        heard: list[float] = []  # the event heard
        fetched: list[float] = []  # the state read
        watched: list[float] = []  # the viewer's page drawn
        bot_page: list[float] = []  # a server bot's move, heard by a watcher -> the play page drawn
        bot_viewer: list[float] = []  # ... -> the viewer's page drawn
        try:
            with sync_playwright() as p, Client(f"127.0.0.1:{server.port}") as client:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                context = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
                # when each version is drawn on the board, on any page (a MutationObserver, set before
                # the page's own script runs)
                context.add_init_script(
                    """window.__seen = {}; document.addEventListener('DOMContentLoaded', () => {
                    const b = document.getElementById('board'); new MutationObserver(() => {
                    const v = b.dataset.version; if (v !== '' && !(v in __seen))
                    __seen[v] = performance.timeOrigin + performance.now(); }).observe(b, {attributes: true,
                    attributeFilter: ['data-version']}); });"""
                )
                page = context.new_page()
                viewer = context.new_page()
                page.goto(base + "/play")
                made = page.evaluate(
                    """() => fetch('/api/play', {method: 'POST', headers: {'Content-Type': 'application/json',
                    'X-Hunters-Request': '1'}, body: JSON.stringify({game: 'carcassonne_hg', players: 2, you: 0,
                    seed: 7})}).then(r => r.json())"""
                )
                match_id, token = made["match_id"], made["open_seats"][0]["token"]
                page.goto(base + made["url"])
                viewer.goto(f"{base}/match/{match_id}")
                rng = random.Random(7)
                for _ in range(rounds):
                    page.wait_for_function("document.body.dataset.turn === 'mine'")
                    version = int(page.locator("#board").get_attribute("data-version"))
                    spots = page.locator("#board rect.spot:not(.chosen)")
                    spots.nth(rng.randrange(spots.count())).click()
                    page.click("#confirm")
                    page.wait_for_function(
                        f"document.getElementById('board').dataset.drawnMs !== undefined && "
                        f"Number(document.getElementById('board').dataset.version) > {version}"
                    )
                    clicks.append(float(page.locator("#board").get_attribute("data-drawn-ms")))
                    answers.append(float(page.locator("#board").get_attribute("data-answered-ms")))
                    page.evaluate("delete document.getElementById('board').dataset.drawnMs")
                    while True:  # the other seat's moves (an extra turn: more than one)
                        got = client.get_match(match_id)
                        if got.state.status != 1 or got.state.player != 1:
                            break
                        move = rng.choice(client.legal_moves(match_id))[0]
                        t0 = time.time() * 1000
                        client.play(match_id, move, token=token)
                        page.wait_for_function(f"HuntersPlay.drawnAt[{got.version + 1}] !== undefined")
                        v = got.version + 1
                        at = page.evaluate(
                            f"[HuntersPlay.heardAt[{v}], HuntersPlay.fetchedAt[{v}], HuntersPlay.drawnAt[{v}]]"
                        )
                        others.append(at[2] - t0)
                        heard.append(at[0] - t0)
                        viewer.wait_for_function(f"__seen[{v}] !== undefined")
                        watched.append(viewer.evaluate(f"__seen[{v}]") - t0)
                        fetched.append(at[1] - t0)
                    if got.state.status != 1:
                        break
                bot_round(base, context, client, rng, rounds, bot_page, bot_viewer)
                browser.close()
        finally:
            server.stop(0)
    for name, xs in (
        ("click -> server's answer", answers),
        ("click -> move drawn", clicks),
        ("other seat's move -> event", heard),
        ("other seat's move -> state", fetched),
        ("other seat's move -> page", others),
        ("... -> the viewer's page", watched),
        ("server bot's move -> page", bot_page),
        ("... -> the viewer's page", bot_viewer),
    ):
        xs = sorted(xs)
        p90 = xs[int(0.9 * (len(xs) - 1))]
        print(f"{name:28s} n={len(xs):3d}  median {statistics.median(xs):6.1f} ms  p90 {p90:6.1f}  max {xs[-1]:6.1f}")


def bot_round(base, context, client, rng, rounds, bot_page, bot_viewer) -> None:
    """Play `rounds` moves against the server's greedy bot; time each bot move to both pages."""
    page = context.new_page()
    viewer = context.new_page()
    page.goto(base + "/play")
    made = page.evaluate(
        """() => fetch('/api/play', {method: 'POST', headers: {'Content-Type': 'application/json',
        'X-Hunters-Request': '1'}, body: JSON.stringify({game: 'carcassonne_hg', players: 2, you: 0,
        seed: 8, bots: [{seat: 1, bot: 'greedy'}]})}).then(r => r.json())"""
    )
    match_id = made["match_id"]
    heard: dict[int, float] = {}
    bot_versions: list[int] = []

    def watch() -> None:
        try:
            for event in client.watch(match_id):
                heard[event.version] = time.time() * 1000
                if event.seat == 1:
                    bot_versions.append(event.version)
        except ServiceError:  # the channel closed at the end
            pass

    threading.Thread(target=watch, daemon=True).start()
    page.goto(base + made["url"])
    viewer.goto(f"{base}/match/{match_id}")
    version = 0
    for _ in range(rounds):  # each time: after the bot's reply (and any extra turns), the page's turn
        page.wait_for_function(
            f"Number(document.getElementById('board').dataset.version) >= {version} && "
            "['mine', 'over'].includes(document.body.dataset.turn)"
        )
        if page.locator("body").get_attribute("data-turn") == "over":
            break
        version = int(page.locator("#board").get_attribute("data-version")) + 1
        spots = page.locator("#board rect.spot:not(.chosen)")
        spots.nth(rng.randrange(spots.count())).click()
        page.click("#confirm")
    page.wait_for_function(
        f"Number(document.getElementById('board').dataset.version) >= {version} && "
        "['mine', 'over'].includes(document.body.dataset.turn)"
    )
    first = "(xs, v) => Math.min(...Object.entries(xs).filter(([k]) => Number(k) >= v).map(([, t]) => t))"
    for v in bot_versions:  # the bot's move drawn, or the first later version drawn (it included it)
        drawn = page.evaluate(f"({first})(HuntersPlay.drawnAt, {v})")
        viewer.wait_for_function(f"Object.keys(__seen).some(k => Number(k) >= {v})")
        seen = viewer.evaluate(f"({first})(__seen, {v})")
        if v in heard:
            bot_page.append(drawn - heard[v])
            bot_viewer.append(seen - heard[v])


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
