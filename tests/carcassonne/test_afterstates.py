"""The afterstate table the core fills (`Game.learn_afterstates`): one row per legal compact code,
in `learn_actions()` order, each column what its name in AFTERSTATE_FEATURES says, checked against
playing the move on a copy in Python."""

import random

import numpy as np
import pytest

from hunters.carcassonne import Game
from hunters.carcassonne.learn import AFTERSTATE_FEATURES
from hunters.carcassonne.strategy import estimates
from hunters.carcassonne.tiles import ZONE_TYPES

COLUMNS = [name for name, _ in AFTERSTATE_FEATURES]


def expected_row(game: Game, code: int) -> list[float]:
    seat = game.player
    after = game.clone()
    move = after.compact.to_move(code)
    after.compact.play(code)
    gains = [a - b for a, b in zip(after.scores, game.scores, strict=True)]
    others = [p for p in range(game.players) if p != seat]
    est_b, est_a = estimates(game.core), estimates(after.core)
    occ = move.occupant
    stands = occ is not None and any(z == occ.zone and s == seat for z, s, _ in after.occupants)
    zone = ZONE_TYPES.get(occ.zone) if occ is not None else None
    row = {
        "bias": 1.0,
        "points": gains[seat] / 10,
        "others_points": max(gains[p] for p in others) / 10,
        "lead": (after.scores[seat] - max(after.scores[p] for p in others)) / 50,
        "estimated_lead": (est_a[seat] - max(est_a[p] for p in others)) / 50,
        "estimated_gain": (est_a[seat] - est_b[seat]) / 20,
        "meeples": after.meeples[seat] / 5,
        "huts": after.huts[seat] / 3,
        "meeple_stands": float(stands and occ.kind == "meeple"),
        "hut_stands": float(stands and occ.kind == "hut"),
        "on_forest": float(zone == "forest"),
        "on_meadow": float(zone == "meadow"),
        "on_river": float(zone == "river"),
        "on_lake": float(zone == "lake"),
        "retake": float(move.retake is not None),
        "moves_again": float(not after.is_over and after.player == seat),
        "normal_left": game.piles[0] / 78,
    }
    return [row[c] for c in COLUMNS]


@pytest.mark.parametrize("players", [2, 3])
def test_afterstate_rows_are_their_moves_features(players):
    rng = random.Random(players)
    checked, seen = 0, set()
    for seed in range(3):
        game = Game.new(players=players, seed=seed)
        while not game.is_over:
            codes, table = game.learn_afterstates()
            assert codes.tolist() == game.compact.legal() and table.shape == (len(codes), len(COLUMNS))
            assert table.dtype == np.float32
            for i in rng.sample(range(len(codes)), min(4, len(codes))):
                assert np.allclose(table[i], expected_row(game, int(codes[i])), atol=1e-5), COLUMNS
                seen |= {c for c, v in zip(COLUMNS, table[i], strict=True) if v}
                checked += 1
            game.play(rng.choice(game.legal_moves()))
    assert checked > 300 and {"points", "meeple_stands", "hut_stands", "on_lake", "estimated_lead"} <= seen


def test_layout_names_the_columns_and_an_ended_game_has_no_rows():
    game = Game.new(players=2, seed=1)
    assert game.learn_layout().afterstates == AFTERSTATE_FEATURES and len(COLUMNS) == len(set(COLUMNS))
    rng = random.Random(1)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    codes, table = game.learn_afterstates()
    assert codes.shape == (0,) and table.shape == (0, len(COLUMNS))
