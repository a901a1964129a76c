"""A game as a plug-in: the one object a game package registers, and the registry that holds them.

Everything the shared layers (service, wire, bots, learning environments, viewer, CLI) know of a game
comes through its `GamePlugin`: the `Game` class (whose `INFO` is the declarative description), its
wire adapter (protobuf translation, GetGameInfo's details, the public-history rebuild of remote play)
and its hints to the bots. The parts are named as ``"module:attribute"`` strings and imported on first
use, so listing the games imports none of them.

Games are found through the ``hunters.games`` entry-point group of installed distributions (this
project's own games are declared in its ``pyproject.toml``; without any such metadata, the
``plugin`` module of each of the package's own game packages), or registered at run time with
`Registry.register`.
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hunters.game_base import AnyGame, GameInfo
    from hunters.wire import GameAdapter

__all__ = ["ENTRY_POINT_GROUP", "GamePlugin", "Registry", "Value"]

ENTRY_POINT_GROUP = "hunters.games"

Value = Callable[["AnyGame", "AnyGame", int, Any], float]
"""A one-ply evaluation: (game before the move, game after it, seat, move) -> how good for the seat."""


def _load(target: str) -> Any:
    module, _, name = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in filter(None, name.split(".")):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class GamePlugin:
    """What a game gives the shared layers. `game` is its `GameBase` subclass (or ``"module:Class"``);
    the others are optional ``"module:attribute"`` targets, with a generic default when absent."""

    id: str
    game: str | type[AnyGame]
    wire: str | type[GameAdapter] | None = None
    """Its `hunters.wire.GameAdapter` subclass: typed protobuf messages, game info, remote rebuild
    (default: the generic adapter, moves and views as JSON)."""
    value: str | Value | None = None
    """The greedy bot's one-ply evaluation (default: own points gained minus the best other seat's)."""
    strategy: str | Any = None
    """What the `strong` bot's search knows of the game (a module or object: `hunters.bots.strong`);
    default: none, and that bot does not play the game."""
    conformance: str | Any = None
    """The game's conformance suite (a module or object, `hunters.conformance`): ``VECTORS`` (the
    folder of its versioned vector files), ``scenarios()`` (what the generator plays and counts),
    ``step_info(game)`` (game-specific facts a replay step records) and ``covered(vector)`` /
    ``RULES`` (the rules a replay exercises, and those the vectors must cover together); default:
    none, and the game has no published vectors."""

    @functools.cached_property
    def game_class(self) -> type[AnyGame]:
        cls = _load(self.game) if isinstance(self.game, str) else self.game
        if cls.INFO.id != self.id:
            raise ValueError(f"plugin {self.id!r} names a game whose INFO.id is {cls.INFO.id!r}")
        return cls

    @property
    def info(self) -> GameInfo:
        return self.game_class.INFO

    @functools.cached_property
    def wire_class(self) -> type[GameAdapter] | None:
        """The game's wire adapter class; None: the generic one (`hunters.wire.adapter` decides)."""
        if self.wire is None:
            return None
        return _load(self.wire) if isinstance(self.wire, str) else self.wire

    @functools.cached_property
    def search_strategy(self) -> Any:
        if self.strategy is None:
            return None
        return _load(self.strategy) if isinstance(self.strategy, str) else self.strategy

    @functools.cached_property
    def conformance_suite(self) -> Any:
        if self.conformance is None:
            return None
        return _load(self.conformance) if isinstance(self.conformance, str) else self.conformance

    @functools.cached_property
    def evaluate(self) -> Value | None:
        if self.value is None:
            return None
        return _load(self.value) if isinstance(self.value, str) else self.value


class Registry:
    """Games by id. Installed games announce themselves through the ``hunters.games`` entry points
    (read on first use); others register a `GamePlugin` or a bare `GameBase` class with `register`."""

    def __init__(self, group: str | None = ENTRY_POINT_GROUP) -> None:
        self._plugins: dict[str, GamePlugin] = {}
        self._lazy: dict[str, str] = {}
        self._group = group
        self._discovered = group is None
        self._lock = threading.RLock()  # threads asking at once wait for one discovery

    def _discover(self) -> None:
        if self._discovered:
            return
        with self._lock:
            if self._group is None:  # done meanwhile, or under way in this thread (a plugin registering)
                return
            group, self._group = self._group, None
            try:
                found = False
                for ep in metadata.entry_points(group=group):
                    found = True
                    if ep.name not in self._plugins:
                        self._lazy.setdefault(ep.name, ep.value)
                if not found:  # no metadata (a source tree, or an install older than the entry points)
                    self._scan_package()
            finally:
                self._discovered = True

    def _scan_package(self) -> None:
        """Every ``hunters.<package>.plugin`` module's PLUGIN, imported now."""
        root = Path(__file__).resolve().parent
        for folder in sorted(p.parent for p in root.glob("*/plugin.py")):
            plugin = importlib.import_module(f"hunters.{folder.name}.plugin").PLUGIN
            self._plugins.setdefault(plugin.id, plugin)

    def register(self, game: GamePlugin | type[AnyGame]) -> Any:
        """Register a plugin, or a game class with the generic adapters (usable as a class decorator);
        returns its argument. A game registered again replaces the earlier one."""
        self._discover()
        plugin = game if isinstance(game, GamePlugin) else GamePlugin(id=game.INFO.id, game=game)
        self._plugins[plugin.id] = plugin
        self._lazy.pop(plugin.id, None)
        return game

    def unregister(self, game_id: str) -> None:
        """Forget a game (tests that register one of their own clean up with this)."""
        self._plugins.pop(game_id, None)
        self._lazy.pop(game_id, None)

    def ids(self) -> list[str]:
        """Registered game ids, sorted."""
        self._discover()
        return sorted({*self._plugins, *self._lazy})

    def __contains__(self, game_id: object) -> bool:
        self._discover()
        return game_id in self._plugins or game_id in self._lazy

    def plugin(self, game_id: str) -> GamePlugin:
        """The plugin of a registered game; KeyError (naming the registered ids) for another id."""
        self._discover()
        found = self._plugins.get(game_id)
        if found is None:
            target = self._lazy.get(game_id)
            if target is None:
                raise KeyError(f"unknown game {game_id!r}; registered: {', '.join(self.ids())}")
            obj = _load(target)
            found = obj if isinstance(obj, GamePlugin) else GamePlugin(id=game_id, game=obj)
            if found.id != game_id:
                raise ValueError(f"{target} is the plugin of {found.id!r}, registered as {game_id!r}")
            self._plugins[game_id] = found
            self._lazy.pop(game_id, None)
        return found

    def get(self, game_id: str) -> type[AnyGame]:
        """The class of a registered game; KeyError (naming the registered ids) for another id."""
        return self.plugin(game_id).game_class

    def info(self, game_id: str) -> GameInfo:
        return self.get(game_id).INFO
