"""Carcassonne: Hunters & Gatherers for learning: compact action codes, masks, observations and a
batch of games stepped inside the core. Everything is computed by the core
(`hunters.carcassonne._core`); this module allocates the numpy arrays and names things.

A compact code is one whole decision of the tile in hand,
``((frontier_index * 4 + rotation) * 19 + occupant_slot) * 6 + retake_slot``: ``ACTIONS`` = 87,552
codes, legal codes ascending in the order of `Game.legal_moves()` (the service's dense codes,
`hunters.carcassonne.actions`, are unrelated and unchanged). Observations are relative to the
observer (row r is seat (observer + r) % players); each field's meaning is its
`ObservationField.doc` (`FIELD_DOCS`). `Batch` steps many games in one core call.

The code layout, every field, the afterstate table, external chance and the batch:
docs/learning.md (Carcassonne: Hunters & Gatherers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from hunters.game_base import ActionSpace, check_seed
from hunters.info import check_int, integer
from hunters.learn import BatchBuffers, LearnLayout, ObservationField

from . import _core
from .codes import move_of
from .errors import IllegalMoveError, core_error
from .moves import Move, ScoreEvent

if TYPE_CHECKING:
    from .game import Game

__all__ = ["ACTIONS", "AFTERSTATE_FEATURES", "FIELD_DOCS", "Batch", "afterstates", "code_parts", "layout"]

FRONTIER: int = _core.LEARN_FRONTIER
OCCUPANT_SLOTS: int = _core.OCCUPANT_SLOTS
RETAKE_SLOTS: int = _core.ACTION_RETAKE_SLOTS
ACTIONS: int = _core.LEARN_ACTIONS
RADIUS: int = _core.LEARN_BOARD_RADIUS
WIDTH: int = 2 * RADIUS + 1
BASE_CHANNELS: int = _core.LEARN_BOARD_CHANNELS
PIECES_PER_PLAYER: int = _core.LEARN_PIECES_PER_PLAYER
NTILES = 95

ACTION_DOC = (
    "code = ((frontier_index * 4 + rotation) * 19 + occupant_slot) * 6 + retake_slot; frontier_index: rank "
    "of the position among the open positions sorted by (y, x) (the `frontier` field), 0..191; "
    "occupant_slot: 0 none, 1 + local meeple (local 0..7), 9 + local hut (local 0..9); retake_slot: 0 none, "
    "1 + k for the k-th own meeple on the board by global zone id (shaman tile only). 87,552 codes."
)

FIELD_DOCS: dict[str, str] = {
    "board": (
        f"uint8 [7 + 2 * players, {WIDTH}, {WIDTH}]: planes of the positions |x|, |y| <= {RADIUS} around the "
        f"start tile (index [c, y + {RADIUS}, x + {RADIUS}]); tiles further out are only in `tiles`. Channels: "
        "0 tile id + 1 (0 empty); 1 rotation; 2..5 side type facing north, east, south, west (0 none, "
        "1 forest, 2 meadow, 3 river); 6 frontier index + 1 of an open position (0 otherwise: the cell "
        "of compact codes with that frontier index); 7 + r meeples of relative seat r on the tile; "
        "7 + players + r huts of relative seat r on the tile."
    ),
    "tiles": (
        "int16 [95, 4]: row t = tile id t: (placed 0/1, x, y, rotation); exact, never clipped; "
        "0 rows for tiles not on the board."
    ),
    "frontier": (
        "int16 [192, 7]: row k = open position of frontier index k (sorted by (y, x)): (present 0/1, x, y, "
        "side type a placed neighbour requires on the north, east, south, west side: 0 open (no neighbour), "
        "1 forest, 2 meadow, 3 river). Rows past the open positions are 0."
    ),
    "pieces": (
        "int16 [8 * players, 5]: every piece on the board: (kind 1 meeple / 2 hut, x, y of its tile, global "
        "zone id, relative seat); meeples first, then huts; unused rows 0."
    ),
    "status": (
        "int16 [8]: (tile in hand or -1, 1 during a menhir extra turn, relative seat to move or -1 (game "
        "over or a chance draw pending), tiles left in the normal pile, tiles left in the menhir pile, "
        "1 when the game is over, moves played, pending chance draw: 0 none, 1 normal pile, 2 menhir pile)."
    ),
    "supplies": "int16 [players, 2]: (meeples, huts) in the supply of each relative seat.",
    "scores": "int32 [players]: points of each relative seat so far.",
    "remaining": (
        "uint8 [95]: 1 for each tile still undrawn in either pile (the contents of the piles are public, "
        "their order is not and is never shown); the tile in hand, placed and discarded tiles are 0."
    ),
}

_SPECS: dict[str, tuple[str, float, float]] = {
    "board": ("uint8", 0, FRONTIER),
    "tiles": ("int16", -_core.POSITION_BOUND, _core.POSITION_BOUND),
    "frontier": ("int16", -_core.POSITION_BOUND - 1, _core.POSITION_BOUND + 1),
    "pieces": ("int16", -_core.POSITION_BOUND, 949),
    "status": ("int16", -1, 95),
    "supplies": ("int16", 0, 5),
    "scores": ("int32", 0, 10_000),
    "remaining": ("uint8", 0, 1),
}
_layouts: dict[int, LearnLayout] = {}


def _shapes(players: int) -> dict[str, tuple[int, ...]]:
    return {
        "board": (BASE_CHANNELS + 2 * players, WIDTH, WIDTH),
        "tiles": (NTILES, 4),
        "frontier": (FRONTIER, _core.LEARN_FRONTIER_COLUMNS),
        "pieces": (PIECES_PER_PLAYER * players, _core.LEARN_PIECE_COLUMNS),
        "status": (_core.LEARN_STATUS_SIZE,),
        "supplies": (players, 2),
        "scores": (players,),
        "remaining": (NTILES,),
    }


def layout_of(game: Game) -> LearnLayout:
    """The learning layout of a game (as in every game's learn module)."""
    return layout(game.players)


def layout(players: int) -> LearnLayout:
    """The compact action space and observation fields for `players` seats."""
    lay = _layouts.get(players)
    if lay is None:
        fields = tuple(
            ObservationField(name, shape, _SPECS[name][0], _SPECS[name][1], _SPECS[name][2], FIELD_DOCS[name])
            for name, shape in _shapes(players).items()
        )
        lay = _layouts[players] = LearnLayout(
            ACTIONS, fields, ACTION_DOC, chance_outcomes=NTILES, afterstates=AFTERSTATE_FEATURES
        )  # chance outcomes: tile ids
    return lay


AFTERSTATE_FEATURES: tuple[tuple[str, str], ...] = (
    ("bias", "1"),
    ("points", "points the mover gains by the move / 10"),
    ("others_points", "the most points another seat gains by it / 10"),
    ("lead", "the mover's score after it minus the best other score / 50"),
    (
        "estimated_lead",
        "the same of the rules-based estimate of the final scores (the strong bot's, "
        "hunters.carcassonne.strategy) / 50",
    ),
    ("estimated_gain", "the mover's estimated final score after it minus before / 20"),
    ("meeples", "the mover's meeples in supply after it / 5"),
    ("huts", "the mover's huts in supply after it / 3"),
    ("meeple_stands", "1: the move places a meeple and it still stands after the move's scoring"),
    ("hut_stands", "1: the move places a hut and it still stands"),
    ("on_forest", "1: the piece placed is on a forest zone"),
    ("on_meadow", "1: on a meadow zone"),
    ("on_river", "1: on a river zone"),
    ("on_lake", "1: on a lake zone"),
    ("retake", "1: the move takes a meeple back (the shaman)"),
    ("moves_again", "1: the mover moves again (a closed menhir forest's extra turn)"),
    ("normal_left", "undrawn normal tiles before the move / 78 (the game's phase)"),
)
"""Columns of `afterstates` (`Game.learn_afterstates`), in order: (name, meaning)."""


def afterstates(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """(compact codes int64 [n], features float32 [n, 17]) of the seat to move's legal moves, in
    `learn_actions()` order, filled by the core (`_core.afterstates`: each move played on a
    scratch state)."""
    from .strategy import WEIGHTS

    table = np.zeros((game.core.count_legal(), len(AFTERSTATE_FEATURES)), np.float32)
    codes = _core.afterstates(game.core, tuple(WEIGHTS.values()), table)
    return np.asarray(codes, np.int64), table


def code_parts(code: int) -> tuple[int, int, int, int]:
    """(frontier index, rotation, occupant slot, retake slot) of a compact code."""
    rest, ret = divmod(code, RETAKE_SLOTS)
    rest, slot = divmod(rest, OCCUPANT_SLOTS)
    k, rot = divmod(rest, 4)
    return k, rot, slot, ret


def _check_code(code: Any) -> int:
    value = integer(code)
    if value is None:
        raise IllegalMoveError("MALFORMED", f"a compact code must be an int in [0, {ACTIONS})", code)
    if not 0 <= value < ACTIONS:
        raise IllegalMoveError("MALFORMED", f"a compact code must be an integer from 0 to {ACTIONS - 1}", value)
    return value


# -- one game (Game's learning methods call these) -----------------------------------------------
def internal_code(game: Game, code: Any) -> int:
    """The core's move code of a legal compact code (IllegalMoveError saying why not)."""
    code = _check_code(code)
    if game.core.over:
        raise IllegalMoveError("GAME_OVER", "the game is over", code)
    err, internal = game.core.learn_decode(code)
    if err:
        raise core_error(err, code)
    return internal


def learn_to_move(game: Game, code: Any) -> Move:
    internal = internal_code(game, code)
    tile = game.core.tile
    assert tile is not None  # internal_code refused a code when no tile is in hand
    return move_of(tile, internal)


def move_to_learn(game: Game, move: Any) -> int:
    code = game.core.learn_code_of(game.encode(move))
    assert code is not None  # _code accepted the move: it is one of the legal moves
    return code


def learn_mask(game: Game, out: Any = None) -> Any:
    if out is None:
        out = np.zeros(ACTIONS, dtype=np.uint8)
    elif not (isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.shape == (ACTIONS,)):
        raise ValueError(f"out must be a uint8 numpy array of shape ({ACTIONS},)")
    game.core.learn_mask(out)
    return out


class CompactActions(ActionSpace[Move, ScoreEvent]):
    """The compact encoding of carcassonne_hg (see the module docstring), in the core."""

    __slots__ = ()
    game: Game

    @property
    def size(self) -> int:
        return ACTIONS

    def legal(self) -> list[int]:
        """Compact codes of every legal move, ascending (legal_moves() order)."""
        return self.game.core.learn_codes()

    def mask(self, out: Any = None) -> Any:
        return learn_mask(self.game, out)

    def to_move(self, code: int) -> Move:
        return learn_to_move(self.game, code)

    def from_move(self, move: Any) -> int:
        return move_to_learn(self.game, move)

    def play(self, code: int) -> list[Any]:
        game = self.game
        return game.play_code(internal_code(game, code))


def empty_observation(players: int) -> dict[str, Any]:
    """Zeroed arrays of every field (for `observe(out=...)`)."""
    return {f.name: np.zeros(f.shape, dtype=f.dtype) for f in layout(players).fields}


def observe(game: Game, seat: int, out: dict[str, Any] | None = None) -> dict[str, Any]:
    players = game.players
    if not isinstance(seat, (int, np.integer)) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ValueError(f"seat must be an int from 0 to {players - 1}")
    seat = int(seat)
    if out is None:
        out = empty_observation(players)
    else:
        for f in layout(players).fields:
            a = out.get(f.name)
            if not (isinstance(a, np.ndarray) and a.shape == f.shape and a.dtype == f.dtype and a.flags.c_contiguous):
                raise ValueError(f"out[{f.name!r}] must be a C-contiguous {f.dtype} array of shape {f.shape}")
    flat = [out[name].reshape(-1) for name in _SPECS]
    game.core.observe(seat, *flat)
    return out


# -- many games ------------------------------------------------------------------------------------
class Batch(BatchBuffers):
    """`games` games of `players` seats stepped together in the core (`hunters.learn.LearnBatch`).

    Slot i's e-th game is ``Game.new(players, seed=seed + e * games + i)``; observations are those
    of the seat to move. Buffers are refilled in place by `reset` and `step`: read them, copy what
    you keep, never write into them (observations are updated incrementally, from what the buffers
    held). `threads` > 1 steps the games on that many OpenMP threads (the results do not depend on
    it). Their threads wait passively unless ``OMP_WAIT_POLICY`` says otherwise (`hunters.carcassonne`):
    spinning OpenMP threads cost far more than they gain on a machine whose cores are busy."""

    def __init__(self, game_cls: type[Game], games: int, players: int = 2, seed: int = 0, threads: int = 1):
        self._game_cls = game_cls
        games = check_int(games, 1, None, "games must be an int >= 1")
        threads = check_int(threads, 1, 64, "threads must be an int from 1 to 64")
        players = game_cls.INFO.check_players(players)
        super().__init__(games, players, layout(players))
        self.legal = np.zeros((games, _core.LEARN_LEGAL_CAP), dtype=np.uint32)
        """Extra (not in hunters.learn.LearnBatch): row i's first legal_count[i] entries are game i's
        legal codes, ascending (what the mask holds), for a cheap pick without scanning the mask."""
        self.legal_count = np.zeros(games, dtype=np.int32)
        """Legal codes of each game in `legal`; -1 when more than fit (then use the mask)."""
        self._core = _core.LearnCore(games, players, threads)
        self._core.bind(
            self.mask,
            *(self.obs[name].reshape(games, -1) for name in _SPECS),
            self.player,
            self.rewards,
            self.done.view(np.uint8),
            self.final_scores,
            self.legal,
            self.legal_count,
        )
        self.reset(seed)

    def reset(self, seed: int = 0) -> None:
        """Start a new game in every slot (slot i: seed + i) and fill the buffers."""
        self._core.reset(check_seed(seed, optional=False))

    def step(self, actions: Any) -> None:
        """Play `actions[i]` (a compact code) in every game i; an illegal code raises
        IllegalMoveError naming the slot, and no game changes."""
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.games,):
            raise ValueError(f"actions must have shape ({self.games},)")
        bad = np.flatnonzero((acts < 0) | (acts >= ACTIONS))
        if bad.size:
            slot = int(bad[0])
            raise IllegalMoveError(
                "MALFORMED", f"slot {slot}: a compact code must be in [0, {ACTIONS})", int(acts[slot])
            )
        slot, err = self._core.step(acts)
        if slot >= 0:
            e = core_error(err, int(acts[slot]))
            raise IllegalMoveError(e.reason, f"slot {slot}: {e.message}", int(acts[slot]))

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """Extra (not in hunters.learn.LearnBatch): a uniformly random legal code per game (int64
        [games]), drawn from `legal` (from the mask where a game has more legal codes than fit)."""
        games = np.arange(self.games)
        counts = self.legal_count
        picks = self.legal[games, (rng.random(self.games) * np.maximum(counts, 1)).astype(np.int64)].astype(np.int64)
        for i in np.flatnonzero(counts < 0):
            picks[i] = rng.choice(np.flatnonzero(self.mask[i]))
        return picks

    def game(self, index: int) -> Game:
        """A copy of the game in slot `index` (replayed from its seed and moves: events included)."""
        state = self._core.game_state(index)
        g = self._game_cls.new(self.players, seed=self._core.slot_seed(index))
        for code in state.moves():
            g.play_code(code)
        return g
