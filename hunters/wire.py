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

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper
from google.protobuf.message import Message

from hunters import games
from hunters.errors import IllegalMoveError
from hunters.game_base import AnyGame
from hunters.plugin import GamePlugin
from hunters.v1 import events_pb2, matches_pb2, moves_pb2, state_pb2

__all__ = [
    "MAX_JSON_CHARS",
    "MAX_JSON_DEPTH",
    "GameAdapter",
    "RemoteError",
    "WireError",
    "adapter",
    "config_error",
    "dumps_json",
    "enum_names",
    "enum_of",
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


def config_error(message: str) -> WireError:
    """The refusal of a bad option (INVALID_CONFIG)."""
    return WireError("INVALID_CONFIG", message)


class RemoteError(RuntimeError):
    """A match that cannot be followed from its public history (a configuration the rebuild does
    not support, or a rebuilt game that differs from the server's state)."""


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

    def __init__(self, game_id: str, game: type[AnyGame]):
        self.game_id = game_id
        self.Game = game

    # -- configuration ------------------------------------------------------------------------
    def options_kwargs(self, config: matches_pb2.GameConfig) -> dict[str, Any]:
        """The Game.new keyword arguments of `config`'s options (WireError INVALID_CONFIG)."""
        which = config.WhichOneof("options")
        if which is None:
            return {}
        if which != self.options_field:
            raise config_error(f"{which} options are not options of {self.game_id}")
        return self.typed_options(config)

    def typed_options(self, config: matches_pb2.GameConfig) -> dict[str, Any]:
        try:
            opts = loads_json(config.json, "options")
        except ValueError as exc:
            raise config_error(str(exc)) from None
        if not isinstance(opts, dict):
            raise config_error("options must be a JSON object")
        return opts

    def new_game(self, config: matches_pb2.GameConfig, seed: int | None) -> Any:
        """A new game of `config` with `seed` (WireError INVALID_CONFIG for any bad option)."""
        kwargs = self.options_kwargs(config)
        try:
            return self.Game.new(players=config.players, seed=seed, **kwargs)
        except TypeError as exc:  # a Game.new without that keyword
            raise config_error(f"unknown option: {exc}") from None
        except ValueError as exc:  # InvalidOptionError among them
            raise config_error(str(exc)) from None

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

    def legal_entries(self, game: Any, field: int) -> bytes | None:
        """Every legal move of `game` with its action code, as serialized LegalMove entries of the
        repeated field number `field`, when the game's core builds them; None (this default): the
        service encodes them itself (hunters.service.legal)."""
        return None

    def move_bytes(self, move: Any) -> bytes:
        """`move_to_proto(move)` serialized. A game's adapter may build the same bytes faster (from
        encodings of the move's parts, each made once): listings of legal moves encode many."""
        return self.move_to_proto(move).SerializeToString()

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

    def summary(self, game: Any, version: int) -> state_pb2.MatchState:
        """The state's fields every game has (player, status, scores as the view shows them,
        winners, version) without the game's view: what a move changes for every seat, at the cost
        of a few fields rather than a board."""
        return self._common(game, version, self.visible_scores(game))

    def visible_scores(self, game: Any) -> Any:
        """The scores as `state` shows them (None or empty while the game hides them). This default
        reads the view; a game whose scores are public or cheaply known hidden overrides it."""
        return game.view().get("scores", game.scores)

    # -- words for people (the viewer's log) ----------------------------------------------------
    def describe_move(self, move: Any) -> str:
        """A move in a few words (this default: its JSON)."""
        return dumps_json(move.to_json())

    def describe_events(self, events: Sequence[Any], seat_name: Callable[[int], str]) -> str:
        """What happened, in a few words; `seat_name(seat)` names a seat (the viewer: its colour)."""
        return "; ".join(self.describe_event(e, seat_name) for e in events)

    def describe_event(self, event: Any, seat_name: Callable[[int], str]) -> str:
        return dumps_json(event._asdict() if hasattr(event, "_asdict") else event)

    # -- what else the shared layers ask of a game ----------------------------------------------
    def game_info(self) -> tuple[str, Message] | None:
        """GetGameInfo's game-specific part: (the field of GetGameInfoResponse, its message), or None."""
        return None

    def rebuild(
        self, players: int, options: dict[str, Any], states: Sequence[state_pb2.MatchState], moves: Sequence[Any]
    ) -> AnyGame:
        """A local game that looks to every seat exactly like the match whose public history this is:
        `states[v]` is the state after v moves (states[0] the set-up), `moves` the moves played;
        hidden parts in a canonical order. This default serves games without chance: the game of
        `options`, replayed; a game with hidden or random parts overrides it (RemoteError when the
        history cannot be followed)."""
        info = self.Game.INFO
        if info.chance != "deterministic":
            raise RemoteError(f"{self.game_id} has chance and no rebuild of its public history")
        game = self.Game.new(players=players, seed=0, **options)
        for m in moves:
            game.play(m)
        return game

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


# -- serialized pieces --------------------------------------------------------------------
_BYTES = [bytes((i,)) for i in range(0x80)]  # one-byte varints


def field_bytes(number: int, data: bytes) -> bytes:
    """`data` (a serialized message) as the length-delimited field `number` of a message. Appending
    such pieces to a serialized message merges them into it (a repeated field grows by one entry),
    with no parse."""
    tag, n = number << 3 | 2, len(data)
    if tag < 0x80 and n < 0x80:
        return _BYTES[tag] + _BYTES[n] + data
    return varint_bytes(tag) + varint_bytes(n) + data


def varint_bytes(value: int) -> bytes:
    """A non-negative int as a protobuf varint."""
    if value < 0x80:
        return _BYTES[value]
    if value < 0x200000:  # two or three bytes: most lengths and action codes
        if value < 0x4000:
            return bytes((value & 0x7F | 0x80, value >> 7))
        return bytes((value & 0x7F | 0x80, (value >> 7) & 0x7F | 0x80, value >> 14))
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


# -- enums ----------------------------------------------------------------------------------
_E = TypeVar("_E", bound=int)


# protoc's .pyi stubs type an enum's values as instances of its class (a subclass of int, with the
# EnumTypeWrapper metaclass); at run time they are plain ints. These two helpers do that conversion once.
def enum_value(enum: type[_E], name: str) -> _E:
    """The value called `name` of the protobuf enum `enum` (ValueError for an unknown name)."""
    return cast(_E, cast(EnumTypeWrapper, enum).Value(name))


def enum_names(enum: type[_E], prefix: str) -> dict[_E, str]:
    """Enum number -> lower-case name without the prefix, UNSPECIFIED left out."""
    values = cast(EnumTypeWrapper, enum).DESCRIPTOR.values
    return {cast(_E, v.number): v.name[len(prefix) :].lower() for v in values if v.number}


def enum_of(enum: type[_E], prefix: str, name: str | None) -> _E:
    """The enum value PREFIX + NAME upper-cased (PREFIX + UNSPECIFIED, 0, for None)."""
    return enum_value(enum, prefix + ("UNSPECIFIED" if name is None else name.upper()))


_adapters: dict[GamePlugin, GameAdapter] = {}


def adapter(game_id: str) -> GameAdapter:
    """The adapter of a registered game (WireError UNKNOWN_GAME otherwise): the one its plugin names,
    or the generic JSON adapter; one per plugin, made on first use."""
    if game_id not in games:
        raise WireError("UNKNOWN_GAME", f"unknown game {game_id!r}; registered: {', '.join(games.ids())}")
    plugin = games.plugin(game_id)
    found = _adapters.get(plugin)
    if found is None:
        found = _adapters[plugin] = (plugin.wire_class or GameAdapter)(game_id, plugin.game_class)
    return found
