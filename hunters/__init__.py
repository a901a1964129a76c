"""hunters: rules engines for stone-age board games, with a Cython core.

`hunters.games` is the registry of games: ``hunters.games.get("carcassonne_hg")`` is the game's
class (a `hunters.game_base.GameBase`), ``hunters.games.ids()`` the registered ids. Game packages
are imported on first use, so ``import hunters`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hunters.game_base import GameBase, GameInfo

__version__ = "0.1.0"
__all__ = ["Registry", "__version__", "games"]


class Registry:
    """Game classes by id. Built-in games are registered lazily (``"package:Class"``, imported on
    the first `get`); a game defined elsewhere registers its class with `register`."""

    def __init__(self) -> None:
        self._classes: dict[str, type[GameBase]] = {}
        self._lazy: dict[str, str] = {}

    def register(self, cls: type[GameBase]) -> type[GameBase]:
        """Register a game class under its `INFO.id` (usable as a class decorator)."""
        self._classes[cls.INFO.id] = cls
        self._lazy.pop(cls.INFO.id, None)
        return cls

    def register_lazy(self, game_id: str, target: str) -> None:
        """Register ``"package.module:Class"``, imported when the game is first asked for."""
        self._lazy[game_id] = target

    def ids(self) -> list[str]:
        """Registered game ids, sorted."""
        return sorted({*self._classes, *self._lazy})

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._classes or game_id in self._lazy

    def get(self, game_id: str) -> type[GameBase]:
        """The class of a registered game; KeyError (naming the registered ids) for another id."""
        cls = self._classes.get(game_id)
        if cls is None:
            target = self._lazy.get(game_id)
            if target is None:
                raise KeyError(f"unknown game {game_id!r}; registered: {', '.join(self.ids())}")
            module, _, name = target.partition(":")
            cls = getattr(importlib.import_module(module), name)
            self._classes[game_id] = cls
            del self._lazy[game_id]
        return cls

    def info(self, game_id: str) -> GameInfo:
        return self.get(game_id).INFO


games = Registry()
games.register_lazy("carcassonne_hg", "hunters.carcassonne:Game")
games.register_lazy("jaeger_sammler", "hunters.jaeger:Game")
