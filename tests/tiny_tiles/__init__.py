"""The third game, `tiny_tiles`: a whole plug-in outside the hunters package (game.py, wire.py,
svg.py, plugin.py). Registered with ``hunters.games.register(PLUGIN)``; nothing shared names it.
`plugin.DUEL` is the same game for two players only, under its own id, for the shared harness."""
