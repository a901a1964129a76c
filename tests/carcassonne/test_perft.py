"""Perft (docs/carcassonne-engine-contract.md#perft): the core's count against the generic Python
perft (legal_moves, clone, play) and against naive enumeration over the reference oracle, on
positions of seeded games, short explicit piles (menhir extra turns, discards, the end of a game)
and in both modes."""

import copy
import random

import pytest

from hunters.carcassonne import Game
from hunters.perft import python_perft
from tests.carcassonne.test_crosscheck import as_tuple
from tests.reference.carcassonne_ref import RefGame
from tests.reference.perft import ref_perft


def advanced(game: Game, plies: int, seed: int) -> Game:
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_moves())))
    return game


def ref_of(game: Game) -> RefGame:
    normal, menhir = game.record_decks
    ref = RefGame(game.players, list(normal), list(menhir))
    for move in game.moves:
        ref.play(as_tuple(move))
    return ref


def ref_count(game: Game, depth: int) -> int:
    return ref_perft(ref_of(game), depth, copy.deepcopy, lambda r: r.is_over)


def test_known_counts_of_a_seeded_start():
    game = Game.new(players=2, seed=1)
    assert [game.perft(d) for d in range(4)] == [1, 15, 656, 54604]
    assert [game.perft(d, chance=True) for d in range(3)] == [1, 15, 50381]


@pytest.mark.parametrize("seed", range(3))
def test_core_agrees_with_generic_and_reference(seed):
    game = advanced(Game.new(players=2 + seed % 4, seed=seed), 3 + 7 * seed, seed)
    assert game.perft(1) == python_perft(game, 1) == ref_count(game, 1)
    assert game.perft(2) == python_perft(game, 2)
    assert game.perft(1, chance=True) == python_perft(game, 1, chance=True)


# normal tiles 0-54 (and 56, the start), menhir tiles 80-94: with short piles, a line reaches
# closed forests with menhirs (extra turns), unplaceable tiles (discards) and the game's end
SHORT_DECKS = [
    ([3, 17, 5, 40, 22], [88, 85, 94]),
    ([0, 1, 2, 10, 11, 12], [80, 91]),
    ([33, 34, 35, 36], [92, 93, 81]),
]


@pytest.mark.parametrize("decks", SHORT_DECKS)
def test_short_piles_to_the_end_of_the_game(decks):
    normal, menhir = decks
    game = Game.new(players=2, normal_deck=normal, menhir_deck=menhir)
    for depth in (1, 2):
        assert game.perft(depth) == python_perft(game, depth) == ref_count(game, depth), depth
    assert game.perft(1, chance=True) == python_perft(game, 1, chance=True)
    short = Game.new(players=2, normal_deck=normal[:1], menhir_deck=[])
    assert short.perft(1) > 0 and short.perft(2) == 0  # every line ends after one decision


def test_menhir_extra_turns_are_counted():
    """Fixed mode follows the rules' flow: at an extra turn and (when the seeds give one) after a
    discard, the core, the generic perft and the oracle agree."""
    found = {"extra": 0, "discard": 0}
    for seed in range(10):
        game = Game.new(players=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and not all(found.values()):
            kind = "extra" if game.extra_turn else "discard" if game.discards else None
            if kind and not found[kind]:
                assert game.perft(1) == ref_count(game, 1)
                assert game.perft(2) == python_perft(game, 2)
                found[kind] = 1
            game.play(rng.choice(list(game.legal_moves())))
        if all(found.values()):
            break
    assert found["extra"], found


def test_divide_lists_every_legal_move_once():
    game = advanced(Game.new(players=3, seed=4), 5, 4)
    rows = game.perft(2, divide=True)
    assert [m for m, _ in rows] == list(game.legal_moves())
    assert sum(n for _, n in rows) == game.perft(2)
    for move, n in rows[:5]:
        child = game.clone()
        child.play(move)
        assert child.perft(1) == n
    assert python_perft(game, 2, divide=True) == rows


def test_chance_counts_do_not_depend_on_the_draw_order():
    a = Game.new(players=2, normal_deck=[3, 17, 5, 40, 22], menhir_deck=[88, 85])
    b = Game.new(players=2, normal_deck=[3, 22, 40, 5, 17], menhir_deck=[85, 88])
    assert a.perft(3) != b.perft(3)
    assert [a.perft(d, chance=True) for d in range(4)] == [b.perft(d, chance=True) for d in range(4)]


def test_chance_root_divides_by_tile():
    game = Game.new(players=2, normal_deck=[3, 17, 5], menhir_deck=[88], chance="external")
    assert game.player == -1
    rows = game.perft(1, divide=True, chance=True)
    assert [t for t, _ in rows] == [t for t, _ in game.chance_outcomes()]
    assert sum(n for _, n in rows) == game.perft(1, chance=True) == python_perft(game, 1, chance=True)
    with pytest.raises(ValueError):
        game.perft(1)


def test_over_and_bad_depths():
    game = Game.new(players=2, normal_deck=[], menhir_deck=[])
    assert game.is_over
    assert [game.perft(0), game.perft(1), game.perft(1, divide=True)] == [1, 0, []]
    for bad in (-1, 65, 1.5):
        with pytest.raises(ValueError):
            Game.new(players=2, seed=1).perft(bad)
