"""Rule invariants over whole games: pieces are conserved, scores are the sum of the reported
events, the decision numbering is consistent, and records replay to the same game."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hunters.carcassonne import Game
from tests.carcassonne.scenario import as_tuples, state


def check_invariants(g: Game) -> None:
    on_board_meeples = [0] * g.players
    on_board_huts = [0] * g.players
    for zone, seat, kind in g.occupants:
        (on_board_meeples if kind == "meeple" else on_board_huts)[seat] += 1
    assert [a + b for a, b in zip(g.meeples, on_board_meeples)] == [5] * g.players
    assert [a + b for a, b in zip(g.huts, on_board_huts)] == [3] * g.players
    totals = [0] * g.players
    for e in g.events:
        assert e.points >= 0 and list(e.seats) == sorted(set(e.seats)) and e.seats
        for s in e.seats:
            totals[s] += e.points
    assert totals == g.scores
    decisions = [e.decision for e in g.events]
    assert decisions == sorted(decisions)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), pick=st.randoms(use_true_random=False))
def test_random_games_keep_the_invariants(seed, players, pick):
    g = Game.new(players=players, seed=seed)
    n = 0
    while not g.is_over:
        moves = g.legal_moves()
        events = g.play(moves[pick.randrange(len(moves))])
        for e in events:
            assert e.decision == n or (g.is_over and e.decision == n + 1)
        n += 1
        check_invariants(g)
    assert all(e.decision <= n for e in g.events)
    final = [e for e in g.events if e.reason in ("river_system", "raft", "meadow")]
    assert all(e.decision == n for e in final)
    best = max(g.scores)
    assert g.winners == [s for s in range(players) if g.scores[s] == best]
    # the record replays to the same game
    again = Game.from_record(g.to_record())
    assert state(again) == state(g)
    assert as_tuples(again.events) == as_tuples(g.events)
