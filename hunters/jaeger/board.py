"""The board as data: spaces, what each space is (tile space, summer camp, winter camp) and which
spaces are neighbours. Any layout loads without code changes, in one of two forms:

* **grid** (the shipped default, `hunters/jaeger/board.json`)::

      {"grid": {"type": "hex", "orientation": "pointy", "offset": "odd-r", "rows": 10, "cols": 12,
                "missing": [[r, c], ...]},                 # optional: cells not on the board
       "camps": {"summer": [[r, c], ...], "winter": [[r, c], ...]}}

  Spaces are the grid cells in row-major order (without the missing ones): on the full default grid
  space = row * 12 + col. Neighbour slots are the six directions W, E, NW, NE, SW, SE (slot 0..5); a
  straight jump keeps its direction. ``offset`` is ``odd-r`` (odd rows shifted right) or ``even-r``.

* **explicit**::

      {"spaces": [{"kind": "tile" | "summer_camp" | "winter_camp", "pos": [q, r]}, ...],
       "adjacency": [[a, b], ...]}                        # undirected pairs of space ids

  Space ids are list positions. Neighbour slots are a space's neighbours in ascending id order.
  ``pos`` (axial hex coordinates) is optional; without it on every space, straight jumps (option
  ``straight_jumps``) are not available on that board.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from . import _core
from .tiles import data

SPACE_KINDS = ("tile", "summer_camp", "winter_camp")
_LIMITS = _core.LIMITS
_MAX_GRID_CELLS = 4 * _LIMITS["spaces"]  # a grid may list missing cells, but not without bound
# (dr, dc) of the directions W, E, NW, NE, SW, SE: for rows of the unshifted parity, then the shifted
_DIRS = (((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)), ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)))
DIRECTIONS = ("W", "E", "NW", "NE", "SW", "SE")

__all__ = ["DIRECTIONS", "SPACE_KINDS", "Board", "default_board"]


class Board:
    """An immutable board. `kinds[v]` is "tile", "summer_camp" or "winter_camp"; `slots[v]` the
    neighbour in each slot (-1 = none); `coords[v]` (row, col) on a grid board, (q, r) on an explicit
    board with positions, else None."""

    __slots__ = (
        "_neighbours",
        "beyond",
        "coords",
        "core",
        "data",
        "is_default",
        "kinds",
        "ndir",
        "slots",
        "straight_ok",
    )

    def __init__(self, data: Any, *, _default: bool = False):
        if not isinstance(data, dict):
            raise ValueError("a board must be a JSON object")
        if not {"grid", "camps"} >= set(data) and not {"spaces", "adjacency"} >= set(data):
            raise ValueError('a board has "grid" and "camps", or "spaces" and "adjacency", and nothing else')
        coords: list[_Cell] | None
        if "grid" in data:
            kinds, slots, beyond, coords, ndir = _parse_grid(data)
            straight_ok = True
        elif "spaces" in data:
            kinds, slots, beyond, coords, ndir, straight_ok = _parse_explicit(data)
        else:
            raise ValueError('a board needs "grid" or "spaces"')
        self.kinds: tuple[str, ...] = tuple(kinds)
        self.slots: tuple[tuple[int, ...], ...] = tuple(map(tuple, slots))
        self.beyond: tuple[tuple[int, ...], ...] = tuple(map(tuple, beyond))
        self.coords = tuple(coords) if coords is not None else None
        self.ndir = ndir
        self.straight_ok = straight_ok
        self.data = json.loads(json.dumps(data))  # a private plain-JSON copy
        self._neighbours = tuple(tuple(sorted(w for w in s if w >= 0)) for s in self.slots)
        self.is_default = _default
        self.core = _core.CoreConfig.board(
            [SPACE_KINDS.index(k) for k in kinds], [list(s) for s in slots], [list(b) for b in beyond], ndir
        )

    @property
    def n(self) -> int:
        """Number of spaces."""
        return len(self.kinds)

    def neighbours(self, space: int) -> tuple[int, ...]:
        """The neighbours of a space, ascending."""
        return self._neighbours[space]

    @property
    def summer_camps(self) -> tuple[int, ...]:
        return tuple(v for v, k in enumerate(self.kinds) if k == "summer_camp")

    @property
    def winter_camps(self) -> tuple[int, ...]:
        return tuple(v for v, k in enumerate(self.kinds) if k == "winter_camp")

    @property
    def tile_spaces(self) -> tuple[int, ...]:
        return tuple(v for v, k in enumerate(self.kinds) if k == "tile")

    def to_json(self) -> dict[str, Any]:
        """The board data it was built from (a copy)."""
        return copy.deepcopy(self.data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.data == other.data

    def __hash__(self) -> int:
        return hash(json.dumps(self.data, sort_keys=True))

    def __repr__(self) -> str:
        return f"<Board {self.n} spaces, {len(self.summer_camps)}+{len(self.winter_camps)} camps>"


def _cell(value: Any, what: str) -> tuple[int, int]:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(type(x) is int for x in value)):
        raise ValueError(f"{what} must be [row, col]")
    return value[0], value[1]


_Cell = tuple[int, int]
_Grid = tuple[list[str], list[list[int]], list[list[int]], list[_Cell], int]
"""kinds, neighbour slots, straight continuations, coordinates, slots per space"""
_Explicit = tuple[list[str], list[list[int]], list[list[int]], list[_Cell] | None, int, bool]
"""the same, coordinates None when not every space has a pos, and whether straight jumps are known"""


def _parse_grid(d: dict[str, Any]) -> _Grid:
    g = d["grid"]
    if not isinstance(g, dict) or g.get("type", "hex") != "hex" or g.get("orientation", "pointy") != "pointy":
        raise ValueError("only pointy-top hex grids are supported")
    offset = g.get("offset", "odd-r")
    if offset not in ("odd-r", "even-r"):
        raise ValueError('grid offset must be "odd-r" or "even-r"')
    rows, cols = g.get("rows"), g.get("cols")
    if type(rows) is not int or type(cols) is not int or rows < 1 or cols < 1:
        raise ValueError("grid rows and cols must be positive ints")
    if rows * cols > _MAX_GRID_CELLS:  # bounded before any cell is built
        raise ValueError(f"a grid has at most {_MAX_GRID_CELLS} cells (rows x cols) and {_LIMITS['spaces']} spaces")
    missing_list = g.get("missing", [])
    if not isinstance(missing_list, list) or len(missing_list) > rows * cols:
        raise ValueError("missing must be a list of at most rows x cols cells")
    missing = {_cell(c, "a missing cell") for c in missing_list}
    cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in missing]
    if not 1 <= len(cells) <= _LIMITS["spaces"]:
        raise ValueError(f"a board has 1 to {_LIMITS['spaces']} spaces")
    index = {cell: i for i, cell in enumerate(cells)}
    kinds = ["tile"] * len(cells)
    camps = d.get("camps", {})
    if not isinstance(camps, dict):
        raise ValueError("camps must be an object")
    for season, kind in (("summer", "summer_camp"), ("winter", "winter_camp")):
        for cell in camps.get(season, []):
            cell = _cell(cell, "a camp")
            if cell not in index:
                raise ValueError(f"camp {list(cell)} is not on the board")
            if kinds[index[cell]] != "tile":
                raise ValueError(f"two camps on {list(cell)}")
            kinds[index[cell]] = kind
    shifted = 1 if offset == "odd-r" else 0
    slots, beyond = [], []
    for r, c in cells:
        row = []
        for dr, dc in _DIRS[(r % 2) == shifted]:
            row.append(index.get((r + dr, c + dc), -1))
        slots.append(row)
    for row in slots:
        beyond.append([slots[m][k] if m >= 0 else -1 for k, m in enumerate(row)])
    _check_camps(kinds)
    return kinds, slots, beyond, cells, 6


def _parse_explicit(d: dict[str, Any]) -> _Explicit:
    spaces, adjacency = d["spaces"], d.get("adjacency", [])
    if not isinstance(spaces, list) or not 1 <= len(spaces) <= _LIMITS["spaces"]:
        raise ValueError(f"spaces must be a list of 1 to {_LIMITS['spaces']} spaces")
    n = len(spaces)
    if not isinstance(adjacency, list) or len(adjacency) > n * _LIMITS["degree"]:
        raise ValueError(f"adjacency must be a list of at most {_LIMITS['degree']} pairs per space")
    kinds: list[str] = []
    coords: list[_Cell | None] = []
    for i, sp in enumerate(spaces):
        if not isinstance(sp, dict) or sp.get("kind", "tile") not in SPACE_KINDS:
            raise ValueError(f"space {i}: kind must be one of {SPACE_KINDS}")
        if "id" in sp and sp["id"] != i:
            raise ValueError(f"space {i}: ids are list positions")
        kinds.append(sp.get("kind", "tile"))
        pos = sp.get("pos")
        if pos is not None:
            coords.append(_cell(pos, f"space {i}: pos"))
        else:
            coords.append(None)
    nbs: list[set[int]] = [set() for _ in range(n)]
    if not isinstance(adjacency, list):
        raise ValueError("adjacency must be a list of [a, b] pairs")
    for pair in adjacency:
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(type(x) is int for x in pair)):
            raise ValueError("adjacency must be a list of [a, b] pairs")
        a, b = pair
        if not (0 <= a < n and 0 <= b < n) or a == b:
            raise ValueError(f"bad adjacency {list(pair)}")
        nbs[a].add(b)
        nbs[b].add(a)
    ndir = max(1, max(len(s) for s in nbs))
    if ndir > _LIMITS["degree"]:
        raise ValueError(f"a space has at most {_LIMITS['degree']} neighbours")
    slots = [sorted(s) + [-1] * (ndir - len(s)) for s in nbs]
    cells = [c for c in coords if c is not None]
    straight_ok = len(cells) == n
    beyond = [[-1] * ndir for _ in range(n)]
    if straight_ok:
        at = {c: i for i, c in enumerate(cells)}
        if len(at) != n:
            raise ValueError("two spaces share a pos")
        for s in range(n):
            for k, m in enumerate(slots[s]):
                if m >= 0:
                    target = (2 * cells[m][0] - cells[s][0], 2 * cells[m][1] - cells[s][1])
                    e = at.get(target, -1)
                    beyond[s][k] = e if e in nbs[m] else -1
    _check_camps(kinds)
    return kinds, slots, beyond, (cells if straight_ok else None), ndir, straight_ok


def _check_camps(kinds: list[str]) -> None:
    for kind in ("summer_camp", "winter_camp"):
        if kinds.count(kind) > _LIMITS["camps"]:
            raise ValueError(f"at most {_LIMITS['camps']} camps of a season")


@cache
def default_board() -> Board:
    """The documented default: a 10 x 12 odd-r grid with the camps of the shipped data."""
    d = data()
    return Board({"grid": d["grid"], "camps": d["camps"]}, _default=True)


def board_of(value: Any) -> Board:
    """A Board from None (the default), a Board, or board data (dict)."""
    if value is None:
        return default_board()
    if isinstance(value, Board):
        return value
    if isinstance(value, dict):
        return Board(value)
    raise ValueError("board must be None, a Board or board data (a dict)")
