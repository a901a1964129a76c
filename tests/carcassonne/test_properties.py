"""Invariants on random games (hypothesis): pieces conserved, scores never decrease, a closed
feature is scored once, clone and record round-trips, and legality is exactly the listed moves."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from hunters.carcassonne import Game, IllegalMoveError, Move, Occupant
from hunters.carcassonne.tiles import ZONE_TYPES

games = st.tuples(st.integers(2, 5), st.integers(0, 2**64 - 1))


def walk(players, seed, data, max_steps=200):
    """Yield the game at every decision while drawing moves with hypothesis."""
    g = Game.new(players=players, seed=seed)
    yield g
    for _ in range(max_steps):
        if g.is_over:
            return
        moves = g.legal_moves()
        g.play(moves[data.draw(st.integers(0, len(moves) - 1))])
        yield g


@settings(max_examples=25, deadline=None)
@given(games, st.data())
def test_pieces_conserved_scores_monotone_events_consistent(cfg, data):
    players, seed = cfg
    last = [0] * players
    for g in walk(players, seed, data):
        on_board = Counter((seat, kind) for _, seat, kind in g.occupants)
        for p in range(players):
            assert g.meeples[p] + on_board[(p, "meeple")] == 5
            assert g.huts[p] + on_board[(p, "hut")] == 3
            assert 0 <= g.meeples[p] <= 5 and 0 <= g.huts[p] <= 3
        assert all(a >= b for a, b in zip(g.scores, last))
        last = g.scores
        totals = [0] * players
        for e in g.events:
            for s in e.seats:
                totals[s] += e.points
        assert totals == g.scores
        for z, _, kind in g.occupants:
            assert (kind == "meeple") == (ZONE_TYPES[z] != "lake") or ZONE_TYPES[z] == "river"
    closed = [(e.reason, e.feature) for e in g.events if e.reason in ("forest", "river")]
    assert len(closed) == len(set(closed)), "a closed feature was scored twice"
    assert g.is_over
    placed = len(g.board) - 1 + len(g.discards)
    assert placed == len(g.record_decks[0]) + (len(g.record_decks[1]) - g.piles[1])


@settings(max_examples=20, deadline=None)
@given(games, st.data())
def test_clone_and_record_round_trips(cfg, data):
    players, seed = cfg
    for g in walk(players, seed, data, max_steps=data.draw(st.integers(0, 90))):
        pass
    for copy in (g.clone(), Game.from_record(g.to_record())):
        assert copy.to_record() == g.to_record()
        assert (copy.scores, copy.events, copy.occupants, copy.board, copy.tile, copy.player) == (
            g.scores,
            g.events,
            g.occupants,
            g.board,
            g.tile,
            g.player,
        )
        assert list(copy.legal_moves()) == list(g.legal_moves())
        if not g.is_over:
            m = g.legal_moves()[-1]
            assert copy.clone().play(m) == g.clone().play(m)


def candidate_moves(g, draw):
    xs = [x for x, _, _, _ in g.board]
    ys = [y for _, y, _, _ in g.board]
    x = draw(st.integers(min(xs) - 2, max(xs) + 2))
    y = draw(st.integers(min(ys) - 2, max(ys) + 2))
    rot = draw(st.integers(-1, 4))
    occ = draw(
        st.one_of(
            st.none(),
            st.builds(Occupant, st.sampled_from(["meeple", "hut"]), st.integers(g.tile * 10 - 1, g.tile * 10 + 10)),
        )
    )
    own = [z for z, s, k in g.occupants if k == "meeple"]
    retake = draw(st.one_of(st.none(), st.sampled_from(own) if own else st.none()))
    return Move(x, y, rot, occ, retake)


@settings(max_examples=30, deadline=None)
@given(games, st.data())
def test_a_move_is_accepted_exactly_when_it_is_listed(cfg, data):
    players, seed = cfg
    for i, g in enumerate(walk(players, seed, data, max_steps=60)):
        if g.is_over or i % 5:
            continue
        listed = list(g.legal_moves())
        legal = set(listed)
        for _ in range(20):
            if data.draw(st.booleans()):
                m = data.draw(st.sampled_from(listed))
            else:
                m = candidate_moves(g, data.draw)
            before = g.to_record(), g.scores
            c = g.clone()
            try:
                c.play(m)
                accepted = True
            except IllegalMoveError as exc:
                accepted = False
                assert exc.reason
            assert accepted == (m in legal), m
            assert (g.to_record(), g.scores) == before
