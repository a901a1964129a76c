"""The contract every game implements: what the service, the CLI, the harness and bots may rely on.

A game is a class deriving from `GameBase` (OpenSpiel's `State` and `GameType` in one):

- `INFO`, a `GameInfo`: id, player range, action-space size, record format;
- construction: `new(players, seed, **options)`, `from_record(record)`, `clone()`;
- state: `players`, `player`, `is_over`, `scores`, `winners`, `events`, `moves`, `seed`,
  `score_breakdown()`, `view()` (public JSON), `to_record()`;
- moves: `legal_moves()` (a `Sequence` of the game's move type), `play(move)` (returns events),
  `check(move)`, `is_legal(move)`;
- two integer encodings of a move, each one `ActionSpace` (size, legal, mask, to_move,
  from_move, play): `actions` (dense: bots, the service) and `compact` (learning); the methods
  `legal_actions()` ... `play_action()` and `learn_actions()` ... `play_learn()` are shorthands;
- `random_games(n, players, seed)` -> `SimulationResult`.
- learning (`hunters.learn`): a compact action space with masks, per-seat observations, a batch
  stepped in the core, and chance outcomes for OpenSpiel (`learn_layout()`, `observe()`, ...).

What both games used to copy lives here once: the legal-move sequence (membership through
`is_legal`), seed and player checks, the header checks and replay loop of `from_record`, `winners`,
simulation results and a readable text summary. A game implements `_code(move)` (the core's code
of a legal move, or IllegalMoveError saying why not) and the abstract members below.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, overload

from hunters.errors import IllegalMoveError, InvalidOptionError, InvalidRecordError, PerftStopped
from hunters.learn import LearnBatch, LearnLayout

__all__ = [
    "MAX_SEED",
    "MEMO_LIMIT",
    "ActionSpace",
    "GameBase",
    "GameInfo",
    "LegalMoves",
    "Option",
    "PerftLimit",
    "SearchStats",
    "SimulationResult",
    "check_seed",
    "perft_children",
    "python_perft",
    "remember",
]

MAX_SEED = 2**64 - 1
"""Seeds are ints in 0..MAX_SEED (the cores' splitmix64 state)."""

M = TypeVar("M")
T = TypeVar("T")


@dataclass(frozen=True)
class Option:
    """One option of `Game.new`: what the schema says of it (validation stays the game's own, in
    its core's words; the schema is what `--help`, GetGameInfo and the docs show)."""

    name: str
    type: str
    """``bool``, ``int``, ``str``, ``ints`` (a list of integers), or ``json`` (structured data)."""
    default: Any = None
    doc: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()


CHANCE_MODES = ("deterministic", "sampled", "explicit")
UTILITIES = ("general_sum", "zero_sum", "constant_sum", "identical")


@dataclass(frozen=True)
class GameInfo:
    """What a game is, before any game is made (OpenSpiel's GameType): the shared layers read this
    instead of keeping tables of their own."""

    id: str
    """Registry id (lower case, underscores); records and the service name the game by it."""
    name: str
    """Human name."""
    min_players: int
    max_players: int
    action_space_size: int
    """Size of the dense action space of the default configuration."""
    record_format: int
    """Version of `to_record()`'s layout; `from_record` refuses other versions."""
    perfect_information: bool = True
    """Whether every seat sees the whole state (chance aside): OpenSpiel's information type."""
    chance: str = "deterministic"
    """``deterministic`` (no chance), ``sampled`` (drawn from the seed inside the game) or
    ``explicit`` (also offered as chance nodes with ``chance="external"``: `chance_outcomes`)."""
    utility: str = "general_sum"
    """OpenSpiel's utility: the seats' final scores are ``general_sum`` in both built-in games."""
    reward_scale: float = 10.0
    """Points that make a clear margin between two seats (search rewards are smoothed by it)."""
    short_name: str = ""
    """CamelCase name for Gymnasium ids (``hunters/<short_name>-v0``); default: the id in CamelCase."""
    max_game_length: int = 10_000
    """An upper bound on the decisions of one game with the default options, and on its chance nodes
    with ``chance="external"`` (OpenSpiel's max_game_length, which bounds both for a Python game)."""
    options: tuple[Option, ...] = ()
    """The options of `Game.new` besides players and seed."""

    def __post_init__(self) -> None:
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {CHANCE_MODES}")
        if self.utility not in UTILITIES:
            raise ValueError(f"utility must be one of {UTILITIES}")

    @property
    def gym_name(self) -> str:
        return self.short_name or "".join(part.title() for part in self.id.split("_"))

    def check_players(self, players: Any) -> int:
        """`players` if it is an integer in the game's range, else ValueError."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise ValueError(f"players must be an integer from {self.min_players} to {self.max_players}")
        return players

    def check_option_names(self, options: Any) -> None:
        """InvalidOptionError naming the options of the schema when `options` holds another name."""
        known = {o.name for o in self.options}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidOptionError(
                f"unknown option(s) {unknown} of {self.id}; the options are {sorted(known) or 'none'}"
            )


MEMO_LIMIT = 200_000
"""Entries a decoded-move memo holds before it is cleared whole."""


def remember(memo: dict[Any, Any], key: Any, value: T) -> T:
    """Put a decoded move into a memo (the one memo strategy of every game): codes repeat across
    decisions, so decoding each once pays; a memo that reaches MEMO_LIMIT is cleared whole, since a
    game's working set is far below it and an LRU would cost more on every hit than it saves."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


def check_seed(seed: Any, *, optional: bool = True) -> int | None:
    """`seed` if it is an int in 0..MAX_SEED (or None when optional), else ValueError."""
    if seed is None and optional:
        return None
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an integer from 0 to {MAX_SEED}")
    return seed


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


@dataclass(frozen=True)
class SearchStats:
    """The root of one search: how many iterations ran, and (index in `legal_moves()`, visits, mean
    reward) of each root move the search tried."""

    iterations: int
    moves: list[tuple[Any, int, float]]

    @classmethod
    def of_codes(cls, iterations: int, stats: list[tuple[int, int, float]], codes: list[int]) -> SearchStats:
        """From a core's root statistics by move code, given the legal codes in legal_moves() order."""
        index = {code: i for i, code in enumerate(codes)}
        return cls(iterations, [(index[code], visits, mean) for code, visits, mean in stats])


class PerftLimit:
    """Bounds of a perft (`GameBase.perft`'s `limit`): `stop`, a byte another thread sets to 1 to stop
    the count at once (read by the cores without the GIL), and `nodes`, the most positions (nodes whose
    moves are listed; bulk-counted leaves are not expanded) the counts made under it may still expand
    together (None: no bound). `used` adds up what they expanded. A count past either bound raises
    PerftStopped."""

    __slots__ = ("nodes", "stop", "used")

    def __init__(self, nodes: int | None = None, stop: bytearray | None = None):
        self.nodes = nodes
        self.stop = stop if stop is not None else bytearray(1)
        self.used = 0

    def run(self, count: Callable[[int], tuple[int | None, int]]) -> int:
        """`count(most nodes, -1: any)` -> (leaves or None when it stopped, nodes expanded), charged."""
        leaves, used = count(-1 if self.nodes is None else self.nodes - self.used)
        self.used += used
        if leaves is None:
            self.raise_stopped()
        assert leaves is not None
        return leaves

    def step(self) -> None:
        """One position expanded by a count in Python (PerftStopped past a bound)."""
        self.used += 1
        if self.stop[0] or (self.nodes is not None and self.used > self.nodes):
            self.raise_stopped()

    def raise_stopped(self) -> None:
        raise PerftStopped("STOPPED" if self.stop[0] else "NODE_LIMIT", self.used)


class LegalMoves(Sequence[M]):
    """The legal moves of one decision: an immutable sequence backed by the core's codes, so listing
    is cheap and a move object is only built when it is read. Membership asks the game
    (`is_legal`) while it is still at that decision, instead of decoding every move."""

    __slots__ = ("_codes", "_decode", "_game", "_stamp")

    def __init__(self, game: GameBase, codes: list[int], decode: Callable[[int], M]):
        self._game = game
        self._stamp = game.moves_played
        self._codes = codes
        self._decode = decode

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, index: int) -> M: ...
    @overload
    def __getitem__(self, index: slice) -> list[M]: ...
    def __getitem__(self, index: int | slice) -> M | list[M]:
        if isinstance(index, slice):
            return [self._decode(c) for c in self._codes[index]]
        return self._decode(self._codes[index])

    def __iter__(self) -> Iterator[M]:
        decode = self._decode
        return (decode(c) for c in self._codes)

    def __contains__(self, move: object) -> bool:
        if self._game.moves_played == self._stamp:
            return self._game.is_legal(move)
        return any(m == move for m in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves):
            return list(self) == list(other)
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @property
    def codes(self) -> list[int]:
        """The core's codes of the moves, in the same order."""
        return list(self._codes)

    def __repr__(self) -> str:
        return f"LegalMoves({list(self)!r})"


class ActionSpace(abc.ABC, Generic[M]):
    """One integer encoding of a game's moves, at the game's current decision. A game has two:
    `GameBase.actions`, the dense codes (a fixed space, stable across versions: the service's action
    codes) and `GameBase.compact`, the learning codes (`hunters.learn`). A game implements each as
    one subclass; the codes of one decision are `legal()`, ascending."""

    __slots__ = ("game",)

    def __init__(self, game: GameBase) -> None:
        self.game = game

    @property
    @abc.abstractmethod
    def size(self) -> int:
        """Codes are 0 to size - 1."""

    @abc.abstractmethod
    def legal(self) -> list[int]:
        """The codes of every legal move, ascending."""

    def mask(self, out: Any = None) -> Any:
        """One byte per code, 1 where legal: a new bytearray, or filled into `out` (any writable
        buffer of `size` bytes, e.g. a uint8 numpy array), which is then returned."""
        mask = bytearray(self.size) if out is None else out
        if out is not None:
            mask[:] = bytes(self.size)
        for code in self.legal():
            mask[code] = 1
        return mask

    @abc.abstractmethod
    def to_move(self, code: int) -> M:
        """The move a code stands for now (IllegalMoveError when it stands for none)."""

    @abc.abstractmethod
    def from_move(self, move: Any) -> int:
        """The code of a move that is legal now (IllegalMoveError otherwise)."""

    def play(self, code: int) -> list[Any]:
        """Play the move of a code: its events (an illegal code raises IllegalMoveError and changes
        nothing)."""
        return self.game.play(self.to_move(code))


class PairedActions(ActionSpace[Any]):
    """The dense encoding of a game that lists its (move, code) pairs (`legal_moves_with_actions`):
    the default of `GameBase.ACTIONS`; a game whose core computes codes fast brings its own."""

    __slots__ = ()

    @property
    def size(self) -> int:
        return self.game.action_space_size

    def legal(self) -> list[int]:
        return sorted(a for _, a in self.game.legal_moves_with_actions())

    def to_move(self, code: int) -> Any:
        if type(code) is not int or not 0 <= code < self.size:
            raise IllegalMoveError("MALFORMED", f"action must be an integer from 0 to {self.size - 1}", code)
        for m, a in self.game.legal_moves_with_actions():
            if a == code:
                return m
        raise IllegalMoveError("ILLEGAL_ACTION", "that action is not legal now", code)

    def from_move(self, move: Any) -> int:
        self.game.check(move)
        return next(a for m, a in self.game.legal_moves_with_actions() if m == move)


class GameBase(abc.ABC):
    """The contract of a game; see the module docstring. Subclasses set `INFO` and `GAME_ID`."""

    __slots__ = ()
    INFO: ClassVar[GameInfo]
    GAME_ID: ClassVar[str]
    ACTIONS: ClassVar[type[ActionSpace[Any]]] = PairedActions
    """The class of the game's dense encoding (`actions`)."""

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    @abc.abstractmethod
    def new(cls, players: int = 2, seed: int | None = 0, **options: Any) -> GameBase:
        """A new game; every option has a default. Bad arguments raise ValueError."""

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> GameBase:
        """Replay a record made by `to_record` (or by hand) to the identical game; a record that is
        malformed or does not replay raises InvalidRecordError. A record of a game with external
        chance may list its ``outcomes``: each is applied when a chance node is pending."""
        cls._check_record_header(record)
        try:
            game = cls._new_from_record(record)
        except (KeyError, ValueError, TypeError) as exc:
            raise InvalidRecordError(f"bad configuration: {exc}") from None
        moves, outcomes = record.get("moves", []), record.get("outcomes", [])
        if not isinstance(moves, list) or not isinstance(outcomes, list):
            raise InvalidRecordError("moves and outcomes must be lists")
        used = 0  # outcomes applied so far

        def settle(at_end: bool) -> None:
            """Apply outcomes while a chance node is pending (its seat to move is -1)."""
            nonlocal used
            while game.player == -1 and not game.is_over:
                if used == len(outcomes):
                    if at_end:
                        return
                    raise InvalidRecordError(f"move {i} comes while a chance node is pending")
                try:
                    game.apply_chance(outcomes[used])
                except IllegalMoveError as exc:
                    raise InvalidRecordError(f"outcome {used} is not a chance outcome: {exc}") from None
                used += 1

        for i, data in enumerate(moves):
            try:
                move = cls.move_from_json(data)
            except (KeyError, TypeError, AttributeError, ValueError) as exc:
                raise InvalidRecordError(f"move {i} is malformed: {exc!r}") from None
            if outcomes:
                settle(False)
            try:
                game.play(move)
            except IllegalMoveError as exc:
                raise InvalidRecordError(f"move {i} is illegal: {exc}") from None
        if outcomes:
            settle(True)
            if used < len(outcomes):
                raise InvalidRecordError(f"outcome {used} comes where no chance node is pending")
        return game

    @classmethod
    def _check_record_header(cls, record: Any) -> None:
        info = cls.INFO
        if not isinstance(record, dict) or record.get("game") != info.id:
            raise InvalidRecordError(f"not a {info.id} record")
        if record.get("format", info.record_format) != info.record_format:
            raise InvalidRecordError(f"unknown record format {record.get('format')!r}")

    @classmethod
    def _new_from_record(cls, record: dict[str, Any]) -> GameBase:
        """The game of a record's configuration, before its moves (KeyError/ValueError/TypeError
        when the configuration is bad)."""
        raise NotImplementedError

    @classmethod
    def move_from_json(cls, data: Any) -> Any:
        """A move of the game from its `to_json()` form (what records and the wire's JSON moves carry;
        KeyError/ValueError/TypeError when it is malformed)."""
        raise NotImplementedError

    @abc.abstractmethod
    def clone(self) -> GameBase:
        """An independent copy."""

    @abc.abstractmethod
    def to_record(self) -> dict[str, Any]:
        """The game as JSON-ready data: ``game``, ``format``, ``players``, ``seed``, the rest of
        the configuration, and ``moves`` (each move's `to_json()`)."""

    # -- state -----------------------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def players(self) -> int: ...

    @property
    @abc.abstractmethod
    def player(self) -> int:
        """Seat (0-based) whose decision it is."""

    @property
    @abc.abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abc.abstractmethod
    def scores(self) -> list[int]:
        """Each seat's total (final once the game is over)."""

    @property
    def winners(self) -> list[int]:
        """Seats with the highest total once the game is over (ties share); [] before."""
        if not self.is_over:
            return []
        scores = self.scores
        return [p for p, s in enumerate(scores) if s == max(scores)]

    @property
    @abc.abstractmethod
    def events(self) -> list[Any]:
        """Everything that happened so far (the game's event tuples), in order."""

    @property
    @abc.abstractmethod
    def moves(self) -> list[Any]:
        """The moves played so far."""

    @property
    def moves_played(self) -> int:
        """How many moves were played (cheap where the core counts them)."""
        return len(self.moves)

    @property
    @abc.abstractmethod
    def seed(self) -> int | None: ...

    @abc.abstractmethod
    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's points by kind (names are the game's own), with ``total``."""

    @abc.abstractmethod
    def view(self) -> dict[str, Any]:
        """The public state as JSON-ready data (what a spectator may see)."""

    def observed_by(self, seat: int) -> GameBase:
        """A copy of the game as `seat` may know it (bots play on this, never on the game): every
        hidden part (a draw order, a deck not yet dealt, other seats' face-down pieces) is replaced
        by a canonical placeholder that depends only on public information and the seat's own, so
        two games that look the same to the seat give equal copies. The copy plays on like a game
        but is not the true game (its record does not replay the real one). A game without hidden
        information returns a plain clone."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"seat must be an int from 0 to {self.players - 1}")
        return self.clone()

    def determinized(self, seat: int, seed: int) -> GameBase:
        """`observed_by(seat)` with the hidden parts drawn at random from `seed` among those
        consistent with what the seat knows (a determinization, for search)."""
        return self.observed_by(seat)

    def private_view(self, seat: int) -> dict[str, Any]:
        """What `seat` alone knows (JSON-ready), beside the public `view()`: e.g. its own face-down
        pieces. Empty for a game without private information."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"seat must be an integer from 0 to {self.players - 1}")
        return {}

    def search(
        self,
        iterations: int,
        seconds: float,
        c: float,
        margin: float,
        seed: int,
        stop: bytearray | None = None,
        **options: Any,
    ) -> SearchStats | None:
        """Information-set MCTS from the seat to move, inside the game's core (a hook the `mcts` bot
        calls on the observed game): None when the game has no search of its own (the bot then
        searches in Python over `determinized` copies). `margin` weighs the smoothed score margin
        (scale `INFO.reward_scale`) against the win in the reward; another thread setting `stop[0]`
        ends the search at once; `options` are the core's own."""
        return None

    def search_state(self) -> Any:
        """A fast, opaque handle on this position for searches that play it out many times (the
        game's core state: ``clone()``, ``legal_codes()`` in `legal_moves()` order, ``play_code``,
        ``player``, ``over``), read by the game's own search strategy; None for a game without one."""
        return None

    def greedy_best(self) -> Sequence[Any] | None:
        """The greedy bot's fast path (`hunters.bots.GreedyBot`): the moves with the best one-ply
        value for the seat to move by the game's plugin `value` (ties within 1e-9 all listed, in
        `legal_moves()` order; a sequence whose moves are built when read), computed by the game's
        core; None for a game without one (the bot then plays every move on a copy in Python). The
        plugin `value` stays the definition: a game offering this path tests that both agree."""
        return None

    def points_by_kind(self) -> dict[str, list[int]]:
        """Points per kind, one entry per seat: the transpose of `score_breakdown()` sans total."""
        parts = self.score_breakdown()
        kinds = [k for k in parts[0] if k != "total"] if parts else []
        return {k: [p[k] for p in parts] for k in kinds}

    def summary(self) -> str:
        """The state in a few readable lines (the CLI's `replay` prints it)."""
        info = self.INFO
        status = "over" if self.is_over else f"seat {self.player} to play"
        lines = [f"{info.name} ({info.id}), {self.players} players, {self.moves_played} moves: {status}"]
        lines += self._summary_lines()
        seats = "".join(f"{'seat ' + str(p):>9}" for p in range(self.players))
        lines.append(f"  {'points':<14}{seats}")
        for kind, pts in self.points_by_kind().items():
            lines.append(f"  {kind:<14}" + "".join(f"{v:>9}" for v in pts))
        lines.append(f"  {'total':<14}" + "".join(f"{v:>9}" for v in self.scores))
        if self.is_over:
            w = self.winners
            lines.append("  winner" + ("s: " if len(w) > 1 else ": ") + (", ".join(f"seat {p}" for p in w) or "none"))
        return "\n".join(lines)

    def _summary_lines(self) -> list[str]:
        """Game-specific lines of `summary()` (indented by two spaces)."""
        return []

    # -- moves -----------------------------------------------------------------------------------
    @abc.abstractmethod
    def legal_moves(self) -> Sequence[Any]:
        """Every legal move of the current decision, in a documented order; empty once over."""

    @abc.abstractmethod
    def _code(self, move: Any) -> int:
        """The core's code of a legal move, or IllegalMoveError saying why not (changes nothing)."""

    @abc.abstractmethod
    def play(self, move: Any) -> list[Any]:
        """Play one whole decision; return the events it caused. An illegal move raises
        IllegalMoveError and changes nothing."""

    def check(self, move: Any) -> None:
        """Raise IllegalMoveError if `move` is not legal now; change nothing."""
        self._code(move)

    def is_legal(self, move: Any) -> bool:
        try:
            self._code(move)
        except IllegalMoveError:
            return False
        return True

    # -- dense action encoding (bots, reinforcement learning) ------------------------------------
    @property
    def action_space_size(self) -> int:
        """Size of this game's action space (INFO.action_space_size unless options change it)."""
        return self.INFO.action_space_size

    @property
    def actions(self) -> ActionSpace[Any]:
        """The dense encoding (a fixed action space; the service's action codes)."""
        return self.ACTIONS(self)

    def legal_actions(self) -> list[int]:
        """Action codes of every legal move, ascending (`actions.legal()`)."""
        return self.actions.legal()

    def action_mask(self) -> bytearray:
        """One byte per action of the game's action space, 1 where the action is legal
        (`numpy.frombuffer`-ready; `actions.mask()`)."""
        mask: bytearray = self.actions.mask()
        return mask

    def move_to_action(self, move: Any) -> int:
        """The action code of a move that is legal now (IllegalMoveError otherwise)."""
        return self.actions.from_move(move)

    def action_to_move(self, action: int) -> Any:
        """The move an action code stands for now (it may still be illegal)."""
        return self.actions.to_move(action)

    def play_action(self, action: int) -> list[Any]:
        """Play the move of an action code."""
        return self.actions.play(action)

    @abc.abstractmethod
    def legal_moves_with_actions(self) -> list[tuple[Any, int]]:
        """(move, action code) of every legal move, in legal_moves() order."""

    def legal_action_keys(self) -> tuple[Hashable, list[int]] | None:
        """(context, actions): the action code of every legal move in legal_moves_with_actions()
        order, and a context such that, for every game of this class, one (context, action) always
        stands for one move, the one `action_to_move(action)` gives. It lets the service list legal
        moves from codes it has encoded before, building only the moves of the others. None (the
        default, or a decision whose moves an action does not fix): no such promise."""
        return None

    # -- learning (hunters.learn: compact actions, observations, batches, chance) ---------------
    def learn_layout(self) -> LearnLayout:
        """The compact action space and observation fields of this game's configuration."""
        raise NotImplementedError(f"{self.INFO.id} has no learning layout")

    @property
    def compact(self) -> ActionSpace[Any]:
        """The compact encoding of `learn_layout()` (learning: its size is the layout's `actions`)."""
        raise NotImplementedError(f"{self.INFO.id} has no compact actions")

    def learn_actions(self) -> list[int]:
        """Compact codes of every legal move, ascending (`compact.legal()`)."""
        return self.compact.legal()

    def learn_afterstates(self) -> tuple[Any, Any]:
        """(codes, table) for the seat to move: `learn_actions()` as int64 [n], and float32
        [n, len(learn_layout().afterstates)], row i the features of codes[i] and of the position it
        leads to (columns named and explained by the layout), filled by the game's core. For
        learners that value afterstates without playing each move on a copy."""
        raise NotImplementedError(f"{self.INFO.id} has no afterstate features")

    def learn_mask(self, out: Any = None) -> Any:
        """uint8 numpy array of `learn_layout().actions` entries, 1 where legal; filled into `out`
        (C-contiguous uint8 of that size) when given, which is then returned (`compact.mask`)."""
        return self.compact.mask(out)

    def learn_to_move(self, code: int) -> Any:
        """The move a compact code stands for now (IllegalMoveError if it stands for none)."""
        return self.compact.to_move(code)

    def move_to_learn(self, move: Any) -> int:
        """The compact code of a move that is legal now (IllegalMoveError otherwise)."""
        return self.compact.from_move(move)

    def play_learn(self, code: int) -> list[Any]:
        """Play the move of a compact code; an illegal code raises IllegalMoveError, changes nothing."""
        return self.compact.play(code)

    def observe(self, seat: int, out: dict[str, Any] | None = None, view: str = "observation") -> dict[str, Any]:
        """{field: numpy array} of what `seat` may know now (fields of `learn_layout()`); filled into
        `out`'s arrays when given. Never depends on what `seat` cannot know. `view`
        (`hunters.learn.VIEWS`): ``"observation"`` what is on the table now, ``"information_state"``
        also what the seat recalls (its own private facts), as the bots know it."""
        raise NotImplementedError(f"{self.INFO.id} has no observations")

    @classmethod
    def learn_batch(
        cls, games: int, players: int = 2, seed: int = 0, view: str = "observation", **options: Any
    ) -> LearnBatch:
        """`games` games stepped together inside the core (see `hunters.learn.LearnBatch`), their
        observations in `view` (as `observe`)."""
        raise NotImplementedError(f"{cls.INFO.id} has no learning batch")

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """OpenSpiel chance node: when the next event is a random draw not yet made, its outcomes
        (outcome id, probability); [] when a seat is to move or the game is over. Only for games
        made with `chance="external"`."""
        raise NotImplementedError(f"{self.INFO.id} has no external chance")

    def apply_chance(self, outcome: int) -> None:
        """Resolve the pending chance node with `outcome` (one of `chance_outcomes()`)."""
        raise NotImplementedError(f"{self.INFO.id} has no external chance")

    # -- perft -----------------------------------------------------------------------------------
    def perft(self, depth: int, divide: bool = False, chance: bool = False, limit: PerftLimit | None = None) -> Any:
        """Leaves of the game tree `depth` decisions below this position (the engine contracts'
        "Perft"): one node per decision; a line that ends before `depth` counts nothing. `chance`:
        every pending random draw is a chance node whose children are each of its outcomes and
        take no depth (`chance_view`), so the count does not depend on the draw order. `divide`:
        a list of (root child, leaves below it), a move at a decision, an outcome at a chance
        node. `limit`: a stop byte and a bound on the positions expanded (PerftStopped past them).
        This generic version plays every move in Python (legal_moves, clone, play); a game whose
        core counts faster overrides it, with the same answers."""
        return python_perft(self, depth, divide=divide, chance=chance, limit=limit)

    def chance_view(self) -> GameBase:
        """A copy of this position whose later random draws are chance nodes (`chance_outcomes`),
        what `perft(chance=True)` counts from. Default: a plain copy for a game without chance."""
        if self.INFO.chance == "deterministic":
            return self.clone()
        raise NotImplementedError(f"{self.INFO.id} cannot branch over its chance")

    # -- simulation ------------------------------------------------------------------------------
    @classmethod
    def random_games(cls, n: int, players: int = 2, seed: int = 0) -> SimulationResult:
        """Play n complete games between uniformly random players; the same arguments give the same
        result. This default drives the games from Python; a game overrides it with its core's."""
        if type(n) is not int or n < 0:
            raise ValueError("n must be a non-negative int")
        cls.INFO.check_players(players)
        check_seed(seed, optional=False)
        rng = random.Random(seed)
        decisions, totals, wins = 0, [0] * players, [0] * players
        for _ in range(n):
            game = cls.new(players=players, seed=rng.getrandbits(64))
            while not game.is_over:
                game.play(rng.choice(game.legal_moves()))
                decisions += 1
            for p, s in enumerate(game.scores):
                totals[p] += s
            for w in game.winners:
                wins[w] += 1
        return SimulationResult(n, players, decisions, totals, wins)


def check_depth(depth: Any) -> int:
    """`depth` if it is a perft depth (an int from 0 to 64), else ValueError."""
    if type(depth) is not int or not 0 <= depth <= 64:
        raise ValueError("depth must be an integer from 0 to 64")
    return depth


def perft_children(game: GameBase, depth: int, chance: bool = False) -> list[tuple[Any, GameBase, int]]:
    """The rows of a divide before they are counted: (root child's key, its position, the depth
    left below it) for every legal move (an outcome, where a chance node is pending at the root
    in chance mode), in `legal_moves()` / `chance_outcomes()` order. `perft(depth, divide=True)`
    is each position's `perft(depth left)`; a caller that counts them one by one (the oracle's
    streamed divide) gets the same rows."""
    check_depth(depth)
    root = game.chance_view() if chance else game.clone()
    if depth == 0 or root.is_over:
        return []
    rows: list[tuple[Any, GameBase, int]] = []
    if root.player == -1:
        for outcome, _ in root.chance_outcomes():
            child = root.clone()
            child.apply_chance(outcome)
            rows.append((outcome, child, depth))
        return rows
    for move in root.legal_moves():
        child = root.clone()
        child.play(move)
        rows.append((move, child, depth - 1))
    return rows


def python_perft(
    game: GameBase, depth: int, *, divide: bool = False, chance: bool = False, limit: PerftLimit | None = None
) -> Any:
    """`GameBase.perft` by naive enumeration (legal_moves, clone, play; chance_outcomes and
    apply_chance at chance nodes): what every game gets, and the yardstick of the cores' own."""
    check_depth(depth)
    root = game.chance_view() if chance else game.clone()
    step = limit.step if limit is not None else None

    def children(g: GameBase) -> Iterator[tuple[Any, GameBase]]:
        if g.player == -1:
            for outcome, _ in g.chance_outcomes():
                c = g.clone()
                c.apply_chance(outcome)
                yield outcome, c
            return
        for move in g.legal_moves():
            c = g.clone()
            c.play(move)
            yield move, c

    def count(g: GameBase, d: int) -> int:
        if g.is_over:
            return 1 if d == 0 else 0
        if d == 0:
            return 1
        if step is not None:
            step()
        if g.player == -1:
            return sum(count(c, d) for _, c in children(g))
        if d == 1:
            return len(g.legal_moves())
        return sum(count(c, d - 1) for _, c in children(g))

    if not divide:
        return count(root, depth)
    if depth == 0 or root.is_over:
        return []
    pending = root.player == -1
    return [(key, count(c, depth if pending else depth - 1)) for key, c in children(root)]
