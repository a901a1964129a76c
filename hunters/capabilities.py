"""What a game may offer beyond the contract of `hunters.game_base`: each capability is a small
abstract class that a game declares by deriving from it, ``class Game(GameBase[Move, Event],
ExplicitChance, Learnable)``, and then implements whole. The shared layers ask `supports` (or
``isinstance``) and fall back, or refuse in the words of the caller's contract, where the game has
none; the functions below are those fallbacks.

- `ExplicitChance`: chance nodes resolved from outside (OpenSpiel; `perft(chance=True)`), and
  `SeededChance`: the outcome a seed deals at each of them;
- `PrivateViews`: what one seat alone knows, besides the public view;
- `HiddenState`: hidden parts a search samples (`determinized`);
- `Learnable` (and `Afterstates`): compact actions, observations and batches (`hunters.learn`);
- `CoreSearch`: the core's own searches for the `mcts`, `greedy` and `strong` bots;
- `CountsPerft`, `Simulates`: a core that counts perft or plays random games faster than the
  generic Python versions (`hunters.perft`, `hunters.simulate`), with the same answers;
- `Described`: game-specific lines of `GameBase.summary()`.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self, TypeVar

from hunters.game_base import GameBase

if TYPE_CHECKING:
    from hunters.game_base import ActionSpace
    from hunters.info import JSON
    from hunters.learn import LearnBatch, LearnLayout
    from hunters.perft import PerftLimit

__all__ = [
    "Afterstates",
    "CoreSearch",
    "CountsPerft",
    "Described",
    "ExplicitChance",
    "HiddenState",
    "Learnable",
    "LearnableGame",
    "PrivateViews",
    "SearchStats",
    "SeededChance",
    "Simulates",
    "SimulationResult",
    "determinized",
    "private_view",
    "supports",
]

G = TypeVar("G", bound="GameBase[Any, Any]")


def supports(game: object, capability: type) -> bool:
    """Whether a game (an instance or its class) declares `capability`."""
    return issubclass(game if isinstance(game, type) else type(game), capability)


class ExplicitChance(abc.ABC):
    """Random draws as chance nodes (with ``chance="external"``: `player` is -1 while one is pending)."""

    __slots__ = ()

    @abc.abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending chance node's outcomes, (outcome id, probability); [] when a seat is to move or
        the game is over."""

    @abc.abstractmethod
    def apply_chance(self, outcome: int) -> None:
        """Resolve the pending chance node with `outcome` (one of `chance_outcomes()`); anything else
        raises IllegalMoveError and changes nothing."""

    @abc.abstractmethod
    def chance_view(self) -> Self:
        """A copy of this position whose later random draws are chance nodes: what
        `perft(chance=True)` counts from."""


class SeededChance(abc.ABC):
    """External chance that can follow a seed: a game made with ``chance="external"`` and seed s
    names, at each chance node, the outcome ``Game.new(seed=s)`` (internal chance) deals there, so
    chance nodes resolved so reproduce that game (OpenSpiel's parameter ``seed``)."""

    __slots__ = ()

    @abc.abstractmethod
    def seeded_outcome(self) -> int:
        """The pending chance node's outcome in the deal of the game's seed: the first of the seed's
        order not dealt yet (after the seed's own outcomes, exactly the seeded game's); one of
        `chance_outcomes()`. IllegalMoveError (NO_CHANCE_PENDING) when no chance node is pending."""


class PrivateViews(abc.ABC):
    """Private information: what a seat alone knows (its own face-down pieces)."""

    __slots__ = ()

    @abc.abstractmethod
    def private_view(self, seat: int) -> JSON:
        """What `seat` alone knows, JSON-ready, beside the public `view()`."""


class HiddenState(abc.ABC):
    """Parts of the state a seat does not see (a draw order, other seats' pieces)."""

    __slots__ = ()

    @abc.abstractmethod
    def determinized(self, seat: int, seed: int) -> Self:
        """`observed_by(seat)` with the hidden parts drawn at random from `seed` among those
        consistent with what the seat knows (a determinization, for search)."""


class Learnable(abc.ABC):
    """The learning surface (`hunters.learn`): a compact action space, observations and batches."""

    __slots__ = ()

    @abc.abstractmethod
    def learn_layout(self) -> LearnLayout:
        """The compact action space and observation fields of this game's configuration."""

    @property
    @abc.abstractmethod
    def compact(self) -> ActionSpace[Any, Any]:
        """The compact encoding of `learn_layout()`: its size is the layout's `actions`."""

    @abc.abstractmethod
    def observe(self, seat: int, out: dict[str, Any] | None = None, view: str = "observation") -> dict[str, Any]:
        """{field: numpy array} of what `seat` may know now (fields of `learn_layout()`); filled into
        `out`'s arrays when given. `view` (`hunters.learn.VIEWS`): ``"observation"`` what is on the
        table now, ``"information_state"`` also what the seat recalls (its own private facts)."""

    @classmethod
    @abc.abstractmethod
    def learn_batch(
        cls, games: int, players: int = 2, seed: int = 0, view: str = "observation", **options: Any
    ) -> LearnBatch:
        """`games` games stepped together inside the core (`hunters.learn.LearnBatch`)."""


class LearnableGame(GameBase[Any, Any], Learnable):
    """The type of a game known to be `Learnable` (the contract and the capability at once), which
    the learning environments work with once they have checked it; no game derives from it."""

    __slots__ = ()


class Afterstates(abc.ABC):
    """Afterstate features filled by the core, for learners that value moves without playing them."""

    __slots__ = ()

    @abc.abstractmethod
    def learn_afterstates(self) -> tuple[Any, Any]:
        """(codes, table) for the seat to move: the compact codes as int64 [n], and float32
        [n, len(learn_layout().afterstates)], row i the features of codes[i] and of the position it
        leads to (columns named and explained by the layout)."""


@dataclass(frozen=True)
class SearchStats:
    """The root of one search: how many iterations ran, and (index in `legal_moves()`, visits, mean
    reward) of each root move the search tried."""

    iterations: int
    moves: list[tuple[int, int, float]]

    @classmethod
    def of_codes(cls, iterations: int, stats: list[tuple[int, int, float]], codes: list[int]) -> SearchStats:
        """From a core's root statistics by move code, given the legal codes in legal_moves() order."""
        index = {code: i for i, code in enumerate(codes)}
        return cls(iterations, [(index[code], visits, mean) for code, visits, mean in stats])


class CoreSearch(abc.ABC):
    """Searches inside the game's core, which the bots use instead of playing copies in Python."""

    __slots__ = ()

    @abc.abstractmethod
    def search(
        self,
        iterations: int,
        seconds: float,
        c: float,
        margin: float,
        seed: int,
        stop: bytearray | None = None,
        **options: Any,
    ) -> SearchStats:
        """Information-set MCTS from the seat to move (the `mcts` bot calls it on the observed game).
        `margin` weighs the smoothed score margin (scale `INFO.reward_scale`) against the win in the
        reward; another thread setting `stop[0]` ends it at once; `options` are the core's own."""

    @abc.abstractmethod
    def search_state(self) -> Any:
        """A fast, opaque handle on this position for searches that play it out many times (the
        core state: ``clone()``, ``legal_codes()`` in `legal_moves()` order, ``play_code``,
        ``player``, ``over``), read by the game's own search strategy (`hunters.bots.strong`)."""

    @abc.abstractmethod
    def greedy_best(self) -> Sequence[Any] | None:
        """The greedy bot's choice: the moves with the best one-ply value for the seat to move by the
        plugin's `value` (ties within 1e-9 all listed, in `legal_moves()` order), computed in the
        core; None where the core has none (a chance node). The game tests that both agree."""


class CountsPerft(abc.ABC):
    """A perft counted in the core: the same answers as `hunters.perft.python_perft`, faster."""

    __slots__ = ()

    @abc.abstractmethod
    def perft(self, depth: int, divide: bool = False, chance: bool = False, limit: PerftLimit | None = None) -> Any:
        """See `hunters.perft.perft`."""


@dataclass(frozen=True)
class SimulationResult:
    """Totals of n random games: decisions (moves) played, points and wins per seat."""

    games: int
    players: int
    decisions: int
    total_scores: list[int]
    wins: list[int]
    """Games each seat won (tied winners each count a win)."""

    @property
    def mean_scores(self) -> list[float]:
        return [s / self.games for s in self.total_scores] if self.games else []

    @property
    def win_rates(self) -> list[float]:
        return [w / self.games for w in self.wins] if self.games else []


class Simulates(abc.ABC):
    """Random games played inside the core: the same kind of totals as the Python default."""

    __slots__ = ()

    @classmethod
    @abc.abstractmethod
    def random_games(cls, n: int, players: int = 2, seed: int = 0) -> SimulationResult:
        """Play n complete random games; the same arguments give the same result."""


class Described(abc.ABC):
    """Game-specific lines of `GameBase.summary()`."""

    __slots__ = ()

    @abc.abstractmethod
    def summary_lines(self) -> list[str]:
        """Lines about the state, each indented by two spaces."""


def private_view(game: GameBase[Any, Any], seat: int) -> JSON:
    """What `seat` alone knows: the game's `private_view`, or {} for a game without private views."""
    game.check_seat(seat)
    return game.private_view(seat) if isinstance(game, PrivateViews) else {}


def determinized(game: G, seat: int, seed: int) -> G:
    """The game's `determinized(seat, seed)`, or `observed_by(seat)` for a game with nothing hidden."""
    if isinstance(game, HiddenState):
        found: G = game.determinized(seat, seed)
        return found
    return game.observed_by(seat)
