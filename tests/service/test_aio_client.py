"""The asyncio client (`hunters.aio`): the calls of a bot's life and the seat stream on one event
loop, with the blocking client's types and errors."""

import asyncio

import grpc
import pytest

from hunters.aio import AsyncClient
from hunters.client import IllegalMoveError, MatchEvent, SeatPlayed, ServiceError, Turn
from hunters.v1 import matches_pb2

from .test_seat_stream import GAME, TIMEOUT, local_game, pick


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT))


def test_two_async_bots_on_one_loop_play_the_game_a_local_game_plays(server):
    address = f"127.0.0.1:{server.port}"

    async def main():
        async with AsyncClient(address) as c:
            match = await c.create_match(GAME, 2, seed=11)
            events = {0: [], 1: []}

            async def thinking(turn):  # a coroutine choice: awaited
                await asyncio.sleep(0)
                return turn.moves[len(turn.moves) // 2][0]  # a move, not its code

            last = await asyncio.gather(
                c.play_seat(match.match_id, match.seat_tokens[0], pick, on_event=events[0].append),
                c.play_seat(match.match_id, match.seat_tokens[1], thinking, on_event=events[1].append),
            )
            return events, last, await c.get_match(match.match_id)

    events, last, info = run(main())
    expected = local_game(11)
    assert info.status == matches_pb2.MATCH_STATUS_OVER and info.version == expected.moves_played
    assert info.state.scores == expected.scores
    for seat in (0, 1):
        assert [e.version for e in events[seat]] == list(range(info.version + 1))
        assert last[seat].match_over and last[seat].version == info.version
    assert [e.move for e in events[0][1:]] == list(expected.moves)


def test_async_calls_raise_the_blocking_clients_errors_and_change_nothing(server):
    async def main():
        async with AsyncClient(f"127.0.0.1:{server.port}") as c:
            match = await c.create_match(GAME, 2, seed=3)
            legal = await c.legal_moves(match.match_id)
            assert legal.version == 0 and legal.player == 0 and len(legal) > 0
            with pytest.raises(ServiceError) as wrong_seat:
                await c.play(match.match_id, token=match.seat_tokens[1], action=legal[0][1])
            assert wrong_seat.value.reason == "NOT_YOUR_TURN"
            with pytest.raises(ServiceError) as stale:
                await c.play(match.match_id, token=match.seat_tokens[0], action=legal[0][1], expected_version=5)
            assert stale.value.reason == "STALE_VERSION" and stale.value.code == grpc.StatusCode.ABORTED
            with pytest.raises(IllegalMoveError) as illegal:
                await c.play(match.match_id, token=match.seat_tokens[0], action=1)  # a retake with no meeple out
            assert illegal.value.reason == "NOT_YOUR_MEEPLE"
            assert (await c.get_match(match.match_id)).version == 0
            result = await c.play(match.match_id, legal[0][0], token=match.seat_tokens[0], expected_version=0)
            assert result.version == 1
            with pytest.raises(ServiceError) as missing:
                await c.get_match("no-such-match")
            assert missing.value.reason == "MATCH_NOT_FOUND"
            seen = []
            async with c.seat(match.match_id, match.seat_tokens[1]) as stream:
                async for item in stream:
                    seen.append(item)
                    if isinstance(item, Turn):
                        await stream.play(item, action=item.actions[0])
                    if isinstance(item, SeatPlayed):
                        break
            watched = []
            async for ev in c.watch(match.match_id, 0):
                watched.append(ev)
                if ev.version == 2:
                    break
            return seen, watched

    seen, watched = run(main())
    kinds = [type(x) for x in seen]
    assert kinds[:3] == [MatchEvent, MatchEvent, Turn] and SeatPlayed in kinds
    assert [e.version for e in watched] == [0, 1, 2] and watched[2].seat == 1
