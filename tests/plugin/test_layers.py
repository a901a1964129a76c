"""Games are plug-ins: outside its own package a game is named only by its registry entry and its
proto messages, and no module imports another package's private names. (The import layers
themselves are import-linter contracts in pyproject.toml, checked by `lint-imports` in .ci/run.)"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

import hunters

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {"pyproject.toml"}  # the registry entry; proto/ is the contract and may name every game


def _tracked(*paths: str) -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", *paths], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("needs the git checkout")
    return [ROOT / line for line in out.stdout.splitlines() if line]


def _own_files(game_id: str) -> set[Path]:
    """The files of a game: its package (its core, hunters/<name>/_core.*, and its data included)."""
    package = Path(hunters.games.get(game_id).__module__.replace(".", "/")).parent
    return {p for p in _tracked(str(package)) if p.is_file()}


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_a_game_is_named_only_by_its_package_its_registry_entry_and_the_proto(game_id):
    shared = [p for p in _tracked("hunters", "pyproject.toml", "setup.py") if p.is_file()]
    own = _own_files(game_id)
    naming = sorted(
        str(p.relative_to(ROOT)) for p in shared if p not in own and game_id in p.read_text(errors="replace")
    )
    assert set(naming) <= ALLOWED, f"{game_id} is named outside its package by {sorted(set(naming) - ALLOWED)}"


def test_the_third_game_is_named_nowhere_outside_its_package():
    """tests/tiny_tiles registers itself: nothing shared, not even the registry, names it."""
    shared = [p for p in _tracked("hunters", "pyproject.toml", "setup.py", "proto") if p.is_file()]
    assert not [str(p.relative_to(ROOT)) for p in shared if "tiny_tiles" in p.read_text(errors="replace")]


def _private_imports(path: Path) -> list[str]:
    """`from X import _name` where X is a hunters module of another package than `path`'s."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module.rpartition(".")[0]  # a module's package; an __init__'s is its own
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.ImportFrom) or node.level or not (node.module or "").startswith("hunters"):
            continue
        source = node.module or ""
        if source == package or source.startswith(package + ".") or package.startswith(source + "."):
            continue  # within one package (and its subpackages): its own business
        found += [f"{module}: from {source} import {a.name}" for a in node.names if a.name.startswith("_")]
    return found


def test_no_private_name_is_imported_across_packages():
    files = [p for p in _tracked("hunters") if p.suffix == ".py" and "hunters/v1/" not in str(p)]
    bad = [line for p in files for line in _private_imports(p)]
    assert not bad, "\n".join(bad)


NAMEDTUPLE_API = {"_asdict", "_replace", "_fields", "_make"}


def _private_reads(path: Path) -> list[str]:
    """`x._name` where x is not `self` or `cls` (a namedtuple's own API aside)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        if node.attr in NAMEDTUPLE_API or (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            continue
        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("game_id", hunters.games.ids())
def test_a_game_owns_its_state(game_id):
    """Inside a game's package only `Game` (game.py, which also fills in its own copies) touches a
    game's private attributes: the other modules take what they need as arguments or read `Game`'s
    public properties (its `core` handle among them)."""
    own = [p for p in _own_files(game_id) if p.suffix == ".py" and p.name != "game.py"]
    bad = [line for p in sorted(own) for line in _private_reads(p)]
    assert not bad, "\n".join(bad)


def test_the_registry_finds_the_installed_games_and_falls_back_to_the_package():
    """The entry points list this project's games; without any metadata (a source tree, or an
    install older than the entry points) the package's own plugin modules are found instead."""
    from importlib import metadata

    from hunters.plugin import ENTRY_POINT_GROUP, Registry

    declared = sorted(ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP))
    assert declared and set(declared) <= set(hunters.games.ids())
    scanned = Registry(group="hunters.no_such_group")
    assert scanned.ids() == declared and scanned.get(declared[0]) is hunters.games.get(declared[0])


def test_threads_asking_the_registry_at_once_all_see_every_game(monkeypatch):
    """The first use discovers the games once; a thread asking while another discovers waits for it
    (it used to see no game at all: a client's seat streams opened in two threads at once failed with
    UNKNOWN_GAME)."""
    import threading
    from importlib import metadata

    from hunters import plugin
    from hunters.plugin import ENTRY_POINT_GROUP, Registry

    declared = sorted(ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP))
    inside, release = threading.Event(), threading.Event()
    real = metadata.entry_points

    def slow(**kwargs):
        inside.set()
        release.wait(5)
        return real(**kwargs)

    monkeypatch.setattr(plugin.metadata, "entry_points", slow)
    registry = Registry()
    seen = {}
    first = threading.Thread(target=lambda: seen.setdefault("first", registry.ids()))
    first.start()
    assert inside.wait(5)  # the first thread is discovering
    second = threading.Thread(target=lambda: seen.setdefault("second", registry.ids()))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # it waits for the discovery instead of answering "no games"
    release.set()
    first.join(5)
    second.join(5)
    assert seen == {"first": declared, "second": declared}


def test_the_shared_core_folder_holds_no_module():
    """hunters/_core/ holds the game-free Cython the cores include or cimport, and no module: each game's
    core is its own hunters.<game>._core. A compiled leftover of the old layout (hunters/_core/<game>.so)
    would still import under its old name; setup.py removes such leftovers."""
    import pkgutil

    import hunters._core

    assert not [m.name for m in pkgutil.iter_modules(hunters._core.__path__)]


def test_the_compiled_core_contract_reads_absolute_and_relative_imports(tmp_path):
    """The import-linter contract on the compiled cores (tests/plugin/import_contracts.py) reads the
    imports itself, grimp seeing no compiled module: every form names the core."""
    from tests.plugin.import_contracts import module_imports

    path = tmp_path / "mod.py"
    path.write_text("from . import _core\nfrom ..carcassonne._core import X\nimport hunters.jaeger._core as c\n")
    names = module_imports(path, "hunters.jaeger.mod")
    assert {("hunters.jaeger._core", 1), ("hunters.carcassonne._core", 2), ("hunters.jaeger._core", 3)} <= set(names)


def test_the_import_contracts_find_exactly_the_games():
    """The games_* contracts of pyproject.toml put every game package found (hunters/<game>/plugin.py)
    where they say "{games}": the registry's in-tree games, in one layer independent of each other."""
    from tests.plugin.import_contracts import GAMES, _with_games, game_packages

    in_tree = {hunters.games.get(g).__module__.rpartition(".")[0] for g in hunters.games.ids()}
    games = game_packages(["hunters"])
    assert games == sorted(m for m in in_tree if m.startswith("hunters.")) and len(games) >= 2
    assert _with_games("layers", ["hunters.bots.base", GAMES], games) == ["hunters.bots.base", " | ".join(games)]
    assert _with_games("modules", [GAMES], games) == games
    assert _with_games("source_modules", ["hunters.cli"], games) == ["hunters.cli"]
