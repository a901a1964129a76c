"""The contract every game implements: what the service, the CLI, the harness and bots may rely on.

A game is a class ``Game(GameBase[Move, Event])`` with a `GameInfo` as ``INFO``. It defines what
every game has (OpenSpiel's `State` with its `GameType`):

- set-up and records: `new`, `clone`, `to_record` and `_new_from_record` (the configuration a
  record names; `from_record` replays its moves, read with ``Move.from_json``);
- the state: `players`, `player` (the seat to move, -1 at a chance node), `is_over`, `scores`,
  `winners`, `score_breakdown`, `events`, `moves`, `moves_played`;
- moves: `legal_moves`, `_code` (why a move is refused), `play`, and `actions`, the one integer
  encoding of a move (an `ActionSpace`: a fixed space, each code one move wherever it is legal);
- what a seat sees: `view` (public JSON) and `observed_by(seat)` (a copy bots play on).

Everything else is a capability the game declares by deriving from it (`hunters.capabilities`):
chance nodes, learning, core searches, perft, simulation, private views. The shared layers look a
capability up and fall back where it is optional.
"""

from __future__ import annotations

import abc
import typing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, final, overload

from hunters.errors import IllegalMoveError, InvalidRecordError
from hunters.info import CHANCE_MODES, JSON, MAX_SEED, UTILITIES, GameInfo, Option, check_seed, integer

__all__ = [
    "CHANCE_MODES",
    "JSON",
    "MAX_SEED",
    "UTILITIES",
    "ActionSpace",
    "AnyGame",
    "GameBase",
    "GameInfo",
    "LegalMoves",
    "Option",
    "check_seed",
]

M = TypeVar("M")
"""A game's move type: a value with ``to_json()`` and a ``from_json(data)`` class method."""
E = TypeVar("E")
"""A game's event type."""


class _Decision(Protocol):
    """What `LegalMoves` asks of its game: the decision it is at, and whether a move is legal."""

    @property
    def moves_played(self) -> int: ...

    def is_legal(self, move: object) -> bool: ...


class LegalMoves(Sequence[M]):
    """The legal moves of one decision: an immutable sequence backed by the core's codes, so listing
    is cheap and a move object is only built when it is read. Membership asks the game
    (`is_legal`) while it is still at that decision, instead of decoding every move."""

    __slots__ = ("_codes", "_decode", "_game", "_stamp")

    def __init__(self, game: _Decision, codes: list[int], decode: Callable[[int], M]):
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
        if isinstance(other, (LegalMoves, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a mutable-looking sequence: not hashable, as list

    @property
    def codes(self) -> list[int]:
        """The core's codes of the moves, in the same order."""
        return list(self._codes)

    def __repr__(self) -> str:
        return f"LegalMoves({list(self)!r})"


class ActionSpace(abc.ABC, Generic[M, E]):
    """The integer encoding of a game's moves at its current decision: a fixed space (stable across
    versions: the service's action codes), the codes of one decision being `legal()`, ascending. A
    game implements it as one subclass, returned by `GameBase.actions`."""

    __slots__ = ("game",)

    def __init__(self, game: GameBase[M, E]) -> None:
        self.game = game

    @property
    @abc.abstractmethod
    def size(self) -> int:
        """Codes are 0 to size - 1 (for this game's configuration)."""

    @abc.abstractmethod
    def legal(self) -> list[int]:
        """The codes of every legal move, ascending."""

    @abc.abstractmethod
    def to_move(self, code: int) -> M:
        """The move a code stands for now (IllegalMoveError when it stands for none)."""

    @abc.abstractmethod
    def from_move(self, move: object) -> int:
        """The code of a move that is legal now (IllegalMoveError otherwise)."""

    def pairs(self) -> list[tuple[M, int]]:
        """(move, code) of every legal move, in `legal_moves()` order."""
        return [(m, self.from_move(m)) for m in self.game.legal_moves()]

    def keys(self) -> tuple[object, list[int]] | None:
        """(context, codes): the codes of `pairs()` in order, and a context such that, for every game
        of this class, one (context, code) always stands for one move, the one `to_move(code)` gives.
        It lets the service list moves from codes it has encoded before, building only the others.
        None (the default, or a decision whose moves a code does not fix): no such promise."""
        return None

    def mask(self, out: Any = None) -> Any:
        """One byte per code, 1 where legal: a new bytearray, or filled into `out` (any writable
        buffer of `size` bytes, e.g. a uint8 numpy array), which is then returned."""
        mask = bytearray(self.size) if out is None else out
        if out is not None:
            mask[:] = bytes(self.size)
        for code in self.legal():
            mask[code] = 1
        return mask

    def play(self, code: int) -> list[E]:
        """Play the move of a code: its events (an illegal code raises IllegalMoveError and changes
        nothing)."""
        return self.game.play(self.to_move(code))


def _move_type(cls: type) -> Callable[[object], Any] | None:
    """The ``from_json`` of the move type a class names in its ``GameBase[Move, Event]`` base."""
    for base in cls.__dict__.get("__orig_bases__", ()):
        if typing.get_origin(base) is GameBase:
            move = typing.get_args(base)[0]
            if isinstance(move, TypeVar) or move is Any:  # a generic or an abstract class
                return None
            reader: Callable[[object], Any] | None = getattr(move, "from_json", None)
            if reader is None:
                raise TypeError(f"{cls.__name__}'s move type {move.__name__} has no from_json class method")
            return reader
    return None


class GameBase(abc.ABC, Generic[M, E]):
    """The contract of a game; see the module docstring."""

    __slots__ = ()
    INFO: ClassVar[GameInfo]
    _move_from_json: ClassVar[Callable[[object], Any]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        reader = _move_type(cls)
        if reader is not None:
            cls._move_from_json = staticmethod(reader)

    # -- set-up and records ------------------------------------------------------------------
    @classmethod
    @abc.abstractmethod
    def new(cls, players: int = 2, seed: int | None = 0, **options: Any) -> Self:
        """A new game; every option has a default. Bad arguments raise ValueError."""

    @classmethod
    @abc.abstractmethod
    def _new_from_record(cls, record: JSON) -> Self:
        """The game of a record's configuration, before its moves (KeyError/ValueError/TypeError
        when the configuration is bad)."""

    @abc.abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abc.abstractmethod
    def to_record(self) -> JSON:
        """The game as JSON-ready data: ``game``, ``format``, ``players``, ``seed``, the rest of the
        configuration, ``moves`` (each move's `to_json()`) and, for a game whose chance nodes were
        resolved from outside (``chance="external"``), ``outcomes``: every outcome, in order."""

    @final
    @classmethod
    def from_record(cls, record: JSON) -> Self:
        """Replay a record made by `to_record` (or by hand) to the identical game; a record that is
        malformed or does not replay raises InvalidRecordError. A record's ``outcomes`` are applied
        in order wherever a chance node is pending, before each move and after the last."""
        info = cls.INFO
        if not isinstance(record, dict) or record.get("game") != info.id:
            raise InvalidRecordError(f"not a {info.id} record")
        if record.get("format", info.record_format) != info.record_format:
            raise InvalidRecordError(f"unknown record format {record.get('format')!r}")
        try:
            game = cls._new_from_record(record)
        except (KeyError, ValueError, TypeError) as exc:
            raise InvalidRecordError(f"bad configuration: {exc}") from None
        moves, outcomes = record.get("moves", []), record.get("outcomes", [])
        if not isinstance(moves, list) or not isinstance(outcomes, list):
            raise InvalidRecordError("moves and outcomes must be lists")
        from hunters.capabilities import ExplicitChance

        pending = iter(enumerate(outcomes))
        chance: ExplicitChance | None = game if isinstance(game, ExplicitChance) else None

        def settle(before: int | None) -> None:
            """Apply outcomes while a chance node is pending (its seat to move is -1)."""
            while chance is not None and game.player == -1 and not game.is_over:
                item = next(pending, None)
                if item is None:
                    if before is None:
                        return
                    raise InvalidRecordError(f"move {before} comes while a chance node is pending")
                i, outcome = item
                try:
                    chance.apply_chance(outcome)
                except IllegalMoveError as exc:
                    raise InvalidRecordError(f"outcome {i} is not a chance outcome: {exc}") from None

        for i, data in enumerate(moves):
            try:
                move = cls.move_from_json(data)
            except (KeyError, TypeError, AttributeError, ValueError) as exc:
                raise InvalidRecordError(f"move {i} is malformed: {exc!r}") from None
            if outcomes:
                settle(i)
            try:
                game.play(move)
            except IllegalMoveError as exc:
                raise InvalidRecordError(f"move {i} is illegal: {exc}") from None
        if outcomes:
            settle(None)
            left = next(pending, None)
            if left is not None:
                raise InvalidRecordError(f"outcome {left[0]} comes where no chance node is pending")
        return game

    @final
    @classmethod
    def move_from_json(cls, data: object) -> M:
        """A move from its `to_json()` form (what records and the wire's JSON moves carry), read by
        the move type's ``from_json`` (KeyError/ValueError/TypeError when it is malformed)."""
        move: M = cls._move_from_json(data)
        return move

    # -- the state ---------------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def players(self) -> int: ...

    @property
    @abc.abstractmethod
    def player(self) -> int:
        """Seat (0-based) whose decision it is; -1 while a chance node is pending."""

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

    @abc.abstractmethod
    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's points by kind (names are the game's own), with ``total``."""

    @property
    @abc.abstractmethod
    def events(self) -> list[E]:
        """Everything that happened so far, in order."""

    @property
    @abc.abstractmethod
    def moves(self) -> list[M]:
        """The moves played so far."""

    @property
    def moves_played(self) -> int:
        """How many moves were played (a game overrides it where its core counts them cheaply)."""
        return len(self.moves)

    # -- moves -------------------------------------------------------------------------------
    @abc.abstractmethod
    def legal_moves(self) -> Sequence[M]:
        """Every legal move of the current decision, in a documented order; empty once over."""

    @abc.abstractmethod
    def _code(self, move: object) -> int:
        """The core's code of a legal move, or IllegalMoveError saying why not (changes nothing)."""

    @abc.abstractmethod
    def play(self, move: M) -> list[E]:
        """Play one whole decision; return the events it caused. An illegal move raises
        IllegalMoveError and changes nothing."""

    @property
    @abc.abstractmethod
    def actions(self) -> ActionSpace[M, E]:
        """The integer encoding of the moves (the service's action codes; bots and learners)."""

    @final
    def check(self, move: object) -> None:
        """Raise IllegalMoveError if `move` is not legal now; change nothing."""
        self._code(move)

    @final
    def is_legal(self, move: object) -> bool:
        try:
            self._code(move)
        except IllegalMoveError:
            return False
        return True

    # -- what a seat sees --------------------------------------------------------------------
    @abc.abstractmethod
    def view(self) -> JSON:
        """The public state as JSON-ready data (what a spectator may see)."""

    def observed_by(self, seat: int) -> Self:
        """A copy of the game as `seat` may know it (bots play on this, never on the game): every
        hidden part (a draw order, a deck not yet dealt, other seats' face-down pieces) is replaced
        by a canonical placeholder that depends only on public information and the seat's own, so
        two games that look the same to the seat give equal copies. The copy plays on like a game
        but is not the true game (its record does not replay the real one). A game without hidden
        information returns a plain clone."""
        self.check_seat(seat)
        return self.clone()

    @final
    def check_seat(self, seat: object) -> int:
        """`seat` as a Python int if it is a seat of this game (an integer, Python's or numpy's), else
        ValueError."""
        n = integer(seat)
        if n is None or not 0 <= n < self.players:
            raise ValueError(f"seat must be an integer from 0 to {self.players - 1}")
        return n

    @final
    def points_by_kind(self) -> dict[str, list[int]]:
        """Points per kind, one entry per seat: the transpose of `score_breakdown()` sans total."""
        parts = self.score_breakdown()
        kinds = [k for k in parts[0] if k != "total"] if parts else []
        return {k: [p[k] for p in parts] for k in kinds}

    @final
    def summary(self) -> str:
        """The state in a few readable lines (the CLI's `replay` prints it)."""
        from hunters.capabilities import Described

        info = self.INFO
        status = "over" if self.is_over else f"seat {self.player} to play"
        lines = [f"{info.name} ({info.id}), {self.players} players, {self.moves_played} moves: {status}"]
        if isinstance(self, Described):
            lines += self.summary_lines()
        seats = "".join(f"{'seat ' + str(p):>9}" for p in range(self.players))
        lines.append(f"  {'points':<14}{seats}")
        for kind, pts in self.points_by_kind().items():
            lines.append(f"  {kind:<14}" + "".join(f"{v:>9}" for v in pts))
        lines.append(f"  {'total':<14}" + "".join(f"{v:>9}" for v in self.scores))
        if self.is_over:
            w = self.winners
            lines.append("  winner" + ("s: " if len(w) > 1 else ": ") + (", ".join(f"seat {p}" for p in w) or "none"))
        return "\n".join(lines)


AnyGame = GameBase[Any, Any]
"""Any game, for the shared layers, which work with every game's moves and events."""
