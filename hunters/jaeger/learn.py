"""Jäger und Sammler for learning: compact action codes, masks, observations, a batch stepped in
the core. The rules live in the core (`hunters.jaeger._core`); this module lays out the numpy
buffers and names things. numpy is imported here only (never by `import hunters`).

A code is one whole turn (two steps, or one that takes the mover's last character off the board),
built from character indices and step slots (`hunters.jaeger.actions`); the default board has 2,928
codes (`LearnLayout.actions`). Observations show a seat what the rules let it see: nobody, the owner
included, sees face-down tiles by kind before the end (spec §5); the ``information_state`` view adds
the seat's own. Each field's meaning is its `ObservationField.doc` (`FIELD_DOCS`).

The code layout, every field, external chance and the batch: docs/learning.md (Jäger und Sammler).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from hunters.errors import IllegalMoveError
from hunters.game_base import ActionSpace, check_seed
from hunters.info import check_int, integer
from hunters.learn import MAX_LEARN_ACTIONS, BatchBuffers, LearnLayout, ObservationField

from . import _core
from .errors import core_error
from .moves import Event, Move
from .options import WINTER_START, validate_options
from .tiles import KINDS, code_of, data, deck

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "COLLECTION_COLUMNS",
    "FIELD_DOCS",
    "STATUS_ENTRIES",
    "Batch",
    "board_channels",
    "layout",
]

_SIZES = _core.LEARN_SIZES
NCOL = _SIZES["collection"]
NSTATUS = _SIZES["status"]
NFACE = _SIZES["face_down"]
NKIND = _SIZES["kinds"]  # tile kinds berries .. cave
FACE_DOWN = KINDS[:NFACE]  # berries, tubers, herbs, jug, necklace, pelt, skull

LEARN_MESSAGES = {
    "UNKNOWN_CODE": "a compact code is an int from 0 to LearnLayout.actions - 1",
    "NO_CHARACTER": "the character index names no space holding a character of the player to move",
    "NOWHERE": "that slot leads nowhere from the character's space (no neighbour there, no such "
    "cave, a cave slot to a neighbouring cave, or a second step after leaving)",
    "NOT_CANONICAL": "a second step from the space the first step ended on is written with character "
    "index C (the character that just stepped)",
}
_LEARN_REFUSALS = _core.LEARN_REFUSALS


def board_channels(players: int) -> tuple[str, ...]:
    """Names of the board channels (last axis of ``board``) for `players` seats."""
    return (
        "tile_space",
        "summer_camp",
        "winter_camp",
        "empty",
        *(f"tile_{k}" for k in KINDS),
        "mammoth_value",
        *(f"characters_r{r}" for r in range(players)),
        *(f"supply_pack_r{r}" for r in range(players)),
        "own_index",
    )


COLLECTION_COLUMNS: tuple[str, ...] = (
    *FACE_DOWN,
    "face_down",
    "weapons",
    "weapons_spent",
    "mammoths",
    "mammoth_points",
    "supply_packs",
    "packs_on_summer_camps",
    "packs_on_winter_camps",
    "characters_on_board",
    "characters_this_season",
    "score",
)
STATUS_ENTRIES = (
    "season",
    "to_move",
    "turns",
    "idle_turns",
    "stall_rounds",
    "summer_mammoth_value",
    "summer_mammoth_seat",
    "collections_open",
    "players",
    "chance_pending",
)
assert len(COLLECTION_COLUMNS) == NCOL and len(STATUS_ENTRIES) == NSTATUS

FIELD_DOCS = {
    "board": "uint8 [n, F] per space (default board: space = row * 12 + col, reshape to (10, 12, F) for "
    "the odd-r hex grid), F = 17 + 2 P channels: 0-2 one-hot space kind (tile space, summer camp, "
    "winter camp); 3 empty tile space (a hole: its tile was taken or removed, or not laid yet); 4-14 "
    "one-hot tile kind lying face up there (berries, tubers, herbs, jug, necklace, pelt, skull, weapon, "
    "mammoth, path, cave); 15 the mammoth's value (0 if none); 16 .. 16+P-1 number of characters of "
    "relative seat r on the space; 16+P .. 16+2P-1 1 if relative seat r has a supply pack on this camp; "
    "16+2P own_index: i + 1 on the observer's i-th occupied space (the character index of the action "
    "codes when the observer is to move), else 0.",
    "characters": "int16 [P, C] the spaces relative seat r's characters occupy, distinct and ascending "
    "(entry i of row 0 is the space of character index i of the action codes), -1 padding.",
    "collections": "int16 [P, 18] relative seat r's pieces: 0-6 face-down tiles taken by kind (berries, "
    "tubers, herbs, jug, necklace, pelt, skull): 0 for every seat, the observer included (spec §5), "
    "unless collections are open (status collections_open); in the information state the observer's "
    "own row 0 is shown (it took them); 7 face-down tiles taken in all (always shown); "
    "8 weapons held; 9 weapons spent; 10 mammoths taken; 11 their points; 12 supply packs in hand; "
    "13 packs on summer camps (5 points each at the end); 14 packs on winter camps; 15 characters on "
    "the board; 16 characters this season; 17 score: the full current total when collections are "
    "open (and the observer's own in the information state), else only the visible part (mammoth "
    "points + 5 per pack on a summer camp).",
    "tiles": "int16 [3, 11] tiles by kind (berries .. cave): row 0 lying on the board now; row 1 still "
    "to be laid (in summer the whole winter deck, during a chance deal the undealt rest; 0 later); "
    "row 2 removed as leftovers at season ends.",
    "pool": "int16 [7] every seat's face-down tiles together, by kind (berries, tubers, herbs, jug, "
    "necklace, pelt, skull): public, since each lay face up before it was taken; who holds which is "
    "not shown.",
    "status": "int16 [10]: 0 season (0 summer, 1 winter, 2 over); 1 relative seat to move (-1 when the "
    "game is over or a chance node is pending); 2 turns played; 3 turns in a row without a taken tile; "
    "4 the stall_rounds option (0 off); 5 value of the most valuable summer mammoth killed (0 none: "
    "its killer starts winter); 6 relative seat of that killer (-1 none); 7 collections open (1: option "
    "open_collections or the game is over); 8 players; 9 tiles still to be dealt by pending chance nodes.",
}


_CHARS = int(data()["characters_per_player"])
_DECK_CAVES = int(data()["tiles"]["summer"].get("cave", 0))


def compact_spec(start: list[list[int]] | None, caves: list[int]) -> tuple[int, int]:
    """(C, K) of a configuration: character indices and cave slots of its compact codes, from each
    seat's start spaces (None: the default) and the board's caves (`Game.compact_spec` keeps it)."""
    c = max([_CHARS] + ([len(s) for s in start] if start else []))
    k = max(_DECK_CAVES, len(caves))
    return c, k


@lru_cache(maxsize=64)
def layout(players: int, spaces: int, ndir: int, chars: int, caves: int) -> LearnLayout:
    """The LearnLayout of a configuration: `spaces` and `ndir` of the board, `chars` character
    indices (C), `caves` cave slots (K)."""
    s = ndir + caves + 1
    actions = chars * s * ((chars + 1) * s + 1)
    if actions > MAX_LEARN_ACTIONS:
        raise ValueError(f"{actions} compact codes exceed {MAX_LEARN_ACTIONS}")
    f = 17 + 2 * players
    hi = 32767.0
    fields = (
        ObservationField("board", (spaces, f), "uint8", 0.0, float(max(15, chars)), FIELD_DOCS["board"]),
        ObservationField("characters", (players, chars), "int16", -1.0, float(spaces - 1), FIELD_DOCS["characters"]),
        ObservationField("collections", (players, NCOL), "int16", 0.0, hi, FIELD_DOCS["collections"]),
        ObservationField("tiles", (3, NKIND), "int16", 0.0, 255.0, FIELD_DOCS["tiles"]),
        ObservationField("pool", (NFACE,), "int16", 0.0, 255.0, FIELD_DOCS["pool"]),
        ObservationField("status", (NSTATUS,), "int16", -1.0, hi, FIELD_DOCS["status"]),
    )
    doc = (
        f"code = (i * S + slot1) * W2 + second; S = {s} slots (0..{ndir - 1} directions, "
        f"{ndir}..{ndir + caves - 1} cave jumps by cave rank, {s - 1} leave), C = {chars} character "
        f"indices (rank of the mover's occupied spaces, ascending), W2 = (C + 1) * S + 1 = "
        f"{(chars + 1) * s + 1}; second = 0 (one step), 1 + C * S + slot2 (the same character again), "
        f"1 + k * S + slot2 (k < C: a character on the k-th pre-turn space). See hunters.jaeger.learn."
    )
    return LearnLayout(actions, fields, doc, chance_outcomes=256)  # outcomes: tile codes, one byte


def layout_of(game: Game) -> LearnLayout:
    c, k = game.compact_spec()
    return layout(game.players, game.board.n, game.board.ndir, c, k)


def _empty_obs(lay: LearnLayout, lead: tuple[int, ...] = ()) -> dict[str, Any]:
    return {f.name: np.zeros(lead + f.shape, dtype=f.dtype) for f in lay.fields}


# -- one game ----------------------------------------------------------------------------------
def learn_refusal(err: int, code: Any) -> IllegalMoveError:
    """The IllegalMoveError of a core refusal of a compact code."""
    reason = _LEARN_REFUSALS.get(err)
    if reason is not None:
        return IllegalMoveError(reason, LEARN_MESSAGES[reason], code)
    return core_error(err, code)


def learn_actions(game: Game) -> list[int]:
    if game.chance_pending:
        return []
    c, k = game.compact_spec()
    return game.core.learn_actions(c, k)


def learn_mask(game: Game, out: Any = None) -> Any:
    lay = layout_of(game)
    if out is None:
        out = np.zeros(lay.actions, dtype=np.uint8)
    elif not (isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.shape == (lay.actions,)):
        raise ValueError(f"out must be a C-contiguous uint8 array of {lay.actions} entries")
    if game.chance_pending:
        out[:] = 0
        return out
    c, k = game.compact_spec()
    game.core.learn_mask(out, c, k)
    return out


def internal_code(game: Game, code: Any) -> int:
    """The core turn code of a compact code that is legal now (IllegalMoveError otherwise)."""
    value = integer(code)
    if value is None:
        raise IllegalMoveError("UNKNOWN_CODE", LEARN_MESSAGES["UNKNOWN_CODE"], code)
    if game.chance_pending:
        raise IllegalMoveError("CHANCE_PENDING", "a chance node is pending: apply_chance first", code)
    c, k = game.compact_spec()
    code = value
    if not -(2**63) <= code < 2**63:
        raise IllegalMoveError("UNKNOWN_CODE", LEARN_MESSAGES["UNKNOWN_CODE"], code)
    err, turn = game.core.learn_turn(code, c, k)
    if err or turn is None:
        raise learn_refusal(err, code)
    return int(turn)


def learn_to_move(game: Game, code: Any) -> Move:
    return game.decode(internal_code(game, code))


def move_to_learn(game: Game, move: Move) -> int:
    turn = game.encode(move)
    c, k = game.compact_spec()
    return int(game.core.learn_code(turn, c, k))


class CompactActions(ActionSpace[Move, Event]):
    """The compact encoding of jaeger_sammler (see the module docstring), in the core."""

    __slots__ = ()
    game: Game

    @property
    def size(self) -> int:
        return layout_of(self.game).actions

    def legal(self) -> list[int]:
        return learn_actions(self.game)

    def mask(self, out: Any = None) -> Any:
        return learn_mask(self.game, out)

    def to_move(self, code: int) -> Move:
        return learn_to_move(self.game, code)

    def from_move(self, move: Any) -> int:
        return move_to_learn(self.game, move)

    def play(self, code: int) -> list[Any]:
        return self.game.play_code(internal_code(self.game, code))


def observe(game: Game, seat: int, out: dict[str, Any] | None = None, own: bool = False) -> dict[str, Any]:
    """The observation of `seat` (`own`: its information state, its own face-down tiles shown)."""
    seat = check_int(seat, 0, game.players - 1, "no such seat")
    c, k = game.compact_spec()
    if out is None:
        out = _empty_obs(layout(game.players, game.board.n, game.board.ndir, c, k))
    game.core.observe(
        seat,
        c,
        k,
        1 if not game.collections_hidden else (2 if own else 0),
        out["board"],
        out["characters"],
        out["collections"],
        out["tiles"],
        out["pool"],
        out["status"],
    )
    deal = game.summer_deal_left
    if deal is not None:  # the external summer deal is under way: its undealt rest is still to come
        left, spaces = deal
        for code in left:
            out["tiles"][1, (code & 15) - 1] += 1
        out["status"][1] = -1
        out["status"][9] += spaces
    return out


# -- the batch -----------------------------------------------------------------------------------
class Batch(BatchBuffers):
    """`hunters.learn.LearnBatch` for Jäger und Sammler: `games` random games of one configuration
    stepped together inside the core (`hunters.jaeger._core.LearnCore`), the GIL released. Slot i's
    e-th game is ``Game.new(players, seed=seed + e * games + i, **options)``; `game(i)` rebuilds it
    (replaying its turns). Buffers are refilled in place; the mask is updated by clearing only the
    entries set the step before."""

    def __init__(
        self, game_cls: type[Game], games: int, players: int = 2, seed: int = 0, own: bool = False, **options: Any
    ) -> None:
        games = check_int(games, 1, None, "games must be an int >= 1")
        players = game_cls.INFO.check_players(players)
        seed = check_seed(seed, optional=False)
        board, o = validate_options(options)
        self._options = dict(options)
        self._game_cls = game_cls
        probe = game_cls.new(players, 0, **options)
        c, k = probe.compact_spec()
        super().__init__(games, players, layout(players, board.n, board.ndir, c, k))
        self._core = _core.LearnCore(
            games,
            players,
            board.core,
            [code_of(t) for t in deck("summer", tuple(o["mammoths_summer"]))],
            [code_of(t) for t in deck("winter", tuple(o["mammoths_winter"]))],
            o["stall_rounds"],
            o["straight_jumps"],
            WINTER_START[o["winter_start"]],
            o["ties"] == "shared",
            o["open_collections"],
            c,
            k,
            own,
        )
        ob = self.obs
        self._core.bind(
            self.mask,
            ob["board"],
            ob["characters"],
            ob["collections"],
            ob["tiles"],
            ob["pool"],
            ob["status"],
            self.player,
            self.rewards,
            self.done.view(np.uint8),
            self.final_scores,
        )
        self.reset(seed)

    def reset(self, seed: int = 0) -> None:
        self._core.reset(check_seed(seed, optional=False))

    def step(self, actions: Any) -> None:
        a = np.ascontiguousarray(actions, dtype=np.int64)
        if a.shape != (self.games,):
            raise ValueError(f"actions must be {self.games} compact codes")
        bad = self._core.step(a)
        if bad is not None:
            slot, err = bad
            e = learn_refusal(err, int(a[slot]))
            raise IllegalMoveError(e.reason, f"slot {slot}: {e.message}", int(a[slot]))

    def game(self, index: int) -> Game:
        seed, turns = self._core.slot(index)
        g = self._game_cls.new(self.players, seed, **self._options)
        for t in turns:
            g.play(g.decode(t))
        return g
