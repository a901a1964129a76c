"""What a bot sees: `observed_by` / `determinized` hide exactly the hidden information, and two games
that look alike to a seat give every bot the same decision (issue 11)."""

import random

import pytest

from hunters.bots import Observation, make_bot
from hunters.carcassonne import Game as HG
from hunters.jaeger import Game as JS
from hunters.jaeger.tiles import FOOD, GOODS
from hunters.review import analyze

BOT_SPECS = [
    "random:seed=4",
    "greedy:seed=4",
    "mcts:iterations=300,seed=4",
    "strong:iterations=60,seed=4",
    "strong1:iterations=60,seed=4",
    "strong:iterations=60,halving=1,seed=4",
]


def _play_random(game, n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        game.play(rng.choice(game.legal_moves()))
    return game


def _hg_twins(moves=24, seed=11):
    """Two H&G games with the same moves and draws so far, different orders of the undrawn tiles."""
    a = _play_random(HG.new(players=2, seed=seed), moves, seed)
    drawn, undrawn = a.core.drawn(), a.core.undrawn()
    normal = drawn[0] + undrawn[0][::-1]
    menhir = drawn[1] + undrawn[1][::-1]
    b = HG.new(players=2, normal_deck=normal, menhir_deck=menhir)
    for m in a.moves:
        b.play(m)
    assert a.core.undrawn() != b.core.undrawn()
    assert a.view() == b.view()
    return a, b


def test_hg_observation_hides_the_pile_order_only():
    a, b = _hg_twins()
    oa, ob = a.observed_by(a.player), b.observed_by(b.player)
    assert oa.view() == a.view()
    assert oa.core.undrawn() == ob.core.undrawn()
    assert all(pile == sorted(pile) for pile in oa.core.undrawn())
    assert sorted(oa.core.undrawn()[0]) == sorted(a.core.undrawn()[0])  # contents are public
    assert oa.seed is None and oa.record_decks == ob.record_decks
    assert oa.legal_moves() == a.legal_moves()


def test_hg_determinized_keeps_public_state_and_redraws_the_order():
    a, _ = _hg_twins()
    d1, d2, d3 = a.determinized(0, 1), a.determinized(0, 1), a.determinized(0, 2)
    assert d1.view() == a.view()
    assert d1.core.undrawn() == d2.core.undrawn() != d3.core.undrawn()
    assert sorted(d1.core.undrawn()[0]) == sorted(a.core.undrawn()[0])
    d1.play(d1.legal_moves()[0])  # a determinization plays on
    with pytest.raises(ValueError):
        a.determinized(0, -1)
    with pytest.raises(ValueError):
        a.observed_by(2)


@pytest.mark.parametrize("spec", BOT_SPECS)
def test_hg_same_public_state_same_decision(spec):
    a, b = _hg_twins()
    assert make_bot(spec)(a) == make_bot(spec)(b)


def _jaeger_twins(seed=5):
    """Three-player Jäger games that look alike to seat 0 and differ in the hidden parts: the
    winter deck's order and which of two face-down tiles seats 1 and 2 took."""
    for s in range(seed, seed + 200):
        a = JS.new(players=3, seed=s)
        rng = random.Random(s)
        takes = {}
        while not a.is_over and a.season == "summer" and a.turns < 30:
            for e in a.play(rng.choice(a.legal_moves())):
                if e.kind == "take" and e.seat in (1, 2) and e.tile in FOOD + GOODS:
                    takes.setdefault(e.seat, (e.space, e.tile))
            if len(takes) == 2 and takes[1][1] != takes[2][1] and a.player == 0 and a.season == "summer":
                break
        else:
            continue
        if len(takes) < 2 or takes[1][1] == takes[2][1] or a.player != 0 or a.season != "summer":
            continue
        layout = list(a.to_record()["summer"])
        (s1, t1), (s2, t2) = takes[1], takes[2]
        layout[s1], layout[s2] = t2, t1
        b = JS.new(players=3, summer=layout, winter=a.to_record()["winter"][::-1])
        for m in a.moves:
            b.play(m)
        assert a.collection(1) != b.collection(1)
        return a, b
    raise AssertionError("no suitable game found")


def test_jaeger_observation_hides_winter_deck_and_opponents_face_down_tiles():
    a, b = _jaeger_twins()
    oa, ob = a.observed_by(0), b.observed_by(0)
    assert oa.view() == ob.view() == a.view() == b.view()
    assert [oa.collection(p) for p in range(3)] == [ob.collection(p) for p in range(3)]
    assert oa.collection(0) == a.collection(0)  # a seat knows its own tiles
    for p in (1, 2):  # the others keep their number of face-down tiles
        assert oa.public_collection(p) == a.public_collection(p)
    assert oa.to_record()["winter"] == ob.to_record()["winter"]
    assert [e for e in oa.events if e.kind == "take" and e.seat != 0 and e.tile in FOOD + GOODS] == []
    assert oa.legal_moves() == a.legal_moves()


def test_jaeger_determinized_redraws_the_hidden_parts_only():
    a, _ = _jaeger_twins()
    d = [a.determinized(0, s) for s in range(12)]
    assert all(x.view() == a.view() for x in d)
    assert all(x.collection(0) == a.collection(0) for x in d)
    assert len({tuple(x.to_record()["winter"]) for x in d}) > 1
    assert len({(x.collection(1), x.collection(2)) for x in d}) > 1
    pool = lambda g: sorted(sum((getattr(g.collection(p), k) for p in (1, 2)), 0) for k in FOOD + GOODS)
    assert all(pool(x) == pool(a) for x in d)
    assert a.determinized(0, 3).to_record()["winter"] == a.determinized(0, 3).to_record()["winter"]


def test_jaeger_open_collections_are_not_redealt():
    g = _play_random(JS.new(players=3, seed=2, open_collections=True), 12, 2)
    assert [g.observed_by(0).collection(p) for p in range(3)] == [g.collection(p) for p in range(3)]


@pytest.mark.parametrize("spec", BOT_SPECS)
def test_jaeger_same_public_state_same_decision(spec):
    a, b = _jaeger_twins()
    assert make_bot(spec)(a) == make_bot(spec)(b)


def test_hg_analysis_sees_what_the_seat_sees():
    """Twins differing only in the hidden order of the piles: identical analyses, for the seat to
    move (its moves, the asked move) and for the other seat (the estimate)."""
    a, b = _hg_twins()
    asked = [a.legal_moves()[-1]]
    assert analyze(a, iterations=40, seed=3, moves=asked) == analyze(b, iterations=40, seed=3, moves=asked)
    other = 1 - a.player
    assert analyze(a, other, iterations=40, seed=3) == analyze(b, other, iterations=40, seed=3)


def test_jaeger_analysis_sees_what_the_seat_sees():
    """Seat 0 cannot tell the twins apart (the winter deck, the others' face-down tiles): identical
    analyses. Seat 1 can (its own tiles differ), and its analyses differ: the test sees a difference
    where there is one."""
    a, b = _jaeger_twins()
    asked = [a.legal_moves()[-1]]
    assert analyze(a, 0, iterations=30, seed=3, moves=asked) == analyze(b, 0, iterations=30, seed=3, moves=asked)
    assert analyze(a, 1, iterations=30, seed=3) != analyze(b, 1, iterations=30, seed=3)


def test_observation_fields():
    g = _play_random(JS.new(players=2, seed=3), 6, 3)
    obs = Observation.of(g)
    assert obs.seat == g.player and obs.to_move and obs.game_id == "jaeger_sammler"
    assert obs.view == g.view() and obs.moves_played == 6
    assert obs.private["collection"] == g.collection(g.player).to_json()
    other = Observation.of(g, 1 - g.player)
    assert not other.to_move
    h = HG.new(players=3, seed=1)
    assert Observation.of(h).private == {} and Observation.of(h).players == 3
