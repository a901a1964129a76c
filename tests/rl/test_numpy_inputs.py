"""numpy integers work wherever Python ints do in both games' API (`hunters.info.integer` and
`hunters.info.plain`): arrays where lists of ints are taken, numpy scalars where ints are, and the game
made is the one the plain values make, with a record of plain JSON ints. Floats and bools stay
refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hunters.carcassonne import Game as HG
from hunters.carcassonne.tiles import MENHIR_TILES, NORMAL_TILES
from hunters.errors import IllegalMoveError
from hunters.jaeger import Game as JS


def _same_game(a, b):
    record = a.to_record()
    json.dumps(record)  # plain JSON: no numpy value leaked into it
    assert record == b.to_record()
    assert a.view() == b.view()


def test_hunters_and_gatherers_takes_numpy_decks_and_integers():
    normal = list(reversed(NORMAL_TILES))[:40]
    menhir = list(MENHIR_TILES)[::2]
    want = HG.new(players=3, seed=5, normal_deck=normal, menhir_deck=menhir)
    for deck_n, deck_m in (
        (np.array(normal), np.array(menhir, dtype=np.int16)),
        ([np.int64(t) for t in normal], tuple(np.uint8(t) for t in menhir)),
    ):
        got = HG.new(players=np.int32(3), seed=np.uint64(5), normal_deck=deck_n, menhir_deck=deck_m)
        _same_game(got, want)
    for _ in range(6):  # the game plays on alike, with numpy codes
        code = want.actions.legal()[0]
        want.actions.play(code)
        got.actions.play(np.int64(code))
        compact = want.compact.legal()[-1]
        want.compact.play(compact)
        got.compact.play(np.uint32(compact))
    _same_game(got, want)
    assert HG.learn_batch(np.int64(2), players=np.int8(2), seed=np.uint16(4)).games == 2
    assert HG.random_games(np.int64(1), players=np.int64(2), seed=np.int64(1)).games == 1


def test_jaeger_takes_numpy_layouts_options_and_integers():
    camps = list(JS.new().board.summer_camps)
    start = [camps, camps]
    want = JS.new(players=2, seed=9, start=start, mammoths_summer=[5, 6, 7], stall_rounds=4)
    got = JS.new(
        players=np.int64(2),
        seed=np.uint32(9),
        start=np.array(start),
        mammoths_summer=np.array([5, 6, 7], dtype=np.int8),
        stall_rounds=np.int16(4),
    )
    _same_game(got, want)
    for _ in range(6):
        assert not want.is_over
        code = want.compact.legal()[len(want.compact.legal()) // 2]
        want.compact.play(code)
        got.compact.play(np.int64(code))
        dense = want.actions.legal()[len(want.actions.legal()) // 2]
        want.actions.play(dense)
        got.actions.play(np.uint64(dense))
    _same_game(got, want)
    seat = np.int64(1)
    assert got.collection(seat) == want.collection(1)
    assert got.observed_by(seat).view() == want.observed_by(1).view()
    assert got.determinized(seat, np.uint64(3)).view() == want.determinized(1, 3).view()
    for a, b in zip(got.observe(seat).values(), want.observe(1).values(), strict=True):
        assert np.array_equal(a, b)
    assert JS.learn_batch(np.int64(2), players=np.int64(3), seed=np.int64(2)).players == 3
    assert JS.random_games(np.int32(1), players=np.int32(2), seed=np.int32(1)).games == 1


@pytest.mark.parametrize(
    "make",
    [
        lambda: HG.new(normal_deck=np.array([1.0, 2.0])),
        lambda: HG.new(seed=np.float64(3)),
        lambda: HG.new(players=np.bool_(True)),
        lambda: JS.new(mammoths_summer=np.array([4.0, 6.0, 8.0])),
        lambda: JS.new(seed=True),
    ],
)
def test_floats_and_bools_stay_refused(make):
    with pytest.raises(ValueError):
        make()


def test_a_float_code_stays_refused():
    with pytest.raises(IllegalMoveError):
        HG.new().actions.play(np.float64(HG.new().actions.legal()[0]))
