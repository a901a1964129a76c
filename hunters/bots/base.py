"""The bot interface: a bot is given what its seat may see (an `Observation`) and returns a move."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any, ClassVar

from hunters.capabilities import determinized, private_view
from hunters.game_base import AnyGame

__all__ = ["Bot", "Observation", "decision_seed"]

_MASK = 2**64 - 1


def _mix(z: int) -> int:
    """splitmix64's output function: a well-spread 64-bit value of z."""
    z = (z + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def decision_seed(seed: int, obs: Observation) -> int:
    """The seed of one decision: a function of the bot's seed and public facts only (the seat and
    the number of moves played), so equal observations give equal decisions."""
    return _mix(_mix(seed & _MASK) ^ (obs.moves_played * 8 + obs.seat))


class Observation:
    """What one seat may see when it is to move. Built from a game with `Observation.of(game)`;
    holds only `game.observed_by(seat)`, a copy in which every hidden part (the draw order of the
    piles; the winter deck and other seats' face-down tiles in Jäger und Sammler) is a canonical
    placeholder, so two games that look alike to the seat give equal observations.

    - `view`: the public state (`view()` of the game), JSON-ready;
    - `private`: what the seat alone knows (`PrivateViews.private_view`: in Jäger und Sammler its own
      collection, face-down tiles included);
    - `legal_moves()`: the seat's legal moves (they never depend on hidden information);
    - `game()`: a playable copy of the observed game (hidden parts canonical, not true);
    - `determinized(seed)`: a playable copy with the hidden parts drawn at random."""

    __slots__ = ("_game", "_private", "_view", "game_id", "moves_played", "seat")

    def __init__(self, observed: AnyGame, seat: int, private: dict[str, Any] | None = None):
        self._game = observed
        self.game_id: str = observed.INFO.id
        self.seat = seat
        self.moves_played = observed.moves_played
        self._view: dict[str, Any] | None = None
        self._private = private

    @classmethod
    def of(cls, game: AnyGame, seat: int | None = None) -> Observation:
        """The observation of `seat` (default: the seat to move) in `game`. The observed copy is
        the core's (a state copy with the hidden parts canonical); `view` and `private` are built
        on first reading, so a bot that reads neither (``random``, ``greedy``, ``mcts``) pays for
        neither."""
        seat = game.player if seat is None else seat
        return cls(game.observed_by(seat), seat)

    @property
    def view(self) -> dict[str, Any]:
        """The public state (`view()` of the game), JSON-ready (built on first reading)."""
        if self._view is None:
            self._view = self._game.view()
        return self._view

    @property
    def private(self) -> dict[str, Any]:
        """What the seat alone knows (`hunters.capabilities.private_view`; the observed copy keeps all of it),
        built on first reading."""
        if self._private is None:
            self._private = private_view(self._game, self.seat)
        return self._private

    @property
    def players(self) -> int:
        return self._game.players

    @property
    def to_move(self) -> bool:
        """Whether this seat is the one to move."""
        return not self._game.is_over and self._game.player == self.seat

    def legal_moves(self) -> Sequence[Any]:
        return self._game.legal_moves()

    def game(self) -> AnyGame:
        """A playable copy of the observed game (hidden parts canonical: not the true game)."""
        return self._game.clone()

    def determinized(self, seed: int) -> AnyGame:
        """A playable copy with the hidden parts drawn at random from `seed`."""
        return determinized(self._game, self.seat, seed)

    def observed(self) -> AnyGame:
        """The observed game itself, not a copy (for a search that only reads it, such as
        `CoreSearch.search`): do not play on it."""
        return self._game


class Bot(abc.ABC):
    """A player. `choose` gets the observation of the seat to move and returns one of its legal
    moves. Bots are deterministic: the same options (seed included) and the same observation give
    the same move."""

    name: str = "bot"
    SEED = (-(2**63), 2**64 - 1)
    OPTION_RANGES: ClassVar[dict[str, tuple[float, float]]] = {"seed": SEED}
    """The values each option of the spec may take (inclusive): `check_spec` refuses any other."""

    @abc.abstractmethod
    def choose(self, obs: Observation) -> Any:
        """A legal move for `obs.seat`."""

    def __call__(self, game: AnyGame) -> Any:
        """The bot's move for the seat to move in `game` (through its observation)."""
        return self.choose(Observation.of(game))

    def __repr__(self) -> str:
        return self.spec

    @property
    def spec(self) -> str:
        """The bot as a spec string (`hunters.bots.make_bot` makes it again)."""
        return self.name
