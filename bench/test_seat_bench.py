"""Seat streams against today's bot loop: moves per second of one match played by two Python bots
on loopback, the server in its own process (`hunters serve`).

- stream: each bot plays its seat on one PlaySeat stream (`Client.play_seat`, the blocking client);
- stream_async: the same with the asyncio client (`hunters.aio.AsyncClient.play_seat`), the two bots
  on one event loop in one thread (each on a connection of its own);
- watch+unary: each bot follows the match on WatchMatch and, at each version where its seat is to
  move, calls ListLegalMoves then PlayMove (the example bots' loop before seat streams);
- watch_unary_async: that loop with the asyncio client (for reference: what the asyncio client alone
  gives without the stream);
- unary: one bot plays both seats with ListLegalMoves + PlayMove and no stream at all (the cheapest
  loop without a stream, for reference).

Every side plays the same game (the same seed, the same choice: the middle legal move), so each
round's games have the same moves; rounds alternate the sides, so drifts of a shared machine hit
them alike. The medians of moves/s and the ratios go to extra_info."""

import asyncio
import statistics
import threading
import time

import pytest

from hunters.aio import AsyncClient
from hunters.client import Client

from .test_service_bench import serving

GAME = "carcassonne_hg"
ROUNDS = 12


def _middle(n):
    return n // 2


def _stream_bot(address, match_id, token):
    with Client(address) as c:
        c.play_seat(match_id, token, lambda turn: turn.actions[_middle(len(turn.actions))])


def _watch_unary_bot(address, match_id, token, seat):
    with Client(address) as c:
        for ev in c.watch(match_id, 0):
            if ev.match_over:
                return
            if ev.state.player != seat:
                continue
            legal = c.legal_moves(match_id)
            if legal.version != ev.version or legal.player != seat:
                continue  # an old event: the later ones follow
            c.play(match_id, token=token, action=legal[_middle(len(legal))][1], expected_version=legal.version)


async def _async_stream_bot(address, match_id, token, seat):
    async with AsyncClient(address) as c:
        last = await c.play_seat(match_id, token, lambda turn: turn.actions[_middle(len(turn.actions))])
    assert last is not None and last.match_over


async def _async_watch_unary_bot(address, match_id, token, seat):
    async with AsyncClient(address) as c:
        async for ev in c.watch(match_id, 0):
            if ev.match_over:
                return
            if ev.state.player != seat:
                continue
            legal = await c.legal_moves(match_id)
            if legal.version != ev.version or legal.player != seat:
                continue
            await c.play(match_id, token=token, action=legal[_middle(len(legal))][1], expected_version=legal.version)


def _two_async_bots(address, seed, bot):
    with Client(address) as c:
        match = c.create_match(GAME, 2, seed=seed)

        async def both():
            await asyncio.gather(*(bot(address, match.match_id, match.seat_tokens[s], s) for s in (0, 1)))

        t0 = time.perf_counter()
        asyncio.run(both())
        elapsed = time.perf_counter() - t0
        info = c.get_match(match.match_id)
    assert info.status == 2, "the match did not end"  # MATCH_STATUS_OVER
    return info.version, elapsed


def _two_bots(address, seed, bot, with_seat):
    with Client(address) as c:
        match = c.create_match(GAME, 2, seed=seed)
        threads = [
            threading.Thread(
                target=bot, args=(address, match.match_id, match.seat_tokens[s], *([s] if with_seat else []))
            )
            for s in (0, 1)
        ]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        info = c.get_match(match.match_id)
    assert info.status == 2, "the match did not end"  # MATCH_STATUS_OVER
    return info.version, elapsed


def _unary(address, seed):
    with Client(address) as c:
        match = c.create_match(GAME, 2, seed=seed)
        t0 = time.perf_counter()
        while True:
            legal = c.legal_moves(match.match_id)
            result = c.play(
                match.match_id,
                token=match.seat_tokens[legal.player],
                action=legal[_middle(len(legal))][1],
                expected_version=legal.version,
            )
            if result.is_over:
                break
        return result.version, time.perf_counter() - t0


SIDES = {
    "stream": lambda address, seed: _two_bots(address, seed, _stream_bot, False),
    "stream_async": lambda address, seed: _two_async_bots(address, seed, _async_stream_bot),
    "watch_unary": lambda address, seed: _two_bots(address, seed, _watch_unary_bot, True),
    "watch_unary_async": lambda address, seed: _two_async_bots(address, seed, _async_watch_unary_bot),
    "unary": _unary,
}


@pytest.mark.benchmark(group="seat-stream")
def test_seat_stream_against_todays_bot_loop(benchmark):
    rates = {side: [] for side in SIDES}
    moves = {side: set() for side in SIDES}
    with serving() as address:

        def rounds():
            for r in range(ROUNDS):
                order = list(SIDES) if r % 2 == 0 else list(reversed(SIDES))
                for side in order:
                    n, elapsed = SIDES[side](address, 500 + r)
                    rates[side].append(n / elapsed)
                    moves[side].add((r, n))

        benchmark.pedantic(rounds, rounds=1, warmup_rounds=0)
    assert all(moves[side] == moves["unary"] for side in SIDES)  # the same games on every side
    med = {side: statistics.median(v) for side, v in rates.items()}
    benchmark.extra_info.update({f"{side}_moves_per_second": rate for side, rate in med.items()})
    benchmark.extra_info.update(
        stream_over_watch_unary=med["stream"] / med["watch_unary"],
        stream_async_over_watch_unary=med["stream_async"] / med["watch_unary"],
        stream_async_over_watch_unary_async=med["stream_async"] / med["watch_unary_async"],
        stream_over_unary=med["stream"] / med["unary"],
    )
