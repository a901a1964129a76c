"""jaeger_sammler on the wire: JaegerMove, JaegerEvent, JaegerState and JaegerOptions (`hunters.v1`),
GetGameInfo's JaegerInfo, and the rebuild of a game from its public history (what `hunters play`
follows a match with)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, overload

from google.protobuf.message import Message

from hunters.errors import IllegalMoveError
from hunters.game_base import AnyGame
from hunters.v1 import events_pb2, jaeger_pb2, matches_pb2, moves_pb2, state_pb2
from hunters.wire import (
    MAX_ADJACENCY,
    MAX_GRID_SIDE,
    MAX_LIST,
    GameAdapter,
    RemoteError,
    config_error,
    enum_names,
    enum_of,
    field_bytes,
)

from .board import default_board
from .game import DEFAULT_OPTIONS, Game
from .moves import Event, Move
from .options import LIMITS
from .tiles import FOOD, GOODS, KINDS, STAYING, code_of, data, deck

__all__ = ["Adapter", "jaeger_tile", "jaeger_token"]

_E = TypeVar("_E", bound=int)


_SEASONS = enum_names(jaeger_pb2.Season, "SEASON_")
_SEASON_ENUMS = {v: k for k, v in _SEASONS.items()}
_TILE_KINDS = enum_names(jaeger_pb2.JaegerTileKind, "JAEGER_TILE_KIND_")
_TILE_ENUMS = {v: k for k, v in _TILE_KINDS.items()}
_EVENT_KINDS = enum_names(jaeger_pb2.JaegerEventKind, "JAEGER_EVENT_KIND_")
_EVENT_ENUMS = {v: k for k, v in _EVENT_KINDS.items()}
_DETAILS = enum_names(jaeger_pb2.JaegerEventDetail, "JAEGER_EVENT_DETAIL_")
_DETAIL_ENUMS = {v: k for k, v in _DETAILS.items()}
_SPACE_KINDS = enum_names(jaeger_pb2.JaegerSpaceKind, "JAEGER_SPACE_KIND_")
_SPACE_ENUMS = {v: k for k, v in _SPACE_KINDS.items()}
_WINTER_START = {
    jaeger_pb2.JAEGER_WINTER_START_AFTER_LAST: "after_last",
    jaeger_pb2.JAEGER_WINTER_START_SEAT0: "seat0",
}
_TIES = {jaeger_pb2.JAEGER_TIES_SHARED: "shared", jaeger_pb2.JAEGER_TIES_NO_WINNER: "no_winner"}
_OFFSETS = {jaeger_pb2.JAEGER_GRID_OFFSET_ODD_R: "odd-r", jaeger_pb2.JAEGER_GRID_OFFSET_EVEN_R: "even-r"}
_COUNTS = ("berries", "tubers", "herbs", "jug", "necklace", "pelt", "skull")
_JAEGER_MOVE = moves_pb2.Move.DESCRIPTOR.fields_by_name["jaeger"].number


@functools.lru_cache(maxsize=16384)
def _step_bytes(step: Any) -> bytes:
    """A JaegerMove holding just this step, serialized (steps join into a move's `steps`)."""
    src, dst = step
    pb = jaeger_pb2.JaegerStep(src=src) if dst is None else jaeger_pb2.JaegerStep(src=src, dst=dst)
    return jaeger_pb2.JaegerMove(steps=[pb]).SerializeToString()


@overload
def jaeger_tile(token: str) -> jaeger_pb2.JaegerTile: ...
@overload
def jaeger_tile(token: None) -> None: ...
@overload
def jaeger_tile(token: str | None) -> jaeger_pb2.JaegerTile | None: ...
def jaeger_tile(token: str | None) -> jaeger_pb2.JaegerTile | None:
    """The JaegerTile of a tile token ("berries", "mammoth8"); None for no tile."""
    if token is None:
        return None
    if token.startswith("mammoth"):
        return jaeger_pb2.JaegerTile(kind=jaeger_pb2.JAEGER_TILE_KIND_MAMMOTH, mammoth_value=int(token[7:]))
    return jaeger_pb2.JaegerTile(kind=_TILE_ENUMS[token])


def jaeger_token(tile: jaeger_pb2.JaegerTile, what: str = "tile") -> str:
    """The token of a JaegerTile (WireError INVALID_CONFIG for an unknown kind or a bad value)."""
    kind = _TILE_KINDS.get(tile.kind)
    if kind is None:
        raise config_error(f"{what}: kind must be one of the JAEGER_TILE_KIND_ values, not {tile.kind}")
    if kind == "mammoth":
        if tile.mammoth_value < 1:
            raise config_error(f"{what}: a mammoth needs a mammoth_value of at least 1")
        return f"mammoth{tile.mammoth_value}"
    if tile.mammoth_value:
        raise config_error(f"{what}: only a mammoth has a mammoth_value")
    return kind


def _bounded(values: Any, limit: int, what: str) -> Any:
    if len(values) > limit:
        raise config_error(f"{what} has {len(values)} entries; at most {limit}")
    return values


def _enum_option(value: _E, table: dict[_E, str], what: str) -> str | None:
    if value == 0:
        return None
    if value not in table:
        raise config_error(f"{what} {value} is not a known value")
    return table[value]


def _board_data(board: jaeger_pb2.JaegerBoard, max_spaces: int) -> dict[str, Any]:
    """Board data (see hunters.jaeger.board) of a JaegerBoard, every size checked first."""
    which = board.WhichOneof("layout")
    if which == "grid":
        g = board.grid
        if not (1 <= g.rows <= MAX_GRID_SIDE and 1 <= g.cols <= MAX_GRID_SIDE):
            raise config_error(f"grid rows and cols must be 1 to {MAX_GRID_SIDE}")
        _bounded(g.missing, MAX_GRID_SIDE, "grid missing")
        if g.rows * g.cols - len(g.missing) > max_spaces:
            raise config_error(f"a board has at most {max_spaces} spaces")
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
            raise config_error(f"an explicit board has 1 to {max_spaces} spaces")
        _bounded(e.adjacency, MAX_ADJACENCY, "adjacency")
        spaces = []
        for i, sp in enumerate(e.spaces):
            entry: dict[str, Any] = {"kind": _enum_option(sp.kind, _SPACE_KINDS, f"space {i} kind") or "tile"}
            if sp.HasField("pos"):
                entry["pos"] = [sp.pos.row, sp.pos.col]
            spaces.append(entry)
        return {"spaces": spaces, "adjacency": [[p.a, p.b] for p in e.adjacency]}
    raise config_error("board needs a grid or an explicit layout")


def _board_to_proto(data: dict[str, Any], out: jaeger_pb2.JaegerBoard) -> None:
    if "grid" in data:
        g = data["grid"]
        out.grid.rows, out.grid.cols = g["rows"], g["cols"]
        out.grid.offset = {v: k for k, v in _OFFSETS.items()}[g.get("offset", "odd-r")]
        out.grid.missing.extend(jaeger_pb2.JaegerCell(row=r, col=c) for r, c in g.get("missing", []))
        camps = data.get("camps", {})
        out.grid.summer_camps.extend(jaeger_pb2.JaegerCell(row=r, col=c) for r, c in camps.get("summer", []))
        out.grid.winter_camps.extend(jaeger_pb2.JaegerCell(row=r, col=c) for r, c in camps.get("winter", []))
    else:
        out.explicit.SetInParent()
        for sp in data["spaces"]:
            s = out.explicit.spaces.add(kind=_SPACE_ENUMS[sp.get("kind", "tile")])
            if sp.get("pos") is not None:
                s.pos.row, s.pos.col = sp["pos"]
        out.explicit.adjacency.extend(jaeger_pb2.JaegerAdjacency(a=a, b=b) for a, b in data.get("adjacency", []))


class Adapter(GameAdapter):
    """jaeger_sammler: JaegerMove, JaegerEvent, JaegerState, JaegerOptions."""

    options_field = "jaeger"

    def typed_options(self, config: matches_pb2.GameConfig) -> dict[str, Any]:
        limits = LIMITS
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
                    raise config_error(f"summer_layout: space {t.space} given twice")
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
                    jaeger_pb2.JaegerLayoutTile(space=int(s), tile=jaeger_tile(t)) for s, t in items if t is not None
                )
            elif name == "winter":
                o.winter_deck.SetInParent()
                o.winter_deck.tiles.extend(jaeger_tile(t) for t in value)
            elif name == "start":
                o.start.extend(jaeger_pb2.JaegerStartSpaces(spaces=s) for s in value)
            else:
                raise config_error(f"unknown jaeger_sammler option {name!r}")

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
            return Move.of(*steps)
        except TypeError as exc:
            raise IllegalMoveError("MALFORMED", str(exc)) from None

    def move_to_proto(self, move: Any) -> moves_pb2.Move:
        return moves_pb2.Move(
            jaeger=jaeger_pb2.JaegerMove(
                steps=[
                    jaeger_pb2.JaegerStep(src=s.src) if s.dst is None else jaeger_pb2.JaegerStep(src=s.src, dst=s.dst)
                    for s in move.steps
                ]
            )
        )

    def move_bytes(self, move: Any) -> bytes:
        """`move_to_proto(move)` serialized, from the encodings of its steps, each made once."""
        return field_bytes(_JAEGER_MOVE, b"".join(map(_step_bytes, move.steps)))

    _EVENT_FIELDS = ("turn", "step", "seat", "space")

    def event(self, ev: Any) -> events_pb2.Event:
        e = jaeger_pb2.JaegerEvent(
            season=_SEASON_ENUMS[ev.season],
            kind=_EVENT_ENUMS[ev.kind],
            tile=jaeger_tile(ev.tile),
            detail=_DETAIL_ENUMS[ev.detail] if ev.detail else jaeger_pb2.JAEGER_EVENT_DETAIL_UNSPECIFIED,
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
        return Event(
            opt["turn"],
            _SEASONS[e.season],
            opt["step"],
            _EVENT_KINDS[e.kind],
            opt["seat"],
            opt["space"],
            tile,
            _DETAILS.get(e.detail),
        )

    def visible_scores(self, game: Any) -> Any:
        return None if game.collections_hidden else game.scores  # as view()["scores"]

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

    def describe_move(self, move: Any) -> str:
        return ", ".join(f"{s.src}→{'off' if s.dst is None else s.dst}" for s in move.steps)

    def describe_events(self, events: Sequence[Any], seat_name: Callable[[int], str]) -> str:
        """Leftover tiles removed at a season's end are counted, not listed one by one."""
        removed = sum(1 for e in events if e.kind == "remove")
        parts = [self.describe_event(e, seat_name) for e in events if e.kind != "remove"]
        if removed:
            parts.append(f"{removed} leftover tiles removed")
        return "; ".join(parts)

    def describe_event(self, event: Any, seat_name: Callable[[int], str]) -> str:
        who = "" if event.seat is None else f"{seat_name(event.seat)} "
        tile = f" {event.tile}" if event.tile else ""
        detail = f" ({event.detail})" if event.detail else ""
        return f"{who}{event.kind.replace('_', ' ')}{tile}{detail}"

    def game_info(self) -> tuple[str, Message]:
        return "jaeger", _info()

    def rebuild(
        self, players: int, options: dict[str, Any], states: Sequence[state_pb2.MatchState], moves: Sequence[Any]
    ) -> AnyGame:
        """The summer layout and start positions of the set-up state, the winter tiles as the state
        after summer's end shows them dealt (the rest of the winter deck in code order); checked
        against the latest state."""
        first = states[0].jaeger
        layout = [jaeger_token(s.tile) if s.HasField("tile") else None for s in first.board]
        start: list[list[int]] = [[] for _ in range(players)]
        for s in first.board:
            for seat in s.characters:
                start[seat].append(s.space)
        probe = Game.new(players=players, summer=layout, start=start, **options)
        contents = sorted(deck("winter", tuple(probe.options["mammoths_winter"])), key=code_of)
        winter = contents
        for before, st in itertools.pairwise(states):
            if before.jaeger.season == jaeger_pb2.SEASON_SUMMER and st.jaeger.season != jaeger_pb2.SEASON_SUMMER:
                # the summer-ending move removed every leftover takeable tile, then the winter deck was
                # dealt in ascending space order; no winter tile is a path or a cave
                dealt = [
                    jaeger_token(s.tile)
                    for s in st.jaeger.board
                    if s.HasField("tile") and jaeger_token(s.tile) not in STAYING
                ]
                rest = list(contents)
                for t in dealt:
                    rest.remove(t)
                winter = dealt + rest
                break
        game = Game.new(players=players, summer=layout, winter=winter, start=start, **options)
        for m in moves:
            game.play(m)
        last = states[-1].jaeger
        if [jaeger_token(s.tile) if s.HasField("tile") else None for s in last.board] != game.tiles:
            raise RemoteError("the rebuilt game does not match the server's state")
        return game


# -- GetGameInfo ------------------------------------------------------------------------------
@functools.cache
def _info() -> jaeger_pb2.JaegerInfo:
    d = data()
    board = default_board()
    caves = d["tiles"]["summer"].get("cave", 0)
    slots = board.ndir + caves + 1
    layout = jaeger_pb2.JaegerActionLayout(
        spaces=board.n, directions=board.ndir, caves=caves, slots=slots, steps=board.n * slots
    )
    spaces = []
    for v in range(board.n):
        sp = jaeger_pb2.JaegerSpaceInfo(
            space=v,
            kind=enum_of(jaeger_pb2.JaegerSpaceKind, "JAEGER_SPACE_KIND_", board.kinds[v]),
            neighbours=board.slots[v],
        )
        if board.coords is not None:
            sp.cell.row, sp.cell.col = board.coords[v]
        spaces.append(sp)
    kinds = [
        jaeger_pb2.JaegerTileKindInfo(
            kind=enum_of(jaeger_pb2.JaegerTileKind, "JAEGER_TILE_KIND_", k),
            summer_count=d["tiles"]["summer"].get(k, 0),
            winter_count=d["tiles"]["winter"].get(k, 0),
            food_points=d["food_points"].get(k, 0) if k in FOOD else 0,
            goods=k in GOODS,
            staying=k in STAYING,
        )
        for k in KINDS
    ]
    defaults = matches_pb2.GameConfig()
    Adapter("jaeger_sammler", Game).options_to_proto(
        dict(DEFAULT_OPTIONS, board={"grid": d["grid"], "camps": d["camps"]}), defaults
    )
    return jaeger_pb2.JaegerInfo(
        actions=layout,
        board=spaces,
        summer_camps=board.summer_camps,
        winter_camps=board.winter_camps,
        tile_kinds=kinds,
        goods_points_by_count=d["goods_points_by_count"],
        supply_pack_points=d["supply_pack_points"],
        characters_per_player=d["characters_per_player"],
        supply_packs_per_player=d["supply_packs_per_player"],
        default_options=defaults.jaeger,
    )
