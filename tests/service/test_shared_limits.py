"""Per-caller limits shared by the processes of one database (usage.py): what a caller used or holds
in one process counts in the others after their next exchange, on SQLite (workers) and PostgreSQL
(replicas); a process gone silent stops counting. The end-to-end case: `hunters serve --workers 2`
gives one host its bot seats once, not once per worker."""

import asyncio
import time

import grpc
import pytest

from hunters.service import usage
from hunters.service.botseats import BotSeatLedger
from hunters.service.callers import Callers
from hunters.service.errors import ServiceError
from hunters.service.stores import open_store
from hunters.status import error_info
from hunters.v1 import matches_pb2, matches_pb2_grpc

from .test_workers import Workers


class Process:
    """One process's view: its store connection, its lane's callers, its bot-seat ledger."""

    def __init__(self, db, seconds_per_minute=6.0, jobs=1, seats=2):
        self.store = open_store(db, shared=True)
        self.callers = Callers(jobs, seconds_per_minute)
        self.ledger = BotSeatLedger(max_seats=100, per_caller=seats)
        self.usage = usage.SharedUsage(self.store, {"evaluate": self.callers, "bot_seats": self.ledger})


@pytest.fixture
def processes(database):
    """Two processes on one database (run on one event loop, as each server runs on its own)."""
    loop = asyncio.new_event_loop()
    db = database("shared")
    made = []

    def make(**kwargs):
        process = Process(db, **kwargs)
        loop.run_until_complete(process.store.open())
        made.append(process)
        return process

    def share(*ps):
        for p in ps:
            loop.run_until_complete(p.usage.share())

    yield make, share
    for p in made:
        loop.run_until_complete(p.store.close())
    loop.close()


def refusal(fn, *args):
    with pytest.raises(ServiceError) as caught:
        fn(*args)
    return caught.value.reason


def test_engine_seconds_spent_in_one_process_are_charged_in_the_other(processes):
    make, share = processes
    a, b = make(), make()
    share(a, b)  # each has heard of the other
    with a.callers.admitted("host-1", "evaluate") as budget:
        a.callers.charge(budget, 7.0)  # more than its 6 s a minute: refused in a now
    assert refusal(a.callers.screen, "host-1", "evaluate") == "CALLER_BUDGET_EXHAUSTED"
    b.callers.screen("host-1", "evaluate")  # b has not heard yet
    share(a, b)
    assert refusal(b.callers.screen, "host-1", "evaluate") == "CALLER_BUDGET_EXHAUSTED"
    b.callers.screen("host-2", "evaluate")  # another caller is not charged
    share(a, b)
    share(a, b)  # nothing new: charged once, not at every exchange
    budget = b.callers._budget("host-1")
    assert -1.5 < budget.seconds < -0.9  # 6 - 7, plus what refilled meanwhile


def test_calls_under_way_elsewhere_count_against_calls_at_once(processes):
    make, share = processes
    a, b = make(), make()
    with a.callers.admitted("host-1", "evaluate"):
        share(a, b)
        assert refusal(b.callers.screen, "host-1", "evaluate") == "CALLER_BUSY"
    share(a, b)
    b.callers.screen("host-1", "evaluate")  # a's call ended: room again


def test_bot_seats_held_elsewhere_count_against_the_callers_bound(processes):
    make, share = processes
    a, b = make(seats=2), make(seats=2)
    a.ledger.check(2, "host-1")
    a.ledger.add("host-1", 2)
    share(a, b)
    assert refusal(b.ledger.check, 1, "host-1") == "TOO_MANY_BOT_SEATS"
    b.ledger.check(2, "host-2")
    a.ledger.release("host-1", 2)
    share(a, b)
    b.ledger.check(2, "host-1")


def test_a_process_heard_of_late_is_not_charged_its_past_but_its_growth(processes):
    make, share = processes
    a = make()
    with a.callers.admitted("host-1", "evaluate") as budget:
        a.callers.charge(budget, 4.0)
    share(a)
    b = make()
    share(b)  # first hears of a: a's 4 s predate it
    assert b.callers._budget("host-1").seconds > 5.9
    with a.callers.admitted("host-1", "evaluate") as budget:
        a.callers.charge(budget, 1.0)
    with a.callers.admitted("host-3", "evaluate") as budget:
        a.callers.charge(budget, 2.0)  # a new row of a process b knows: all of it is new
    share(a, b)
    assert 4.9 < b.callers._budget("host-1").seconds < 5.1
    assert 3.9 < b.callers._budget("host-3").seconds < 4.1


def test_a_silent_process_stops_counting(processes, monkeypatch):
    make, share = processes
    a, b = make(), make()
    a.ledger.add("host-1", 2)
    share(a, b)
    assert b.ledger.owned("host-1") == 2
    real = time.time
    monkeypatch.setattr("hunters.service.usage_sql.time.time", lambda: real() + usage.STALE_SECONDS + 1)
    share(b)  # a has not spoken for longer than STALE_SECONDS: its rows are deleted, its seats gone
    assert b.ledger.owned("host-1") == 0


def test_a_store_fault_keeps_the_changes_for_the_next_exchange(processes):
    make, share = processes
    a, b = make(), make()
    share(a, b)
    a.ledger.add("host-1", 1)

    async def down(*args):
        from hunters.service.store_base import StoreUnavailable

        raise StoreUnavailable("down")

    real = a.store.share_usage
    a.store.share_usage = down
    with pytest.raises(Exception, match="down"):
        share(a)
    a.store.share_usage = real
    share(a, b)
    assert b.ledger.owned("host-1") == 1


def bot_match(channel, seed):
    config = matches_pb2.GameConfig(
        game="carcassonne_hg", players=2, seed=seed, bots=[matches_pb2.BotSeat(seat=1, bot="random")]
    )
    return matches_pb2_grpc.MatchServiceStub(channel).CreateMatch(
        matches_pb2.CreateMatchRequest(config=config), timeout=30
    )


def test_two_workers_give_one_host_its_bot_seats_once(tmp_path):
    """With `--caller-bot-seats 2`, two matches with a bot seat on worker 0 leave that host no room
    on worker 1 either (each worker alone would have allowed 2 more)."""
    workers = Workers(tmp_path, extra=["--caller-bot-seats", "2"])
    try:
        found = workers.by_worker()
        bot_match(found[0][0], 1)
        bot_match(found[0][0], 2)
        time.sleep(3 * usage.SHARE_SECONDS)  # worker 0 publishes, worker 1 reads (one exchange each)
        with pytest.raises(grpc.RpcError) as refused:
            bot_match(found[1][0], 3)
        assert error_info(refused.value)[0] == "TOO_MANY_BOT_SEATS", refused.value.details()
    finally:
        workers.stop()
