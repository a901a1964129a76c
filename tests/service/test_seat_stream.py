"""PlaySeat: one stream per seat carrying every version, the seat's turns and its moves' answers;
moves are played exactly as PlayMove plays them."""

import queue
import threading

import grpc
import pytest

from hunters.carcassonne import Game
from hunters.client import Client, MatchEvent, SeatPlayed, SeatRefused, Turn
from hunters.errors import IllegalMoveError
from hunters.service.seats import MAX_SEAT_STREAMS
from hunters.v1 import matches_pb2

from .helpers import bearer, rpc_error, stubs

GAME = "carcassonne_hg"
TIMEOUT = 60


def pick(turn):
    """A deterministic choice: the middle legal move's action code."""
    return turn.actions[len(turn.actions) // 2]


def local_game(seed):
    """The same game played locally by `pick`'s rule."""
    game = Game.new(players=2, seed=seed)
    while not game.is_over:
        pairs = game.actions.pairs()
        game.play(pairs[len(pairs) // 2][0])
    return game


def items_until(stream, stop):
    """Read the stream until `stop(item)`; every item read, that one included."""
    seen = []
    for item in stream:
        seen.append(item)
        if stop(item):
            return seen
    raise AssertionError(f"the stream ended first: {seen}")


def test_two_stream_bots_play_a_whole_game(server):
    address = f"127.0.0.1:{server.port}"
    with Client(address) as c:
        match = c.create_match(GAME, 2, seed=11)
        turns = {0: [], 1: []}
        events = {0: [], 1: []}
        last = {}

        def bot(seat):
            with Client(address) as cc:

                def choose(turn):
                    assert turn.seat == seat and turn.state.player == seat
                    turns[seat].append(turn.version)
                    return pick(turn)

                last[seat] = cc.play_seat(match.match_id, match.seat_tokens[seat], choose, on_event=events[seat].append)

        threads = [threading.Thread(target=bot, args=(s,)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(TIMEOUT)
        assert not any(t.is_alive() for t in threads)
        expected = local_game(11)
        info = c.get_match(match.match_id)
        assert info.status == matches_pb2.MATCH_STATUS_OVER and info.version == expected.moves_played
        assert c.record(match.match_id)["moves"] == [m.to_json() for m in expected.moves]
        for seat in (0, 1):  # every version once, in order, and the stream ended after the last
            assert [e.version for e in events[seat]] == list(range(info.version + 1))
            assert last[seat].match_over and last[seat].version == info.version
        seats = [e.seat for e in events[0][1:]]
        assert sorted(turns[0] + turns[1]) == list(range(info.version))
        assert all(seats[v] == 0 for v in turns[0]) and all(seats[v] == 1 for v in turns[1])


def test_a_turn_carries_the_state_and_legal_moves_of_list_legal_moves(client):
    match = client.create_match(GAME, 2, seed=3)
    with client.seat(match.match_id, match.seat_tokens[0], timeout=TIMEOUT) as stream:
        seen = items_until(stream, lambda i: isinstance(i, Turn))
    assert [type(i) for i in seen] == [MatchEvent, Turn]
    turn = seen[-1]
    listed = client.legal_moves(match.match_id)
    assert turn.version == listed.version == 0 and turn.seat == listed.player == 0
    assert list(turn.moves) == list(listed)
    assert turn.state == client.get_match(match.match_id).state


def test_reconnecting_with_a_version_resumes_after_it(client):
    match = client.create_match(GAME, 2, seed=4)
    tokens = match.seat_tokens
    for _ in range(5):  # five moves by PlayMove
        listed = client.legal_moves(match.match_id)
        client.play(match.match_id, token=tokens[listed.player], action=listed[0][1], expected_version=listed.version)
    seat = client.legal_moves(match.match_id).player
    other = 1 - seat
    with client.seat(match.match_id, tokens[seat], resume_version=2, timeout=TIMEOUT) as stream:
        seen = items_until(stream, lambda i: isinstance(i, Turn))
    assert [i.version for i in seen if isinstance(i, MatchEvent)] == [3, 4, 5]
    assert seen[-1].version == 5
    # caught up: the turn at once, no event
    with client.seat(match.match_id, tokens[seat], resume_version=5, timeout=TIMEOUT) as stream:
        first = next(iter(stream))
        assert isinstance(first, Turn) and first.version == 5
        stream.play(first, action=first.actions[0])
        seen = items_until(stream, lambda i: isinstance(i, MatchEvent))
    assert isinstance(seen[-1], MatchEvent) and seen[-1].version == 6 and seen[-1].seat == seat
    # the other seat, resuming at the current version, is offered its turn and nothing else
    with client.seat(match.match_id, tokens[other], resume_version=6, timeout=TIMEOUT) as stream:
        first = next(iter(stream))
    assert isinstance(first, Turn) and first.version == 6 and first.seat == other
    with pytest.raises(Exception) as err, client.seat(match.match_id, tokens[other], resume_version=7) as stream:
        next(iter(stream))
    assert err.value.reason == "BAD_VERSION"


def _refusal_of_play_move(client, match, **kwargs):
    """What PlayMove says to the same move: (code, reason)."""
    with pytest.raises((IllegalMoveError, Exception)) as err:
        client.play(match.match_id, token=match.seat_tokens[0], **kwargs)
    return getattr(err.value, "code", grpc.StatusCode.FAILED_PRECONDITION), err.value.reason


def test_stale_versions_and_illegal_moves_are_refused_on_the_stream_and_change_nothing(client):
    match = client.create_match(GAME, 2, seed=5)
    legal = {a for _, a in client.legal_moves(match.match_id)}
    illegal = next(a for a in range(10_000) if a not in legal)
    stale_code, stale_reason = _refusal_of_play_move(client, match, action=min(legal), expected_version=3)
    bad_code, bad_reason = _refusal_of_play_move(client, match, action=illegal, expected_version=0)
    with client.seat(match.match_id, match.seat_tokens[0], timeout=TIMEOUT) as stream:
        turn = items_until(stream, lambda i: isinstance(i, Turn))[-1]
        stream.play(3, action=min(legal))  # a version the match is not at
        refused, again = items_until(stream, lambda i: isinstance(i, Turn))
        stream.play(turn, action=illegal)
        refused2, again2 = items_until(stream, lambda i: isinstance(i, Turn))
        stream.play(turn)  # no move at all
        refused3, _ = items_until(stream, lambda i: isinstance(i, Turn))
    assert isinstance(refused, SeatRefused) and (refused.code, refused.reason) == (stale_code, stale_reason)
    assert refused.reason == "STALE_VERSION" and refused.metadata["current_version"] == "0" and refused.version == 3
    assert isinstance(refused2, SeatRefused) and (refused2.code, refused2.reason) == (bad_code, bad_reason)
    assert isinstance(refused2.error, IllegalMoveError)
    assert refused3.reason == "MOVE_MISSING"
    assert again.version == again2.version == 0  # the turn offered again
    assert client.get_match(match.match_id).version == 0
    assert client.record(match.match_id, match.admin_token)["moves"] == []


def test_play_seat_raises_a_refusal_unless_told_what_to_do_with_it(client):
    match = client.create_match(GAME, 2, seed=6)
    with pytest.raises(IllegalMoveError):
        client.play_seat(match.match_id, match.seat_tokens[0], lambda turn: 10**6)
    assert client.get_match(match.match_id).version == 0


def test_a_request_id_is_played_once_and_shared_with_play_move(client):
    match = client.create_match(GAME, 2, seed=7)
    with client.seat(match.match_id, match.seat_tokens[0], timeout=TIMEOUT) as stream:
        turn = items_until(stream, lambda i: isinstance(i, Turn))[-1]
        a, b = turn.actions[0], turn.actions[1]
        stream.play(turn, action=a, request_id="r-1")
        first = items_until(stream, lambda i: isinstance(i, SeatPlayed))[-1]
        stream.play(turn, action=a, request_id="r-1")  # a retry
        retry = items_until(stream, lambda i: isinstance(i, (SeatPlayed, SeatRefused)))[-1]
        stream.play(turn, action=b, request_id="r-1")  # the same id, another move
        reused = items_until(stream, lambda i: isinstance(i, (SeatPlayed, SeatRefused)))[-1]
    assert first == SeatPlayed(1, "r-1", False)
    assert retry == SeatPlayed(1, "r-1", True)
    assert isinstance(reused, SeatRefused) and reused.reason == "REQUEST_ID_REUSED"
    # PlayMove with the same id and move is the same retry
    again = client.play(match.match_id, token=match.seat_tokens[0], action=a, expected_version=0, request_id="r-1")
    assert again.version == 1
    assert client.get_match(match.match_id).version == 1


def test_a_bad_token_or_match_ends_the_stream_with_play_moves_status(server, client):
    match = client.create_match(GAME, 2, seed=8)
    channel, stub, _ = stubs(server.port)
    opening = matches_pb2.PlaySeatRequest(open=matches_pb2.PlaySeatOpen(match_id=match.match_id))

    def first(requests, metadata=None):
        return next(iter(stub.PlaySeat(iter(requests), metadata=metadata, timeout=TIMEOUT)))

    with channel:
        assert rpc_error(first, [opening], bearer("0" * 64))[:2] == (grpc.StatusCode.PERMISSION_DENIED, "INVALID_TOKEN")
        assert rpc_error(first, [opening])[:2] == (grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN")
        missing = matches_pb2.PlaySeatRequest(open=matches_pb2.PlaySeatOpen(match_id="nope"))
        assert rpc_error(first, [missing], bearer(match.seat_tokens[0]))[:2] == (
            grpc.StatusCode.NOT_FOUND,
            "MATCH_NOT_FOUND",
        )
        play_first = matches_pb2.PlaySeatRequest(play=matches_pb2.PlaySeatMove(version=0, action=1))
        assert rpc_error(first, [play_first], bearer(match.seat_tokens[0]))[:2] == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "SEAT_STREAM_NOT_OPEN",
        )
    assert client.get_match(match.match_id).version == 0


def test_a_seat_played_by_a_bot_has_no_stream(client):
    match = client.create_match(GAME, 2, seed=9, bots={1: "random"})
    with pytest.raises(Exception) as err, client.seat(match.match_id, match.seat_tokens[1], timeout=TIMEOUT) as s:
        next(iter(s))
    assert err.value.reason == "SEAT_PLAYED_BY_BOT"
    # the other seat plays the whole game against the server's bot on its stream
    last = client.play_seat(match.match_id, match.seat_tokens[0], pick)
    assert last.match_over and client.get_match(match.match_id).status == matches_pb2.MATCH_STATUS_OVER


def test_the_stream_ends_when_the_match_ends(client):
    match = client.create_match(GAME, 2, seed=10)
    game = Game.new(players=2, seed=10)
    while True:  # every move but the last by PlayMove
        pairs = game.actions.pairs()
        move, action = pairs[len(pairs) // 2]
        after = game.clone()
        after.play(move)
        if after.is_over:
            break
        token = match.seat_tokens[game.player]
        client.play(match.match_id, token=token, action=action, expected_version=game.moves_played)
        game = after
    last = game.moves_played
    with client.seat(match.match_id, match.seat_tokens[game.player], resume_version=last, timeout=TIMEOUT) as s:
        items = iter(s)
        turn = next(items)
        assert isinstance(turn, Turn) and turn.version == last
        s.play(turn, action=action)
        rest = list(items)  # returns: the stream ended
    assert sorted(type(i).__name__ for i in rest) == ["MatchEvent", "SeatPlayed"]
    event = next(i for i in rest if isinstance(i, MatchEvent))
    assert event.version == last + 1 and event.match_over
    # a stream opened on a finished match sends its versions and ends
    with client.seat(match.match_id, match.seat_tokens[0], resume_version=0, timeout=TIMEOUT) as s:
        versions = [i.version for i in s]
    assert versions == list(range(1, last + 2))


def test_concurrent_play_move_and_play_seat_on_one_seat_have_one_winner_per_version(client):
    match = client.create_match(GAME, 2, seed=12)
    token = match.seat_tokens[0]
    wins = []
    with client.seat(match.match_id, token, timeout=TIMEOUT) as stream:
        items = iter(stream)
        for _ in range(6):
            turn = next(i for i in items if isinstance(i, Turn) and i.seat == 0)
            v = turn.version
            go = threading.Barrier(2)
            results = {}

            def unary(turn=turn, results=results, go=go):
                go.wait()
                try:
                    results["unary"] = client.play(
                        match.match_id, token=token, action=turn.actions[-1], expected_version=turn.version
                    ).version
                except Exception as exc:
                    results["unary"] = exc

            t = threading.Thread(target=unary)
            t.start()
            go.wait()
            stream.play(turn, action=turn.actions[0])
            answer = next(i for i in items if isinstance(i, (SeatPlayed, SeatRefused)))
            t.join(TIMEOUT)
            winners = [isinstance(answer, SeatPlayed), isinstance(results["unary"], int)]
            assert sum(winners) == 1, (answer, results)
            loser = results["unary"] if winners[0] else answer
            assert getattr(loser, "reason", None) in ("STALE_VERSION", "NOT_YOUR_TURN")
            wins.append("stream" if winners[0] else "unary")
            assert client.get_match(match.match_id).version == v + 1
            # the other seat answers by PlayMove
            listed = client.legal_moves(match.match_id)
            client.play(match.match_id, token=match.seat_tokens[1], action=listed[0][1], expected_version=v + 1)
    assert len(client.record(match.match_id, match.admin_token)["moves"]) == 12


def test_a_seat_has_a_bounded_number_of_streams(client):
    match = client.create_match(GAME, 2, seed=13)
    opened = [client.seat(match.match_id, match.seat_tokens[1], timeout=TIMEOUT) for _ in range(MAX_SEAT_STREAMS)]
    try:
        for s in opened:  # each is open once it sent the creation
            assert next(iter(s)).version == 0
        with pytest.raises(Exception) as err, client.seat(match.match_id, match.seat_tokens[1]) as extra:
            next(iter(extra))
        assert err.value.reason == "TOO_MANY_SEAT_STREAMS"
        with client.seat(match.match_id, match.seat_tokens[0], timeout=TIMEOUT) as other:  # other seats are not
            assert next(iter(other)).version == 0
    finally:
        for s in opened:
            s.close()


def test_the_version_of_a_seats_own_move_and_its_answer_come_as_one_message(server, client):
    match = client.create_match(GAME, 2, seed=14)
    channel, stub, _ = stubs(server.port)
    requests = queue.SimpleQueue()
    requests.put(matches_pb2.PlaySeatRequest(open=matches_pb2.PlaySeatOpen(match_id=match.match_id)))
    with channel:
        call = stub.PlaySeat(iter(requests.get, None), metadata=bearer(match.seat_tokens[0]), timeout=TIMEOUT)
        turn = None
        while turn is None:
            msg = next(call)
            turn = msg.your_turn if msg.HasField("your_turn") else None
        requests.put(matches_pb2.PlaySeatRequest(play=matches_pb2.PlaySeatMove(version=0, action=turn.moves[0].action)))
        answer = next(call)
        requests.put(None)
        call.cancel()
    assert answer.HasField("event") and answer.HasField("played")
    assert answer.event.version == answer.played.version == 1 and answer.event.seat == 0
