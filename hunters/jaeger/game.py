"""`Game`: the typed public API of a Jäger und Sammler game, a thin handle on the Cython core."""

from __future__ import annotations

import copy
import sys
from typing import Any

from hunters.capabilities import (
    CoreSearch,
    CountsPerft,
    Described,
    ExplicitChance,
    HiddenState,
    Learnable,
    PrivateViews,
    SearchStats,
    SeededChance,
    Simulates,
    SimulationResult,
)
from hunters.errors import IllegalMoveError, InvalidOptionError
from hunters.game_base import ActionSpace, GameBase, GameInfo, LegalMoves, Option, check_seed
from hunters.info import check_int, plain
from hunters.learn import LearnBatch, LearnLayout, check_view
from hunters.memo import remember
from hunters.perft import PerftLimit, check_depth, perft, perft_children, python_perft

from . import _core, chance, views
from . import actions as _actions
from ._core import CoreConfig, CoreGame
from .board import Board
from .errors import core_error, refusal
from .layouts import start_positions, summer_layout, winter_deck
from .moves import Collection, Event, Move, Step
from .options import DEFAULT_OPTIONS, MAX_STALL_ROUNDS, TIES, WINTER_START, check_plain, validate_options
from .tiles import KINDS, STAYING, code_of, deck, token_of

GAME_ID = "jaeger_sammler"
RECORD_FORMAT = 1
SEASONS = ("summer", "winter", "over")
_EVENT_KINDS = _core.EVENT_KINDS
_END_REASONS = _core.END_REASONS
_START_RULES = _core.START_RULES
_LIMITS = _core.LIMITS
INFO = GameInfo(
    id=GAME_ID,
    name="Jäger und Sammler",
    min_players=2,
    max_players=_LIMITS["players"],
    action_space_size=_actions.ACTION_SPACE_SIZE,
    record_format=RECORD_FORMAT,
    perfect_information=False,  # taken tiles lie face down
    chance="explicit",
    reward_scale=10.0,
    short_name="JaegerSammler",
    # with the default options at the most players: 200 tiles are laid in all (at most 200 chance
    # nodes with chance="external") and so at most 200 are taken; a season ends after stall_rounds (10)
    # full rounds without a take, so each take and each season's end come after at most
    # 10 * players turns: (200 + 2) * 10 * 4 = 8,080 turns (one decision each). Random games
    # measured: at most 103 turns (4 players). A larger stall_rounds allows (200 + 2) * stall_rounds
    # * players; stall_rounds=0 (off) no bound from the rules.
    max_game_length=(200 + 2) * 10 * 4,
    options=(
        Option("board", "json", None, "the documented 10 x 12 hex grid, or board data (hunters.jaeger.board)"),
        Option(
            "mammoths_summer", "ints", DEFAULT_OPTIONS["mammoths_summer"], "printed values of the summer mammoth tiles"
        ),
        Option("mammoths_winter", "ints", DEFAULT_OPTIONS["mammoths_winter"], "the same of the winter ones"),
        Option(
            "straight_jumps",
            "bool",
            DEFAULT_OPTIONS["straight_jumps"],
            "a jump over an occupied tile must continue in a straight line",
        ),
        Option(
            "stall_rounds",
            "int",
            DEFAULT_OPTIONS["stall_rounds"],
            "a season also ends after this many full rounds without a take (0: off)",
            minimum=0,
            maximum=MAX_STALL_ROUNDS,
        ),
        Option(
            "winter_start",
            "str",
            DEFAULT_OPTIONS["winter_start"],
            "who starts winter when nobody killed a summer mammoth",
            choices=tuple(WINTER_START),
        ),
        Option("ties", "str", DEFAULT_OPTIONS["ties"], "tied players share the victory, or nobody wins", choices=TIES),
        Option(
            "open_collections",
            "bool",
            DEFAULT_OPTIONS["open_collections"],
            "show every collection and the scores before the end",
        ),
        Option("summer", "json", None, "the summer layout {space: tile} (default: dealt from the seed)"),
        Option("winter", "json", None, "the winter deck, dealt in ascending space order (default: from the seed)"),
        Option("start", "json", None, "each seat's start spaces (default: one character on each summer camp)"),
        Option(
            "chance",
            "str",
            "internal",
            "external: the layouts are dealt as chance nodes (OpenSpiel)",
            choices=("internal", "external"),
        ),
    ),
)
POLICIES = ("uniform", "stay")
"""Random policies of `Game.random_games`: see there."""

__all__ = ["DEFAULT_OPTIONS", "GAME_ID", "INFO", "Game", "LegalMoves"]


def _is_int(v: Any) -> bool:
    return type(v) is int


def _decode(cfg: CoreConfig, code: int) -> Move:
    """The Move of a turn code on a configuration (memoised per configuration)."""
    move: Move | None = cfg.cache.get(code)
    if move is None:
        s1, d1, s2, d2 = cfg.decode(code)
        move = remember(cfg.cache, code, Move(Step(s1, d1), None if s2 is None else Step(s2, d2)))
    return move


def _step_parts(step: Any) -> tuple[int, int | None] | None:
    if not isinstance(step, tuple) or len(step) != 2:
        return None
    src, dst = step
    if not _is_int(src) or not (dst is None or _is_int(dst)):
        return None
    return src, dst


class Game(
    GameBase[Move, Event],
    ExplicitChance,
    SeededChance,
    PrivateViews,
    HiddenState,
    Learnable,
    CoreSearch,
    CountsPerft,
    Simulates,
    Described,
):
    """A game of Jäger und Sammler (game id ``jaeger_sammler``).

    >>> g = Game.new(players=2, seed=7)
    >>> g.player, g.season, len(g.legal_moves()) > 0
    (0, 'summer', True)
    >>> events = g.play(g.legal_moves()[0])
    >>> g.player
    1
    """

    INFO = INFO
    __slots__ = (
        "_board",
        "_cfg",
        "_core",
        "_events",
        "_external",
        "_learn_spec",
        "_masked_cfg",
        "_moves",
        "_options",
        "_outcomes",
        "_seat_events",
        "_seed",
        "_start",
        "_summer",
        "_summer_left",
        "_winter",
    )
    _core: CoreGame
    _cfg: CoreConfig
    _board: Board
    _events: list[Event]
    _moves: list[int]
    _seed: int | None
    _options: dict[str, Any]
    _summer: list[str | None]
    _winter: list[str]
    _start: list[list[int]] | None
    _external: bool
    _outcomes: list[int]
    _summer_left: list[int] | None
    _learn_spec: tuple[CoreConfig, tuple[int, int]] | None
    _masked_cfg: tuple[list[str | None], list[str], CoreConfig, list[str]] | None
    _seat_events: dict[int, tuple[list[Event], int, list[Event]]] | None

    def __init__(self) -> None:
        raise TypeError("use Game.new(...) or Game.from_record(...)")

    @classmethod
    def new(
        cls,
        players: int = 2,
        seed: int | None = 0,
        *,
        summer: Any = None,
        winter: Any = None,
        start: Any = None,
        chance: str | None = None,
        **options: Any,
    ) -> Game:
        """A new game for 2-4 players.

        Tiles not given explicitly come from `seed`: the summer tiles (with the option's mammoth
        values) and the winter tiles are shuffled (splitmix64, Fisher-Yates; summer first) and the
        summer tiles laid on the tile spaces in ascending order. Explicit layouts (for tests):
        `summer` = {space: tile} or a list by space (spaces not given are empty); `winter` = the
        winter deck, dealt in ascending order on the empty tile spaces at winter set-up; `start` =
        each seat's list of spaces for its summer characters (default: one on each summer camp).
        `options`: see DEFAULT_OPTIONS (unknown names and bad values are a ValueError).

        `chance="external"` (OpenSpiel): the layouts are not dealt from the seed but by chance
        outcomes (`chance_outcomes`, `apply_chance`): first the summer tile of every tile space in
        ascending order, then, when summer ends, the winter tile of every empty tile space in
        ascending order; `player` is -1 while a chance node is pending. Not with `summer`/`winter`.
        The default (None or "internal") deals from the seed."""
        if chance not in (None, "internal", "external"):
            raise InvalidOptionError('chance must be None, "internal" or "external"')
        external = chance == "external"
        if external and (summer is not None or winter is not None):
            raise InvalidOptionError('chance="external" deals the layouts itself: give no summer or winter layout')
        players = INFO.check_players(players)
        seed = check_seed(seed)
        summer, winter, start = plain(summer), plain(winter), plain(start)  # (numpy integers: plain ints)
        for name, value in (("summer", summer), ("winter", winter), ("start", start)):
            check_plain(value, name)
        b, opts = validate_options(options)
        sdeck = [code_of(t) for t in deck("summer", tuple(opts["mammoths_summer"]))]
        wdeck = [code_of(t) for t in deck("winter", tuple(opts["mammoths_winter"]))]
        shuffled_s, shuffled_w = _core.shuffled_decks(seed or 0, sdeck, wdeck)
        layout: list[str | None]
        if external:
            layout = [None] * b.n
        elif summer is None:
            tiles = iter(shuffled_s)
            layout = [token_of(next(tiles, 0)) if k == "tile" else None for k in b.kinds]
        else:
            layout = summer_layout(b, summer)
        winter_tokens = (
            [t for t in map(token_of, shuffled_w) if t is not None] if winter is None else winter_deck(winter)
        )  # (no tile code of a deck is 0)
        start_pos = None if start is None else start_positions(b, layout, players, start)
        self = object.__new__(cls)
        self._board = b
        self._options = opts
        self._seed = seed
        self._summer = layout
        self._winter = winter_tokens
        self._start = start_pos
        self._external = external
        self._learn_spec = None
        self._masked_cfg = None
        self._seat_events = None
        self._outcomes = []
        self._summer_left = sorted(sdeck) if external else None
        self._moves = []
        self._events = []
        self._lay_out(players, not external)
        return self

    def _lay_out(self, players: int, begin: bool) -> None:
        """Make the core game of the summer layout (`begin` False: the external summer deal is under
        way: the tiles so far lie, no turn is played until the deal is complete)."""
        opts = self._options
        summer_codes = [0 if t is None else code_of(t) for t in self._summer]
        self._cfg = self._board.core.derive(
            summer_codes,
            [code_of(t) for t in self._winter],
            opts["stall_rounds"],
            opts["straight_jumps"],
            WINTER_START[opts["winter_start"]],
            opts["ties"] == "shared",
        )
        start = self._start
        pairs = None if start is None else [(p, v) for p, spaces in enumerate(start) for v in spaces]
        self._core, raw = _core.CoreGame.create(self._cfg, players, summer_codes, pairs, begin, self._external)
        self._events.extend(self._events_of(raw))

    # -- state -------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._core.nplayers

    @property
    def player(self) -> int:
        """Seat (0-based) to play now (once the game is over: the seat that would have been next;
        -1 while a chance node is pending, as OpenSpiel's CHANCE)."""
        return -1 if self.chance_pending else self._core.player

    @property
    def season(self) -> str:
        """ "summer", "winter" or "over"."""
        return SEASONS[self._core.season]

    @property
    def is_over(self) -> bool:
        return self._core.over

    @property
    def winners(self) -> list[int]:
        """Seats with the highest total once the game is over ([] before). Ties: option `ties`."""
        if not self._core.over:
            return []
        scores = self._core.scores()
        best = [p for p, s in enumerate(scores) if s == max(scores)]
        return best if len(best) == 1 or self._options["ties"] == "shared" else []

    @property
    def scores(self) -> list[int]:
        """Each seat's current total by the final-scoring table (final once the game is over). Full
        engine state: it reveals face-down tiles, so before the end show `view()["scores"]` instead."""
        return self._core.scores()

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's total by part: food, mammoths, goods, supply_packs (on summer camps), total."""
        out = []
        for p in range(self.players):
            food, mammoths, goods, packs = self._core.score_parts(p)
            out.append(
                {
                    "food": food,
                    "mammoths": mammoths,
                    "goods": goods,
                    "supply_packs": packs,
                    "total": food + mammoths + goods + packs,
                }
            )
        return out

    @property
    def events(self) -> list[Event]:
        """Every event so far, in order."""
        return list(self._events)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far."""
        return [_decode(self._cfg, c) for c in self._moves]

    @property
    def turns(self) -> int:
        """Turns played (both seasons)."""
        return self._core.turns

    @property
    def moves_played(self) -> int:
        """Moves played (= turns)."""
        return len(self._moves)

    @property
    def seed(self) -> int | None:
        return self._seed

    @property
    def options(self) -> dict[str, Any]:
        """The game's configuration (every option, JSON-ready; board None = the default)."""
        return copy.deepcopy(self._options)

    @property
    def board(self) -> Board:
        return self._board

    @property
    def tiles(self) -> list[str | None]:
        """The tile on each space (a token such as "berries" or "mammoth6"; None = none)."""
        return [token_of(c) for c in self._core.tiles()]

    @property
    def characters(self) -> list[tuple[int, int]]:
        """(seat, space) of every character on the board, sorted."""
        return self._core.characters()

    @property
    def supply_packs(self) -> list[tuple[int, int]]:
        """(space, seat) of every supply pack lying on a camp, sorted."""
        return self._core.supply_packs()

    @property
    def caves(self) -> list[int]:
        """Spaces of the cave tiles (they never leave the board), ascending."""
        return self._cfg.caves

    def collection(self, seat: int) -> Collection:
        """What a seat has taken and holds (full engine state, face-down tiles included; what may be
        shown before the end is `public_collection(seat)`)."""
        seat = check_int(seat, 0, self.players - 1, "no such seat")
        taken, mcount, weapons, spent, packs, _, _ = self._core.collection(seat)
        goods = {k: taken[KINDS.index(k) + 1] for k in KINDS}
        mammoths = tuple(v for v, n in enumerate(mcount) for _ in range(n))
        return Collection(
            goods["berries"],
            goods["tubers"],
            goods["herbs"],
            goods["jug"],
            goods["necklace"],
            goods["pelt"],
            goods["skull"],
            mammoths,
            weapons,
            spent,
            packs,
        )

    @property
    def collections(self) -> list[Collection]:
        return [self.collection(p) for p in range(self.players)]

    def private_view(self, seat: int) -> dict[str, Any]:
        """What `seat` alone knows: its own collection, face-down tiles included (a seat that
        remembers its takes knows them, though the rules keep them face down)."""
        self.check_seat(seat)
        return {"collection": self.collection(seat).to_json()}

    def greedy_best(self) -> LegalMoves[Move] | None:
        """`hunters.bots.GreedyBot`'s one-ply choice in the core (`_core.greedy_best`), the twin
        of `hunters.jaeger.bots.value`; None while a chance node is pending."""
        if self.chance_pending:
            return None
        return LegalMoves(self, _core.greedy_best(self._core), self._decode)

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
        """IS-MCTS in the core (`hunters/_core/mcts.pxi`); no options of its own."""
        if options:
            raise InvalidOptionError(f"unknown search options {sorted(options)}; this search has none")
        done, stats = self._core.mcts(iterations, seconds, c, margin, INFO.reward_scale, seed, 0.0, stop)
        return SearchStats.of_codes(done, stats, self._core.legal_codes())

    @property
    def characters_on_board(self) -> list[int]:
        """How many characters each seat has on the board."""
        return [self._core.collection(p)[5] for p in range(self.players)]

    @property
    def idle_turns(self) -> int:
        """Turns in a row without a taken tile this season (the stall limit counts these)."""
        return self._core.idle

    @property
    def summer_mammoth(self) -> tuple[int, int] | None:
        """(value, seat) of the most valuable mammoth killed in summer (entered spending a weapon;
        the first kill on equal value): its killer starts winter (spec §7)."""
        return self._core.summer_mammoth

    def tile_counts(self) -> dict[str, dict[str, int]]:
        """Tiles by kind: laid (both seasons so far), taken (by anyone; spent weapons included),
        removed (leftovers at season ends) and on_board. laid = taken + removed + on_board."""
        laid, removed = self._core.tile_counts()
        taken = [0] * len(laid)
        for p in range(self.players):
            for k, n in enumerate(self._core.collection(p)[0]):
                taken[k] += n
        on_board = [0] * len(laid)
        for c in self._core.tiles():
            if c:
                on_board[c & 15] += 1
        return {
            name: {k: arr[i + 1] for i, k in enumerate(KINDS)}
            for name, arr in (("laid", laid), ("taken", taken), ("removed", removed), ("on_board", on_board))
        }

    # -- moves -------------------------------------------------------------------------------
    def legal_moves(self) -> LegalMoves[Move]:
        """Every legal move of the player to move, in action-code order (by first step's space, then
        slot: neighbour directions, cave jumps, leave; then likewise the second step; a one-step move
        before the two-step moves sharing its first step). Empty once the game is over and while a
        chance node is pending."""
        return LegalMoves(self, [] if self.chance_pending else self._core.legal_codes(), self._decode)

    def _code(self, move: Any) -> int:
        """The turn code of a legal move, or IllegalMoveError saying why not."""
        if self._core.over:
            raise refusal("GAME_OVER", move)
        if self.chance_pending:
            raise refusal("CHANCE_PENDING", move)
        if not isinstance(move, Move):
            raise refusal("MALFORMED", move, "expected a Move")
        first = _step_parts(move.first)
        second = None if move.second is None else _step_parts(move.second)
        if first is None or (move.second is not None and second is None):
            raise refusal("MALFORMED", move)
        n = self._board.n
        for src, dst in (first, second) if second is not None else (first,):
            if not 0 <= src < n or not (dst is None or 0 <= dst < n):
                raise refusal("UNKNOWN_SPACE", move)
        s1, dst1 = first
        d1 = -1 if dst1 is None else dst1
        has2, s2, d2 = False, 0, 0
        if second is not None:
            has2, (s2, dst2) = True, second
            d2 = -1 if dst2 is None else dst2
        err = self._core.check(s1, d1, has2, s2, d2)
        if err:
            raise core_error(err, move)
        return self._cfg.encode(s1, d1, has2, s2, d2)

    def _decode(self, code: int) -> Move:
        return _decode(self._cfg, code)

    def _events_of(self, raw: list[Any]) -> list[Event]:
        out = []
        for turn, season, step, kind, seat, space, tile, detail in raw:
            name = _EVENT_KINDS[kind]
            if name == "season_end":
                det = _END_REASONS[detail]
            elif name == "winter_start":
                det = _START_RULES[detail]
            else:
                det = None
            out.append(
                Event(
                    turn,
                    SEASONS[season],
                    None if step < 0 else step,
                    name,
                    None if seat < 0 else seat,
                    None if space < 0 else space,
                    token_of(tile),
                    det,
                )
            )
        return out

    def play(self, move: Move) -> list[Event]:
        """Play one whole turn; return what it caused (with a season end, the removals and the winter
        set-up or game end). An illegal move raises IllegalMoveError and changes nothing."""
        return self._play_code(self._code(move))

    def _play_code(self, code: int) -> list[Event]:
        """Play a legal turn code (checked by the caller)."""
        events = self._events_of(self._core.play_code(code))
        self._moves.append(code)
        self._events.extend(events)
        return events

    def describe(self, move: Move) -> dict[str, Any]:
        """What a legal move would do, step by step (for a UI): each step's kind ("move",
        "cave_jump", "leave"; the two steps of a jump over an occupied tile are "jump"), and the tile
        it takes, the weapon it spends, the supply pack it drops. Changes nothing."""
        code = self._code(move)
        jump_over = None
        first = move.first
        if (
            first.dst is not None
            and self._board.kinds[first.dst] == "tile"
            and self.tiles[first.dst] != "cave"
            and any(v == first.dst for _, v in self.characters)
        ):
            jump_over = first.dst
        events = self._events_of(self._core.clone().play_code(code))
        steps = []
        for i, (src, dst) in enumerate(move.steps):
            if dst is None:
                kind = "leave"
            elif jump_over is not None:
                kind = "jump"
            elif dst in self._board.neighbours(src):
                kind = "move"
            else:
                kind = "cave_jump"
            mine = [e for e in events if e.step == i]
            steps.append(
                {
                    "src": src,
                    "dst": dst,
                    "kind": kind,
                    "takes": next((e.tile for e in mine if e.kind == "take"), None),
                    "spends_weapon": any(e.kind == "spend_weapon" for e in mine),
                    "supply_pack": any(e.kind == "supply_pack" for e in mine),
                }
            )
        return {"steps": steps, "jump_over": jump_over, "ends_season": any(e.kind == "season_end" for e in events)}

    # -- the dense action encoding (bots, reinforcement learning, the service) -----------------
    @property
    def actions(self) -> _actions.DenseActions:
        """The dense action codes (`hunters.jaeger.actions`): the core's own turn codes."""
        return _actions.DenseActions(self)

    # -- learning (hunters.learn; see hunters.jaeger.learn for the codes and fields) -----------
    def learn_layout(self) -> LearnLayout:
        from . import learn

        return learn.layout_of(self)

    @property
    def compact(self) -> ActionSpace[Move, Event]:
        """The compact codes of `learn_layout()` (hunters.jaeger.learn)."""
        from . import learn

        return learn.CompactActions(self)

    def observe(self, seat: int, out: dict[str, Any] | None = None, view: str = "observation") -> dict[str, Any]:
        """See Learnable.observe: the information state also shows the seat's own face-down tiles by
        kind (and its full score), which the observation hides (spec §5); see hunters.jaeger.learn."""
        from . import learn

        return learn.observe(self, seat, out, check_view(view) == "information_state")

    @classmethod
    def learn_batch(
        cls, games: int, players: int = 2, seed: int = 0, view: str = "observation", **options: Any
    ) -> LearnBatch:
        own = check_view(view) == "information_state"
        from . import learn

        return learn.Batch(cls, games, players, seed, own, **options)

    # -- external chance (OpenSpiel: hunters.jaeger.chance) ------------------------------------
    @property
    def chance_pending(self) -> bool:
        """Whether a chance node is pending (only with chance="external")."""
        return chance.pending(self._core, self._summer_left, self._external)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending chance node's outcomes: (tile code, probability), by code; [] when none is
        pending (see `hunters.jaeger.chance.outcomes`)."""
        return chance.outcomes(self._core, self._summer_left, self._external)

    def seeded_outcome(self) -> int:
        """See SeededChance: the next tile of the seed's deck still to deal: during the summer deal
        the summer deck as the seed shuffles it (`new` lays it on the tile spaces in ascending
        order), during the winter deal the winter deck in the seed's order (`new` deals it so)."""
        if not self.chance_pending:
            raise IllegalMoveError("NO_CHANCE_PENDING", "no chance node is pending", None)
        if self._summer_left is not None:
            o = self._options
            summer = [code_of(t) for t in deck("summer", tuple(o["mammoths_summer"]))]
            winter = [code_of(t) for t in deck("winter", tuple(o["mammoths_winter"]))]
            order = _core.shuffled_decks(self._seed or 0, summer, winter)[0]
            dealt = self._outcomes
        else:
            order = [code_of(t) for t in self._winter]
            dealt = self._outcomes[sum(1 for t in self._summer if t is not None) :]
        return chance.seeded(order, dealt, [c for c, _ in self.chance_outcomes()])

    def apply_chance(self, outcome: int) -> None:
        """Resolve the pending chance node with tile code `outcome` (IllegalMoveError otherwise,
        changing nothing; see `hunters.jaeger.chance`)."""
        self._deal(chance.checked_outcome(self._core, self._summer_left, self._external, outcome))

    # -- perft (docs/jaeger-engine-contract.md#perft) -----------------------------------------
    def perft(self, depth: int, divide: bool = False, chance: bool = False, limit: PerftLimit | None = None) -> Any:
        """`hunters.perft.perft` counted in the core without the GIL (the last ply counted, not played);
        a pending summer deal (chance="external", before the first turn) is counted in Python."""
        check_depth(depth)
        if self._summer_left is not None:
            if not chance:
                raise ValueError("a deal is pending: only chance mode counts from here")
            return python_perft(self, depth, divide=divide, chance=True, limit=limit)
        if limit is not None:
            if divide:
                return [(k, perft(c, d, chance=chance, limit=limit)) for k, c, d in perft_children(self, depth, chance)]
            return limit.run(lambda nodes: _core.perft_bounded(self._core, depth, chance, limit.stop, nodes))
        out = _core.perft(self._core, depth, chance, divide)
        if not divide or self.chance_pending:
            return out
        return [(self._decode(code), n) for code, n in out]

    def chance_view(self) -> Game:
        """A copy whose winter deal (if still to come) is external chance (as with chance="external")."""
        g = self.clone()
        g._external = True
        g._core.set_external()
        return g

    # -- what a seat may know (bots) ---------------------------------------------------------
    def observed_by(self, seat: int) -> Game:
        """A copy as `seat` may know it (see GameBase.observed_by): no seed; the winter deck in
        canonical order (before winter its order is hidden, its contents follow from the options);
        while collections are hidden, the other seats' face-down tiles pooled and dealt back in
        kind order, each seat keeping its number, and the events that named them left out.

        Simplification (documented in hunters/bots): the seat is given the pool of its opponents'
        face-down tiles (public: every tile lay face up before it was taken) but not who took which,
        i.e. it does not recall the history of takes. With two players that loses nothing."""
        return self._masked(self.check_seat(seat), None)

    def determinized(self, seat: int, seed: int) -> Game:
        """`observed_by(seat)` with the winter deck (before winter) shuffled and the other seats'
        face-down tiles dealt at random from `seed`."""
        return self._masked(self.check_seat(seat), check_seed(seed, optional=False))

    # -- copies and records ------------------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy (the core state is one memcpy; board and layouts are shared)."""
        g = object.__new__(Game)
        g._core = self._core.clone()
        g._cfg = self._cfg
        g._board = self._board
        g._events = self._events.copy()
        g._moves = self._moves.copy()
        g._seed = self._seed
        g._options = self._options
        g._summer = self._summer
        g._winter = self._winter
        g._start = self._start
        g._external = self._external
        g._learn_spec = self._learn_spec
        g._masked_cfg = self._masked_cfg
        g._seat_events = None  # (per game: a copy's history goes its own way)
        g._outcomes = self._outcomes.copy()
        g._summer_left = None if self._summer_left is None else self._summer_left.copy()
        return g

    def __sizeof__(self) -> int:
        """The memory this game holds: itself, its lists, and its core's state (allocated in C, where
        `sys.getsizeof` does not look otherwise). The board and layouts are shared between copies."""
        lists = (self._events, self._moves, self._outcomes, self._summer_left, self._seat_events)
        return object.__sizeof__(self) + _core.state_size() + sum(sys.getsizeof(x) for x in lists if x is not None)

    def to_record(self) -> dict[str, Any]:
        """The game as plain JSON-ready data: configuration, both layouts and the moves. A game with
        external chance records its chance outcomes in order instead of the layouts (replayed at
        the chance nodes, wherever they fall between the moves)."""
        deal: dict[str, Any] = (
            {"chance": "external", "outcomes": list(self._outcomes)}
            if self._external
            else {"summer": list(self._summer), "winter": list(self._winter)}
        )
        return {
            "game": GAME_ID,
            "format": RECORD_FORMAT,
            "players": self.players,
            "seed": self._seed,
            "options": self.options,
            **deal,
            "start": None if self._start is None else [list(s) for s in self._start],
            "moves": [m.to_json() for m in self.moves],
        }

    @classmethod
    def _new_from_record(cls, record: dict[str, Any]) -> Game:
        """The game of a record's configuration (options checked: an object of known options); with
        external chance, the layouts are its outcomes (see `from_record`)."""
        options = record.get("options") or {}
        if not isinstance(options, dict) or not set(options) <= set(DEFAULT_OPTIONS):
            raise ValueError("options must be an object of known options")
        if record.get("chance") == "external":
            if not isinstance(record.get("outcomes"), list):
                raise ValueError("a record with external chance lists its outcomes")
            return cls.new(
                players=record["players"],
                seed=record.get("seed"),
                start=record.get("start"),
                chance="external",
                **options,
            )
        return cls.new(
            players=record["players"],
            seed=record.get("seed"),
            summer=record.get("summer"),
            winter=record.get("winter"),
            start=record.get("start"),
            **options,
        )

    # -- simulation ----------------------------------------------------------------------------
    @classmethod
    def random_games(
        cls, n: int, players: int = 2, seed: int = 0, policy: str = "uniform", **options: Any
    ) -> SimulationResult:
        """Play n complete random games inside the core, without returning to Python per move
        (decisions = turns).

        Game g starts as Game.new(players, seed=d_g, **options) where d_g is the g-th splitmix64
        output from `seed`; each turn is a uniformly random legal first step (among those that can be
        completed), then a uniformly random legal second step. Policy "stay" draws a step that leaves
        the board only when no other step is legal (games then last longer and seasons end by
        reachability or the stall limit, as in real play), or after STAY_PATIENCE idle turns in a
        row. Wins follow the option `ties`. The same arguments give the same games."""
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}")
        n = check_int(n, 0, None, "n must be a non-negative int")
        players = INFO.check_players(players)
        seed = check_seed(seed, optional=False)
        board, o = validate_options(options)
        summer = [code_of(t) for t in deck("summer", tuple(o["mammoths_summer"]))]
        winter = [code_of(t) for t in deck("winter", tuple(o["mammoths_winter"]))]
        games, turns, totals, wins = _core.random_games(
            n,
            players,
            seed,
            board.core,
            summer,
            winter,
            o["stall_rounds"],
            o["straight_jumps"],
            WINTER_START[o["winter_start"]],
            o["ties"] == "shared",
            policy == "stay",
        )
        return SimulationResult(games, players, turns, totals, wins)

    @property
    def collections_hidden(self) -> bool:
        """Whether `view()` hides the face-down tiles now: before the end, unless the option
        `open_collections` is set (spec §5)."""
        return not self._core.over and not self._options.get("open_collections", False)

    def public_collection(self, seat: int) -> dict[str, Any]:
        """A seat's collection as anyone may see it (the `view()` entry): weapons held and spent,
        mammoth values, supply packs in hand, characters on the board and `face_down`, the number of
        taken tiles lying face down; the face-down kinds are None while `collections_hidden`."""
        return views.public_collection(self, seat)

    def view(self) -> dict[str, Any]:
        """The state as anyone may see it, JSON-ready (see `hunters.jaeger.views.view`): before the
        end, taken tiles other than weapons and mammoths are only counted, and scores are None."""
        return views.view(self, self._options["stall_rounds"])

    def summary_lines(self) -> list[str]:
        """Season, tiles left, pieces and collections of each seat (full state: face-down tiles too)."""
        left = sum(1 for t in self.tiles if t is not None and t not in STAYING)
        lines = [
            f"  {self.season}, turn {self.turns}: {left} tiles to take on the board, "
            f"{self.idle_turns} turns in a row without a taken tile"
        ]
        sm = self.summer_mammoth
        if sm is not None:
            lines.append(f"  summer mammoth: {sm[0]} points, killed by seat {sm[1]}")
        cols = self.collections

        def row(name: str, values: list[Any]) -> str:
            return f"  {name:<14}" + "".join(f"{v:>9}" for v in values)

        lines.append(row("collections", [f"seat {p}" for p in range(self.players)]))
        lines.append(row("on the board", self.characters_on_board))
        lines.append(row("weapons held", [c.weapons for c in cols]))
        lines.append(row("weapons spent", [c.weapons_spent for c in cols]))
        lines.append(row("mammoths taken", [len(c.mammoths) for c in cols]))
        lines += [row(kind, [getattr(c, kind) for c in cols]) for kind in views.FACE_DOWN]
        lines.append(row("packs in hand", [c.supply_packs for c in cols]))
        return lines

    def _repr_svg_(self) -> str:
        """The picture of the game (`svg.svg`): what Jupyter shows for a game."""
        from .svg import svg

        return svg(self)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self.season}, seat {self.player} to play"
        return f"<Game {GAME_ID} players={self.players} turns={self.turns} {state} scores={self.scores}>"

    # -- for the game's own modules ---
    # (hunters.jaeger.actions, .learn, .bots and tools read the game through these; the state they
    # change is changed here, by the game)
    @property
    def core(self) -> CoreGame:
        """The core game: a read-only handle for the game's own modules and tools, which call its
        queries (the game's state changes only through the game's methods)."""
        return self._core

    @property
    def config(self) -> CoreConfig:
        """The core's configuration (board, layouts' codes): what a turn code means, shared by the
        game's copies."""
        return self._cfg

    def encode(self, move: Any) -> int:
        """The core's turn code of a move that is legal now (IllegalMoveError saying why not)."""
        return self._code(move)

    def decode(self, code: int) -> Move:
        """The Move of a turn code on this game's board (it may be illegal now)."""
        return self._decode(code)

    def play_code(self, code: int) -> list[Event]:
        """Play a turn code that is legal now (checked by the caller: `encode`,
        hunters.jaeger.learn.internal_code); return its events, as `play`."""
        return self._play_code(code)

    def compact_spec(self) -> tuple[int, int]:
        """(C, K) of the compact codes (hunters.jaeger.learn): character indices and cave slots, kept
        with the configuration they were computed for (the external summer deal replaces it)."""
        memo = self._learn_spec
        if memo is None or memo[0] is not self._cfg:
            from . import learn

            memo = self._learn_spec = (self._cfg, learn.compact_spec(self._start, self._cfg.caves))
        return memo[1]

    @property
    def summer_deal_left(self) -> tuple[list[int], int] | None:
        """While the external summer deal is under way (chance="external", before the first turn):
        the summer tile codes not dealt yet and how many tile spaces are still to receive one;
        None otherwise."""
        left = self._summer_left
        if left is None:
            return None
        return left.copy(), len(chance.summer_deal_spaces(self._board.kinds, len(self._outcomes), left))

    def _deal(self, code: int) -> None:
        """Lay tile code `code`, a checked outcome of the pending chance node, on the next space of
        the deal (`apply_chance`): the last tile of the summer deal lays the game out; a tile of the
        winter deal may cause the winter set-up or a season end (`events`)."""
        left = self._summer_left
        if left is not None:
            v = chance.summer_deal_spaces(self._board.kinds, len(self._outcomes), left)[0]
            self._core.lay(v, code)
            left.remove(code)
            self._summer = self._summer.copy()
            self._summer[v] = token_of(code)
            self._outcomes.append(code)
            if left and chance.summer_deal_spaces(self._board.kinds, len(self._outcomes), left):
                return
            self._summer_left = None
            self._lay_out(self._core.nplayers, True)
            return
        events = self._events_of(self._core.deal_apply(code))
        self._outcomes.append(code)
        if self._core.deal_space is None:  # the winter deck as dealt (observed_by)
            self._winter = chance.winter_dealt(self._summer, self._outcomes)
        self._events.extend(events)

    def _masked(self, seat: int, seed: int | None) -> Game:
        """The game as `seat` may know it (`observed_by`), or one world consistent with that (`seed`:
        `determinized`); hunters.jaeger.views computes the parts."""
        if seed is None:
            cfg, winter = self._canonical_config()
        else:
            winter = views.known_winter(self._winter, self._core.season, seed)
            cfg = views.derive(self._board, self._options, self._summer, winter)
        hidden = self.collections_hidden
        g = self.clone()
        g._core = self._core.masked(cfg, seat, seed, hidden)
        g._cfg = cfg
        g._seed = None
        g._winter = winter
        if hidden:
            if self._seat_events is None:
                self._seat_events = {}
            g._events = views.seat_events(self._events, seat, self._seat_events)
        return g

    def _canonical_config(self) -> tuple[CoreConfig, list[str]]:
        """The core configuration of `observed_by` (the winter deck in canonical order) and that deck:
        built once per layout and kept on the game and its copies (`_masked_cfg`), since the layouts
        change only when an external deal lays a tile (and then they are new lists)."""
        cached = self._masked_cfg
        if cached is None or cached[0] is not self._summer or cached[1] is not self._winter:
            winter = views.known_winter(self._winter, self._core.season, None)
            cfg = views.derive(self._board, self._options, self._summer, winter)
            cached = self._masked_cfg = (self._summer, self._winter, cfg, winter)
        return cached[2], cached[3]
