"""`Game`: the typed public API of a Hunters & Gatherers game, a thin handle on the Cython core."""

from __future__ import annotations

import operator
import sys
from collections.abc import Iterable
from typing import Any

from hunters.capabilities import (
    Afterstates,
    CoreSearch,
    CountsPerft,
    Described,
    ExplicitChance,
    HiddenState,
    Learnable,
    SearchStats,
    SeededChance,
    Simulates,
    SimulationResult,
)
from hunters.errors import InvalidOptionError
from hunters.game_base import ActionSpace, GameBase, GameInfo, LegalMoves, Option, check_seed
from hunters.info import check_int, plain
from hunters.learn import LearnBatch, LearnLayout, check_view
from hunters.perft import PerftLimit, check_depth, perft, perft_children

from . import _core
from . import actions as _actions
from ._core import CoreGame
from .codes import REASONS, events_of, move_of
from .errors import IllegalMoveError, core_error, refusal
from .moves import Move, Occupant, ScoreEvent
from .tiles import MENHIR_TILES, NORMAL_TILES, ZONE_TYPES

GAME_ID = "carcassonne_hg"
RECORD_FORMAT = 1
INFO = GameInfo(
    id=GAME_ID,
    name="Carcassonne: Hunters & Gatherers",
    min_players=_core.MIN_PLAYERS,
    max_players=_core.MAX_PLAYERS,
    action_space_size=_core.ACTION_SPACE_SIZE,
    record_format=RECORD_FORMAT,
    perfect_information=True,  # the draw order is hidden from everyone alike: chance, not private
    chance="explicit",
    reward_scale=20.0,
    short_name="CarcassonneHG",
    # 95 unique tiles, the start tile laid before the first move: at most 94 draws (chance nodes with
    # chance="external", discards included) and at most 94 decisions (one per tile placed, a menhir
    # extra turn included); random games measured: at most 85
    max_game_length=94,
    options=(
        Option(
            "normal_deck",
            "ints",
            None,
            "the normal tiles' draw order, first drawn first (a subset is allowed); "
            "default: all of them shuffled from the seed",
        ),
        Option("menhir_deck", "ints", None, "the same for the menhir tiles"),
        Option(
            "chance",
            "str",
            "internal",
            "external: every draw is a chance node (OpenSpiel)",
            choices=("internal", "external"),
        ),
    ),
)
_BOUND: int = _core.POSITION_BOUND

__all__ = ["GAME_ID", "INFO", "REASONS", "Game", "LegalMoves"]


def _is_int(v: Any) -> bool:
    return type(v) is int


def _check_deck(deck: Iterable[int], allowed: tuple[int, ...], name: str) -> list[int]:
    try:
        out = list(plain(deck))  # (a numpy integer array or numpy integers: plain ints)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of tile ids") from None
    allowed_set = set(allowed)
    if not all(_is_int(t) and t in allowed_set for t in out):
        raise ValueError(f"{name} may only hold tiles of its kind, ids {allowed[0]} to {allowed[-1]}")
    if len(set(out)) != len(out):
        raise ValueError(f"{name} holds a tile twice")
    return out


class Game(
    GameBase[Move, ScoreEvent],
    ExplicitChance,
    SeededChance,
    HiddenState,
    Learnable,
    Afterstates,
    CoreSearch,
    CountsPerft,
    Simulates,
    Described,
):
    """A game of Carcassonne: Hunters & Gatherers (game id ``carcassonne_hg``).

    >>> g = Game.new(players=2, seed=7)
    >>> g.player, g.tile is not None, len(g.legal_moves()) > 0
    (0, True, True)
    >>> events = g.play(g.legal_moves()[0])
    >>> g.player in (0, 1)
    True
    """

    __slots__ = ("_core", "_events", "_menhir", "_normal", "_outcomes", "_seed")
    _core: CoreGame
    _events: list[ScoreEvent]
    _seed: int | None
    _normal: tuple[int, ...]
    _menhir: tuple[int, ...]
    _outcomes: list[int]
    INFO = INFO

    def __init__(self) -> None:
        raise TypeError("use Game.new(...) or Game.from_record(...)")

    @classmethod
    def new(
        cls,
        players: int = 2,
        seed: int | None = 0,
        normal_deck: Iterable[int] | None = None,
        menhir_deck: Iterable[int] | None = None,
        chance: str = "internal",
        **options: Any,
    ) -> Game:
        """A new game for 2-5 players. Piles not given explicitly (draw order, first drawn first;
        a subset of the tiles is allowed) are the full sets shuffled from `seed`.

        `chance="external"` (OpenSpiel): every tile draw is a chance node; while one is pending,
        `player` is -1, `legal_moves()` is empty and `chance_outcomes()` lists the tiles it may turn
        up; `apply_chance(tile)` draws it (the piles' own order is the default outcome)."""
        if options:
            INFO.check_option_names(options)
        if chance not in ("internal", "external"):
            raise InvalidOptionError('chance must be "internal" or "external"')
        players = INFO.check_players(players)
        seed = check_seed(seed)
        shuffled_normal, shuffled_menhir = _core.shuffled_decks(seed or 0)
        normal = shuffled_normal if normal_deck is None else _check_deck(normal_deck, NORMAL_TILES, "normal_deck")
        menhir = shuffled_menhir if menhir_deck is None else _check_deck(menhir_deck, MENHIR_TILES, "menhir_deck")
        self = object.__new__(cls)
        self._core, raw = _core.CoreGame.create(players, normal, menhir, chance == "external")
        self._events = events_of(raw)
        self._seed = seed
        self._normal = tuple(normal)
        self._menhir = tuple(menhir)
        self._outcomes = []
        return self

    # -- state -------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._core.nplayers

    @property
    def tile(self) -> int | None:
        """Id of the tile the current seat must place; None when the game is over."""
        return self._core.tile

    @property
    def player(self) -> int:
        """Seat (0-based) whose decision it is; -1 while an external chance draw is pending."""
        return -1 if self._core.pending else self._core.player

    @property
    def extra_turn(self) -> bool:
        """True while the current decision is a menhir extra turn."""
        return self._core.extra

    @property
    def is_over(self) -> bool:
        return self._core.over

    @property
    def scores(self) -> list[int]:
        return self._core.scores()

    @property
    def events(self) -> list[ScoreEvent]:
        """Every score event so far, in order."""
        return list(self._events)

    @property
    def meeples(self) -> list[int]:
        """Meeples in each seat's supply."""
        return self._core.meeples()

    @property
    def huts(self) -> list[int]:
        """Huts in each seat's supply."""
        return self._core.huts()

    @property
    def occupants(self) -> list[tuple[int, int, str]]:
        """(global zone, seat, "meeple" | "hut") of every piece on the board, sorted by zone."""
        return self._core.occupants()

    @property
    def board(self) -> list[tuple[int, int, int, int]]:
        """(x, y, tile, rotation) of every placed tile in placement order, the start tile first."""
        return self._core.board()

    @property
    def discards(self) -> list[int]:
        """Tiles discarded because they fitted nowhere."""
        return self._core.discards()

    @property
    def piles(self) -> tuple[int, int]:
        """Tiles left in the normal and the menhir pile."""
        return self._core.piles()

    @property
    def moves(self) -> list[Move]:
        """The moves played so far."""
        tiles = [t for _, _, t, _ in self._core.board()[1:]]
        return [move_of(t, c) for t, c in zip(tiles, self._core.moves(), strict=True)]

    @property
    def moves_played(self) -> int:
        return self._core.nmoves

    @property
    def seed(self) -> int | None:
        return self._seed

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's points by score-event reason (every reason listed, in REASONS order) and total."""
        parts = [dict.fromkeys(REASONS, 0) for _ in range(self.players)]
        for e in self._events:
            for seat in e.seats:
                parts[seat][e.reason] += e.points
        for p, total in zip(parts, self.scores, strict=True):
            p["total"] = total
        return parts

    @property
    def record_decks(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The full draw order both piles started with: (normal, menhir)."""
        return self._normal, self._menhir

    def feature_id(self, zone: int) -> int | None:
        """Canonical id (smallest global zone id) of the feature holding a placed zone; for a lake,
        of its river system. None for a zone not on the board."""
        return self._core.feature_id(zone) if _is_int(zone) else None

    def system_id(self, zone: int) -> int | None:
        """Canonical id of the river system holding a placed river or lake zone, else None."""
        return self._core.system_id(zone) if _is_int(zone) else None

    # -- what a seat may know (bots) ---------------------------------------------------------
    def observed_by(self, seat: int) -> Game:
        """A copy with the undrawn tiles of both piles in ascending order and no seed: the piles'
        contents are public, their order is not (see GameBase.observed_by)."""
        super().observed_by(seat)
        return self._with_core(self._core.masked())

    def determinized(self, seat: int, seed: int) -> Game:
        """`observed_by(seat)` with the undrawn tiles of both piles shuffled from `seed`."""
        check_seed(seed, optional=False)
        g = self.observed_by(seat)
        g._core.redeal(seed)
        g._normal, g._menhir = g._decks()
        return g

    def _with_core(self, core: CoreGame) -> Game:
        g = object.__new__(Game)
        g._core = core
        g._events = self._events.copy()
        g._seed = None
        g._normal, g._menhir = g._decks()
        g._outcomes = self._outcomes.copy()
        return g

    def _decks(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Both piles' full order as the core holds them (drawn tiles first, then the undrawn)."""
        (dn, dm), (un, um) = self._core.drawn(), self._core.undrawn()
        return tuple(dn + un), tuple(dm + um)

    # -- moves -------------------------------------------------------------------------------
    def legal_moves(self) -> LegalMoves[Move]:
        """Every legal move of the current decision, sorted by (y, x, rotation, occupant, retake);
        empty when the game is over. A read-only sequence that builds each Move when it is read."""
        tile = self._core.tile
        if tile is None:
            return LegalMoves(self, [], lambda code: move_of(-1, code))
        return LegalMoves(self, self._core.legal_codes(), lambda code: move_of(tile, code))

    def greedy_best(self) -> LegalMoves[Move] | None:
        """`hunters.bots.GreedyBot`'s one-ply choice in the core (`_core.greedy_best`), the twin
        of `hunters.carcassonne.bots.value`; None while a chance node is pending."""
        tile = self._core.tile
        if self._core.pending or tile is None:
            return None
        return LegalMoves(self, _core.greedy_best(self._core), lambda code: move_of(tile, code))

    def search_state(self) -> CoreGame:
        """The core state (see CoreSearch.search_state)."""
        return self._core

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
        """IS-MCTS in the core (`hunters/_core/mcts.pxi`); option ``bare``: the probability that a
        playout move places no piece (default 0)."""
        bare = float(options.pop("bare", 0.0))
        if options:
            raise InvalidOptionError(f"unknown search options {sorted(options)}; the options are ['bare']")
        done, stats = self._core.mcts(iterations, seconds, c, margin, INFO.reward_scale, seed, bare, stop)
        return SearchStats.of_codes(done, stats, self._core.legal_codes())

    def _code(self, move: Any) -> int:
        """The core code of a legal move, or IllegalMoveError saying why not."""
        if self._core.over:
            raise IllegalMoveError("GAME_OVER", "the game is over", move)
        if self._core.pending:
            raise refusal("CHANCE_PENDING", move)
        if not isinstance(move, Move):
            raise IllegalMoveError("MALFORMED", "expected a Move", move)
        x, y, rot, occ, retake = move
        if not (_is_int(x) and _is_int(y) and _is_int(rot)):
            raise IllegalMoveError("MALFORMED", "x, y and rotation must be ints", move)
        if not 0 <= rot <= 3:
            raise refusal("BAD_ROTATION", move)
        if not (-_BOUND <= x <= _BOUND and -_BOUND <= y <= _BOUND):
            raise refusal("NOT_ADJACENT", move)
        if retake is not None and (not _is_int(retake) or retake < 0):
            raise IllegalMoveError("MALFORMED", "retake must be a global zone id or None", move)
        if retake is not None and retake not in _actions.ZONE_TYPES:
            raise refusal("UNKNOWN_ZONE", move)
        slot = 0
        if occ is not None:
            if not isinstance(occ, Occupant) or occ.kind not in ("meeple", "hut") or not _is_int(occ.zone):
                raise IllegalMoveError("MALFORMED", 'occupant must be Occupant("meeple" | "hut", zone)', move)
            if occ.zone < 0 or occ.zone not in ZONE_TYPES:
                raise refusal("UNKNOWN_ZONE", move)
            if occ.zone // 10 != self._core.tile:
                raise refusal("ZONE_NOT_ON_TILE", move)
            slot = _core.occupant_slot(occ.kind == "hut", occ.zone % 10)
            if not slot:  # a meeple on a local zone only lakes have
                raise refusal("BAD_ZONE_TYPE", move)
        r = -1 if retake is None else retake
        err = self._core.check(x, y, rot, slot, r)
        if err:
            raise core_error(err, move)
        return self._core.encode(x, y, rot, slot, r)

    def play(self, move: Move) -> list[ScoreEvent]:
        """Play one whole decision; return the score events it caused (final scoring included
        when it ends the game). An illegal move raises IllegalMoveError and changes nothing."""
        events = events_of(self._core.play_code(self._code(move)))
        self._events.extend(events)
        return events

    # -- the dense action encoding (bots, reinforcement learning, the service) -------------------
    @property
    def actions(self) -> _actions.DenseActions:
        """The dense action codes (`hunters.carcassonne.actions`), computed by the core."""
        return _actions.DenseActions(self)

    def legal_move_entries(self, field: int) -> bytes:
        """Every legal move with its action code as serialized hunters.v1 LegalMove entries of the
        repeated field number `field`, in legal_moves() order, built by the core (the
        service lists moves so: about 4 µs for a hundred, against about 200 µs in Python)."""
        entries: bytes = _core.legal_entries(self._core, field)
        return entries

    # -- perft (docs/carcassonne-engine-contract.md#perft) ------------------------------------
    def perft(self, depth: int, divide: bool = False, chance: bool = False, limit: PerftLimit | None = None) -> Any:
        """`hunters.perft.perft` counted in the core without the GIL (the last ply counted, not played)."""
        check_depth(depth)
        if self._core.pending and not chance:
            raise ValueError("a draw is pending: only chance mode counts from here")
        if limit is not None:
            if divide:
                return [(k, perft(c, d, chance=chance, limit=limit)) for k, c, d in perft_children(self, depth, chance)]
            return limit.run(lambda nodes: _core.perft_bounded(self._core, depth, chance, limit.stop, nodes))
        out = _core.perft(self._core, depth, chance, divide)
        if not divide or self._core.pending:
            return out
        tile = self._core.tile
        return [(move_of(-1 if tile is None else tile, code), n) for code, n in out]

    def chance_view(self) -> Game:
        """A copy whose later draws are chance nodes (as with chance="external"); its record lists
        the draws made so far as outcomes, so that it replays."""
        g = self.clone()
        if not self._core.chance:
            _core.set_chance(g._core, True)
            g._outcomes = self._draw_order()
        return g

    def _draw_order(self) -> list[int]:
        """The tiles drawn so far in the order they were drawn: the game replayed with external
        chance, each pending draw taking the next tile its pile gave."""
        replay = Game.new(self.players, self._seed, self._normal, self._menhir, chance="external")
        drawn = self._core.drawn()
        piles = {1: iter(drawn[0]), 2: iter(drawn[1])}
        for move in [*self.moves, None]:
            while replay._core.pending and (tile := next(piles[replay._core.pending], None)) is not None:
                replay.apply_chance(tile)
            if move is None:
                break
            replay.play(move)
        return replay._outcomes

    # -- copies and records ------------------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy (the core state is one memcpy)."""
        g = object.__new__(Game)
        g._core = self._core.clone()
        g._events = self._events.copy()
        g._seed = self._seed
        g._normal = self._normal
        g._menhir = self._menhir
        g._outcomes = self._outcomes.copy()
        return g

    def __sizeof__(self) -> int:
        """The memory this game holds: itself, its lists, and its core's state (allocated in C, where
        `sys.getsizeof` does not look otherwise)."""
        lists = sys.getsizeof(self._events) + sys.getsizeof(self._outcomes)
        return object.__sizeof__(self) + _core.state_size() + lists

    def to_record(self) -> dict[str, Any]:
        """The game as plain JSON-ready data: configuration, both piles and the moves. A game with
        external chance also records ``chance`` and its ``outcomes``: the tiles drawn, in order
        (discarded ones included), which its replay draws again at the same chance nodes."""
        record = {
            "game": GAME_ID,
            "format": RECORD_FORMAT,
            "players": self.players,
            "seed": self._seed,
            "normal_deck": list(self._normal),
            "menhir_deck": list(self._menhir),
            "moves": [m.to_json() for m in self.moves],
        }
        if self._core.chance:
            record.update(chance="external", outcomes=list(self._outcomes))
        return record

    @classmethod
    def _new_from_record(cls, record: dict[str, Any]) -> Game:
        return cls.new(
            players=record["players"],
            seed=record.get("seed"),
            normal_deck=record.get("normal_deck"),
            menhir_deck=record.get("menhir_deck"),
            chance=record.get("chance", "internal"),
        )

    # -- learning (hunters.carcassonne.learn; numpy is imported only there) -----------------
    def learn_layout(self) -> LearnLayout:
        """The compact action space and observation fields (see hunters.carcassonne.learn)."""
        from . import learn

        return learn.layout(self.players)

    @property
    def compact(self) -> ActionSpace[Move, ScoreEvent]:
        """The compact codes of `learn_layout()` (hunters.carcassonne.learn)."""
        from . import learn

        return learn.CompactActions(self)

    def learn_afterstates(self) -> tuple[Any, Any]:
        """See Afterstates.learn_afterstates (columns: `hunters.carcassonne.learn.AFTERSTATE_FEATURES`)."""
        from . import learn

        return learn.afterstates(self)

    def observe(self, seat: int, out: dict[str, Any] | None = None, view: str = "observation") -> dict[str, Any]:
        """See Learnable.observe: both views are the same here (with chance external nothing is
        hidden, and the order of the piles is hidden from everyone: no seat knows more)."""
        from . import learn

        check_view(view)
        return learn.observe(self, seat, out)

    @classmethod
    def learn_batch(
        cls, games: int, players: int = 2, seed: int = 0, view: str = "observation", **options: Any
    ) -> LearnBatch:
        """See Learnable.learn_batch (both views the same, as in `observe`); option ``threads``
        (default 1): OpenMP threads stepping the games."""
        check_view(view)
        threads = options.pop("threads", 1)
        if options:
            raise InvalidOptionError(f"unknown options: {sorted(options)}; the batch has the option threads")
        from . import learn

        return learn.Batch(cls, games, players, seed, threads)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending draw's outcomes: (tile id, probability), each undrawn tile of that pile
        equally likely (every tile is unique); [] when no draw is pending (always, unless the
        game was made with chance="external")."""
        tiles = self._core.chance_tiles()
        return [(t, 1.0 / len(tiles)) for t in tiles]

    def seeded_outcome(self) -> int:
        """See SeededChance: the first tile of the pending pile's order (the seed's shuffle, or the
        explicit deck) not drawn yet: the draw of the game with internal chance."""
        pending = self._core.pending
        if not pending:
            raise IllegalMoveError("NO_CHANCE_PENDING", "no tile draw is pending", None)
        left = set(self._core.chance_tiles())
        tile = next((t for t in (self._normal if pending == 1 else self._menhir) if t in left), None)
        if tile is None:  # (a pending draw always has a tile of its pile left)
            raise IllegalMoveError("NOT_AN_OUTCOME", "the pile has no tile left to draw", None)
        return tile

    def apply_chance(self, outcome: int) -> None:
        """Draw tile `outcome` for the pending draw (one of chance_outcomes()); an unplaceable tile is
        discarded and another draw is pending. Anything else raises IllegalMoveError, changes nothing."""
        if not self._core.pending:
            raise IllegalMoveError("NO_CHANCE_PENDING", "no tile draw is pending", outcome)
        try:  # ints and numpy integers, not bools or floats
            tile = None if isinstance(outcome, bool) else operator.index(outcome)
        except TypeError:
            tile = None
        raw = None if tile is None or not 0 <= tile < 95 else self._core.apply_chance(tile)
        if tile is None or raw is None:
            raise IllegalMoveError("NOT_AN_OUTCOME", "that tile is not in the pile being drawn from", outcome)
        self._outcomes.append(tile)
        self._events.extend(events_of(raw))

    @classmethod
    def random_games(cls, n: int, players: int = 2, seed: int = 0) -> SimulationResult:
        """Play n complete random games inside the core, without returning to Python per move.
        Decks and moves come from the core's own seeded RNG: the same seed gives the same games."""
        n = check_int(n, 0, None, "n must be a non-negative int")
        players = INFO.check_players(players)
        seed = check_seed(seed, optional=False)
        games, decisions, totals, wins = _core.random_games(n, players, seed)
        return SimulationResult(games, players, decisions, totals, wins)

    def summary_lines(self) -> list[str]:
        normal, menhir = self.piles
        xs = [x for x, _, _, _ in self.board]
        ys = [y for _, y, _, _ in self.board]
        lines = [
            f"  {len(self.board)} tiles placed (x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}), "
            f"{len(self.discards)} discarded; piles left: {normal} normal, {menhir} menhir"
        ]
        if self._core.pending:
            pile = "normal" if self._core.pending == 1 else "menhir"
            lines.append(f"  a draw from the {pile} pile is pending (external chance)")
        elif not self.is_over:
            lines.append(f"  tile to place: {self.tile}" + (" (menhir extra turn)" if self.extra_turn else ""))
        supply = [f"{m}m {h}h" for m, h in zip(self.meeples, self.huts, strict=True)]
        lines.append(f"  {'in supply':<14}" + "".join(f"{v:>9}" for v in supply))
        return lines

    def view(self) -> dict[str, Any]:
        """The public state as JSON-ready data (what a spectator may see: no hidden draw order)."""
        normal_left, menhir_left = self.piles
        return {
            "game": GAME_ID,
            "players": self.players,
            "player": self.player,
            "tile": self.tile,
            "extra_turn": self.extra_turn,
            "is_over": self.is_over,
            "winners": self.winners,
            "scores": self.scores,
            "meeples": self.meeples,
            "huts": self.huts,
            "board": [{"x": x, "y": y, "tile": t, "rotation": r} for x, y, t, r in self.board],
            "occupants": [{"zone": z, "seat": s, "kind": k} for z, s, k in self.occupants],
            "discards": self.discards,
            "normal_pile": normal_left,
            "menhir_pile": menhir_left,
            "moves_played": self._core.nmoves,
        }

    def _repr_svg_(self) -> str:
        """The picture of the game (`svg.svg`): what Jupyter shows for a game."""
        from .svg import svg

        return svg(self)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"seat {self.player} to place tile {self.tile}"
        return f"<Game {GAME_ID} players={self.players} moves={self._core.nmoves} {state} scores={self.scores}>"

    # -- for the game's own modules ---
    # (hunters.carcassonne.actions, .learn and tools read the game through these; the state they
    # change is changed here, by the game)
    @property
    def core(self) -> CoreGame:
        """The core game: a read-only handle for the game's own modules and tools, which call its
        queries (the game's state changes only through the game's methods)."""
        return self._core

    def encode(self, move: Any) -> int:
        """The core's code of a move that is legal now (IllegalMoveError saying why not)."""
        return self._code(move)

    def play_code(self, code: int) -> list[ScoreEvent]:
        """Play a core code that is legal now (checked by the caller: `encode`, the core's
        `learn_decode`, a replay of the core's own moves); return its score events, as `play`."""
        events = events_of(self._core.play_code(code))
        self._events.extend(events)
        return events
