"""The play page in a real browser (headless Debian Chromium driven by Playwright): a person plays a
whole game of each game against a server bot by clicking and pressing keys only. After every move
the page and GetMatch agree (version, seat to move, scores, pieces drawn); the page is reloaded mid-game
and picks the game up; an illegal click is impossible (only highlighted places take a click) and a
refused move leaves the page as it was. Screenshots go to $HUNTERS_SCREENSHOTS (default: tmp dir).

Marked `browser` (run with ``--browser``), skipped without Chromium or Playwright as test_browser.py."""

import random

import pytest

from hunters.client import Client
from tests.web.test_browser import browser, drawn, placed_at, shots  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def new_game(page, base, game, bot):
    page.goto(base + "/play")
    page.wait_for_selector("#new-game-id option", state="attached")
    page.select_option("#new-game-id", game)
    page.select_option("#new-players", "2")
    page.select_option("select[data-seat='0']", "you")
    page.select_option("select[data-seat='1']", "bot:" + bot)
    page.click("#new-start")
    page.wait_for_url("**/play/*")
    return page.url.rsplit("/", 1)[1]


def settle(page):
    """Wait until it is the page's turn or the game is over; the page's version."""
    page.wait_for_function("['mine', 'over'].includes(document.body.dataset.turn)", timeout=20000)
    return int(page.locator("#board").get_attribute("data-version"))


def agree(page, client, running, match_id, pieces, others):
    """The page shows what GetMatch says: version, seat to move, scores; as many pieces as the game has."""
    got = client.get_match(match_id)
    version = int(page.locator("#board").get_attribute("data-version"))
    assert version == got.version
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()  # no refusal, no fault
    assert (drawn(page, pieces), drawn(page, others)) == placed_at(running, match_id, version)
    shown = [page.locator(f"#scores tr[data-seat='{s}'] td").nth(1).inner_text() for s in range(2)]
    if got.state.status == 2 or all(x == "hidden" for x in shown) is False:
        assert shown == [str(x) for x in got.state.scores]
    if got.state.status == 1:
        assert f"{('red', 'blue')[got.state.player]} to move" in page.locator("#status").inner_text()
    return got


def hg_move(page, rng, shot=None):
    """One H&G move: a highlighted place, sometimes turned with R first, an occupant choice, confirm."""
    for _ in range(rng.randrange(4)):
        page.keyboard.press("r")
    spots = page.locator("#board rect.spot:not(.chosen)")
    spots.nth(rng.randrange(spots.count())).click()
    choices = page.locator("#choices button.choice")
    assert page.locator("#board g.ghost").count() == 1  # the tile in hand, turned, where it would go
    # the pieces the placement may take stand on the tile: one per legal occupant (meeple or hut),
    # listed beside it too after "no piece"
    assert choices.nth(0).inner_text() == "no piece"
    marks = page.locator("#board g.choice-mark")
    assert marks.count() == choices.count() - 1
    assert page.evaluate(  # each on the tile, where nothing else can cover it
        """() => { const c = document.querySelector('#board rect.spot.chosen').getBoundingClientRect();
        return [...document.querySelectorAll('#board g.choice-mark')].every(m => {
          const b = m.getBoundingClientRect(), x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
          return x >= c.left && x <= c.right && y >= c.top && y <= c.bottom; }); }"""
    )
    if marks.count() and rng.random() < 0.6:  # choose on the tile...
        marks.nth(rng.randrange(marks.count())).click()
        assert page.locator("#board g.choice-mark.picked").count() == 1
        assert page.locator("#choices button.choice[aria-pressed='true']").count() == 1
    else:  # ...or from the list
        choices.nth(rng.randrange(choices.count())).click()
    if shot:
        shot()
    if rng.random() < 0.5:
        page.keyboard.press("Enter")
    else:
        page.click("#confirm")


def jaeger_move(page, rng, shot=None):
    """One Jäger turn: a highlighted character, a highlighted destination (seldom leave or stop), again, confirm."""
    for _ in range(8):
        confirm = page.locator("#confirm")
        if confirm.count():
            assert page.locator("#turn-summary li").count() >= 1  # what the turn does, before confirming
            if shot:
                shot()
            if rng.random() < 0.5:
                page.keyboard.press("Enter")
            else:
                confirm.click()
            return
        options = page.locator("#board g.space.target")
        buttons = page.locator("#choices #leave, #choices #stop-here")
        n, b = options.count(), buttons.count()
        if shot and page.locator("#board g.chosen-space").count():
            shot(suffix="-step")
        if n + b == 0:
            page.wait_for_timeout(20)  # the summary is on its way (describe)
            continue
        # mostly a highlighted space, so the characters stay long enough for a game of several turns
        # (the server deals the match at random: a person who leaves early can end it in three)
        if n and (not b or rng.random() < 0.9):
            options.nth(rng.randrange(n)).click(force=True)  # a character may stand on it: the click is the space's
        else:
            buttons.nth(rng.randrange(b)).click()
    raise AssertionError("no move chosen in 8 clicks")


GAMES = [
    ("carcassonne_hg", "greedy", hg_move, "g.tile", "g.occupant"),
    ("jaeger_sammler", "greedy", jaeger_move, "g.character", "g.pack"),
]


@pytest.mark.parametrize("game,bot,play,pieces,others", GAMES)
def test_play_a_whole_game_against_a_server_bot(browser, server_factory, shots, game, bot, play, pieces, others):  # noqa: F811
    running = server_factory(http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    # (bypass_csp: the page's policy forbids eval, which wait_for_function uses)
    context = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    rng = random.Random(5)
    with Client(f"127.0.0.1:{running.port}") as client:
        match_id = new_game(page, base, game, bot)
        page.screenshot(path=str(shots / f"play-{game}-start.png"))
        moves = 0
        while True:
            settle(page)
            got = agree(page, client, running, match_id, pieces, others)
            if got.state.status == 2:
                break
            before = got.version
            if moves == 3:
                page.reload()  # a reload picks the game up where it is
                settle(page)
                assert int(page.locator("#board").get_attribute("data-version")) == before
            play(
                page,
                rng,
                (lambda suffix="": page.screenshot(path=str(shots / f"play-{game}-choosing{suffix}.png")))
                if moves == 2
                else None,
            )
            page.wait_for_function(f"Number(document.getElementById('board').dataset.version) > {before}")
            moves += 1
            if moves == 6:
                page.screenshot(path=str(shots / f"play-{game}-mid.png"))
        page.screenshot(path=str(shots / f"play-{game}-over.png"))
        final = client.get_match(match_id)
        assert "over" in page.locator("#status").inner_text() and final.state.status == 2
        assert "hidden" not in page.locator("#scores").inner_text()
        assert moves >= 5
        # a second tab (the same browser, its cookie) shows the same finished game
        other = context.new_page()
        other.goto(f"{base}/play/{match_id}")
        other.wait_for_function("document.body.dataset.turn === 'over'")
        assert other.locator("#board").get_attribute("data-version") == str(final.version)
    context.close()
    assert errors == []


def test_a_tab_that_missed_a_move_is_refused_with_the_reason_and_nothing_changes(browser, server_factory, shots):  # noqa: F811
    running = server_factory(http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    context = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    first = context.new_page()
    match_id = new_game(first, base, "carcassonne_hg", "greedy")
    settle(first)
    second = context.new_page()
    second.route("**/events", lambda route: route.abort())  # this tab hears of no move
    second.goto(f"{base}/play/{match_id}")
    settle(second)
    rng = random.Random(3)
    hg_move(first, rng)
    first.wait_for_function("Number(document.getElementById('board').dataset.version) >= 2")
    assert second.locator("#board").get_attribute("data-version") == "0"
    hg_move(second, rng)  # a move of the position the second tab still shows
    second.wait_for_selector("#error:not([hidden])")
    assert "STALE_VERSION" in second.locator("#error").inner_text()
    # the refusal changed nothing; the page now shows the match as it is, and offers its moves
    second.wait_for_function("document.getElementById('board').dataset.version === '2'")
    assert second.locator("#board rect.spot").count() > 0
    second.screenshot(path=str(shots / "play-refused.png"))
    with Client(f"127.0.0.1:{running.port}") as client:
        assert client.get_match(match_id).version == 2  # ...nor on the server
    context.close()


def test_a_friend_plays_an_open_seat_from_its_link(browser, server_factory, shots):  # noqa: F811
    running = server_factory(http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    host = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
    page = host.new_page()
    page.goto(base + "/play")
    page.wait_for_selector("#new-game-id option", state="attached")
    page.select_option("#new-game-id", "carcassonne_hg")
    page.select_option("select[data-seat='0']", "you")
    page.select_option("select[data-seat='1']", "open")
    page.click("#new-start")
    page.wait_for_selector("#new-invites:not([hidden])")
    link = page.locator("#new-invite-list code.invite").inner_text()
    token = page.locator("#new-invite-list code.token").text_content()
    assert len(token) == 64
    assert "#invite=" in link and token not in link
    page.screenshot(path=str(shots / "play-invite.png"))
    page.click("#new-go")
    settle(page)
    match_id = page.url.rsplit("/", 1)[1]
    friend = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)  # another browser
    requests = []
    other = friend.new_page()
    other.on("request", lambda r: requests.append(r.url))
    other.goto(link)
    other.wait_for_function("document.getElementById('status').textContent.includes('you are blue')")
    assert other.url == f"{base}/play/{match_id}"  # the invite left the address bar
    assert not any("invite" in url for url in requests)  # and was never in a request's address
    hg_move(page, random.Random(1))  # red moves; blue's page hears it and it is blue's turn there
    settle(other)
    assert other.locator("body").get_attribute("data-turn") == "mine"
    hg_move(other, random.Random(2))
    page.wait_for_function("Number(document.getElementById('board').dataset.version) >= 2")
    with Client(f"127.0.0.1:{running.port}") as client:
        assert client.get_match(match_id).version >= 2
    third = browser.new_context(bypass_csp=True).new_page()  # the link is spent: nobody else takes the seat
    third.goto(link)
    third.wait_for_selector("#error:not([hidden])")
    assert "BAD_INVITE" in third.locator("#error").inner_text()
    assert "you are" not in third.locator("#status").inner_text()
    host.close()
    friend.close()


def test_the_shamans_retake_is_chosen_on_the_board(browser, server_factory, shots):  # noqa: F811
    """A position where red holds the shaman tile with meeples out (seed 12, after 50 moves chosen
    as below): the page rings each meeple it may take back; a click on a ring and confirm play the
    placement with that retake."""
    from hunters.carcassonne import Game

    game, rng = Game.new(players=2, seed=12), random.Random(12)
    moves = []
    while not (game.player == 0 and any(m.retake is not None for m in game.legal_moves())):
        ms = game.legal_moves()
        meeples = [m for m in ms if m.occupant is not None and m.occupant.kind == "meeple" and m.retake is None]
        m = rng.choice(meeples) if meeples and rng.random() < 0.7 else rng.choice(ms)
        moves.append(m)
        game.play(m)
        assert len(moves) < 80
    target = next(m for m in game.legal_moves() if m.retake is not None)
    running = server_factory(http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    with Client(f"127.0.0.1:{running.port}") as client:
        made = client.create_match("carcassonne_hg", players=2, seed=12)
        for i, m in enumerate(moves):  # the same game over gRPC
            client.play(made.match_id, m, token=made.seat_tokens[game_seat(client, made.match_id)])
            assert client.get_match(made.match_id).version == i + 1
        context = browser.new_context(viewport={"width": 1400, "height": 950}, bypass_csp=True)
        page = context.new_page()
        page.goto(f"{base}/play/{made.match_id}")
        page.fill("#join-token", made.seat_tokens[0])
        page.click("#join-go")
        settle(page)
        for _ in range(4):  # turn the tile to the target's rotation
            if f"at rotation {target.rotation} " in page.locator("#choices").inner_text():
                break
            page.keyboard.press("r")
        page.click(f"#board rect.spot[data-x='{target.x}'][data-y='{target.y}']:not(.chosen)")
        rings = page.locator("#board circle.retake-mark")
        retakes = {
            m.retake
            for m in game.legal_moves()
            if m.retake is not None and (m.x, m.y) == (target.x, target.y) and m.rotation == target.rotation
        }
        assert {int(z) for z in rings.evaluate_all("rs => rs.map(r => r.dataset.zone)")} == retakes
        page.click(f"#board circle.retake-mark[data-zone='{target.retake}']", force=True)
        assert "take back" in page.locator("#picked").inner_text()
        page.screenshot(path=str(shots / "play-carcassonne_hg-retake.png"))
        page.keyboard.press("Enter")
        page.wait_for_function(f"Number(document.getElementById('board').dataset.version) > {len(moves)}")
        played = client.record(made.match_id, made.admin_token)["moves"][len(moves)]
        assert played["retake"] == target.retake and (played["x"], played["y"]) == (target.x, target.y)
        context.close()


def game_seat(client, match_id):
    """The seat to move in a match, from GetMatch."""
    return client.get_match(match_id).state.player


def test_cross_site_writes_and_a_replayed_cookie_are_refused_in_the_browser(browser, server_factory, tmp_path):  # noqa: F811
    """Another site's page (http://localhost:<other port>, a different site from 127.0.0.1) tries to
    play the victim's seat: a form POST of JSON as text/plain, a no-cors fetch with credentials, and
    a fetch with the write header (which needs a preflight the server never grants). Then the
    victim's own cookie of one match is replayed against another match. Nothing is played."""
    import http.server
    import json
    import threading

    running = server_factory(http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    match_id = new_game(page, base, "carcassonne_hg", "greedy")
    settle(page)
    with Client(f"127.0.0.1:{running.port}") as client:
        move = client.legal_moves(match_id)[0][0]
    body = json.dumps({"move": move.to_json(), "version": 0})
    target = f"{base}/play/{match_id}/move"
    evil = f"""<!doctype html><body><iframe name="sink"></iframe>
<form id="f" method="POST" action="{target}" enctype="text/plain" target="sink">
<input name='{body[:-1]}, "pad": "' value='x"}}'></form><script>
document.getElementById("f").submit();
fetch("{target}", {{method: "POST", mode: "no-cors", credentials: "include", body: '{body}',
  headers: {{"Content-Type": "text/plain"}}}}).then(() => {{ document.title = "no-cors sent"; }});
fetch("{target}", {{method: "POST", credentials: "include", body: '{body}',
  headers: {{"Content-Type": "application/json", "X-Hunters-Request": "1"}}}})
  .then(() => {{ document.body.dataset.cors = "answered"; }}, () => {{ document.body.dataset.cors = "blocked"; }});
</script></body>"""
    (tmp_path / "evil.html").write_text(evil)
    handler = lambda *a: http.server.SimpleHTTPRequestHandler(*a, directory=str(tmp_path))
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        answers = []
        attacker = context.new_page()  # the same browser: it holds the victim's cookie
        attacker.on("response", lambda r: answers.append((r.url, r.status)) if r.url == target else None)
        attacker.goto(f"http://localhost:{other.server_address[1]}/evil.html")
        attacker.wait_for_function("document.body.dataset.cors !== undefined && document.title === 'no-cors sent'")
        assert attacker.evaluate("document.body.dataset.cors") == "blocked"  # the preflight is not granted
        attacker.wait_for_timeout(300)
        assert answers and all(status == 403 for _, status in answers), answers  # CROSS_SITE
    finally:
        other.shutdown()
    with Client(f"127.0.0.1:{running.port}") as client:
        assert client.get_match(match_id).version == 0  # nothing was played
        second = new_game(context.new_page(), base, "carcassonne_hg", "greedy")
        token = next(c["value"] for c in context.cookies() if c["path"] == f"/play/{match_id}")
        context.add_cookies(
            [
                {
                    "name": "hunters_seat",
                    "value": token,
                    "url": f"{base}/play/{second}",
                    "httpOnly": True,
                    "sameSite": "Strict",
                }
            ]
        )
        other_move = client.legal_moves(second)[0][0]
        replay = context.new_page()
        replay.goto(f"{base}/play/{second}")
        answer = replay.evaluate(
            """([url, move]) => fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json',
            'X-Hunters-Request': '1'}, body: JSON.stringify({move, version: 0})})
            .then(r => r.json().then(b => [r.status, b.reason]))""",
            [f"/play/{second}/move", other_move.to_json()],
        )
        assert answer == [403, "INVALID_TOKEN"]
        assert client.get_match(second).version == 0
    context.close()
