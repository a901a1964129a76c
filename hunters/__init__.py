"""hunters: rules engines for stone-age board games, with a Cython core.

`hunters.games` is the registry of games: ``hunters.games.get(game_id)`` is the game's class (a
`hunters.game_base.GameBase`), ``hunters.games.plugin(game_id)`` everything else the shared layers
ask of it (`hunters.plugin.GamePlugin`), ``hunters.games.ids()`` the registered ids. Installed games
are found through the ``hunters.games`` entry points and imported on first use, so ``import
hunters`` stays cheap.
"""

from __future__ import annotations

from hunters.plugin import GamePlugin, Registry

__version__ = "0.1.0"
__all__ = ["GamePlugin", "Registry", "__version__", "games"]

games = Registry()
