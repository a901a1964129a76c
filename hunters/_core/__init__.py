"""The game-free Cython the game cores share (each game's core is its own `hunters.<game>._core`):
`rng.pxd`, `mem.pxd` and `pylist.pxd` are cimported, `mcts.pxi` and `rank.pxi` textually included.
Nothing here is an extension module; no game is named here."""
