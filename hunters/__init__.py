"""hunters: rules engines for stone-age board games, with a Cython core.

Games are registered by id in `GAMES`; each maps to the package holding its public API.
"""
__version__ = "0.1.0"

GAMES = {"carcassonne_hg": "hunters.carcassonne", "jaeger_sammler": "hunters.jaeger"}
