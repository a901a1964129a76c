"""carcassonne_hg on the wire: CarcassonneMove, CarcassonneScoreEvent, CarcassonneState and
CarcassonneOptions (`hunters.v1`), GetGameInfo's CarcassonneInfo, and the rebuild of a game from
its public history (what `hunters play` follows a match with)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.message import Message

from hunters.errors import IllegalMoveError
from hunters.game_base import AnyGame
from hunters.v1 import carcassonne_pb2, events_pb2, matches_pb2, moves_pb2, state_pb2
from hunters.wire import GameAdapter, RemoteError, config_error, enum_names, enum_of, field_bytes

from . import actions
from .game import Game
from .moves import Move, Occupant, ScoreEvent
from .tiles import MENHIR_TILES, NORMAL_TILES, START_TILE, tile_data

__all__ = ["Adapter"]

_PIECES = {carcassonne_pb2.PIECE_KIND_MEEPLE: "meeple", carcassonne_pb2.PIECE_KIND_HUT: "hut"}
_PIECE_ENUMS = {v: k for k, v in _PIECES.items()}
_SCORE_KINDS = enum_names(carcassonne_pb2.CarcassonneScoreKind, "CARCASSONNE_SCORE_KIND_")
_SCORE_ENUMS = {v: k for k, v in _SCORE_KINDS.items()}


class Adapter(GameAdapter):
    """carcassonne_hg: CarcassonneMove, CarcassonneScoreEvent, CarcassonneState, CarcassonneOptions."""

    options_field = "carcassonne"

    def typed_options(self, config: matches_pb2.GameConfig) -> dict[str, Any]:
        o = config.carcassonne
        out: dict[str, Any] = {}
        for name, pile in (("normal_deck", NORMAL_TILES), ("menhir_deck", MENHIR_TILES)):
            if o.HasField(name):
                deck = getattr(o, name).tiles
                if len(deck) > len(pile):
                    raise config_error(f"{name} holds {len(deck)} tiles; that pile has {len(pile)}")
                out[name] = list(deck)
        return out

    def options_to_proto(self, options: dict[str, Any], config: matches_pb2.GameConfig) -> None:
        unknown = set(options) - {"normal_deck", "menhir_deck"}
        if unknown:
            raise config_error(f"unknown carcassonne_hg options: {sorted(unknown)}")
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
        m = pb.carcassonne
        occupant = None
        if m.HasField("occupant"):
            kind = _PIECES.get(m.occupant.kind)
            if kind is None:
                raise IllegalMoveError("MALFORMED", "occupant kind must be PIECE_KIND_MEEPLE or PIECE_KIND_HUT")
            occupant = Occupant(kind, m.occupant.zone)
        return Move(m.x, m.y, m.rotation, occupant, m.retake if m.HasField("retake") else None)

    def move_to_proto(self, move: Any) -> moves_pb2.Move:
        pb = carcassonne_pb2.CarcassonneMove(x=move.x, y=move.y, rotation=move.rotation)
        if move.occupant is not None:
            pb.occupant.kind = _PIECE_ENUMS[move.occupant.kind]
            pb.occupant.zone = move.occupant.zone
        if move.retake is not None:
            pb.retake = move.retake
        return moves_pb2.Move(carcassonne=pb)

    def move_bytes(self, move: Any) -> bytes:
        """`move_to_proto(move)` serialized, from the encodings of its place, its piece and its
        retake, each made once (fields in number order: the same bytes)."""
        data = _placement_bytes(move.x, move.y, move.rotation)
        if move.occupant is not None:
            data += _occupant_bytes(move.occupant.kind, move.occupant.zone)
        if move.retake is not None:
            data += carcassonne_pb2.CarcassonneMove(retake=move.retake).SerializeToString()
        return field_bytes(_CARCASSONNE_MOVE, data)

    def event(self, ev: Any) -> events_pb2.Event:
        return events_pb2.Event(
            carcassonne_score=carcassonne_pb2.CarcassonneScoreEvent(
                decision=ev.decision, kind=_SCORE_ENUMS[ev.reason], seats=ev.seats, points=ev.points, feature=ev.feature
            )
        )

    def event_from_proto(self, pb: events_pb2.Event) -> Any:
        e = pb.carcassonne_score
        return ScoreEvent(e.decision, _SCORE_KINDS[e.kind], tuple(e.seats), e.points, e.feature)

    def legal_entries(self, game: Any, field: int) -> bytes | None:
        entries: bytes = game.legal_move_entries(field)
        return entries

    def visible_scores(self, game: Any) -> Any:
        return game.scores  # public throughout

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

    def describe_move(self, move: Any) -> str:
        text = f"tile at ({move.x}, {move.y}) turned {move.rotation}"
        if move.retake is not None:
            text += f", takes back {move.retake} ({_zone_type(move.retake)})"
        if move.occupant is not None:
            text += f", {move.occupant.kind} on {move.occupant.zone} ({_zone_type(move.occupant.zone)})"
        return text

    def describe_event(self, event: Any, seat_name: Callable[[int], str]) -> str:
        who = "+".join(seat_name(s) for s in event.seats) or "nobody"
        return f"{who} +{event.points} {event.reason}"

    def game_info(self) -> tuple[str, Message]:
        return "carcassonne", _info()

    def rebuild(
        self, players: int, options: dict[str, Any], states: Sequence[state_pb2.MatchState], moves: Sequence[Any]
    ) -> AnyGame:
        """The tiles drawn so far in the order they were drawn (each state shows the tile in hand and
        the discards), the undrawn rest in ascending order; checked against the latest state."""
        if options:
            raise RemoteError("carcassonne_hg options are not supported")
        menhir_set = set(MENHIR_TILES)
        drawn: tuple[list[int], list[int]] = ([], [])
        seen_discards = 0
        for st in states:
            c = st.carcassonne
            for t in list(c.discards)[seen_discards:]:
                drawn[t in menhir_set].append(t)
            seen_discards = len(c.discards)
            if c.HasField("tile") and c.tile not in drawn[c.tile in menhir_set]:
                drawn[c.tile in menhir_set].append(c.tile)
        last = states[-1].carcassonne
        rest_normal = sorted(set(NORMAL_TILES) - set(drawn[0]))
        rest_menhir = sorted(set(MENHIR_TILES) - set(drawn[1]))
        if len(rest_normal) != last.normal_pile or len(rest_menhir) != last.menhir_pile:
            raise RemoteError("the piles are not the full tile sets (explicit decks are not supported)")
        game = Game.new(players=players, normal_deck=drawn[0] + rest_normal, menhir_deck=drawn[1] + rest_menhir)
        for m in moves:
            game.play(m)
        if [(b.x, b.y, b.tile, b.rotation) for b in last.board] != game.board or list(last.meeples) != game.meeples:
            raise RemoteError("the rebuilt game does not match the server's state")
        return game


@functools.lru_cache(maxsize=65536)
def _placed_tile_bytes(placed: tuple[int, int, int, int]) -> bytes:
    """A CarcassonneState holding just this board entry, serialized: concatenating these and
    merging them appends to `board` (protobuf merges repeated fields by appending). Entries recur
    from move to move, so each is encoded once instead of at every move."""
    x, y, t, r = placed
    return carcassonne_pb2.CarcassonneState(
        board=[carcassonne_pb2.CarcassonnePlacedTile(x=x, y=y, tile=t, rotation=r)]
    ).SerializeToString()


_CARCASSONNE_MOVE = moves_pb2.Move.DESCRIPTOR.fields_by_name["carcassonne"].number


@functools.lru_cache(maxsize=16384)
def _placement_bytes(x: int, y: int, rotation: int) -> bytes:
    """A CarcassonneMove holding just a place and a turn, serialized."""
    return carcassonne_pb2.CarcassonneMove(x=x, y=y, rotation=rotation).SerializeToString()


@functools.lru_cache(maxsize=4096)
def _occupant_bytes(kind: str, zone: int) -> bytes:
    """A CarcassonneMove holding just a piece, serialized."""
    return carcassonne_pb2.CarcassonneMove(
        occupant=carcassonne_pb2.CarcassonneOccupant(kind=_PIECE_ENUMS[kind], zone=zone)
    ).SerializeToString()


@functools.lru_cache(maxsize=65536)
def _piece_bytes(piece: tuple[int, int, str]) -> bytes:
    """The same for an entry of `occupants`."""
    zone, seat, kind = piece
    return carcassonne_pb2.CarcassonneState(
        occupants=[carcassonne_pb2.CarcassonnePiece(zone=zone, seat=seat, kind=_PIECE_ENUMS[kind])]
    ).SerializeToString()


# -- GetGameInfo ------------------------------------------------------------------------------
def _zone(z: dict[str, Any]) -> carcassonne_pb2.CarcassonneZone:
    out = carcassonne_pb2.CarcassonneZone(
        local=z["local"],
        type=enum_of(carcassonne_pb2.CarcassonneZoneType, "CARCASSONNE_ZONE_TYPE_", z["type"]),
        animals=[enum_of(carcassonne_pb2.CarcassonneAnimal, "CARCASSONNE_ANIMAL_", a) for a in z.get("animals", [])],
        fish=z.get("fish", 0),
        power=enum_of(carcassonne_pb2.CarcassonnePower, "CARCASSONNE_POWER_", z.get("power")),
        forest_kind=enum_of(carcassonne_pb2.CarcassonneForestKind, "CARCASSONNE_FOREST_KIND_", z.get("kind")),
    )
    if z.get("lake") is not None:
        out.lake = z["lake"]
    return out


@functools.cache
def _info() -> carcassonne_pb2.CarcassonneInfo:
    meeple_locals = 8  # meeples go on local zones 0-7 (actions.py), huts on 0-9
    layout = carcassonne_pb2.CarcassonneActionLayout(
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
            carcassonne_pb2.CarcassonneSide(
                type=enum_of(carcassonne_pb2.CarcassonneZoneType, "CARCASSONNE_ZONE_TYPE_", s["type"]),
                zones=s["zones"] if "zones" in s else [s["zone"]],
            )
            for s in t["sides"]
        ]
        tiles.append(
            carcassonne_pb2.CarcassonneTile(
                id=t["id"],
                kind=enum_of(carcassonne_pb2.CarcassonneTileKind, "CARCASSONNE_TILE_KIND_", t["kind"]),
                sides=sides,
                zones=[_zone(z) for z in t["zones"]],
            )
        )
    return carcassonne_pb2.CarcassonneInfo(
        actions=layout, tiles=tiles, start_tile=START_TILE, normal_tiles=NORMAL_TILES, menhir_tiles=MENHIR_TILES
    )


def _zone_type(zone: int) -> str:
    """The kind of land of a global zone id (tile * 10 + local zone): meadow, forest, river, lake."""
    tile, local = divmod(zone, 10)
    try:
        found = next(z["type"] for z in tile_data()[tile]["zones"] if z["local"] == local)
    except (IndexError, KeyError, StopIteration):
        return "?"
    return str(found)
