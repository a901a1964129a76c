"""The viewer's cache of histories and rendered states is bounded in bytes, least recently used out
first, and its estimate of a history is close to the memory the history really holds."""

import gc
import http.client
import random
import tracemalloc
import types

from hunters.client import Client
from hunters.jaeger import _core as jaeger_core
from hunters.service.games import adapter
from hunters.service.webcache import ByteLRU, ViewerCache
from tests.service.test_long_matches import long_game
from tests.web.bots import create, play_one


def test_byte_lru_evicts_the_least_recently_used_past_its_budget():
    cache = ByteLRU(100)
    cache.put("a", 1, 40)
    cache.put("b", 2, 40)
    assert cache.get("a") == 1  # now "b" is the least recently used
    cache.put("c", 3, 40)
    assert ("a" in cache, "b" in cache, "c" in cache) == (True, False, True) and cache.nbytes == 80
    cache.put("a", 1, 70)  # grown: "c" goes
    assert ("a" in cache, "c" in cache, cache.nbytes) == (True, False, 70)
    cache.put("big", 4, 101)  # larger than the whole budget: kept by nobody, and it empties the rest
    assert len(cache) == 0 and cache.nbytes == 0


def test_a_historys_estimate_is_close_to_what_it_holds():
    moves = 3000
    game = long_game(moves)
    record = dict(game.to_record(), moves=[])
    live = types.SimpleNamespace(
        match_id="m", version=moves, moves=list(game.moves), seats=[i % 2 for i in range(moves)]
    )
    live.adapter, live.record = adapter("jaeger_sammler"), record
    cache = ViewerCache(budget=1 << 40)
    gc.collect()
    tracemalloc.start()
    try:
        history = cache.history(live)
        gc.collect()
        python_bytes = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # the games' compiled states are allocated in C, where tracemalloc does not look
    held = python_bytes + (len(history.checkpoints) + 1) * jaeger_core.state_size()
    estimate = history.nbytes
    assert cache.entries.nbytes == estimate
    assert held / 1.5 <= estimate <= held * 1.5, (estimate, held)


def test_the_viewers_cache_stays_within_its_budget(server_factory):
    budget = 600_000
    running = server_factory(http_port=0, http_cache_bytes=budget)
    cache = running._started.viewer.cache.entries
    rng = random.Random(3)
    with Client(f"127.0.0.1:{running.port}") as client:
        matches = [create(client, "carcassonne_hg", 2, seed=s) for s in range(6)]
        for info in matches:
            for _ in range(20):
                play_one(client, info, rng)
    for info in matches:
        for at in (5, 10, 20):
            conn = http.client.HTTPConnection("127.0.0.1", running.http_port, timeout=10)
            conn.request("GET", f"/api/matches/{info.match_id}?at={at}")
            assert conn.getresponse().status == 200
            conn.close()
            assert 0 < running.call(lambda: cache.nbytes) <= budget
    kept = running.call(lambda: [key for key in cache._entries])
    assert ("history", matches[-1].match_id) in kept  # the most recently used...
    assert ("history", matches[0].match_id) not in kept  # ... stays; the least recently used went
