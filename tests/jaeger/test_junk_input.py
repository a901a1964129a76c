"""Junk configurations and records (issue 7): whatever a user sends, `Game.new` answers with a
ValueError saying what is wrong (never an OverflowError, MemoryError, RecursionError or a slow
build), and `Game.from_record` with an InvalidRecordError."""

import math
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hunters.jaeger import DEFAULT_OPTIONS, Game, InvalidRecordError

OPTION_NAMES = sorted(DEFAULT_OPTIONS)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**31 - 2, max_value=2**70),
    st.integers(min_value=-(2**70), max_value=-(2**31)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0]),
    st.text(max_size=20),
    st.text(min_size=300, max_size=2000),
    st.binary(max_size=10),
    st.sampled_from(["berries", "mammoth8", "mammoth99", "after_last", "shared", "grid", "spaces"]),
)
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers()), inner, max_size=5),
    ),
    max_leaves=25,
)


def deep(levels: int):
    v: object = 1
    for _ in range(levels):
        v = [v]
    return v


HANG_SECONDS = 5.0  # refusing junk takes milliseconds; a quadratic check or a hang takes far longer


def assert_refused_clearly(call) -> None:
    start = time.perf_counter()
    try:
        call()
    except ValueError as exc:  # InvalidRecordError and IllegalMoveError are ValueErrors
        assert str(exc), "an error needs a message"
    # a bound on the work (no hang, no blow-up on huge or deep input), loose enough for a busy machine
    assert time.perf_counter() - start < HANG_SECONDS


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([*OPTION_NAMES, "wild_fire", "", "board "]),
    value=junk,
    players=st.one_of(st.integers(min_value=-3, max_value=6), junk),
    seed=st.one_of(st.integers(), junk),
)
def test_junk_options_are_a_value_error(name, value, players, seed):
    assert_refused_clearly(lambda: Game.new(players=players, seed=seed, **{name: value}))


@settings(max_examples=150, deadline=None)
@given(summer=junk, winter=junk, start=junk)
def test_junk_layouts_are_a_value_error(summer, winter, start):
    assert_refused_clearly(lambda: Game.new(players=2, summer=summer, winter=winter, start=start))


@pytest.mark.parametrize(
    "options",
    [
        {"board": {"grid": {"rows": 3000, "cols": 3000}}},  # ~1 GB of cells before issue 7
        {"board": {"grid": {"rows": 2**31, "cols": 2**31}}},
        {"board": {"grid": {"rows": 1, "cols": 10**6, "missing": [[0, c] for c in range(5000)]}}},
        {"board": {"spaces": [{"kind": "tile"}] * 5000}},
        {"board": {"spaces": [{"kind": "tile"}] * 4, "adjacency": [[0, 1]] * 100_000}},
        {"board": {"grid": {"rows": 10, "cols": 12}, "camps": {}, "extra": 1}},
        {"board": deep(10_000)},
        {"mammoths_summer": deep(50)},
        {"stall_rounds": math.nan},
        {"stall_rounds": math.inf},
        {"stall_rounds": 2**31},
        {"stall_rounds": 2**64 + 1},
        {"mammoths_summer": [4, 6, 2**31]},
        {"mammoths_summer": [4.0, 6.0, 8.0]},
        {"mammoths_winter": "345678"},
        {"mammoths_summer": iter([4, 6, 8])},
        {"ties": ["shared"]},
        {"winter_start": {"x": 1}},
        {"open_collections": 1},
        {"open_collections": "yes"},
        {"straight_jumps": math.nan},
        {"ties": "x" * 10**6},
        {"bogus": 1},
    ],
)
def test_bad_options_are_refused_quickly_with_a_reason(options):
    start = time.perf_counter()
    with pytest.raises(ValueError) as exc:
        Game.new(players=2, **options)
    assert str(exc.value) and len(str(exc.value)) < 1000
    assert time.perf_counter() - start < HANG_SECONDS


def test_deep_layouts_are_refused():
    for kwargs in ({"summer": deep(100_000)}, {"winter": deep(100)}, {"start": deep(100)}):
        with pytest.raises(ValueError, match="nested deeper"):
            Game.new(players=2, **kwargs)


@settings(max_examples=200, deadline=None)
@given(
    record=st.one_of(
        junk,
        st.fixed_dictionaries(
            {"game": st.just("jaeger_sammler")},
            optional={
                "format": junk,
                "players": junk,
                "seed": junk,
                "options": junk,
                "summer": junk,
                "winter": junk,
                "start": junk,
                "moves": junk,
            },
        ),
    )
)
def test_junk_records_are_an_invalid_record_error(record):
    try:
        Game.from_record(record)
    except InvalidRecordError as exc:
        assert str(exc)


@settings(max_examples=100, deadline=None)
@given(moves=st.lists(junk, max_size=4), option=st.sampled_from(OPTION_NAMES), value=junk)
def test_junk_moves_and_options_in_a_real_record(moves, option, value):
    rec = Game.new(players=2, seed=3).to_record()
    for bad in ({**rec, "moves": moves}, {**rec, "options": {**rec["options"], option: value}}):
        try:
            Game.from_record(bad)
        except InvalidRecordError as exc:
            assert str(exc)
