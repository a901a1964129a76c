"""The cheap form of a move's reply and of a seat stream's events (`changes_only`): what a move
changed (version, events, the state's common fields), never the game's view, and never more than
the whole form would show."""

import queue

from hunters.v1 import matches_pb2, state_pb2

from .helpers import bearer, create, stubs

TIMEOUT = 60


def _play_all(stub, match, changes_only, moves):
    """Play `moves` moves (the last legal move each time: it places a piece); the replies."""
    replies = []
    for _ in range(moves):
        legal = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=match.match.match_id))
        request = matches_pb2.PlayMoveRequest(
            match_id=match.match.match_id,
            action=legal.moves[-1].action,
            expected_version=legal.version,
            changes_only=changes_only,
        )
        replies.append(stub.PlayMove(request, metadata=bearer(match.seat_tokens[legal.player])))
    return replies


def test_a_changes_only_reply_is_the_whole_reply_without_the_view(server):
    channel, stub, _ = stubs(server.port)
    with channel:
        brief = _play_all(stub, create(stub, seed=21), True, 40)
        whole = _play_all(stub, create(stub, seed=21), False, 40)
    for b, w in zip(brief, whole, strict=True):
        assert b.state.WhichOneof("view") is None
        assert w.state.WhichOneof("view") == "carcassonne"
        assert (b.version, list(b.events)) == (w.version, list(w.events))
        header = matches_pb2.PlayMoveResponse()
        header.CopyFrom(w)
        header.state.ClearField("carcassonne")
        assert b == header  # player, status, scores, winners, version: as the whole reply has them
    assert any(list(b.state.scores) != [0, 0] for b in brief), "some scores moved in 40 moves"


def test_jaeger_changes_only_shows_what_the_whole_state_shows(server):
    channel, stub, _ = stubs(server.port)
    with channel:
        config = matches_pb2.GameConfig(game="jaeger_sammler", players=2, seed=4)
        match = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config))
        hidden = shown = 0
        while True:
            legal = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=match.match.match_id))
            if not legal.moves:
                break
            request = matches_pb2.PlayMoveRequest(
                match_id=match.match.match_id, action=legal.moves[-1].action, changes_only=True
            )
            reply = stub.PlayMove(request, metadata=bearer(match.seat_tokens[legal.player]))
            whole = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match.match.match_id)).match.state
            assert reply.state.WhichOneof("view") is None
            header = state_pb2.MatchState()
            header.CopyFrom(whole)
            header.ClearField("jaeger")
            assert reply.state == header  # the scores shown exactly when the whole state shows them
            hidden += not whole.scores
            shown += bool(whole.scores)
    assert hidden and shown, "the game hid its scores for a while, and showed them at the end"


def test_a_retry_returns_the_first_reply_whatever_form_it_asks_for(server):
    channel, stub, _ = stubs(server.port)
    with channel:
        match = create(stub, seed=22)
        legal = stub.ListLegalMoves(matches_pb2.ListLegalMovesRequest(match_id=match.match.match_id))
        request = matches_pb2.PlayMoveRequest(
            match_id=match.match.match_id, action=legal.moves[0].action, request_id="r-1", changes_only=True
        )
        first = stub.PlayMove(request, metadata=bearer(match.seat_tokens[0]))
        request.changes_only = False
        again = stub.PlayMove(request, metadata=bearer(match.seat_tokens[0]))
        assert again == first and first.version == 1
        after = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match.match.match_id)).match
        assert after.version == 1  # played once


def _seat_messages(stub, match, seat, changes_only, until_version):
    """Open seat `seat`'s stream and play the first legal move at each turn up to `until_version`;
    every message read."""
    requests = queue.SimpleQueue()
    opening = matches_pb2.PlaySeatOpen(match_id=match.match.match_id, changes_only=changes_only)
    requests.put(matches_pb2.PlaySeatRequest(open=opening))
    seen = []
    call = stub.PlaySeat(iter(requests.get, None), metadata=bearer(match.seat_tokens[seat]), timeout=TIMEOUT)
    for msg in call:
        seen.append(msg)
        if msg.HasField("event") and msg.event.version >= until_version:
            break
        if msg.HasField("your_turn"):
            turn = msg.your_turn
            move = matches_pb2.PlaySeatMove(version=turn.version, action=turn.moves[0].action)
            requests.put(matches_pb2.PlaySeatRequest(play=move))
    requests.put(None)
    call.cancel()
    return seen


def _against_a_bot(stub, seed):
    """A match whose seat 1 the server's random bot plays: seat 0's stream sees every version."""
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=seed)
    config.bots.add(seat=1, bot="random")
    return stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config))


def test_a_changes_only_seat_stream_sends_summaries_and_whole_turns(server):
    channel, stub, _ = stubs(server.port)
    with channel:
        seen = _seat_messages(stub, _against_a_bot(stub, 23), 0, True, 8)
        whole = _seat_messages(stub, _against_a_bot(stub, 23), 0, False, 8)
    events = [m.event for m in seen if m.HasField("event")]
    turns = [m.your_turn for m in seen if m.HasField("your_turn")]
    assert [e.version for e in events] == list(range(9))
    assert all(e.state.WhichOneof("view") is None for e in events)
    assert turns and all(t.state.WhichOneof("view") == "carcassonne" for t in turns)
    whole_events = [m.event for m in whole if m.HasField("event")]
    assert all(e.state.WhichOneof("view") == "carcassonne" for e in whole_events)
    for b, w in zip(events, whole_events, strict=True):
        assert (b.version, list(b.events), b.move) == (w.version, list(w.events), w.move)
        assert (b.state.player, list(b.state.scores), b.state.version) == (
            w.state.player,
            list(w.state.scores),
            w.state.version,
        )
    # one message a version: an event carries the turn at it, or the answer to the seat's move
    assert len(seen) == len(events)
    assert all(m.HasField("played") for m in seen if m.event.HasField("seat") and m.event.seat == 0)


def test_watchers_of_both_forms_share_a_match(server):
    """A summary stream and a whole watch stream of one match each get their own form."""
    channel, stub, _ = stubs(server.port)
    with channel:
        match = _against_a_bot(stub, 24)
        watch = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match.match.match_id), timeout=TIMEOUT)
        first = next(watch)
        seen = _seat_messages(stub, match, 0, True, 5)
        watched = [first] + [next(watch) for _ in range(5)]
        watch.cancel()
    assert [w.version for w in watched] == list(range(6))
    assert all(w.state.WhichOneof("view") == "carcassonne" for w in watched)
    assert all(m.event.state.WhichOneof("view") is None for m in seen if m.HasField("event"))
