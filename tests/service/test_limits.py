"""What one caller may ask of the server: bot specs checked whole before the match exists, bots that
fail hand their seat back, bots stop when their match closes, engine work in lanes with per-caller
bounds, the oracle's token."""

import asyncio
import json
import logging
import threading
import time

import grpc
import pytest

from hunters.bots.mcts import MctsBot
from hunters.bots.simple import GreedyBot, RandomBot
from hunters.bots.strong import StrongBot
from hunters.jaeger import Game as Jaeger
from hunters.jaeger import strategy as js_strategy
from hunters.service.botseats import MatchBudget, bot_seats, search_cost
from hunters.service.engine import Cancel, Lane
from hunters.service.errors import ServiceError
from hunters.status import error_info
from hunters.v1 import matches_pb2, oracle_pb2

from .helpers import bearer, over, rpc_error, stubs, two_hosts
from .test_bot_seats import config


def eventually(condition, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("random:seed=abc", "seed of bot 'random' must be an integer, not 'abc'"),
        ("random:seed=1.5", "must be an integer, not 1.5"),
        ("greedy:seed=", "must be an integer"),
        ("mcts:iterations=1e3", "iterations of bot 'mcts' must be an integer"),
        ("mcts:iterations=10,c=nan", "c of bot 'mcts' must be a finite number"),
        ("mcts:iterations=10,margin=inf", "must be a finite number"),
        ("mcts:iterations=0", "iterations must be an integer from 1 to"),
        ("greedy:depth=2", "has no option 'depth'"),
        # every bot's options within their ranges, not only of their types
        ("random:seed=18446744073709551616", "seed of bot 'random' must be from"),
        ("greedy:seed=-9223372036854775809", "seed of bot 'greedy' must be from"),
        ("mcts:iterations=10,c=1e308", "c of bot 'mcts' must be from 0 to 100, not 1e+308"),
        ("strong:iterations=10,alpha=1e308", "alpha of bot 'strong' must be from 0 to 1, not 1e+308"),
    ],
)
def test_every_bot_option_is_checked_at_create(server, spec, words):
    _, stub, _ = stubs(server.port)
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=[(1, spec)])))
    err = refused.value
    assert (err.code(), error_info(err)[0]) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG")
    assert "bot for seat 1: " in err.details() and words in err.details(), err.details()
    assert server.manager.bot_seats == 0


def test_a_bot_that_fails_hands_its_seat_back(server, monkeypatch, caplog):
    """A bot raising at its move (a fault injected into the random bot) does not leave the match
    waiting: its seat goes back to the seat's token, and the log, the match and its watchers say
    why."""

    def broken(self, obs):
        raise RuntimeError("injected fault")

    monkeypatch.setattr(RandomBot, "choose", broken)
    _, stub, _ = stubs(server.port)
    with caplog.at_level(logging.ERROR, logger="hunters.service"):
        created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=[(0, "random")])))
        mid = created.match.match_id
        eventually(lambda: 0 not in server.manager.cached(mid).bots)
    failed = [r for r in caplog.records if r.getMessage().startswith("bot failed")]
    assert len(failed) == 1 and "injected fault" in failed[0].error and failed[0].seat == 0
    failure = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match.bot_failures
    assert [(f.seat, f.bot) for f in failure] == [(0, "random")] and "injected fault" in failure[0].reason
    # a watcher hears it: a notice at the current version, no move, the seat to move with its token
    watch = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=mid), timeout=10)
    first, notice = next(watch), next(watch)
    assert first.version == 0 and not first.bot_failures
    assert notice.version == 0 and not notice.HasField("move") and not notice.HasField("seat")
    assert [(f.seat, f.bot) for f in notice.bot_failures] == [(0, "random")] and notice.state.player == 0
    legal = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)).moves
    played = stub.PlayMove(
        matches_pb2.PlayMoveRequest(match_id=mid, action=legal[0].action), metadata=bearer(created.seat_tokens[0])
    )
    assert played.version == 1 and server.manager.bot_seats == 0
    after = next(watch)
    assert after.version == 1 and not after.bot_failures  # told once
    watch.cancel()


def test_a_deleted_match_stops_its_bot_at_once(server):
    """The search under way ends at its next check instead of running its 100,000 iterations."""
    _, stub, _ = stubs(server.port)
    created = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(config=config(seed=9, bots=[(0, "mcts:iterations=100000")]))
    )
    mid = created.match.match_id
    bot = server.manager.cached(mid).bots[0]
    eventually(lambda: server.call(lambda: server.engine.bots.busy) == 1)
    stub.DeleteMatch(matches_pb2.DeleteMatchRequest(match_id=mid), metadata=bearer(created.admin_token))
    eventually(lambda: server.call(lambda: server.engine.bots.busy) == 0)
    assert 0 <= bot.last_iterations < 100_000
    assert server.manager.bot_seats == 0


def test_an_all_bot_match_expires_like_any_other(server_factory):
    """Bots' moves are not a person's activity: an all-bot match is abandoned idle_seconds after its
    creation, and its bots stop."""
    server = server_factory(idle_seconds=3600)
    _, stub, _ = stubs(server.port)
    bots = [(0, "mcts:iterations=100000"), (1, "mcts:iterations=100000")]
    mid = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=bots))).match.match_id
    played = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=[(1, "greedy")]))).match.match_id
    eventually(lambda: server.call(lambda: server.engine.bots.busy) == 1)
    ids = server.call(server.manager.expire(now=time.time() + 3601))
    assert mid in ids
    match = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=mid)).match
    assert match.status == matches_pb2.MATCH_STATUS_ABANDONED
    eventually(lambda: server.call(lambda: server.engine.bots.busy) == 0)
    assert played in ids  # no move at all for an hour: idle like any match


def test_bot_seats_are_bounded_per_caller_and_per_server(server_factory, tmp_path):
    """Without a create token a caller is its host (a made-up token changes nothing); with one, the
    operator's matches are bounded by the server's limit alone."""
    slow = "mcts:iterations=100000"

    def create(stub, bots, token=None):
        request = matches_pb2.CreateMatchRequest(config=config(bots=bots))
        return stub.CreateMatch(request, metadata=bearer(token) if token else None)

    anonymous = server_factory(db=str(tmp_path / "anonymous.db"), max_bot_seats=3, caller_bot_seats=2)
    _, stub, _ = stubs(anonymous.port)
    first = create(stub, [(0, slow), (1, slow)], token="alice")
    code, reason, meta = rpc_error(create, stub, [(0, slow)], token="bob")
    assert (code, reason, meta["limit"]) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_BOT_SEATS", "2")
    create(stub, [])  # a match without bots is not limited by bot seats
    stub.DeleteMatch(matches_pb2.DeleteMatchRequest(match_id=first.match.match_id), metadata=bearer(first.admin_token))
    create(stub, [(1, slow)])
    assert anonymous.manager.bot_seats == 1

    operated = server_factory(
        db=str(tmp_path / "operated.db"), max_bot_seats=3, caller_bot_seats=2, create_token="operator"
    )
    _, stub, _ = stubs(operated.port)
    create(stub, [(0, slow), (1, slow)], token="operator")
    create(stub, [(0, slow)], token="operator")
    code, reason, meta = rpc_error(create, stub, [(1, slow)], token="operator")
    assert (code, reason, meta["limit"]) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_BOT_SEATS", "3")
    assert operated.manager.bot_seats == 3


def test_bot_iterations_per_move_follow_the_server_option(server_factory):
    server = server_factory(max_bot_iterations=500)
    _, stub, _ = stubs(server.port)
    code, reason, _ = rpc_error(
        stub.CreateMatch, matches_pb2.CreateMatchRequest(config=config(bots=[(0, "mcts:iterations=501")]))
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG")
    stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=[(0, "mcts:iterations=500")])))


def test_the_oracle_token_guards_the_oracle(server_factory):
    server = server_factory(oracle_token="oracle-secret")
    _, stub, oracle = stubs(server.port)
    request = oracle_pb2.EvaluateRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1))
    code, reason, _ = rpc_error(oracle.Evaluate, request)
    assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN")
    code, reason, _ = rpc_error(oracle.Evaluate, request, metadata=bearer("wrong"))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ORACLE_TOKEN_REQUIRED")
    sim = oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=10, seed=1)
    code, reason, _ = rpc_error(lambda: list(oracle.SimulateGames(sim, metadata=bearer("wrong"))))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ORACLE_TOKEN_REQUIRED")
    assert oracle.Evaluate(request, metadata=bearer("oracle-secret")).legal
    assert list(oracle.SimulateGames(sim, metadata=bearer("oracle-secret")))[-1].done
    # the operator's token is not one caller among others: its calls are bounded by the lanes alone
    first = oracle.SimulateGames(
        oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=5_000_000, seed=1),
        metadata=bearer("oracle-secret"),
    )
    next(first)
    assert list(oracle.SimulateGames(sim, metadata=bearer("oracle-secret")))[-1].done
    first.cancel()
    stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config()))  # matches need no oracle token


def test_a_caller_has_one_simulation_at_a_time_and_others_go_on(server_factory):
    """A caller is its host: another token from it is the same caller, another host is not."""
    _, oracle, other = two_hosts(server_factory)
    big = oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=5_000_000, seed=1)
    small = oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=300, seed=1)
    first = oracle.SimulateGames(big, metadata=bearer("alice"))
    next(first)
    for token in ("alice", "invented-1", "invented-2"):
        code, reason, meta = rpc_error(lambda t=token: list(oracle.SimulateGames(small, metadata=bearer(t))))
        assert (code, reason, meta["limit"]) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CALLER_BUSY", "1")
    assert list(other.SimulateGames(small, metadata=bearer("bob")))[-1].games_done == 300
    first.cancel()


def test_a_caller_past_its_engine_seconds_is_told_when_to_retry(server_factory):
    _, oracle, other = two_hosts(server_factory, caller_engine_seconds=0.0001)
    request = oracle_pb2.EvaluateRequest(
        config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=1), include_legal_moves=True
    )
    oracle.Evaluate(request, metadata=bearer("alice"))  # the first call spends more than the budget
    code, reason, meta = rpc_error(oracle.Evaluate, request, metadata=bearer("alice"))
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CALLER_BUDGET_EXHAUSTED")
    assert float(meta["retry_after_seconds"]) > 0
    code, reason, _ = rpc_error(oracle.Evaluate, request, metadata=bearer("a-new-token"))
    assert reason == "CALLER_BUDGET_EXHAUSTED"  # a new token is the same caller
    assert other.Evaluate(request, metadata=bearer("bob")).legal  # another host is not affected


def test_a_lane_refuses_past_its_queue_and_a_cancelled_job_leaves_no_unread_error():
    """ENGINE_BUSY past threads + queue; a call cancelled while its job runs sets the job's cancel
    flag, and the job's own error is read when it ends (no "exception was never retrieved")."""

    async def scenario():
        loop = asyncio.get_running_loop()
        unhandled = []
        loop.set_exception_handler(lambda _loop, ctx: unhandled.append(ctx))
        lane = Lane("evaluate", threads=1, queue=0)
        started = threading.Event()

        def job(cancel: Cancel):
            started.set()
            deadline = time.monotonic() + 30
            while not cancel and time.monotonic() < deadline:
                time.sleep(0.005)
            raise ServiceError(grpc.StatusCode.CANCELLED, "CANCELLED", "the call was cancelled")

        task = loop.create_task(lane.run(job))
        await loop.run_in_executor(None, started.wait, 30)
        with pytest.raises(ServiceError) as refused:
            await lane.run(job)
        assert refused.value.reason == "ENGINE_BUSY"
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(3000):
            if lane.busy == 0:
                break
            await asyncio.sleep(0.01)
        assert lane.busy == 0 and lane.done == 1
        del task
        import gc

        gc.collect()
        await asyncio.sleep(0)
        lane.shutdown()
        return unhandled

    assert asyncio.run(scenario()) == []


def test_a_cancelled_evaluate_stops_and_leaves_no_unread_error(server, caplog):
    """An Evaluate of a 20,000-move Jäger game, cancelled by its client while it runs: the engine
    thread stops at its next move, and its CANCELLED error is read (asyncio logs nothing)."""
    import gc

    from hunters.wire import adapter

    from .test_long_matches import long_game

    ad = adapter("jaeger_sammler")
    config = matches_pb2.GameConfig(game="jaeger_sammler", players=2, seed=1)
    config.jaeger.stall_rounds = 10_000
    moves = [ad.move_to_proto(m) for m in long_game(20_000).moves]
    _, _, oracle = stubs(server.port)
    with caplog.at_level(logging.DEBUG, logger="asyncio"):
        call = oracle.Evaluate.future(oracle_pb2.EvaluateRequest(config=config, moves=moves))
        eventually(lambda: server.call(lambda: server.engine.evaluate.busy) == 1)
        call.cancel()
        eventually(lambda: server.call(lambda: server.engine.evaluate.busy) == 0)
        server.call(gc.collect)
        time.sleep(0.2)
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
    assert server.engine.evaluate.done == 1


def test_bots_facing_a_person_think_first():
    """The bot lane gives its thread to the waiting job of the lowest priority, then the first come."""

    async def scenario():
        lane = Lane("bots", threads=1, queue=0)
        order = []
        gate = threading.Event()

        def job(name, cancel):
            if name == "first":
                gate.wait(30)
            order.append(name)
            return name

        first = asyncio.ensure_future(lane.wait_run(job, "first"))
        await asyncio.sleep(0.05)
        waiting = [
            asyncio.ensure_future(lane.wait_run(job, name, priority=priority))
            for name, priority in (("all-bot 1", 1), ("all-bot 2", 1), ("vs person", 0))
        ]
        cancelled = asyncio.ensure_future(lane.wait_run(job, "gone", priority=0))
        await asyncio.sleep(0.05)
        cancelled.cancel()
        gate.set()
        await asyncio.gather(first, *waiting)
        lane.shutdown()
        return order, lane._free

    order, free = asyncio.run(scenario())
    assert order == ["first", "vs person", "all-bot 1", "all-bot 2"] and free == 1


def test_a_stored_bot_this_server_refuses_hands_its_seat_back(server_factory, tmp_path, caplog):
    """A match made under other limits (here more iterations than the next server allows) does not
    wait forever for a bot that cannot play: its seat goes to the seat's token, logged."""
    db = str(tmp_path / "bots.db")
    first = server_factory(db=db)
    _, stub, _ = stubs(first.port)
    created = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(config=config(seed=8, bots=[(0, "mcts:iterations=90000")]))
    )
    first.stop(0)
    with caplog.at_level(logging.WARNING, logger="hunters.service"):
        second = server_factory(db=db, max_bot_iterations=1000)
    assert any("handed back" in r.getMessage() for r in caplog.records)
    _, stub, _ = stubs(second.port)
    mid = created.match.match_id
    legal = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=mid)).moves
    played = stub.PlayMove(
        matches_pb2.PlayMoveRequest(match_id=mid, action=legal[0].action), metadata=bearer(created.seat_tokens[0])
    )
    assert played.version == 1 and second.manager.bot_seats == 0


def test_engine_seconds_refill_over_a_minute():
    from hunters.service.engine import Callers

    callers = Callers(jobs=2, seconds_per_minute=60.0)
    with callers.admitted("alice", "evaluate") as budget:
        callers.charge(budget, 70.0)  # one long job: 10 s past the budget
    wait = callers.wait(budget)
    assert 9.5 < wait < 10.5
    with pytest.raises(ServiceError) as refused, callers.admitted("alice", "evaluate"):
        pass
    assert refused.value.reason == "CALLER_BUDGET_EXHAUSTED"
    with callers.admitted("bob", "evaluate") as other:  # another caller has its own minute
        assert other.seconds == 60.0
    budget.refilled -= 11  # eleven seconds later
    assert callers.wait(budget) == 0


def test_a_matchs_bots_search_within_its_budget_then_play_one_ply_moves(server_factory):
    """With --max-match-bot-iterations 500, two mcts:iterations=50 seats search 10 moves in all, then
    play greedy moves from their own seeds: the record is exactly that, move by move, the same for
    the same seed; a seat searching more a move than a whole match may is refused at CreateMatch."""
    server = server_factory(max_match_bot_iterations=500)
    _, stub, _ = stubs(server.port)
    bots = [(0, "mcts:iterations=50"), (1, "mcts:iterations=50")]
    records = []
    for _ in range(2):
        created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config("jaeger_sammler", seed=4, bots=bots)))
        mid = created.match.match_id
        request = matches_pb2.GetMatchRequest(match_id=mid)
        eventually(lambda r=request: over(stub.GetMatch(r).match.state), 120)
        records.append(stub.GetRecord(matches_pb2.GetRecordRequest(match_id=mid)).record_json)
    assert records[0] == records[1]
    assert server.manager.cached(mid).budget.spent == 500
    record = json.loads(records[0])
    played = Jaeger.from_record(record).moves
    seats = bot_seats(config("jaeger_sammler", seed=4, bots=bots).bots, 2, record["seed"])
    budget, game, movers, differs = MatchBudget(500), Jaeger.from_record(dict(record, moves=[])), [], 0
    for k, move in enumerate(played):
        budget.catch_up(seats, movers, game)
        bot = seats[game.player]
        searched = budget.affords(search_cost(bot, game))
        assert searched == (k < 10), k
        cheap = budget.cheap(game.player, bot)(game)
        assert move == (bot(game) if searched else cheap), k
        differs += not searched and cheap != bot(game)  # the budget changed what was played
        movers.append(game.player)
        game.play(move)
    assert differs > 0
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=[(0, "mcts:iterations=501")])))
    assert (refused.value.code(), error_info(refused.value)[0]) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG")
    assert "iterations=501 a move is more than this server's 500 bot iterations" in refused.value.details()


def test_a_strong_bots_playout_is_charged_with_its_iterations(server_factory):
    """A strong bot's iteration costs one estimate of every move and one more for each move of its
    playout: the budget charges it so, and CreateMatch refuses a move costing more than a match or a move may."""
    game = Jaeger.new(players=2, seed=1)
    assert search_cost(StrongBot(iterations=100, playout=3), game) == 400
    assert search_cost(StrongBot(iterations=100), game) == 100 * (1 + getattr(js_strategy, "PLAYOUT", 0))
    assert search_cost(StrongBot(iterations=100, reply=0), game) == 100
    for limit, refused in (
        ({"max_match_bot_iterations": 500}, "strong:iterations=100,playout=5"),
        ({"max_bot_iterations": 500}, "strong:iterations=101,playout=4"),
    ):
        _, stub, _ = stubs(server_factory(**limit).port)
        stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config(bots=[(0, "strong:iterations=100,playout=4")])))
        code, reason, _ = rpc_error(
            stub.CreateMatch, matches_pb2.CreateMatchRequest(config=config(bots=[(0, refused)]))
        )
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG"), limit


def test_a_matchs_bot_budget_is_counted_from_its_record():
    """What a restarted server charges a match is what the first one did: a function of who played
    each move (a bot seat's move was searched while the budget allowed it, charged nothing after)."""
    game = Jaeger.new(players=2, seed=1)
    bots = {0: MctsBot(iterations=300, seed=1), 1: RandomBot(seed=2)}
    once = MatchBudget(1000)
    once.catch_up(bots, [0, 1, 0, 1, 0, 1, 0], game)
    assert (once.spent, once.counted) == (900, 7) and not once.affords(300) and once.affords(100)
    stepwise = MatchBudget(1000)
    for n in range(8):
        stepwise.catch_up(bots, [0, 1, 0, 1, 0, 1, 0][:n], game)
    assert stepwise.spent == 900
    assert MatchBudget(None).affords(10**12)
    assert isinstance(once.cheap(0, bots[0]), GreedyBot) and once.cheap(0, bots[0]).seed == 1
