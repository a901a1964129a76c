"""GameService: which games the server plays, their dense-action layouts and static component data
(ListGames, GetGameInfo). Everything is read from the game packages and their shipped data; the
answers never change while the server runs, so each is built once."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from hunters import games, wire
from hunters.v1 import games_pb2, matches_pb2, options_pb2, state_pb2

from .errors import invalid

__all__ = ["game_info", "list_games"]


_E = TypeVar("_E", bound=int)


def _enum(enum: type[_E], prefix: str, name: str | None) -> _E:
    """The enum value PREFIX + NAME (PREFIX + UNSPECIFIED, 0, for None)."""
    return wire.enum_value(enum, prefix + ("UNSPECIFIED" if name is None else name.upper()))


@functools.cache
def summary(game_id: str) -> games_pb2.GameSummary:
    """What the game contract (`GameInfo`) says of a game."""
    info = games.info(game_id)
    return games_pb2.GameSummary(
        game=game_id,
        display_name=info.name,
        min_players=info.min_players,
        max_players=info.max_players,
        action_space_size=info.action_space_size,
    )


# -- carcassonne_hg ---------------------------------------------------------------------------
def _carcassonne_zone(z: dict[str, Any]) -> games_pb2.CarcassonneZone:
    out = games_pb2.CarcassonneZone(
        local=z["local"],
        type=_enum(games_pb2.CarcassonneZoneType, "CARCASSONNE_ZONE_TYPE_", z["type"]),
        animals=[_enum(games_pb2.CarcassonneAnimal, "CARCASSONNE_ANIMAL_", a) for a in z.get("animals", [])],
        fish=z.get("fish", 0),
        power=_enum(games_pb2.CarcassonnePower, "CARCASSONNE_POWER_", z.get("power")),
        forest_kind=_enum(games_pb2.CarcassonneForestKind, "CARCASSONNE_FOREST_KIND_", z.get("kind")),
    )
    if z.get("lake") is not None:
        out.lake = z["lake"]
    return out


def _carcassonne_info() -> games_pb2.CarcassonneInfo:
    from hunters.carcassonne import actions
    from hunters.carcassonne.tiles import MENHIR_TILES, NORMAL_TILES, START_TILE, tile_data

    meeple_locals = 8  # meeples go on local zones 0-7 (actions.py), huts on 0-9
    layout = games_pb2.CarcassonneActionLayout(
        bound=actions.BOUND,
        side=actions.SIDE,
        rotations=4,
        occupant_slots=actions.OCCUPANT_SLOTS,
        meeple_slot_base=1,
        hut_slot_base=1 + meeple_locals,
        retake_slots=actions.RETAKE_SLOTS,
    )
    tiles = []
    for t in tile_data():
        sides = [
            games_pb2.CarcassonneSide(
                type=_enum(games_pb2.CarcassonneZoneType, "CARCASSONNE_ZONE_TYPE_", s["type"]),
                zones=s["zones"] if "zones" in s else [s["zone"]],
            )
            for s in t["sides"]
        ]
        tiles.append(
            games_pb2.CarcassonneTile(
                id=t["id"],
                kind=_enum(games_pb2.CarcassonneTileKind, "CARCASSONNE_TILE_KIND_", t["kind"]),
                sides=sides,
                zones=[_carcassonne_zone(z) for z in t["zones"]],
            )
        )
    return games_pb2.CarcassonneInfo(
        actions=layout, tiles=tiles, start_tile=START_TILE, normal_tiles=NORMAL_TILES, menhir_tiles=MENHIR_TILES
    )


# -- jaeger_sammler ---------------------------------------------------------------------------
def _jaeger_info() -> games_pb2.JaegerInfo:
    from hunters.jaeger import DEFAULT_OPTIONS, default_board
    from hunters.jaeger.tiles import FOOD, GOODS, KINDS, STAYING, data

    d = data()
    board = default_board()
    caves = d["tiles"]["summer"].get("cave", 0)
    slots = board.ndir + caves + 1
    layout = games_pb2.JaegerActionLayout(
        spaces=board.n, directions=board.ndir, caves=caves, slots=slots, steps=board.n * slots
    )
    spaces = []
    for v in range(board.n):
        sp = games_pb2.JaegerSpaceInfo(
            space=v,
            kind=_enum(options_pb2.JaegerSpaceKind, "JAEGER_SPACE_KIND_", board.kinds[v]),
            neighbours=board.slots[v],
        )
        if board.coords is not None:
            sp.cell.row, sp.cell.col = board.coords[v]
        spaces.append(sp)
    kinds = [
        games_pb2.JaegerTileKindInfo(
            kind=_enum(state_pb2.JaegerTileKind, "JAEGER_TILE_KIND_", k),
            summer_count=d["tiles"]["summer"].get(k, 0),
            winter_count=d["tiles"]["winter"].get(k, 0),
            food_points=d["food_points"].get(k, 0) if k in FOOD else 0,
            goods=k in GOODS,
            staying=k in STAYING,
        )
        for k in KINDS
    ]
    defaults = matches_pb2.GameConfig()
    wire.adapter("jaeger_sammler").options_to_proto(
        dict(DEFAULT_OPTIONS, board={"grid": d["grid"], "camps": d["camps"]}), defaults
    )
    return games_pb2.JaegerInfo(
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


_DETAILS = {"carcassonne_hg": ("carcassonne", _carcassonne_info), "jaeger_sammler": ("jaeger", _jaeger_info)}


# -- the RPCs as plain functions --------------------------------------------------------------
@functools.cache
def list_games() -> games_pb2.ListGamesResponse:
    return games_pb2.ListGamesResponse(games=[summary(g) for g in games.ids()])


@functools.cache
def _game_info(game_id: str) -> games_pb2.GetGameInfoResponse:
    out = games_pb2.GetGameInfoResponse(summary=summary(game_id))
    if game_id in _DETAILS:
        field, build = _DETAILS[game_id]
        getattr(out, field).CopyFrom(build())
    return out


def game_info(request: games_pb2.GetGameInfoRequest) -> games_pb2.GetGameInfoResponse:
    """GetGameInfo (INVALID_ARGUMENT / UNKNOWN_GAME for an unregistered id)."""
    if request.game not in games:
        raise invalid("UNKNOWN_GAME", f"unknown game {request.game!r}; registered: {', '.join(games.ids())}")
    return _game_info(request.game)
