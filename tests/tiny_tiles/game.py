"""A tiny game with the whole contract, in pure Python: the third game, which proves that a game is
a plug-in (tests/plugin/test_third_game.py: served, played, learned, drawn and rebuilt with no edit
to a shared module), and the game `hunters.rl` is tested on independently of the real games.

Rules. A pile of nine tiles (three each of values 1, 2, 3) is shuffled from the seed; its order is
hidden, its contents public. The seat to move holds the top tile (drawn at the start of its turn)
and places it on an empty cell of a 3×3 board, scoring its value plus one per orthogonally adjacent
tile of its own. Placing on the centre gives the same seat another turn (a fresh draw). The game
ends when the board is full (9 placements). With ``chance="external"`` every draw is a pending
chance node (outcome = tile kind 0..2, value kind + 1; probability = its share of the undrawn tiles).

Options: ``chance`` ("seeded" or "external"), ``pile`` (the nine kinds in draw order instead of the
shuffle of the seed). Compact codes: the cell index 0..8 (row-major). Observations: see `layout_for`.

`TinyDuel` is the same game for exactly two players, under an id of its own (`tiny_tiles_duel`): a
game whose player range is a single count, which the shared harness runs as it runs the others.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, NamedTuple

import numpy as np

from hunters.capabilities import ExplicitChance, HiddenState, Learnable
from hunters.errors import IllegalMoveError, InvalidOptionError
from hunters.game_base import ActionSpace, GameBase, GameInfo, LegalMoves, Option, check_seed
from hunters.learn import LearnLayout, ObservationField, check_view, terminal_rewards

KINDS = (0, 0, 0, 1, 1, 1, 2, 2, 2)
CELLS = 9
NEIGHBOURS = [
    [n for n in (c - 3, c + 3, c - 1 if c % 3 else -1, c + 1 if c % 3 != 2 else -1) if 0 <= n < 9] for c in range(CELLS)
]


class Place(NamedTuple):
    cell: int

    def to_json(self) -> dict[str, int]:
        return {"cell": self.cell}

    @classmethod
    def from_json(cls, data: Any) -> Place:
        return cls(data["cell"])


class Placed(NamedTuple):
    """A tile placed: by `seat`, on `cell`, worth `points`."""

    seat: int
    cell: int
    points: int


def layout_for(players: int) -> LearnLayout:
    return LearnLayout(
        actions=CELLS,
        fields=(
            ObservationField("board", (3, 3), "int8", 0, 4, "0 empty, else 1 + owner's seat relative to the observer"),
            ObservationField("values", (3, 3), "uint8", 0, 3, "value of the tile on each cell (0 empty)"),
            ObservationField("hand", (3,), "uint8", 0, 1, "one-hot kind of the tile in hand (all 0: none)"),
            ObservationField("scores", (players,), "int16", 0, 200, "scores by relative seat"),
            ObservationField("remaining", (3,), "uint8", 0, 3, "undrawn tiles per kind (order hidden)"),
        ),
        action_doc="code = cell index 0..8, row-major",
        chance_outcomes=3,
    )


class TinyGame(GameBase[Place, Placed], ExplicitChance, HiddenState, Learnable):
    INFO = GameInfo(
        id="tiny_tiles",
        name="Tiny tiles",
        min_players=2,
        max_players=3,
        action_space_size=CELLS,
        record_format=1,
        perfect_information=True,  # the pile's order is hidden from every seat alike: chance
        chance="explicit",
        reward_scale=5.0,
        max_game_length=CELLS,
        options=(
            Option("chance", "str", "seeded", "external: every draw is a chance node", choices=("seeded", "external")),
            Option("pile", "ints", None, "the nine tile kinds (three each of 0, 1, 2) in draw order"),
        ),
    )
    __slots__ = (
        "_chance",
        "_drawn",
        "_events",
        "_hand",
        "_kind",
        "_moves",
        "_outcomes",
        "_owner",
        "_pile",
        "_players",
        "_scores",
        "_seat",
        "_seed",
    )

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 2, seed: int | None = 0, **options: Any) -> TinyGame:
        cls.INFO.check_players(players)
        check_seed(seed)
        cls.INFO.check_option_names(options)
        chance = options.get("chance", "seeded")
        if chance not in ("seeded", "external"):
            raise InvalidOptionError(f"chance must be seeded or external, not {chance!r}")
        pile = options.get("pile")
        if pile is not None and sorted(pile) != sorted(KINDS):
            raise InvalidOptionError("pile must hold the kinds 0, 1 and 2 three times each")
        g = object.__new__(cls)
        g._players, g._seed, g._chance = players, seed, chance
        g._pile = list(KINDS)
        random.Random(seed or 0).shuffle(g._pile)
        if pile is not None:
            g._pile = list(pile)
        g._events = []
        g._drawn, g._hand, g._seat = 0, -1, 0
        g._owner, g._kind = [-1] * CELLS, [-1] * CELLS
        g._scores, g._moves, g._outcomes = [0] * players, [], []
        if chance == "seeded":
            g._draw_seeded()
        return g

    def _draw_seeded(self) -> None:
        self._hand = self._pile[self._drawn]
        self._drawn += 1

    @classmethod
    def _new_from_record(cls, record: dict[str, Any]) -> TinyGame:
        return cls.new(record["players"], record["seed"], chance=record.get("chance", "seeded"))

    def clone(self) -> TinyGame:
        g = object.__new__(type(self))
        for s in TinyGame.__slots__:  # a subclass adds none of its own
            v = getattr(self, s)
            setattr(g, s, list(v) if isinstance(v, list) else v)
        return g

    def to_record(self) -> dict[str, Any]:
        rec = {
            "game": self.INFO.id,
            "format": 1,
            "players": self._players,
            "seed": self._seed,
            "moves": [m.to_json() for m in self._moves],
        }
        if self._chance == "external":
            rec["chance"], rec["outcomes"] = "external", list(self._outcomes)
        return rec

    # -- state -------------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._players

    @property
    def player(self) -> int:
        if self.is_over:
            return self._seat
        return -1 if self._hand < 0 else self._seat

    @property
    def is_over(self) -> bool:
        return len(self._moves) == CELLS

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def events(self) -> list[Placed]:
        return list(self._events)

    @property
    def moves(self) -> list[Place]:
        return list(self._moves)

    @property
    def seed(self) -> int | None:
        return self._seed

    def score_breakdown(self) -> list[dict[str, int]]:
        return [{"tiles": s, "total": s} for s in self._scores]

    def view(self) -> dict[str, Any]:
        return {
            "owner": list(self._owner),
            "kind": list(self._kind),
            "hand": self._hand,
            "remaining": self._remaining(),
            "scores": self.scores,
        }

    def _remaining(self) -> list[int]:
        left = self._pile[self._drawn :]
        return [left.count(k) for k in range(3)]

    def observed_by(self, seat: int) -> TinyGame:
        self.check_seat(seat)
        g = self.clone()
        g._pile = g._pile[: g._drawn] + sorted(g._pile[g._drawn :])
        g._seed = None
        return g

    def determinized(self, seat: int, seed: int) -> TinyGame:
        g = self.observed_by(seat)
        rest = g._pile[g._drawn :]
        random.Random(seed).shuffle(rest)
        g._pile[g._drawn :] = rest
        return g

    # -- moves -------------------------------------------------------------------------------------
    def legal_moves(self) -> LegalMoves[Place]:
        return LegalMoves(self, self.compact.legal(), Place)

    def _free(self) -> list[int]:
        if self.is_over or self._hand < 0:
            return []
        return [c for c in range(CELLS) if self._owner[c] < 0]

    def _code(self, move: Any) -> int:
        if self.is_over:
            raise IllegalMoveError("GAME_OVER", "the game is over", move)
        if self._hand < 0:
            raise IllegalMoveError("CHANCE_PENDING", "a tile must be drawn first", move)
        if not isinstance(move, Place) or type(move.cell) is not int or not 0 <= move.cell < CELLS:
            raise IllegalMoveError("MALFORMED", "expected Place(cell) with cell 0..8", move)
        if self._owner[move.cell] >= 0:
            raise IllegalMoveError("OCCUPIED", "that cell is taken", move)
        return move.cell

    def play(self, move: Place) -> list[Placed]:
        c = self._code(move)
        seat = self._seat
        self._owner[c], self._kind[c] = seat, self._hand
        points = self._hand + 1 + sum(1 for n in NEIGHBOURS[c] if self._owner[n] == seat)
        self._scores[seat] += points
        self._moves.append(Place(c))
        event = Placed(seat, c, points)
        self._events.append(event)
        self._hand = -1
        if not self.is_over:
            if c != 4:
                self._seat = (seat + 1) % self._players
            if self._chance == "seeded":
                self._draw_seeded()
        return [event]

    @property
    def actions(self) -> Cells:
        return Cells(self)

    # -- learning ----------------------------------------------------------------------------------
    def learn_layout(self) -> LearnLayout:
        return layout_for(self._players)

    @property
    def compact(self) -> Cells:
        return Cells(self)

    def observe(self, seat: int, out: dict[str, Any] | None = None, view: str = "observation") -> dict[str, Any]:
        check_view(view)  # the hand is public and the pile's order hidden from all: both views alike
        if out is None:
            out = {f.name: np.zeros(f.shape, f.dtype) for f in self.learn_layout().fields}
        p = self._players
        board, values = out["board"].reshape(-1), out["values"].reshape(-1)
        for c in range(CELLS):
            o = self._owner[c]
            board[c] = 0 if o < 0 else 1 + (o - seat) % p
            values[c] = self._kind[c] + 1
        out["hand"][:] = 0
        if self._hand >= 0:
            out["hand"][self._hand] = 1
        for r in range(p):
            out["scores"][r] = self._scores[(seat + r) % p]
        out["remaining"][:] = self._remaining()
        return out

    @classmethod
    def learn_batch(
        cls, games: int, players: int = 2, seed: int = 0, view: str = "observation", **options: Any
    ) -> TinyBatch:
        check_view(view)
        return TinyBatch(games, players, seed, cls)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._chance != "external":
            raise ValueError("chance outcomes need a game made with chance='external'")
        if self.is_over or self._hand >= 0:
            return []
        left = self._remaining()
        total = sum(left)
        return [(k, n / total) for k, n in enumerate(left) if n]

    def apply_chance(self, outcome: int) -> None:
        if outcome not in dict(self.chance_outcomes()):
            raise IllegalMoveError(
                "NOT_AN_OUTCOME", f"{outcome!r} is not an outcome of the pending chance node", outcome
            )
        j = self._pile.index(outcome, self._drawn)
        self._pile[self._drawn], self._pile[j] = self._pile[j], self._pile[self._drawn]
        self._outcomes.append(outcome)
        self._draw_seeded()

    def chance_view(self) -> TinyGame:
        g = self.clone()
        if g._chance == "seeded":  # the draws so far become the outcomes that replay them
            g._chance, g._outcomes = "external", g._pile[: g._drawn]
        return g


class TinyDuel(TinyGame):
    """tiny_tiles for two players only, under its own id (records and the registry tell it apart)."""

    INFO = dataclasses.replace(TinyGame.INFO, id="tiny_tiles_duel", name="Tiny tiles for two", max_players=2)
    __slots__ = ()


class Cells(ActionSpace[Place, Placed]):
    """The action codes, compact and dense alike: the cell index."""

    game: TinyGame

    @property
    def size(self) -> int:
        return CELLS

    def legal(self) -> list[int]:
        return self.game._free()

    def mask(self, out: Any = None) -> Any:
        if out is None:
            out = np.zeros(CELLS, np.uint8)
        else:
            out[:] = 0
        for c in self.legal():
            out[c] = 1
        return out

    def to_move(self, code: int) -> Place:
        if type(code) is not int and not isinstance(code, np.integer):
            raise IllegalMoveError("MALFORMED", "a compact code is an integer", code)
        move = Place(int(code))
        self.game._code(move)
        return move

    def from_move(self, move: Any) -> int:
        return self.game._code(move)


class TinyBatch:
    """`hunters.learn.LearnBatch` for the tiny game, stepping Python games (slow, but exact)."""

    def __init__(self, games: int, players: int, seed: int, game: type[TinyGame] | None = None):
        self.games, self.players = games, players
        self._game = game or TinyGame
        self.layout = layout_for(players)
        self.mask = np.zeros((games, CELLS), np.uint8)
        self.obs = {f.name: np.zeros((games, *f.shape), f.dtype) for f in self.layout.fields}
        self.player = np.zeros(games, np.int32)
        self.rewards = np.zeros((games, players), np.float32)
        self.done = np.zeros(games, bool)
        self.final_scores = np.zeros((games, players), np.int32)
        self.legal = np.zeros((games, CELLS), np.uint32)  # (extra, like H&G's batch: the legal codes)
        self.legal_count = np.zeros(games, np.int32)
        self._games: list[TinyGame] = []
        self._episodes = [0] * games
        self.reset(seed)

    def _fill(self, i: int) -> None:
        g = self._games[i]
        self.player[i] = g.player
        g.compact.mask(self.mask[i])
        codes = g.compact.legal()
        self.legal_count[i] = len(codes)
        self.legal[i, : len(codes)] = codes
        g.observe(g.player, {k: v[i] for k, v in self.obs.items()})

    def reset(self, seed: int = 0) -> None:
        self._seed = seed
        self._episodes = [0] * self.games
        self._games = [self._game.new(self.players, seed + i) for i in range(self.games)]
        self.rewards[:] = 0
        self.done[:] = False
        self.final_scores[:] = 0
        for i in range(self.games):
            self._fill(i)

    def step(self, actions: Any) -> None:
        codes = [int(a) for a in actions]
        for i, c in enumerate(codes):
            if not 0 <= c < CELLS or not self.mask[i, c]:
                raise IllegalMoveError("ILLEGAL_ACTION", f"slot {i}: code {c} is not legal", c)
        self.rewards[:] = 0
        self.done[:] = False
        for i, c in enumerate(codes):
            g = self._games[i]
            g.play(Place(c))
            if g.is_over:
                self.done[i] = True
                self.final_scores[i] = g.scores
                self.rewards[i] = terminal_rewards(g.scores)
                self._episodes[i] += 1
                self._games[i] = self._game.new(self.players, self._seed + self._episodes[i] * self.games + i)
            self._fill(i)

    def game(self, index: int) -> TinyGame:
        return self._games[index].clone()
