"""The fast core against the independent reference oracle (tests/reference/jaeger_ref.py): on seeded
random games for 2-4 players both must agree at every turn on the position, the scores, the events
and (on a share of the turns, every turn for the shorter games) the full set of legal moves."""

import random

import pytest

from hunters.jaeger import Game, Move
from hunters.jaeger.sim import stays
from tests.reference.jaeger_ref import RefGame

CI_GAMES = 24
SLOW_GAMES = 400


def as_tuple(m: Move) -> tuple[tuple[int | None, ...], tuple[int | None, ...] | None]:
    return (tuple(m.first), None if m.second is None else tuple(m.second))


def ref_for(game: Game, **options) -> RefGame:
    rec = game.to_record()
    return RefGame(game.players, rec["summer"], rec["winter"], rec["start"], **{**rec["options"], **options})


def compare(game: Game, ref: RefGame, where: str) -> None:
    assert game.is_over == ref.over, where
    assert game.season == ref.season, where
    assert [tuple(e) for e in game.events] == ref.events, where
    assert game.scores == ref.scores(), where
    assert game.winners == ref.winners(), where
    assert game.tiles == ref.tiles, where
    assert game.characters == ref.characters(), where
    assert game.supply_packs == ref.supply_packs(), where
    if not game.is_over:
        assert game.player == ref.player, where
    counts = game.tile_counts()
    ref_counts = ref.tile_counts()
    for name in ("laid", "taken", "removed", "on_board"):
        assert {k: v for k, v in counts[name].items() if v} == {k: v for k, v in ref_counts[name].items() if v}, (
            where,
            name,
        )


def cross_check(seed: int, players: int, policy: str, list_every: int, **options) -> int:
    game = Game.new(players=players, seed=seed, **options)
    ref = ref_for(game)
    rng = random.Random(seed)
    turn = 0
    while True:
        where = f"seed {seed}, {players} players, {policy}, {options}, turn {turn}"
        compare(game, ref, where)
        if game.is_over:
            return turn
        core_moves = [as_tuple(m) for m in game.legal_moves()]
        assert len(core_moves) == len(set(core_moves)), where
        if turn % list_every == 0:
            assert set(core_moves) == ref.legal_moves(), where
        pool = core_moves
        if policy == "stay":
            pool = [m for m in core_moves if stays(Move.of(*[s for s in m if s is not None]))] or core_moves
        move = rng.choice(pool)
        game.play(Move.of(*[s for s in move if s is not None]))
        ref.play(move)
        turn += 1


@pytest.mark.parametrize("seed", range(CI_GAMES))
def test_core_agrees_with_reference(seed):
    players = 2 + seed % 3
    if seed % 2:
        cross_check(seed, players, "uniform", 1)
    else:
        cross_check(seed, players, "stay", 7)


@pytest.mark.parametrize(
    "options",
    [
        {"straight_jumps": True},
        {"stall_rounds": 2},
        {"winter_start": "seat0"},
        {"ties": "no_winner"},
        {"mammoths_summer": [5, 5, 5]},
    ],
)
def test_core_agrees_with_reference_under_options(options):
    for seed in range(2):
        cross_check(1000 + seed, 2 + seed, "stay", 5, **options)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(CI_GAMES, CI_GAMES + SLOW_GAMES))
def test_core_agrees_with_reference_long(seed):
    cross_check(seed, 2 + seed % 3, "stay" if seed % 2 == 0 else "uniform", 1)


# Hand-made positions of the issue-10 rules (tests/jaeger/test_rules_season_end.py, _winter.py), where
# the old and the new rules differ: the oracle must agree with the core on them too.
ISSUE_10_POSITIONS = [
    ("S mammoth5 | S S", [[0], [2]], {}, []),
    (
        "S weapon path mammoth5 | S S",
        [[0], [4]],
        {"edges": [(0, 2)]},
        [((0, 1), (1, 0)), ((4, 5), (5, 4)), ((0, 2), (2, 3)), ((4, 5), (5, 4)), ((3, 2), (2, 0))],
    ),
    ("S weapon S | S path mammoth5", [[0], [3]], {}, [((0, 1), (1, 2))]),
    (
        "S S weapon mammoth8 | S weapon mammoth4 S S",
        [[0, 1], [4]],
        {"stall_rounds": 1},
        [((1, 2), (2, 3)), ((4, 5), (5, 6)), ((0, 1), (1, 0)), ((6, 7), (7, 8)), ((0, 1), (1, 0)), ((8, 7), (7, 8))],
    ),
    (
        "mammoth8 weapon S S weapon mammoth8",
        [[1, 2], [4]],
        {},
        [((1, 0), (2, 3)), ((4, 5), (5, None)), ((0, None), (3, None))],
    ),
]


@pytest.mark.parametrize("cells, start, kw, moves", ISSUE_10_POSITIONS)
def test_core_agrees_with_reference_on_the_issue_10_positions(cells, start, kw, moves):
    from .helpers import line

    game = line(cells, start, winter=["berries", "herbs"], **kw)
    ref = ref_for(game)
    for i, move in enumerate(moves):
        compare(game, ref, f"{cells} before move {i}")
        assert set(as_tuple(m) for m in game.legal_moves()) == ref.legal_moves()
        game.play(Move.of(*[s for s in move if s is not None]))
        ref.play((move[0], move[1] if len(move) > 1 else None))
    compare(game, ref, f"{cells} at the end")
    assert game.season != "summer"
