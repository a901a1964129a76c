"""Translation between protobuf and each game's API: the only game-specific code of the service.

An adapter turns protobuf moves into game `Move`s and games into `MatchState` views; the rules
stay in the game packages. A game without a typed protobuf message travels as JSON (its
`Move.to_json()` / `view()`), so a newly registered game is served without service changes.
"""
from __future__ import annotations

import functools
import importlib
import json
from typing import Any

from google.protobuf import json_format, struct_pb2

from hunters import GAMES
from hunters.errors import IllegalMoveError
from hunters.v1 import events_pb2, matches_pb2, moves_pb2, state_pb2

from .errors import ServiceError, invalid

_OCC_KINDS = {moves_pb2.CarcassonneOccupant.KIND_MEEPLE: "meeple", moves_pb2.CarcassonneOccupant.KIND_HUT: "hut"}
_OCC_ENUMS = {v: k for k, v in _OCC_KINDS.items()}


def plain(value: Any) -> Any:
    """Struct values (all numbers are doubles) back to plain JSON with integral numbers as ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


MAX_JSON_MOVE = 4096   # characters of a JSON move
MAX_JSON_DEPTH = 16    # nesting of a JSON move


def _bounded_json(text: str) -> Any:
    """Parse a small JSON value: at most MAX_JSON_MOVE characters nested at most MAX_JSON_DEPTH deep
    (ValueError otherwise, before the parser could recurse)."""
    if len(text) > MAX_JSON_MOVE:
        raise ValueError(f"a JSON move is at most {MAX_JSON_MOVE} characters")
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_JSON_DEPTH:
        raise ValueError(f"a JSON move is nested at most {MAX_JSON_DEPTH} deep")
    return json.loads(text)


def to_struct(data: dict) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    s.update(data)
    return s


class GameAdapter:
    """Generic adapter: moves as JSON, views as Struct. Typed games override the hooks."""

    def __init__(self, game_id: str, module: Any):
        self.game_id = game_id
        self.module = module
        self.Game = module.Game
        self.Move = module.Move

    # -- games -------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: struct_pb2.Struct | None) -> Any:
        try:
            opts = plain(json_format.MessageToDict(options)) if options is not None else {}
        except ValueError:  # NaN or an infinity: Struct numbers that JSON cannot carry
            raise invalid("INVALID_CONFIG", "options must hold finite numbers only") from None
        if not isinstance(opts, dict):
            raise invalid("INVALID_CONFIG", "options must be an object")
        try:
            return self.Game.new(players=players, seed=seed, **opts)
        except TypeError as exc:
            raise invalid("INVALID_CONFIG", f"unknown option: {exc}") from None
        except ValueError as exc:
            raise invalid("INVALID_CONFIG", str(exc)) from None

    def from_record(self, record: dict) -> Any:
        return self.Game.from_record(record)

    # Options that fix a hidden draw order (explicit decks); with the seed, never shown before the end.
    HIDDEN_OPTIONS: tuple[str, ...] = ()

    def public_config(self, config: matches_pb2.GameConfig) -> matches_pb2.GameConfig:
        """`config` without what determines a hidden pile: the seed and explicit decks."""
        public = matches_pb2.GameConfig()
        public.CopyFrom(config)
        public.ClearField("seed")
        for name in self.HIDDEN_OPTIONS:
            if name in public.options.fields:
                del public.options[name]
        return public

    # -- moves -------------------------------------------------------------------------------
    def move_from_proto(self, pb: moves_pb2.Move) -> Any:
        which = pb.WhichOneof("game")
        if which is None:
            raise invalid("MOVE_MISSING", "the move is empty")
        if which == "json":
            try:
                return self.Move.from_json(_bounded_json(pb.json))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise ServiceError.from_illegal(IllegalMoveError("MALFORMED", f"bad JSON move: {exc}")) from None
        return self.typed_move(pb, which)

    def typed_move(self, pb: moves_pb2.Move, which: str) -> Any:
        raise invalid("WRONG_GAME", f"a {which} move is not a move of {self.game_id}")

    def move_to_proto(self, move: Any) -> moves_pb2.Move:
        return moves_pb2.Move(json=json.dumps(move.to_json(), separators=(",", ":")))

    # -- views -------------------------------------------------------------------------------
    def state(self, game: Any, version: int) -> state_pb2.MatchState:
        st = self._common(game, version)
        st.json.update(game.view())
        return st

    @staticmethod
    def _common(game: Any, version: int) -> state_pb2.MatchState:
        return state_pb2.MatchState(game=game.GAME_ID if hasattr(game, "GAME_ID") else "", players=game.players,
                                    player=game.player, is_over=game.is_over, scores=game.scores,
                                    winners=game.winners, version=version)

    def event_from_proto(self, pb: events_pb2.Event) -> Any:
        """A received event as the game's event type (plain JSON data for games without one)."""
        return plain(json_format.MessageToDict(pb.json))

    def event(self, ev: Any) -> events_pb2.Event:
        out = events_pb2.Event()
        out.json.update(plain(ev._asdict() if hasattr(ev, "_asdict") else dict(ev)))
        return out


class CarcassonneAdapter(GameAdapter):
    """carcassonne_hg: typed moves (CarcassonneMove) and views (CarcassonneState)."""

    HIDDEN_OPTIONS = ("normal_deck", "menhir_deck")

    def typed_move(self, pb: moves_pb2.Move, which: str) -> Any:
        if which != "carcassonne":
            return super().typed_move(pb, which)
        from hunters.carcassonne import Move, Occupant

        m = pb.carcassonne
        occupant = None
        if m.HasField("occupant"):
            kind = _OCC_KINDS.get(m.occupant.kind)
            if kind is None:
                raise ServiceError.from_illegal(IllegalMoveError("MALFORMED", "occupant kind must be MEEPLE or HUT"))
            occupant = Occupant(kind, m.occupant.zone)
        return Move(m.x, m.y, m.rotation, occupant, m.retake if m.HasField("retake") else None)

    def move_to_proto(self, move: Any) -> moves_pb2.Move:
        pb = moves_pb2.CarcassonneMove(x=move.x, y=move.y, rotation=move.rotation)
        if move.occupant is not None:
            pb.occupant.kind = _OCC_ENUMS[move.occupant.kind]
            pb.occupant.zone = move.occupant.zone
        if move.retake is not None:
            pb.retake = move.retake
        return moves_pb2.Move(carcassonne=pb)

    def event(self, ev: Any) -> events_pb2.Event:
        return events_pb2.Event(score=events_pb2.ScoreEvent(decision=ev.decision, reason=ev.reason, seats=ev.seats,
                                                            points=ev.points, feature=ev.feature))

    def event_from_proto(self, pb: events_pb2.Event) -> Any:
        e = pb.score
        return self.module.ScoreEvent(e.decision, e.reason, tuple(e.seats), e.points, e.feature)

    def state(self, game: Any, version: int) -> state_pb2.MatchState:
        st = self._common(game, version)
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


class JaegerAdapter(GameAdapter):
    """jaeger_sammler: typed moves (JaegerMove), events (JaegerEvent) and views (JaegerState)."""

    HIDDEN_OPTIONS = ("summer", "winter")

    def typed_move(self, pb: moves_pb2.Move, which: str) -> Any:
        if which != "jaeger":
            return super().typed_move(pb, which)
        steps = [(s.src, s.dst if s.HasField("dst") else None) for s in pb.jaeger.steps]
        try:
            return self.module.Move.of(*steps)
        except TypeError as exc:
            raise ServiceError.from_illegal(IllegalMoveError("MALFORMED", str(exc))) from None

    def move_to_proto(self, move: Any) -> moves_pb2.Move:
        return moves_pb2.Move(jaeger=moves_pb2.JaegerMove(steps=[
            moves_pb2.JaegerStep(src=s.src) if s.dst is None else moves_pb2.JaegerStep(src=s.src, dst=s.dst)
            for s in move.steps]))

    _EVENT_FIELDS = ("turn", "step", "seat", "space")

    def event(self, ev: Any) -> events_pb2.Event:
        e = events_pb2.JaegerEvent(season=ev.season, kind=ev.kind, tile=ev.tile or "", detail=ev.detail or "")
        for name in self._EVENT_FIELDS:
            value = getattr(ev, name)
            if value is not None:
                setattr(e, name, value)
        return events_pb2.Event(jaeger=e)

    def event_from_proto(self, pb: events_pb2.Event) -> Any:
        e = pb.jaeger
        opt = {name: getattr(e, name) if e.HasField(name) else None for name in self._EVENT_FIELDS}
        return self.module.Event(opt["turn"], e.season, opt["step"], e.kind, opt["seat"], opt["space"],
                                 e.tile or None, e.detail or None)

    def state(self, game: Any, version: int) -> state_pb2.MatchState:
        st = self._common(game, version)
        view = game.view()
        j = st.jaeger
        j.season, j.turn = view["season"], view["turn"]
        j.tiles_left, j.idle_turns, j.stall_rounds = view["tiles_left"], view["idle_turns"], view["stall_rounds"] or 0
        for sp in view["board"]:
            space = j.board.add(space=sp["space"], kind=sp["kind"], tile=sp["tile"] or "",
                                characters=sp["characters"], supply_packs=sp["supply_packs"])
            if sp["coords"] is not None:
                space.row, space.col = sp["coords"]
        for c in view["collections"]:
            j.collections.add(**c)
        for seat, part in enumerate(view["score_breakdown"]):
            j.score_breakdown.add(seat=seat, **part)
        if view["summer_mammoth"] is not None:
            j.summer_mammoth_value = view["summer_mammoth"]["value"]
            j.summer_mammoth_seat = view["summer_mammoth"]["seat"]
        return st


@functools.lru_cache(maxsize=65536)
def _placed_tile_bytes(placed: tuple[int, int, int, int]) -> bytes:
    """A CarcassonneState holding just this board entry, serialized: concatenating these and
    merging them appends to `board` (protobuf merges repeated fields by appending). Entries recur
    from move to move, so each is encoded once instead of at every move."""
    x, y, t, r = placed
    return state_pb2.CarcassonneState(board=[state_pb2.CarcassonnePlacedTile(x=x, y=y, tile=t, rotation=r)]
                                      ).SerializeToString()


@functools.lru_cache(maxsize=65536)
def _piece_bytes(piece: tuple[int, int, str]) -> bytes:
    """The same for an entry of `occupants`."""
    zone, seat, kind = piece
    return state_pb2.CarcassonneState(occupants=[state_pb2.CarcassonnePiece(zone=zone, seat=seat, kind=kind)]
                                      ).SerializeToString()


_TYPED = {"carcassonne_hg": CarcassonneAdapter, "jaeger_sammler": JaegerAdapter}
_adapters: dict[str, GameAdapter] = {}


def adapter(game_id: str) -> GameAdapter:
    """The adapter of a registered game (INVALID_ARGUMENT / UNKNOWN_GAME otherwise)."""
    found = _adapters.get(game_id)
    if found is None:
        if game_id not in GAMES:
            raise invalid("UNKNOWN_GAME", f"unknown game {game_id!r}; registered: {', '.join(sorted(GAMES))}")
        module = importlib.import_module(GAMES[game_id])
        found = _adapters[game_id] = _TYPED.get(game_id, GameAdapter)(game_id, module)
    return found
