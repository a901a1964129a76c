"""The third game, `tiny_tiles`: a whole plug-in outside the hunters package (game.py, wire.py,
svg.py, plugin.py). Registered with ``hunters.games.register(PLUGIN)``; nothing shared names it."""
