"""Random bots playing a match through the Python client (what the viewer tests watch)."""

import random

from hunters.client import Client


def create(client: Client, game: str, players: int, seed: int):
    return client.create_match(game, players, seed=seed)


def play_one(client: Client, info, rng: random.Random) -> bool:
    """One random legal move by the seat to move; False when the match is over."""
    state = client.get_match(info.match_id).state
    moves = client.legal_moves(info.match_id)
    if not moves:
        return False
    move, _ = rng.choice(moves)
    client.play(info.match_id, move, token=info.seat_tokens[state.player])
    return True
