"""A complete game through a server, checked move by move against the local engine."""

from __future__ import annotations

import random

from hunters import games
from hunters.client import Client
from hunters.v1 import state_pb2

PLAYERS = {"carcassonne_hg": 2, "jaeger_sammler": 3}


def play_whole_game(client: Client, game: str, seed: int, token: str | None = None) -> tuple[str, int, list[int]]:
    """Create a match, play random legal moves to the end (each seat with its own token), and check
    every reply and the final record against the same game played locally. (match id, moves, scores)."""
    players = PLAYERS[game]
    m = client.create_match(game, players=players, seed=seed, token=token)
    local = games.get(game).new(players=players, seed=seed)
    rnd = random.Random(seed)
    version = 0
    while not local.is_over:
        pairs = client.legal_moves(m.match_id)
        assert [mv for mv, _ in pairs] == list(local.legal_moves())
        move, _ = rnd.choice(pairs)
        seat = local.player
        events = local.play(move)
        r = client.play(m.match_id, move, token=m.seat_tokens[seat], expected_version=version, request_id=str(version))
        version += 1
        assert r.version == version and r.events == events
    final = client.get_match(m.match_id)
    assert final.version == version and final.state.status == state_pb2.GAME_STATUS_OVER
    assert list(final.state.scores) == list(local.scores)
    assert client.record(m.match_id, admin_token=m.admin_token) == local.to_record()
    return m.match_id, version, list(local.scores)
