"""Group commit: moves that arrive while a batch is being committed share the next transaction (one
sync), each still answered only once durable, each with its own outcome."""

import asyncio
import threading

import pytest

from hunters.service.groupcommit import GroupCommit
from hunters.service.store_base import VersionConflict
from hunters.service.stores import open_store
from hunters.v1 import matches_pb2

from .helpers import bearer, create, stubs


class _Slow:
    """A commit that takes a moment, remembering its batches; the write "bad" fails alone and
    "away" fails its whole batch."""

    def __init__(self):
        self.batches = []

    async def __call__(self, writes):
        self.batches.append(list(writes))
        await asyncio.sleep(0.01)
        if "away" in writes:
            raise OSError("the database is away")
        return [ValueError(w) if w == "bad" else w.upper() for w in writes]


def test_writes_that_arrive_during_a_commit_go_together_with_their_own_outcomes():
    commit = _Slow()
    group = GroupCommit(commit)

    async def main():
        first = asyncio.ensure_future(group.submit("a"))  # alone: goes at once
        await asyncio.sleep(0)
        rest = [asyncio.ensure_future(group.submit(w)) for w in ("b", "bad", "c")]
        return await asyncio.gather(first, *rest, return_exceptions=True)

    a, b, bad, c = asyncio.run(main())
    assert (a, b, c) == ("A", "B", "C") and isinstance(bad, ValueError)
    assert commit.batches == [["a"], ["b", "bad", "c"]]
    assert (group.batches, group.writes) == (2, 4)


def test_a_failed_batch_fails_every_write_in_it_and_the_next_batch_goes_on():
    commit = _Slow()
    group = GroupCommit(commit)

    async def main():
        first = asyncio.ensure_future(group.submit("a"))
        await asyncio.sleep(0)
        doomed = [asyncio.ensure_future(group.submit(w)) for w in ("away", "b")]
        outcomes = await asyncio.gather(first, *doomed, return_exceptions=True)
        return outcomes, await group.submit("d")

    (a, away, b), d = asyncio.run(main())
    assert a == "A" and d == "D"
    assert isinstance(away, OSError) and isinstance(b, OSError)


def test_a_write_whose_caller_stops_waiting_is_committed_all_the_same():
    commit = _Slow()
    group = GroupCommit(commit)

    async def main():
        first = asyncio.ensure_future(group.submit("a"))
        await asyncio.sleep(0)
        gone = asyncio.ensure_future(group.submit("b"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.gather(first, return_exceptions=True)
        await group.submit("c")

    asyncio.run(main())
    assert ["b", "c"] in commit.batches or ["b"] in commit.batches


async def _new_match(store, name):
    made = await store.create(name, "carcassonne_hg", {}, b"", ["s0", "s1"], "admin", False)
    assert made is not None


def test_a_batch_is_stored_in_one_transaction_and_a_lost_version_fails_alone(database):
    """On SQLite with synchronous=FULL, and on PostgreSQL: moves that wait for a commit share the
    next one; the one that loses its version, or breaks a request id's key, leaves nothing."""
    store = open_store(database(), "FULL")

    async def main():
        await store.open()
        for name in ("m1", "m2", "m3", "m4"):
            await _new_match(store, name)
        await store.append_move("m1", 0, 0, {"n": 0}, False, None)
        # While m1's next move is committed, more arrive: two for m2's version 0 (one loses)
        # and one for m3; they share the next transaction.
        writes = [
            store.append_move("m1", 1, 1, {"n": 1}, False, None),
            store.append_move("m2", 0, 0, {"first": True}, False, ("r1", "f1", b"reply")),
            store.append_move("m2", 0, 0, {"second": True}, False, None),
            store.append_move("m3", 0, 0, {"n": 0}, True, None),
        ]
        first = await asyncio.gather(*writes, return_exceptions=True)
        # a request id used again in the same match: its move breaks a key, the others are stored
        await store.append_move("m2", 1, 1, {"n": 1}, False, None)
        writes = [
            store.append_move("m1", 2, 0, {"n": 2}, False, None),
            store.append_move("m2", 2, 0, {"again": True}, False, ("r1", "f2", b"other")),
            store.append_move("m4", 0, 0, {"n": 0}, False, None),
        ]
        second = await asyncio.gather(*writes, return_exceptions=True)
        loaded = {m: await store.load(m) for m in ("m1", "m2", "m3")}
        request = await store.request("m2", "r1")
        batches = (store._moves.batches, store._moves.writes)
        await store.close()
        return first, second, loaded, request, batches

    first, second, loaded, request, (batches, writes) = asyncio.run(main())
    assert [isinstance(o, VersionConflict) for o in first] == [False, False, True, False]
    assert [isinstance(o, VersionConflict) for o in second] == [False, True, False]
    assert [m for _, m in loaded["m1"].moves] == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert [m for _, m in loaded["m2"].moves] == [{"first": True}, {"n": 1}]  # the losers left nothing
    assert request == ("f1", b"reply")
    assert loaded["m3"].over and len(loaded["m3"].moves) == 1
    assert writes == 9 and batches < writes


@pytest.mark.parametrize("sqlite_sync", ["FULL", "NORMAL"])
def test_many_players_at_once_lose_no_move(server_factory, store_kind, sqlite_sync, tmp_path):
    """16 players of 16 matches, each playing 12 moves as fast as it can: every acknowledged move is
    in the database after a restart (on FULL, and on PostgreSQL, the moves share commits)."""
    db = str(tmp_path / "many.db")
    running = server_factory(db=db, sqlite_sync=sqlite_sync)
    channel, stub, _ = stubs(running.port)
    matches = [create(stub, seed=100 + i) for i in range(16)]
    acknowledged = [0] * 16
    errors = []

    def play(i):
        try:
            ch, st, _ = stubs(running.port)
            with ch:
                m = matches[i]
                for _ in range(12):
                    legal = st.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=m.match.match_id))
                    request = matches_pb2.PlayMoveRequest(
                        match_id=m.match.match_id,
                        action=legal.moves[0].action,
                        expected_version=legal.version,
                        changes_only=True,
                    )
                    acknowledged[i] = st.PlayMove(request, metadata=bearer(m.seat_tokens[legal.player])).version
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    channel.close()
    assert not errors and acknowledged == [12] * 16
    group = running.store._moves if store_kind == "postgres" or sqlite_sync == "FULL" else None
    if group is not None:
        assert group.writes == 16 * 12
        if store_kind == "sqlite":
            assert group.batches < group.writes  # some moves shared a sync
    running.stop(0)
    again = server_factory(db=running.store.path, sqlite_sync=sqlite_sync)
    channel, stub, _ = stubs(again.port)
    with channel:
        for m in matches:
            got = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=m.match.match_id)).match
            assert got.version == 12
