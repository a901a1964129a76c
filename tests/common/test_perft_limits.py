"""Bounded perft (`perft(game, depth, limit=PerftLimit(nodes, stop))`, what the oracle's Perft RPC
counts with) for every registered game: the same counts as unbounded, the same positions expanded
in the core as in the generic Python perft, and a count past its node budget or with its stop byte
set raises PerftStopped saying which."""

import random
import threading
import time

import pytest

import hunters
from hunters.errors import PerftStopped
from hunters.perft import PerftLimit, perft_children, python_perft


def position(game_id: str, plies: int):
    cls = hunters.games.get(game_id)
    game = cls.new(players=cls.INFO.min_players, seed=3)
    rng = random.Random(3)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_moves())))
    return game


@pytest.mark.parametrize("game_id", hunters.games.ids())
@pytest.mark.parametrize("chance", [False, True])
def test_bounded_counts_are_the_counts_and_both_perfts_expand_the_same_positions(game_id, chance):
    game = position(game_id, 6)
    for depth in (1, 2):
        core, generic = PerftLimit(), PerftLimit()
        count = game.perft(depth, chance=chance, limit=core)
        assert count == game.perft(depth, chance=chance) == python_perft(game, depth, chance=chance, limit=generic)
        assert core.used == generic.used > 0, depth
    rows = game.perft(2, divide=True, chance=chance)
    assert game.perft(2, divide=True, chance=chance, limit=PerftLimit()) == rows
    assert [(k, c.perft(d, chance=chance)) for k, c, d in perft_children(game, 2, chance)] == rows


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_the_node_budget_is_exact(game_id):
    game = position(game_id, 4)
    used = PerftLimit()
    count = game.perft(3, limit=used)
    assert game.perft(3, limit=PerftLimit(nodes=used.used)) == count
    with pytest.raises(PerftStopped) as exc:
        game.perft(3, limit=PerftLimit(nodes=used.used - 1))
    assert exc.value.reason == "NODE_LIMIT" and exc.value.nodes == used.used


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_the_stop_byte_stops_the_count_at_once(game_id):
    game = position(game_id, 2)
    limit = PerftLimit(stop=bytearray(b"\x01"))
    with pytest.raises(PerftStopped) as exc:
        game.perft(2, limit=limit)
    assert exc.value.reason == "STOPPED" and exc.value.nodes == 1
    limit = PerftLimit()
    threading.Timer(0.2, lambda: limit.stop.__setitem__(0, 1)).start()
    start = time.perf_counter()
    with pytest.raises(PerftStopped) as exc:
        game.perft(12, limit=limit)  # far beyond what finishes in a test
    assert exc.value.reason == "STOPPED" and time.perf_counter() - start < 5
