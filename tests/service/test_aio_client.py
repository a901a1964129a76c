"""The asyncio client (`hunters.aio`): every call of the blocking client, the seat stream on one
event loop, with the blocking client's types, errors and retries."""

import asyncio
import inspect

import grpc
import pytest

from hunters.aio import AsyncClient
from hunters.client import RPC_METHODS, Client, IllegalMoveError, MatchEvent, SeatPlayed, ServiceError, Turn
from hunters.v1 import matches_pb2
from tests.clients.hooks import AsyncHook, Hook

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


def test_the_async_client_has_every_call_of_the_blocking_one(server):
    """Every RPC's method, with the blocking client's name and arguments, and the same results."""
    blocking = {name: inspect.signature(getattr(Client, name)) for name in RPC_METHODS.values()}
    for name, signature in blocking.items():
        assert hasattr(AsyncClient, name), name
        assert inspect.signature(getattr(AsyncClient, name)).parameters.keys() == signature.parameters.keys(), name
    for name in ("all_matches", "wait_turn", "play_seat"):
        assert inspect.signature(getattr(AsyncClient, name)).parameters.keys() == (
            inspect.signature(getattr(Client, name)).parameters.keys()
        )
    address = f"127.0.0.1:{server.port}"

    async def main():
        async with AsyncClient(address) as c:
            games = [g.game for g in await c.list_games()]
            info = await c.game_info(GAME)
            m = await c.create_match("jaeger_sammler", 2, seed=5, bots={1: "random"})
            await c.play(m.match_id, token=m.seat_tokens[0], action=(await c.legal_moves(m.match_id))[0][1])
            turn = await c.wait_turn(m.match_id, 0, 1)
            record = await c.get_record(m.match_id, m.admin_token)
            page = await c.list_matches(page_size=1)
            listed = [x.match_id async for x in c.all_matches(page_size=1)]
            evaluated = await c.evaluate(GAME, 2, [], seed=1, include_legal_moves=True)
            simulated = [p async for p in c.simulate(GAME, 2, 2, seed=1)]
            counted = [line async for line in c.perft(GAME, 2, 1, seed=1, timeout=30)]
            vectors = await c.conformance_vectors(GAME)
            lines = await c.conformance_vector_file(GAME, vectors[0].name)
            await c.delete_match(m.match_id, m.admin_token)
            with pytest.raises(ServiceError) as gone:
                await c.get_match(m.match_id)
            return games, info, m, turn, record, page, listed, evaluated, simulated, counted, lines, gone.value

    games, info, m, turn, record, page, listed, evaluated, simulated, counted, lines, gone = run(main())
    with Client(address) as c:
        assert games == [g.game for g in c.list_games()] and info == c.game_info(GAME)
        assert evaluated == c.evaluate(GAME, 2, [], seed=1, include_legal_moves=True)
        assert simulated[-1].done and simulated[-1].games_done == 2
        assert [line.count for line in counted] == [line.count for line in c.perft(GAME, 2, 1, seed=1)] == [15]
        assert lines == c.conformance_vector_file(GAME, c.conformance_vectors(GAME)[0].name)
    assert turn.version >= 2 and turn.state.player == 0 and len(record["moves"]) == turn.version
    assert [x.match_id for x in page.matches] == [m.match_id] and page.next_page_token == ""
    assert listed == [m.match_id]
    assert gone.reason == "MATCH_NOT_FOUND"


def test_a_lost_reply_is_retried_on_asyncio_as_in_the_blocking_client(server):
    hook = Hook()

    async def main():
        async with AsyncClient(f"127.0.0.1:{server.port}", interceptors=[AsyncHook(hook)]) as c:
            m = await c.create_match(GAME, 2, seed=2)
            action = (await c.legal_moves(m.match_id))[0][1]
            hook.lose("PlayMove", 1)
            played = await c.play(m.match_id, token=m.seat_tokens[0], action=action, expected_version=0)
            hook.lose("DeleteMatch", 1)
            await c.delete_match(m.match_id, m.admin_token)
            return played

    played = run(main())
    ids = [r.request_id for r in hook.requests("PlayMove")]
    assert played.version == 1 and len(ids) == 2 and ids[0] == ids[1] and len(ids[0]) == 32
    assert len(hook.requests("DeleteMatch")) == 2
