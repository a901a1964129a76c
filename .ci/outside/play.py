"""A project outside the repository using the installed Python client (`hunters.client`): one
complete game of each game against `hunters serve`, one seat played by the server's own bot. Prints
one JSON line per game; exits non-zero on anything unexpected.

    python play.py ADDRESS
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from hunters.client import Client
from hunters.v1 import matches_pb2


def play_against_bot(c: Client, game: str, me: int, bot_seat: int, bot: str) -> dict[str, object]:
    m = c.create_match(game, players=2, seed=7, bots={bot_seat: bot})
    assert m.bots == {bot_seat: bot}, m.bots
    version, mine, random = 0, 0, 12345
    while True:
        turn = c.wait_turn(m.match_id, me, version)
        assert turn is not None, "the match ended before it was over"
        if turn.match_over:
            break
        legal = c.legal_moves(m.match_id)
        random = (random * 1664525 + 1013904223) % 2**32
        _, action = legal[random % len(legal)]
        r = c.play(m.match_id, token=m.seat_tokens[me], action=action, expected_version=turn.version)
        mine += 1
        version = r.version
        if r.is_over:
            assert r.winners, "no winner at the end"
            break
    end = c.get_match(m.match_id)
    assert end.status == matches_pb2.MATCH_STATUS_OVER and end.created_at is not None, end
    by_seat = Counter(ev.seat for ev in c.watch(m.match_id) if ev.seat >= 0)
    assert by_seat[me] == mine and by_seat[bot_seat] > 0 and mine + by_seat[bot_seat] == end.version, by_seat
    assert len(c.get_record(m.match_id)["moves"]) == end.version
    return {
        "client": "python",
        "game": game,
        "match": m.match_id,
        "moves": end.version,
        "bot_moves": by_seat[bot_seat],
        "scores": list(end.state.scores),
        "winners": list(end.state.winners),
    }


def main(address: str) -> None:
    with Client(address) as c:
        assert sorted(g.game for g in c.list_games()) == ["carcassonne_hg", "jaeger_sammler"]
        for game, me, bot_seat, bot in (("carcassonne_hg", 0, 1, "greedy"), ("jaeger_sammler", 1, 0, "random")):
            print(json.dumps(play_against_bot(c, game, me, bot_seat, bot)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
