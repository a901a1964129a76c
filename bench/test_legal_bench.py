"""What a listing of legal moves costs the server (a seat's turn, ListLegalMoves): every position of
a few seeded games of each registered game, listed three ways in one run, interleaved round by
round:

- messages: a LegalMove message built per move and serialized (what the service did first);
- cold: `hunters.service.legal.LegalEncoder` starting empty at each game (every entry of a new
  match encoded once: the server's case for a game never seen);
- warm: the same encoder listing the same positions again (entries listed before).

The medians (µs per listing) and the ratios messages ÷ cold and messages ÷ warm go to extra_info."""

import random
import statistics
import time

import pytest

import hunters
from hunters.service.games import adapter
from hunters.service.legal import LegalEncoder
from hunters.v1 import matches_pb2, moves_pb2

FIELD = matches_pb2.YourTurn.DESCRIPTOR.fields_by_name["moves"].number
ROUNDS = 5


def _games(game_id):
    """Each seeded game's positions, in order (a match's turns)."""
    out = []
    for seed in range(4):
        game = hunters.games.get(game_id).new(players=2, seed=seed)
        rng = random.Random(seed)
        positions = []
        while not game.is_over:
            positions.append(game.clone())
            game.play(rng.choice(game.legal_moves()))
        out.append(positions)
    return out


def _messages(ad, positions):
    for game in positions:
        b"".join(
            moves_pb2.LegalMove(move=ad.move_to_proto(m), action=a).SerializeToString() for m, a in game.actions.pairs()
        )


def _cold(ad, positions):
    encoder = LegalEncoder()
    for game in positions:
        encoder.entries(ad, game, FIELD)


@pytest.mark.benchmark(group="legal-listing")
@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_legal_listing(benchmark, game_id):
    ad = adapter(game_id)
    games = _games(game_id)
    listings = sum(map(len, games))
    warm = LegalEncoder()
    for positions in games:
        for game in positions:
            warm.entries(ad, game, FIELD)
    sides = {
        "messages": lambda p: _messages(ad, p),
        "cold": lambda p: _cold(ad, p),
        "warm": lambda p: [warm.entries(ad, g, FIELD) for g in p],
    }
    times = {side: [] for side in sides}

    def rounds():
        for r in range(ROUNDS):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for side in order:
                t0 = time.perf_counter()
                for positions in games:
                    sides[side](positions)
                times[side].append((time.perf_counter() - t0) / listings * 1e6)

    benchmark.pedantic(rounds, rounds=1, warmup_rounds=0)
    med = {side: statistics.median(v) for side, v in times.items()}
    benchmark.extra_info.update(
        listings=listings,
        moves_per_listing=statistics.fmean(len(g.legal_moves()) for p in games for g in p),
        **{f"{side}_us_per_listing": v for side, v in med.items()},
        messages_over_cold=med["messages"] / med["cold"],
        messages_over_warm=med["messages"] / med["warm"],
    )
    print(
        f"\n{game_id}: {listings} listings; µs per listing: "
        + ", ".join(f"{side} {v:.1f}" for side, v in med.items())
        + f"; messages ÷ cold {med['messages'] / med['cold']:.2f}, ÷ warm {med['messages'] / med['warm']:.2f}"
    )
    assert all(v > 0 for v in med.values())
