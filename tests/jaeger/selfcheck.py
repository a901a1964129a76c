"""The test-only self-check of the Jäger core (`_selfcheck.pyx`), compiled on first use.

It stays out of the production extension: the first call cythonizes and compiles `_selfcheck.pyx`
into build/test-ext/ (again only when it or a .pxd it cimports changed) and loads it; it then runs
the engine of the installed `hunters.jaeger._core`, whose functions hunters/jaeger/_core.pxd exports."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

from hunters.jaeger.game import POLICIES
from hunters.jaeger.options import WINTER_START, validate_options
from hunters.jaeger.tiles import code_of, deck

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / "build" / "test-ext"
NAME = "_jaeger_selfcheck"
_module: ModuleType | None = None


def _build() -> Path:
    """Compile _selfcheck.pyx (when stale) and return the extension's path."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    ext = Extension(NAME, [str(HERE / "_selfcheck.pyx")], include_dirs=[str(ROOT)], extra_compile_args=["-O2"])
    (ext_c,) = cythonize([ext], build_dir=str(BUILD / "c"), quiet=True, compiler_directives={"language_level": "3"})
    dist = Distribution({"ext_modules": [ext_c], "script_args": ["-q"]})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(BUILD)
    cmd.build_temp = str(BUILD / "tmp")
    cmd.ensure_finalized()
    cmd.run()
    return Path(cmd.get_ext_fullpath(NAME))


def _load() -> ModuleType:
    global _module
    if _module is None:
        path = _build()
        loader = importlib.machinery.ExtensionFileLoader(NAME, str(path))
        spec = importlib.util.spec_from_file_location(NAME, path, loader=loader)
        assert spec is not None
        _module = importlib.util.module_from_spec(spec)
        loader.exec_module(_module)
    return _module


def selfcheck_games(
    n: int, players: int = 2, seed: int = 0, policy: str = "uniform", probes: int = 10, **options: Any
) -> dict[str, Any]:
    """Play n random games inside the core (as Game.random_games does) checking at every turn: tiles
    conserved (laid = taken + removed + on board), characters and occupancy, supply packs, weapons,
    scores never decreasing, the player to move has a character, every listed turn is accepted by
    the validator, `probes` random turns near the player's characters are accepted exactly when
    listed, and the drawn turn is listed. Returns counts and violations by name (all 0 when sound)."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}")
    board, o = validate_options(options)
    summer = [code_of(t) for t in deck("summer", tuple(o["mammoths_summer"]))]
    winter = [code_of(t) for t in deck("winter", tuple(o["mammoths_winter"]))]
    games, turns, checked, probed, violations = _load().selfcheck_games(
        n,
        players,
        seed,
        board.core,
        summer,
        winter,
        o["stall_rounds"],
        o["straight_jumps"],
        WINTER_START[o["winter_start"]],
        policy == "stay",
        probes,
    )
    return {"games": games, "turns": turns, "listed_checked": checked, "probes": probed, "violations": violations}
