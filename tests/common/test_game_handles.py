"""The public block at the end of each built-in `Game` (for the game's own modules): the read-only
`core` handle and the core's codes of moves (`encode`, `play_code`; Jäger's `decode`)."""

import pytest

from hunters.carcassonne import Game as HG
from hunters.errors import IllegalMoveError
from hunters.jaeger import Game as JS


@pytest.mark.parametrize("cls", [HG, JS])
def test_core_handle_and_core_codes(cls):
    game = cls.new(players=2, seed=5)
    assert game.core is game.search_state()
    with pytest.raises(AttributeError):
        game.core = game.core  # read-only
    for _ in range(12):
        moves = game.legal_moves()
        move = moves[len(moves) // 2]
        twin = game.clone()
        code = game.encode(move)
        if cls is JS:
            assert game.decode(code) == move
        assert twin.play_code(code) == game.play(move)
        assert (twin.events, twin.to_record()) == (game.events, game.to_record())
    with pytest.raises(IllegalMoveError):
        game.encode("not a move")
