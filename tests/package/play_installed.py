"""Run by the Python of a virtual environment that holds only the installed wheel (no source tree):
plays one whole game of every registered game against the wheel's own `hunters serve`, one seat
a server-side bot, and reads the viewer's pages. Usage: play_installed.py GRPC_PORT HTTP_PORT.
Prints one line per game; exits non-zero (with the reason) when anything is missing or wrong."""

from __future__ import annotations

import random
import sys
import urllib.request

import hunters
from hunters.client import Client
from hunters.v1 import state_pb2


def play(client: Client, game: str, seed: int) -> str:
    info = hunters.games.info(game)
    players = max(2, info.min_players)
    match = client.create_match(game, players=players, seed=seed, bots={players - 1: "random:seed=1"})
    rnd = random.Random(seed)
    moves = 0
    for event in client.watch(match.match_id, timeout=120):
        state = event.state
        if state.status == state_pb2.GAME_STATUS_OVER:
            break
        if state.player == players - 1:  # the server's bot is to move: its move comes on the stream
            continue
        _, action = rnd.choice(client.legal_moves(match.match_id))
        client.play(
            match.match_id, action=action, token=match.seat_tokens[state.player], expected_version=state.version
        )
        moves += 1
    final = client.get_match(match.match_id)
    assert final.state.status == state_pb2.GAME_STATUS_OVER, f"{game}: the match did not end"
    assert client.game_info(game).summary.game == game
    return f"{game}: over after {final.version} moves ({moves} ours), scores {list(final.state.scores)}"


def main(grpc_port: int, http_port: int) -> int:
    assert "site-packages" in (hunters.__file__ or ""), f"hunters imported from {hunters.__file__}, not the wheel"
    with Client(f"127.0.0.1:{grpc_port}") as client:
        for seed, game in enumerate(hunters.games.ids(), start=11):
            print(play(client, game, seed), flush=True)
    scripts = [f"/static/games/{game}/play.js" for game in hunters.games.ids()]  # each game's, from its package
    for page in ("/", "/static/viewer.js", "/static/viewer.css", "/play", "/static/play.js", *scripts):
        with urllib.request.urlopen(f"http://127.0.0.1:{http_port}{page}", timeout=30) as resp:
            assert resp.status == 200 and resp.read(), f"viewer page {page} is empty"
    print("viewer: pages served", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
