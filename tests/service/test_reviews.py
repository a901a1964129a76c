"""MatchService.RequestReview and GetReview: the review of a finished match (`hunters.review`)
computed once in the background, its progress visible while it runs, stored with the match (a
second request, or another server on the same database, gets the stored one), stopped by a shutdown
and resumed by the next start, bounded per caller and per server, gone with the match."""

import json
import threading
import time

import grpc
import pytest

import hunters
from hunters.client import Client, ServiceError
from hunters.review import Review, review_record
from hunters.service import reviews as reviews_module
from hunters.service.games import adapter
from hunters.service.review_wire import review_pb
from hunters.v1 import matches_pb2
from tests.tiny_tiles.plugin import PLUGIN

from .helpers import rpc_error, sql
from .test_analyze import finished_match

ITERATIONS = 12


@pytest.fixture
def reviewing(server_factory):
    return server_factory(review_iterations=ITERATIONS)


class Gate:
    """Holds every review's search after `at` decisions until opened or stopped (the engine thread
    waits), so that a test sees a review running, at a known point, without timing."""

    def __init__(self, monkeypatch, at):
        self.at = at
        self.reached = threading.Event()
        self.opened = threading.Event()
        real = reviews_module.review_record

        def held(record, progress=None, stop=None, **kwargs):
            def told(done, total):
                progress(done, total)
                if done == self.at:
                    self.reached.set()
                    end = time.monotonic() + 60
                    while not self.opened.wait(0.01) and not stop[0]:  # a shutdown's stop byte ends it too
                        assert time.monotonic() < end

            return real(record, progress=told, stop=stop, **kwargs)

        monkeypatch.setattr(reviews_module, "review_record", held)

    def open(self):
        self.opened.set()


def wait_done(client, match_id, timeout=120):
    end = time.monotonic() + timeout
    while True:
        report = client.get_review(match_id)
        if report.finished:
            return report
        assert time.monotonic() < end, report
        time.sleep(0.05)


def test_a_review_is_computed_once_with_its_progress_visible(reviewing, monkeypatch):
    gate = Gate(monkeypatch, at=10)
    with Client(f"127.0.0.1:{reviewing.port}") as client:
        made = finished_match(client)
        assert client.get_review(made.match_id).status == "not_requested"
        first = client.request_review(made.match_id)
        assert first.status == "running" and first.review is None
        assert gate.reached.wait(60)
        record = client.get_record(made.match_id)
        during = client.get_review(made.match_id)  # held after 10 decisions: the progress shows it
        assert (during.status, during.decisions_done, during.decisions_total) == ("running", 10, len(record["moves"]))
        again = client.request_review(made.match_id)  # asked again while it runs: the same review
        assert (again.status, again.decisions_done) == ("running", 10)
        gate.open()
        done = wait_done(client, made.match_id)
        assert done.status == "done", done.message
        assert done.decisions_done == done.decisions_total == len(record["moves"])
        # the review is the Python API's review of the record, translated
        expected = review_record(record, iterations=ITERATIONS)
        assert done.review == review_pb(adapter(record["game"]), expected, record)
        assert done.review.analyst == expected.analyst and len(done.review.worst) > 0
        worst = done.review.decisions[done.review.worst[0]]
        assert worst.band >= 3 and worst.played.action != worst.best.action  # at least an inaccuracy
        # asked again: the stored review, not computed again
        stored = client.request_review(made.match_id)
        assert stored == done and client.wait_review(made.match_id) == done
    assert reviewing.call(lambda: reviewing.reviews.computed) == 1
    row = sql(reviewing, f"SELECT state, done, total, review FROM reviews WHERE match_id = '{made.match_id}'")
    assert row[0][:3] == ("done", len(record["moves"]), len(record["moves"]))
    assert Review.from_json(json.loads(row[0][3])) == expected


def test_a_stored_review_is_read_back_after_a_restart_without_computing(server_factory, tmp_path):
    first = server_factory(db=str(tmp_path / "shared.db"), review_iterations=ITERATIONS)
    with Client(f"127.0.0.1:{first.port}") as client:
        made = finished_match(client, seed=5)
        done = client.wait_review(made.match_id, timeout=120)
    first.stop(0)
    second = server_factory(db=str(tmp_path / "shared.db"), review_iterations=ITERATIONS)
    with Client(f"127.0.0.1:{second.port}") as client:
        assert client.get_review(made.match_id) == done
        assert client.request_review(made.match_id) == done
    assert second.call(lambda: second.reviews.computed) == 0


def test_a_review_stopped_by_a_shutdown_is_resumed_at_the_next_start(server_factory, monkeypatch, store_kind, tmp_path):
    if store_kind == "postgres":  # replicas: a review is taken over once its process stops writing
        monkeypatch.setattr(reviews_module, "STALE_SECONDS", 0.0)
    gate = Gate(monkeypatch, at=5)
    first = server_factory(db=str(tmp_path / "resumed.db"), review_iterations=ITERATIONS)
    with Client(f"127.0.0.1:{first.port}") as client:
        made = finished_match(client, seed=6)
        client.request_review(made.match_id)
        assert gate.reached.wait(60)
    first.stop(0)  # the review's search is stopped inside (its stop byte): the row stays running
    assert sql(first, f"SELECT state FROM reviews WHERE match_id = '{made.match_id}'") == [("running",)]
    gate.at = -1  # the next start's review is not held
    gate.open()
    second = server_factory(db=str(tmp_path / "resumed.db"), review_iterations=ITERATIONS)
    with Client(f"127.0.0.1:{second.port}") as client:
        done = wait_done(client, made.match_id)
        assert done.status == "done" and done.decisions_done == done.decisions_total > 5
    assert second.call(lambda: second.reviews.computed) == 1


def test_refusals_and_bounds(server_factory, monkeypatch):
    gate = Gate(monkeypatch, at=3)
    running = server_factory(review_iterations=ITERATIONS, caller_reviews=1)
    with Client(f"127.0.0.1:{running.port}") as client:
        live = client.create_match("carcassonne_hg", players=2, seed=1)
        for call in (client.request_review, client.get_review):
            with pytest.raises(ServiceError) as refused:
                call(live.match_id)
            assert (refused.value.code, refused.value.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_OVER")
            with pytest.raises(ServiceError) as refused:
                call("no-such-match")
            assert refused.value.reason == "MATCH_NOT_FOUND"
        one, two = finished_match(client, seed=7), finished_match(client, seed=8)
        assert client.request_review(one.match_id).status == "running"
        assert gate.reached.wait(60)
        with pytest.raises(ServiceError) as refused:  # one review at a time per caller
            client.request_review(two.match_id)
        assert (refused.value.code, refused.value.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CALLER_BUSY")
        assert refused.value.metadata["limit"] == "1"
        assert client.request_review(one.match_id).status == "running"  # asking again for one's is free
        gate.open()
        assert wait_done(client, one.match_id).status == "done"
        assert client.request_review(two.match_id).status in ("running", "done")  # a turn again


def test_the_servers_queue_is_bounded(server_factory, monkeypatch):
    gate = Gate(monkeypatch, at=2)
    running = server_factory(address="[::]:0", review_iterations=ITERATIONS, caller_reviews=5, max_queued_reviews=1)
    with Client(f"127.0.0.1:{running.port}") as client:
        one, two = finished_match(client, seed=7), finished_match(client, seed=8)
        client.request_review(one.match_id)
        assert gate.reached.wait(60)
    with Client(f"[::1]:{running.port}") as other:
        with pytest.raises(ServiceError) as refused:
            other.request_review(two.match_id)
        assert (refused.value.code, refused.value.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "REVIEWS_BUSY")
        assert refused.value.metadata["limit"] == "1"
    gate.open()


def test_a_deleted_match_takes_its_review_with_it(reviewing, monkeypatch):
    gate = Gate(monkeypatch, at=4)
    with Client(f"127.0.0.1:{reviewing.port}") as client:
        made = finished_match(client, seed=4)
        client.request_review(made.match_id)
        assert gate.reached.wait(60)
        client.delete_match(made.match_id, made.admin_token)
        gate.open()
        end = time.monotonic() + 30
        while reviewing.call(lambda: len(reviewing.reviews.jobs)) and time.monotonic() < end:
            time.sleep(0.05)
        assert reviewing.call(lambda: reviewing.reviews.jobs) == {}
        with pytest.raises(ServiceError) as refused:
            client.get_review(made.match_id)
        assert refused.value.reason == "MATCH_NOT_FOUND"
    assert sql(reviewing, f"SELECT count(*) FROM reviews WHERE match_id = '{made.match_id}'") == [(0,)]
    assert reviewing.call(lambda: reviewing.reviews.computed) == 0


def test_a_game_without_a_search_is_not_reviewed(tmp_path, server_factory):
    hunters.games.register(PLUGIN)
    try:
        running = server_factory(db=str(tmp_path / "tiny.db"))
        with Client(f"127.0.0.1:{running.port}") as client:
            made = client.create_match(PLUGIN.id, players=2, seed=1, bots={0: "random", 1: "random"})
            end = time.monotonic() + 30
            while client.get_match(made.match_id).status != matches_pb2.MATCH_STATUS_OVER:
                assert time.monotonic() < end
                time.sleep(0.05)
            with pytest.raises(ServiceError) as refused:
                client.request_review(made.match_id)
            assert (refused.value.code, refused.value.reason) == (
                grpc.StatusCode.FAILED_PRECONDITION,
                "ANALYSIS_NOT_SUPPORTED",
            )
    finally:
        hunters.games.unregister(PLUGIN.id)


def test_errors_are_the_contracts(reviewing):
    code, reason, _ = rpc_error(
        lambda: Client(f"127.0.0.1:{reviewing.port}").matches.GetReview(
            matches_pb2.GetReviewRequest(match_id="no such match!")
        )
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_MATCH_ID")


def test_the_asyncio_client_analyses_and_waits_for_a_review(reviewing):
    """AsyncClient: the same calls as Client (the scenario checks their transcripts alike)."""
    import asyncio

    from hunters.aio import AsyncClient

    async def run():
        async with AsyncClient(f"127.0.0.1:{reviewing.port}") as client:
            made = await client.create_match("carcassonne_hg", players=2, seed=2, bots={0: "random", 1: "random"})
            hinted = await client.create_match("carcassonne_hg", players=2, seed=2, hints=True)
            hint = await client.analyze(hinted.match_id, token=hinted.seat_tokens[0], top_k=2, iterations=20)
            while (await client.get_match(made.match_id)).status != matches_pb2.MATCH_STATUS_OVER:
                await asyncio.sleep(0.05)
            return hint, await client.wait_review(made.match_id, timeout=120)

    hint, done = asyncio.run(run())
    assert hint.seat == 0 and len(hint.moves) == 2 and hint.moves[0].move is not None
    assert done.status == "done" and done.decisions_done == len(done.review.decisions)
