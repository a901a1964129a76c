"""Translation between the game API's objects and the `hunters.v1` protobuf messages.

Shared by the server (`hunters.service`) and the Python client (`hunters.client`): one place
knows how a move, an event, a state view or a game's options look on the wire. The rules stay in
the game packages. Nothing here imports gRPC or the service.

Errors: a malformed move raises `IllegalMoveError("MALFORMED", ...)` (the engine's own type);
a bad request shape raises `WireError(reason, message)` (the service answers INVALID_ARGUMENT).
A game without typed messages travels as JSON (its `Move.to_json()` / `view()`), parsed strictly
by `loads_json`, so a newly registered game is served without changes here.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any, TypeVar, cast, overload

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from hunters import games
from hunters.errors import IllegalMoveError
from hunters.game_base import GameBase
from hunters.v1 import events_pb2, matches_pb2, moves_pb2, options_pb2, state_pb2

__all__ = [
    "MAX_JSON_CHARS",
    "MAX_JSON_DEPTH",
    "GameAdapter",
    "WireError",
    "adapter",
    "dumps_json",
    "enum_value",
    "loads_json",
]

MAX_JSON_DEPTH = 32
MAX_JSON_CHARS = 1 << 20
INT32 = (-(2**31), 2**31 - 1)
MAX_GRID_SIDE = 1024  # rows, cols of a grid board; also the most missing cells
MAX_ADJACENCY = 8192  # neighbour pairs of an explicit board
MAX_LIST = 1024  # any other option list (layout, deck, start spaces)


class WireError(ValueError):
    """A request that cannot be translated: `reason` (e.g. INVALID_CONFIG, WRONG_GAME) and message."""

    def __init__(self, reason: str, message: str):
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


def _config_error(message: str) -> WireError:
    return WireError("INVALID_CONFIG", message)


# -- strict JSON ------------------------------------------------------------------------------
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """Deepest nesting of `text` (strings skipped), without recursion."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if m.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _int32(text: str) -> int:
    value = int(text)
    if not INT32[0] <= value <= INT32[1]:
        raise ValueError(f"number {text} does not fit int32")
    return value


def _no_float(text: str) -> Any:
    raise ValueError(f"number {text} is not an integer")


def loads_json(text: str, what: str = "JSON") -> Any:
    """Parse untrusted JSON: at most MAX_JSON_CHARS characters and MAX_JSON_DEPTH levels, numbers
    only int32 integers (no floats, NaN or Infinity). ValueError with a clear message otherwise."""
    if len(text) > MAX_JSON_CHARS:
        raise ValueError(f"{what} is longer than {MAX_JSON_CHARS} characters")
    if _depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"{what} is nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text, parse_int=_int32, parse_float=_no_float, parse_constant=_no_float)
    except RecursionError:  # pragma: no cover - guarded by the depth check
        raise ValueError(f"{what} is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} is not valid JSON: {exc}") from None


def dumps_json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), allow_nan=False)


# -- adapters ---------------------------------------------------------------------------------
class GameAdapter:
    """Generic adapter: moves, events, views and options as JSON strings. Typed games override."""

    options_field = "json"  # the GameConfig.options case of this game

    def __init__(self, game_id: str, game: type[GameBase]):
        self.game_id = game_id
        self.Game = game

    # -- configuration ------------------------------------------------------------------------
    def options_kwargs(self, config: matches_pb2.GameConfig) -> dict[str, Any]:
        """The Game.new keyword arguments of `config`'s options (WireError INVALID_CONFIG)."""
        which = config.WhichOneof("options")
        if which is None:
            return {}
        if which != self.options_field:
            raise _config_error(f"{which} options are not options of {self.game_id}")
        return self.typed_options(config)

    def typed_options(self, config: matches_pb2.GameConfig) -> dict[str, Any]:
        try:
            opts = loads_json(config.json, "options")
        except ValueError as exc:
            raise _config_error(str(exc)) from None
        if not isinstance(opts, dict):
            raise _config_error("options must be a JSON object")
        return opts

    def new_game(self, config: matches_pb2.GameConfig, seed: int | None) -> Any:
        """A new game of `config` with `seed` (WireError INVALID_CONFIG for any bad option)."""
        kwargs = self.options_kwargs(config)
        try:
            return self.Game.new(players=config.players, seed=seed, **kwargs)
        except TypeError as exc:
            raise _config_error(f"unknown option: {exc}") from None
        except ValueError as exc:
            raise _config_error(str(exc)) from None

    def options_to_proto(self, options: dict[str, Any], config: matches_pb2.GameConfig) -> None:
        """Set `config`'s options from Game.new keyword arguments (the client's side)."""
        config.json = dumps_json(options)

    def public_config(self, config: matches_pb2.GameConfig) -> matches_pb2.GameConfig:
        """`config` without what could determine a hidden pile: the seed and explicit decks or
        layouts (here: every untyped option). Sent for every match before its end."""
        out = matches_pb2.GameConfig(game=config.game, players=config.players)
        return out

    def from_record(self, record: dict[str, Any]) -> Any:
        return self.Game.from_record(record)

    # -- moves --------------------------------------------------------------------------------
    def move_from_proto(self, pb: moves_pb2.Move) -> Any:
        which = pb.WhichOneof("game")
        if which is None:
            raise WireError("MOVE_MISSING", "the move is empty")
        if which == "json":
            try:
                return self.Game.move_from_json(loads_json(pb.json, "the JSON move"))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise IllegalMoveError("MALFORMED", f"bad JSON move: {exc}") from None
        return self.typed_move(pb, which)

    def typed_move(self, pb: moves_pb2.Move, which: str) -> Any:
        raise WireError("WRONG_GAME", f"a {which} move is not a move of {self.game_id}")

    def move_to_proto(self, move: Any) -> moves_pb2.Move:
        return moves_pb2.Move(json=dumps_json(move.to_json()))

    # -- events -------------------------------------------------------------------------------
    def event(self, ev: Any) -> events_pb2.Event:
        return events_pb2.Event(json=dumps_json(ev._asdict() if hasattr(ev, "_asdict") else dict(ev)))

    def event_from_proto(self, pb: events_pb2.Event) -> Any:
        """A received event as the game's event type (plain JSON data for games without one)."""
        return json.loads(pb.json)

    # -- views --------------------------------------------------------------------------------
    def state(self, game: Any, version: int) -> state_pb2.MatchState:
        view = game.view()
        st = self._common(game, version, view.get("scores", game.scores))
        st.json = dumps_json(view)
        return st

    def _common(self, game: Any, version: int, scores: Any) -> state_pb2.MatchState:
        return state_pb2.MatchState(
            game=self.game_id,
            players=game.players,
            player=game.player,
            status=state_pb2.GAME_STATUS_OVER if game.is_over else state_pb2.GAME_STATUS_IN_PROGRESS,
            scores=scores or (),
            winners=game.winners,
            version=version,
        )


# -- carcassonne_hg ---------------------------------------------------------------------------
_PIECES = {moves_pb2.PIECE_KIND_MEEPLE: "meeple", moves_pb2.PIECE_KIND_HUT: "hut"}
_PIECE_ENUMS = {v: k for k, v in _PIECES.items()}


_E = TypeVar("_E", bound=int)


# protoc's .pyi stubs type an enum's values as instances of its class (a subclass of int, with the
# EnumTypeWrapper metaclass); at run time they are plain ints. These two helpers do that conversion once.
def enum_value(enum: type[_E], name: str) -> _E:
    """The value called `name` of the protobuf enum `enum` (ValueError for an unknown name)."""
    return cast(_E, cast(EnumTypeWrapper, enum).Value(name))


def _enum_names(enum: type[_E], prefix: str) -> dict[_E, str]:
    """Enum number -> lower-case name without the prefix, UNSPECIFIED left out."""
    values = cast(EnumTypeWrapper, enum).DESCRIPTOR.values
    return {cast(_E, v.number): v.name[len(prefix) :].lower() for v in values if v.number}


_SCORE_KINDS = _enum_names(events_pb2.CarcassonneScoreKind, "CARCASSONNE_SCORE_KIND_")
_SCORE_ENUMS = {v: k for k, v in _SCORE_KINDS.items()}


class CarcassonneAdapter(GameAdapter):
    """carcassonne_hg: CarcassonneMove, CarcassonneScoreEvent, CarcassonneState, CarcassonneOptions."""

    options_field = "carcassonne"

    def typed_options(self, config: matches_pb2.GameConfig) -> dict[str, Any]:
        from hunters.carcassonne.tiles import MENHIR_TILES, NORMAL_TILES

        o = config.carcassonne
        out: dict[str, Any] = {}
        for name, pile in (("normal_deck", NORMAL_TILES), ("menhir_deck", MENHIR_TILES)):
            if o.HasField(name):
                deck = getattr(o, name).tiles
                if len(deck) > len(pile):
                    raise _config_error(f"{name} holds {len(deck)} tiles; that pile has {len(pile)}")
                out[name] = list(deck)
        return out

    def options_to_proto(self, options: dict[str, Any], config: matches_pb2.GameConfig) -> None:
        unknown = set(options) - {"normal_deck", "menhir_deck"}
        if unknown:
            raise _config_error(f"unknown carcassonne_hg options: {sorted(unknown)}")
        config.carcassonne.SetInParent()
        for name, deck in options.items():
            if deck is not None:
                getattr(config.carcassonne, name).SetInParent()
                getattr(config.carcassonne, name).tiles.extend(deck)

    def public_config(self, config: matches_pb2.GameConfig) -> matches_pb2.GameConfig:
        return matches_pb2.GameConfig(game=config.game, players=config.players)  # decks are the only options

    def typed_move(self, pb: moves_pb2.Move, which: str) -> Any:
        if which != "carcassonne":
            return super().typed_move(pb, which)
        from hunters.carcassonne import Move, Occupant

        m = pb.carcassonne
        occupant = None
        if m.HasField("occupant"):
            kind = _PIECES.get(m.occupant.kind)
            if kind is None:
                raise IllegalMoveError("MALFORMED", "occupant kind must be PIECE_KIND_MEEPLE or PIECE_KIND_HUT")
            occupant = Occupant(kind, m.occupant.zone)
        return Move(m.x, m.y, m.rotation, occupant, m.retake if m.HasField("retake") else None)

    def move_to_proto(self, move: Any) -> moves_pb2.Move:
        pb = moves_pb2.CarcassonneMove(x=move.x, y=move.y, rotation=move.rotation)
        if move.occupant is not None:
            pb.occupant.kind = _PIECE_ENUMS[move.occupant.kind]
            pb.occupant.zone = move.occupant.zone
        if move.retake is not None:
            pb.retake = move.retake
        return moves_pb2.Move(carcassonne=pb)

    def event(self, ev: Any) -> events_pb2.Event:
        return events_pb2.Event(
            carcassonne_score=events_pb2.CarcassonneScoreEvent(
                decision=ev.decision, kind=_SCORE_ENUMS[ev.reason], seats=ev.seats, points=ev.points, feature=ev.feature
            )
        )

    def event_from_proto(self, pb: events_pb2.Event) -> Any:
        e = pb.carcassonne_score
        from hunters import carcassonne

        return carcassonne.ScoreEvent(e.decision, _SCORE_KINDS[e.kind], tuple(e.seats), e.points, e.feature)

    def state(self, game: Any, version: int) -> state_pb2.MatchState:
        st = self._common(game, version, game.scores)
        c = st.carcassonne
        if game.tile is not None:
            c.tile = game.tile
        c.extra_turn = game.extra_turn
        c.MergeFromString(b"".join(map(_placed_tile_bytes, game.board)) + b"".join(map(_piece_bytes, game.occupants)))
        c.meeples.extend(game.meeples)
        c.huts.extend(game.huts)
        c.discards.extend(game.discards)
        c.normal_pile, c.menhir_pile = game.piles
        return st


@functools.lru_cache(maxsize=65536)
def _placed_tile_bytes(placed: tuple[int, int, int, int]) -> bytes:
    """A CarcassonneState holding just this board entry, serialized: concatenating these and
    merging them appends to `board` (protobuf merges repeated fields by appending). Entries recur
    from move to move, so each is encoded once instead of at every move."""
    x, y, t, r = placed
    return state_pb2.CarcassonneState(
        board=[state_pb2.CarcassonnePlacedTile(x=x, y=y, tile=t, rotation=r)]
    ).SerializeToString()


@functools.lru_cache(maxsize=65536)
def _piece_bytes(piece: tuple[int, int, str]) -> bytes:
    """The same for an entry of `occupants`."""
    zone, seat, kind = piece
    return state_pb2.CarcassonneState(
        occupants=[state_pb2.CarcassonnePiece(zone=zone, seat=seat, kind=_PIECE_ENUMS[kind])]
    ).SerializeToString()


# -- jaeger_sammler ---------------------------------------------------------------------------
_SEASONS = _enum_names(state_pb2.Season, "SEASON_")
_SEASON_ENUMS = {v: k for k, v in _SEASONS.items()}
_TILE_KINDS = _enum_names(state_pb2.JaegerTileKind, "JAEGER_TILE_KIND_")
_TILE_ENUMS = {v: k for k, v in _TILE_KINDS.items()}
_EVENT_KINDS = _enum_names(events_pb2.JaegerEventKind, "JAEGER_EVENT_KIND_")
_EVENT_ENUMS = {v: k for k, v in _EVENT_KINDS.items()}
_DETAILS = _enum_names(events_pb2.JaegerEventDetail, "JAEGER_EVENT_DETAIL_")
_DETAIL_ENUMS = {v: k for k, v in _DETAILS.items()}
_SPACE_KINDS = _enum_names(options_pb2.JaegerSpaceKind, "JAEGER_SPACE_KIND_")
_SPACE_ENUMS = {v: k for k, v in _SPACE_KINDS.items()}
_WINTER_START = {
    options_pb2.JAEGER_WINTER_START_AFTER_LAST: "after_last",
    options_pb2.JAEGER_WINTER_START_SEAT0: "seat0",
}
_TIES = {options_pb2.JAEGER_TIES_SHARED: "shared", options_pb2.JAEGER_TIES_NO_WINNER: "no_winner"}
_OFFSETS = {options_pb2.JAEGER_GRID_OFFSET_ODD_R: "odd-r", options_pb2.JAEGER_GRID_OFFSET_EVEN_R: "even-r"}
_COUNTS = ("berries", "tubers", "herbs", "jug", "necklace", "pelt", "skull")


@overload
def jaeger_tile(token: str) -> state_pb2.JaegerTile: ...
@overload
def jaeger_tile(token: None) -> None: ...
@overload
def jaeger_tile(token: str | None) -> state_pb2.JaegerTile | None: ...
def jaeger_tile(token: str | None) -> state_pb2.JaegerTile | None:
    """The JaegerTile of a tile token ("berries", "mammoth8"); None for no tile."""
    if token is None:
        return None
    if token.startswith("mammoth"):
        return state_pb2.JaegerTile(kind=state_pb2.JAEGER_TILE_KIND_MAMMOTH, mammoth_value=int(token[7:]))
    return state_pb2.JaegerTile(kind=_TILE_ENUMS[token])


def jaeger_token(tile: state_pb2.JaegerTile, what: str = "tile") -> str:
    """The token of a JaegerTile (WireError INVALID_CONFIG for an unknown kind or a bad value)."""
    kind = _TILE_KINDS.get(tile.kind)
    if kind is None:
        raise _config_error(f"{what}: kind must be one of the JAEGER_TILE_KIND_ values, not {tile.kind}")
    if kind == "mammoth":
        if tile.mammoth_value < 1:
            raise _config_error(f"{what}: a mammoth needs a mammoth_value of at least 1")
        return f"mammoth{tile.mammoth_value}"
    if tile.mammoth_value:
        raise _config_error(f"{what}: only a mammoth has a mammoth_value")
    return kind


def _bounded(values: Any, limit: int, what: str) -> Any:
    if len(values) > limit:
        raise _config_error(f"{what} has {len(values)} entries; at most {limit}")
    return values


def _enum_option(value: _E, table: dict[_E, str], what: str) -> str | None:
    if value == 0:
        return None
    if value not in table:
        raise _config_error(f"{what} {value} is not a known value")
    return table[value]


def _board_data(board: options_pb2.JaegerBoard, max_spaces: int) -> dict[str, Any]:
    """Board data (see hunters.jaeger.board) of a JaegerBoard, every size checked first."""
    which = board.WhichOneof("layout")
    if which == "grid":
        g = board.grid
        if not (1 <= g.rows <= MAX_GRID_SIDE and 1 <= g.cols <= MAX_GRID_SIDE):
            raise _config_error(f"grid rows and cols must be 1 to {MAX_GRID_SIDE}")
        _bounded(g.missing, MAX_GRID_SIDE, "grid missing")
        if g.rows * g.cols - len(g.missing) > max_spaces:
            raise _config_error(f"a board has at most {max_spaces} spaces")
        _bounded(g.summer_camps, max_spaces, "summer_camps")
        _bounded(g.winter_camps, max_spaces, "winter_camps")
        offset = _enum_option(g.offset, _OFFSETS, "grid offset") or "odd-r"
        return {
            "grid": {
                "type": "hex",
                "orientation": "pointy",
                "offset": offset,
                "rows": g.rows,
                "cols": g.cols,
                "missing": [[c.row, c.col] for c in g.missing],
            },
            "camps": {
                "summer": [[c.row, c.col] for c in g.summer_camps],
                "winter": [[c.row, c.col] for c in g.winter_camps],
            },
        }
    if which == "explicit":
        e = board.explicit
        if not 1 <= len(e.spaces) <= max_spaces:
            raise _config_error(f"an explicit board has 1 to {max_spaces} spaces")
        _bounded(e.adjacency, MAX_ADJACENCY, "adjacency")
        spaces = []
        for i, sp in enumerate(e.spaces):
            entry: dict[str, Any] = {"kind": _enum_option(sp.kind, _SPACE_KINDS, f"space {i} kind") or "tile"}
            if sp.HasField("pos"):
                entry["pos"] = [sp.pos.row, sp.pos.col]
            spaces.append(entry)
        return {"spaces": spaces, "adjacency": [[p.a, p.b] for p in e.adjacency]}
    raise _config_error("board needs a grid or an explicit layout")


def _board_to_proto(data: dict[str, Any], out: options_pb2.JaegerBoard) -> None:
    if "grid" in data:
        g = data["grid"]
        out.grid.rows, out.grid.cols = g["rows"], g["cols"]
        out.grid.offset = {v: k for k, v in _OFFSETS.items()}[g.get("offset", "odd-r")]
        out.grid.missing.extend(options_pb2.JaegerCell(row=r, col=c) for r, c in g.get("missing", []))
        camps = data.get("camps", {})
        out.grid.summer_camps.extend(options_pb2.JaegerCell(row=r, col=c) for r, c in camps.get("summer", []))
        out.grid.winter_camps.extend(options_pb2.JaegerCell(row=r, col=c) for r, c in camps.get("winter", []))
    else:
        out.explicit.SetInParent()
        for sp in data["spaces"]:
            s = out.explicit.spaces.add(kind=_SPACE_ENUMS[sp.get("kind", "tile")])
            if sp.get("pos") is not None:
                s.pos.row, s.pos.col = sp["pos"]
        out.explicit.adjacency.extend(options_pb2.JaegerAdjacency(a=a, b=b) for a, b in data.get("adjacency", []))


class JaegerAdapter(GameAdapter):
    """jaeger_sammler: JaegerMove, JaegerEvent, JaegerState, JaegerOptions."""

    options_field = "jaeger"

    def typed_options(self, config: matches_pb2.GameConfig) -> dict[str, Any]:
        from hunters._core import jaeger as core

        limits = core.LIMITS
        o = config.jaeger
        out: dict[str, Any] = {}
        if o.HasField("board"):
            out["board"] = _board_data(o.board, limits["spaces"])
        for name in ("mammoths_summer", "mammoths_winter"):
            values = getattr(o, name)
            if values:
                out[name] = list(_bounded(values, MAX_LIST, name))
        for name in ("straight_jumps", "stall_rounds", "open_collections"):
            if o.HasField(name):
                out[name] = getattr(o, name)
        winter_start = _enum_option(o.winter_start, _WINTER_START, "winter_start")
        if winter_start is not None:
            out["winter_start"] = winter_start
        ties = _enum_option(o.ties, _TIES, "ties")
        if ties is not None:
            out["ties"] = ties
        if o.HasField("summer_layout"):
            layout: dict[int, str] = {}
            for t in _bounded(o.summer_layout.tiles, limits["spaces"], "summer_layout"):
                if t.space in layout:
                    raise _config_error(f"summer_layout: space {t.space} given twice")
                layout[t.space] = jaeger_token(t.tile, f"summer_layout space {t.space}")
            out["summer"] = layout
        if o.HasField("winter_deck"):
            out["winter"] = [
                jaeger_token(t, "winter_deck") for t in _bounded(o.winter_deck.tiles, MAX_LIST, "winter_deck")
            ]
        if o.start:
            _bounded(o.start, limits["players"], "start")
            out["start"] = [list(_bounded(s.spaces, limits["characters"], "start spaces")) for s in o.start]
        return out

    def options_to_proto(self, options: dict[str, Any], config: matches_pb2.GameConfig) -> None:
        o = config.jaeger
        o.SetInParent()
        for name, value in options.items():
            if value is None:
                continue
            if name == "board":
                _board_to_proto(value if isinstance(value, dict) else value.to_json(), o.board)
            elif name in ("mammoths_summer", "mammoths_winter"):
                getattr(o, name).extend(value)
            elif name in ("straight_jumps", "stall_rounds", "open_collections"):
                setattr(o, name, value)
            elif name == "winter_start":
                o.winter_start = {v: k for k, v in _WINTER_START.items()}[value]
            elif name == "ties":
                o.ties = {v: k for k, v in _TIES.items()}[value]
            elif name == "summer":
                items = value.items() if isinstance(value, dict) else enumerate(value)
                o.summer_layout.SetInParent()
                o.summer_layout.tiles.extend(
                    options_pb2.JaegerLayoutTile(space=int(s), tile=jaeger_tile(t)) for s, t in items if t is not None
                )
            elif name == "winter":
                o.winter_deck.SetInParent()
                o.winter_deck.tiles.extend(jaeger_tile(t) for t in value)
            elif name == "start":
                o.start.extend(options_pb2.JaegerStartSpaces(spaces=s) for s in value)
            else:
                raise _config_error(f"unknown jaeger_sammler option {name!r}")

    def public_config(self, config: matches_pb2.GameConfig) -> matches_pb2.GameConfig:
        out = matches_pb2.GameConfig(game=config.game, players=config.players)
        if config.WhichOneof("options") == "jaeger":
            out.jaeger.CopyFrom(config.jaeger)
            out.jaeger.ClearField("summer_layout")
            out.jaeger.ClearField("winter_deck")
        return out

    def typed_move(self, pb: moves_pb2.Move, which: str) -> Any:
        if which != "jaeger":
            return super().typed_move(pb, which)
        steps = [(s.src, s.dst if s.HasField("dst") else None) for s in pb.jaeger.steps]
        try:
            from hunters import jaeger

            return jaeger.Move.of(*steps)
        except TypeError as exc:
            raise IllegalMoveError("MALFORMED", str(exc)) from None

    def move_to_proto(self, move: Any) -> moves_pb2.Move:
        return moves_pb2.Move(
            jaeger=moves_pb2.JaegerMove(
                steps=[
                    moves_pb2.JaegerStep(src=s.src) if s.dst is None else moves_pb2.JaegerStep(src=s.src, dst=s.dst)
                    for s in move.steps
                ]
            )
        )

    _EVENT_FIELDS = ("turn", "step", "seat", "space")

    def event(self, ev: Any) -> events_pb2.Event:
        e = events_pb2.JaegerEvent(
            season=_SEASON_ENUMS[ev.season],
            kind=_EVENT_ENUMS[ev.kind],
            tile=jaeger_tile(ev.tile),
            detail=_DETAIL_ENUMS[ev.detail] if ev.detail else events_pb2.JAEGER_EVENT_DETAIL_UNSPECIFIED,
        )
        for name in self._EVENT_FIELDS:
            value = getattr(ev, name)
            if value is not None:
                setattr(e, name, value)
        return events_pb2.Event(jaeger=e)

    def event_from_proto(self, pb: events_pb2.Event) -> Any:
        e = pb.jaeger
        opt = {name: getattr(e, name) if e.HasField(name) else None for name in self._EVENT_FIELDS}
        tile = jaeger_token(e.tile) if e.HasField("tile") else None
        from hunters import jaeger

        return jaeger.Event(
            opt["turn"],
            _SEASONS[e.season],
            opt["step"],
            _EVENT_KINDS[e.kind],
            opt["seat"],
            opt["space"],
            tile,
            _DETAILS.get(e.detail),
        )

    def state(self, game: Any, version: int) -> state_pb2.MatchState:
        """From game.view() alone: what it hides (None) stays unset, so hidden information never
        leaks through this adapter."""
        view = game.view()
        st = self._common(game, version, view["scores"])
        j = st.jaeger
        j.season, j.turn = _SEASON_ENUMS[view["season"]], view["turn"]
        j.tiles_left, j.idle_turns = view["tiles_left"], view["idle_turns"]
        for sp in view["board"]:
            j.board.add(
                space=sp["space"],
                tile=jaeger_tile(sp["tile"]),
                characters=sp["characters"],
                supply_packs=sp["supply_packs"],
            )
        for c in view["collections"]:
            pb = j.collections.add(
                seat=c["seat"],
                face_down=c.get("face_down") or 0,
                mammoths=c["mammoths"],
                weapons=c["weapons"],
                weapons_spent=c["weapons_spent"],
                supply_packs=c["supply_packs"],
                characters_on_board=c["characters_on_board"],
            )
            for name in _COUNTS:
                if c.get(name) is not None:
                    setattr(pb, name, c[name])
        for seat, part in enumerate(view["score_breakdown"] or ()):
            j.score_breakdown.add(seat=seat, **part)
        if view["summer_mammoth"] is not None:
            j.summer_mammoth_value = view["summer_mammoth"]["value"]
            j.summer_mammoth_seat = view["summer_mammoth"]["seat"]
        return st


_TYPED = {"carcassonne_hg": CarcassonneAdapter, "jaeger_sammler": JaegerAdapter}
_adapters: dict[str, GameAdapter] = {}


def adapter(game_id: str) -> GameAdapter:
    """The adapter of a registered game (WireError UNKNOWN_GAME otherwise)."""
    found = _adapters.get(game_id)
    if found is None:
        if game_id not in games:
            raise WireError("UNKNOWN_GAME", f"unknown game {game_id!r}; registered: {', '.join(games.ids())}")
        found = _adapters[game_id] = _TYPED.get(game_id, GameAdapter)(game_id, games.get(game_id))
    return found
