"""Invariants on random complete games for 2-4 players.

- Thousands of games inside the core (`selfcheck_games`, a test-only extension built on first use): at
  every turn tiles are conserved (laid = taken + removed + on board), characters, occupancy, supply
  packs and weapons add up, scores never decrease, every listed turn is accepted by the validator,
  random turns near the player's characters are accepted exactly when listed, and the drawn turn is
  listed.
- A few hundred games driven from Python: the same conservation through the public API, every listed
  move accepted (on clones), candidate moves accepted exactly when listed and a refusal changes
  nothing, clone and record round-trips identical.
"""

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hunters.jaeger import Game, IllegalMoveError, Move, Step
from hunters.jaeger.sim import STAY_PATIENCE, stays

from .selfcheck import selfcheck_games

CORE_GAMES = {"uniform": 1500, "stay": 300}
PY_GAMES = 100  # per player count: 300 Python-driven games


def clean(report: dict[str, Any]) -> bool:
    return all(v == 0 for v in report["violations"].values())


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["uniform", "stay"])
def test_core_random_games_keep_every_invariant(players, policy):
    report = selfcheck_games(CORE_GAMES[policy], players=players, seed=100 + players, policy=policy, probes=10)
    assert report["games"] == CORE_GAMES[policy]
    assert report["turns"] >= report["games"] * (15 if policy == "uniform" else 150)
    assert report["probes"] == 10 * report["turns"] and report["listed_checked"] > report["turns"]
    assert clean(report), report


def test_the_self_check_is_not_in_the_production_extension():
    from hunters.jaeger import _core as core

    assert not hasattr(core, "selfcheck_games") and core.STAY_PATIENCE == STAY_PATIENCE


@pytest.mark.parametrize(
    "options",
    [
        {"straight_jumps": True},
        {"stall_rounds": 1},
        {"stall_rounds": None},
        {"winter_start": "seat0"},
        {"mammoths_summer": [8, 8, 8], "mammoths_winter": [1] * 12},
    ],
)
def test_core_random_games_keep_every_invariant_under_options(options):
    report = selfcheck_games(150, players=3, seed=7, policy="stay", probes=10, **options)
    assert clean(report), (options, report)


def test_core_random_games_on_another_board():
    board = {
        "grid": {"rows": 8, "cols": 9, "offset": "even-r", "missing": [[0, 0], [7, 8], [4, 4]]},
        "camps": {"summer": [[1, 1], [6, 7], [1, 7]], "winter": [[6, 1], [3, 4], [4, 5]]},
    }
    for policy in ("uniform", "stay"):
        report = selfcheck_games(200, players=4, seed=3, policy=policy, probes=10, board=board)
        assert clean(report), report


# ---------------------------------------------------------------------------------------------
# Games driven from Python


def conserved(g: Game) -> None:
    counts = g.tile_counts()
    for kind, laid in counts["laid"].items():
        assert laid == counts["taken"][kind] + counts["removed"][kind] + counts["on_board"][kind], kind
    assert sum(counts["laid"].values()) == (112 if g.season == "summer" else 200)
    for seat, c in enumerate(g.collections):
        on_camps = sum(1 for _, s in g.supply_packs if s == seat)
        assert c.supply_packs + on_camps == 4
        assert c.weapons >= 0
    tiles, chars = g.tiles, g.characters
    for v in range(g.board.n):
        here = [s for s, w in chars if w == v]
        if g.board.kinds[v] == "tile":
            assert tiles[v] is not None or not here
            if tiles[v] != "cave":
                assert len(here) <= 1


def snapshot(g: Game):
    return (
        g.to_record(),
        g.events,
        g.scores,
        g.tiles,
        g.characters,
        g.supply_packs,
        g.collections,
        g.player,
        g.season,
        g.is_over,
        g.idle_turns,
        list(g.legal_moves()),
    )


def candidates(g: Game, rng: random.Random, k: int):
    """Moves near the player's characters, legal or not, plus some nonsense."""
    own = [v for s, v in g.characters if s == g.player] or [0]
    n = g.board.n
    out = []
    for _ in range(k):
        src = rng.choice(own) if rng.random() < 0.9 else rng.randrange(n)
        dst = rng.choice([*g.board.neighbours(src), None, rng.randrange(n)])
        if rng.random() < 0.15:
            out.append(Move(Step(src, dst)))
            continue
        src2 = dst if (dst is not None and rng.random() < 0.5) else rng.choice(own)
        dst2 = rng.choice([*g.board.neighbours(src2), None, rng.randrange(n), *g.caves])
        out.append(Move(Step(src, dst), Step(src2, dst2)))
    return out


def play_checked(players: int, seed: int, policy: str) -> Game:
    rng = random.Random(seed)
    g = Game.new(players=players, seed=seed)
    last = [0] * players
    turn = 0
    while True:
        conserved(g)
        assert all(a >= b for a, b in zip(g.scores, last))
        last = g.scores
        if g.is_over:
            break
        listed = list(g.legal_moves())
        legal = set(listed)
        assert len(legal) == len(listed) > 0
        assert g.actions.legal() == sorted(g.actions.legal())
        if turn % 15 == 0:
            for m in listed:
                g.clone().play(m)
        before = snapshot(g) if turn % 10 == 0 else None
        for m in candidates(g, rng, 12):
            try:
                g.clone().play(m)
                accepted = True
            except IllegalMoveError as exc:
                accepted = False
                assert exc.reason and exc.message
            assert accepted == (m in legal), (seed, turn, m)
        if before is not None:
            for m in candidates(g, rng, 4):
                if m not in legal:
                    with pytest.raises(IllegalMoveError):
                        g.play(m)
            assert snapshot(g) == before
        pool = listed
        if policy == "stay":
            pool = [m for m in listed if stays(m)] or listed
        g.play(rng.choice(pool))
        turn += 1
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_python_random_games(players):
    for i in range(PY_GAMES):
        seed = players * 1000 + i
        g = play_checked(players, seed, "stay" if i % 8 == 0 else "uniform")
        assert g.is_over and g.winners
        if i % 4 == 0:
            rec = json.loads(json.dumps(g.to_record()))
            assert snapshot(Game.from_record(rec)) == snapshot(g)
            assert snapshot(g.clone()) == snapshot(g)


games = st.tuples(st.integers(2, 4), st.integers(0, 2**64 - 1))


@settings(max_examples=25, deadline=None)
@given(games, st.data())
def test_clone_and_record_round_trips_mid_game(cfg, data):
    players, seed = cfg
    g = Game.new(players=players, seed=seed)
    for _ in range(data.draw(st.integers(0, 150))):
        if g.is_over:
            break
        moves = g.legal_moves()
        stay = [m for m in moves if stays(m)]
        pool = stay if stay and data.draw(st.booleans()) else list(moves)
        g.play(pool[data.draw(st.integers(0, len(pool) - 1))])
    for copy in (g.clone(), Game.from_record(json.loads(json.dumps(g.to_record())))):
        assert snapshot(copy) == snapshot(g)
        if not g.is_over:
            m = g.legal_moves()[-1]
            assert copy.clone().play(m) == g.clone().play(m)
    c = g.clone()
    if not c.is_over:
        c.play(c.legal_moves()[0])
        assert snapshot(g) != snapshot(c)
