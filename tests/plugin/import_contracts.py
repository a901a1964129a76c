"""import-linter contract types (`lint-imports` loads them through `contract_types` in pyproject.toml): one
for the compiled modules that grimp cannot see, and the built-in layers, forbidden and independence
contracts with the games found rather than listed.

grimp builds its graph from .py files alone: `hunters.carcassonne._core`, compiled from
hunters/carcassonne/_core.pyx, is no node of it, and an import of it counts as an import of the package
around it, so no built-in contract can name it (`hunters.*._core` matches nothing). This contract finds
the compiled modules from their sources (`sources`: globs of .pyx files, relative to the folder of the
root package's parent), reads the imports of every .py module of the root packages itself, and keeps
each compiled module private to its parent package: only that package and its descendants may import
it, the rule of import-linter's `private_modules` contract. Imports under `if TYPE_CHECKING:` count too.

The games: a game package is a folder of a root package with a plugin.py (hunters/<game>/plugin.py).
In a `games_layers`, `games_forbidden` or `games_independence` contract, the value `{games}` stands for
them all: the layer `{games}` is `hunters.carcassonne | hunters.jaeger` (independent of each other), an
entry `{games}` of another list is one entry per game. Otherwise the contract is import-linter's own.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path
from typing import Any

from importlinter import Contract, ContractCheck, fields, output
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract

GAMES = "{games}"


def module_imports(path: Path, module: str) -> list[tuple[str, int]]:
    """Every module name an import statement of `path` (the module `module`) may bind, with its line:
    `import a.b` -> a.b; `from a import b` -> a and a.b; relative imports resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            source = ".".join(p for p in (base if node.level else "", node.module or "") if p)
            found.append((source, node.lineno))
            found += [(f"{source}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*"]
    return found


def _root_folders(roots: list[str]) -> dict[str, Path]:
    folders = {}
    for root in roots:
        spec = importlib.util.find_spec(root)
        assert spec is not None and spec.submodule_search_locations, f"{root} is no package"
        folders[root] = Path(next(iter(spec.submodule_search_locations)))
    return folders


def game_packages(roots: list[str]) -> list[str]:
    """Every game package of the root packages: a folder of one of them with a plugin.py."""
    return sorted(
        f"{root}.{p.parent.name}" for root, folder in _root_folders(roots).items() for p in folder.glob("*/plugin.py")
    )


def _with_games(key: str, value: Any, games: list[str]) -> Any:
    if not isinstance(value, list) or GAMES not in value:
        return value
    if key == "layers":  # one layer, its games independent of each other
        return [" | ".join(games) if v == GAMES else v for v in value]
    return [m for v in value for m in (games if v == GAMES else [v])]


class _GamesFound(Contract):
    def __init__(self, name: str, session_options: dict[str, Any], contract_options: dict[str, Any]) -> None:
        games = game_packages(session_options["root_packages"])
        if not games:
            raise ValueError(f"no game package (a folder with a plugin.py) in {session_options['root_packages']}")
        options = {key: _with_games(key, value, games) for key, value in contract_options.items()}
        super().__init__(name, session_options, options)


class GamesLayersContract(_GamesFound, LayersContract):
    type_name = "games_layers"


class GamesForbiddenContract(_GamesFound, ForbiddenContract):
    type_name = "games_forbidden"


class GamesIndependenceContract(_GamesFound, IndependenceContract):
    type_name = "games_independence"


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


class CompiledPrivateContract(Contract):
    """Configuration: `sources`, globs of the compiled modules' sources (e.g. "hunters/*/_core.pyx")."""

    type_name = "compiled_private"

    sources = fields.ListField(subfield=fields.StringField())

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        folders = _root_folders(self.session_options["root_packages"])
        base = {folder.parent for folder in folders.values()}
        compiled = sorted(
            ".".join(path.relative_to(parent).with_suffix("").parts)
            for parent in base
            for pattern in self.sources  # type: ignore[attr-defined]
            for path in parent.glob(pattern)
        )
        if not compiled:
            raise ValueError(f"no compiled module's source matches {self.sources} below {sorted(map(str, base))}")
        found: set[tuple[str, str, int]] = set()
        for root, folder in folders.items():
            for path in sorted(folder.rglob("*.py")):
                module = ".".join((root, *path.relative_to(folder).with_suffix("").parts)).removesuffix(".__init__")
                for imported, line in module_imports(path, module):
                    for core in compiled:
                        if _inside(imported, core) and not _inside(module, core.rpartition(".")[0]):
                            found.add((module, core, line))
        links = [{"importer": m, "imported": c, "line_number": n} for m, c, n in sorted(found)]
        return ContractCheck(kept=not links, metadata={"compiled": compiled, "illegal_imports": links})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print_error("Compiled modules may only be imported from within their parent package:", bold=False)
        output.new_line()
        for link in check.metadata["illegal_imports"]:
            output.print_error(f"- {link['importer']} -> {link['imported']} (l.{link['line_number']})", bold=False)
            output.new_line()
