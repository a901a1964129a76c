"""Helpers for the rule tests: tile geometry worked out from the shipped tile data, and small
utilities to drive a game through an exact scenario.

`Sketch` is an independent, deliberately simple model of the board geometry (placement legality,
which zones join into which feature). It is used to double-check that a hand-designed scenario
really is the board situation its test describes (so a test fails loudly on a design mistake
rather than testing something else); the expected scores in the tests are hard-coded numbers
worked out from the rules, not computed by this module.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from hunters.carcassonne import Game, IllegalMoveError, Move, Occupant, ScoreEvent

DATA = Path(__file__).resolve().parents[2] / "hunters" / "carcassonne" / "tiles.json"
TILES: dict[int, dict] = {t["id"]: t for t in json.loads(DATA.read_text())["tiles"]}

N, E, S, W = 0, 1, 2, 3
OFFSETS = [(0, -1), (1, 0), (0, 1), (-1, 0)]
START = 56


def zone_info(zone: int) -> dict:
    """The JSON description of a global zone id (tile * 10 + local)."""
    tile, local = divmod(zone, 10)
    for z in TILES[tile]["zones"]:
        if z["local"] == local:
            return z
    raise KeyError(zone)


def rotated_sides(tile: int, rotation: int) -> list[dict]:
    """The four sides of `tile` turned `rotation` quarter turns clockwise, facing N, E, S, W.
    The side facing direction d is the unrotated side (d - rotation) mod 4."""
    sides = TILES[tile]["sides"]
    return [sides[(d - rotation) % 4] for d in range(4)]


def side_types(tile: int, rotation: int) -> str:
    """E.g. 'MFFR' for the start tile: the side types facing N, E, S, W."""
    return "".join(s["type"][0].upper() for s in rotated_sides(tile, rotation))


def mv(
    x: int, y: int, rotation: int = 0, meeple: int | None = None, hut: int | None = None, retake: int | None = None
) -> Move:
    """Shorthand for a Move: `meeple=` / `hut=` give the occupant's global zone id."""
    assert meeple is None or hut is None
    occ = None
    if meeple is not None:
        occ = Occupant("meeple", meeple)
    elif hut is not None:
        occ = Occupant("hut", hut)
    return Move(x=x, y=y, rotation=rotation, occupant=occ, retake=retake)


def play_all(game: Game, moves: Iterable[Move]) -> list[list[ScoreEvent]]:
    """Play each move in turn; returns the events of each decision."""
    return [list(game.play(m)) for m in moves]


def new_game(normal: Sequence[int], menhir: Sequence[int] = (), players: int = 2) -> Game:
    return Game.new(players=players, normal_deck=list(normal), menhir_deck=list(menhir))


def ev(decision: int, reason: str, seats, points: int, feature: int) -> tuple:
    """An expected event as a plain tuple (compare with `as_tuples`)."""
    return (decision, reason, tuple(seats), points, feature)


def as_tuples(events: Iterable[ScoreEvent]) -> list[tuple]:
    return [(e.decision, e.reason, tuple(e.seats), e.points, e.feature) for e in events]


def state(game: Game) -> tuple:
    """Everything observable about a game, to check that a refused move changed nothing."""
    return (
        game.to_record(),
        list(game.scores),
        list(game.events),
        list(game.meeples),
        list(game.huts),
        list(game.occupants),
        game.tile,
        game.player,
        game.extra_turn,
        game.is_over,
        list(game.board),
        list(game.discards),
    )


def reject(game: Game, move: Move) -> str:
    """Play a move that must be refused; check the game is unchanged; return the reason."""
    before = state(game)
    try:
        game.play(move)
    except IllegalMoveError as err:
        assert state(game) == before, "a refused move changed the game"
        return err.reason
    raise AssertionError(f"{move} was accepted")


def placements(game: Game) -> set[tuple[int, int, int]]:
    """The (x, y, rotation) placements among the game's legal moves."""
    return {(m.x, m.y, m.rotation) for m in game.legal_moves()}


# ---------------------------------------------------------------------------------------------
# An independent geometry model, for checking scenario designs.


class Sketch:
    def __init__(self) -> None:
        self.board: dict[tuple[int, int], tuple[int, int]] = {(0, 0): (START, 0)}
        self.parent: dict[tuple[str, int], tuple[str, int]] = {}
        self._add_tile_zones(START)
        self._join_on_tile(START)

    # union-find over (layer, zone); layers: forest, meadow, river, system
    def _find(self, key):
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def _union(self, a, b):
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self.parent[ra] = rb

    def _add_tile_zones(self, tile: int) -> None:
        for z in TILES[tile]["zones"]:
            gid = tile * 10 + z["local"]
            layers = {"forest": ["forest"], "meadow": ["meadow"], "river": ["river", "system"], "lake": ["system"]}[
                z["type"]
            ]
            for layer in layers:
                self.parent[(layer, gid)] = (layer, gid)

    def _join_on_tile(self, tile: int) -> None:
        for z in TILES[tile]["zones"]:
            if z["type"] == "river" and z["lake"] is not None:
                self._union(("system", tile * 10 + z["local"]), ("system", tile * 10 + z["lake"]))

    def fits(self, tile: int, x: int, y: int, rotation: int) -> bool:
        if (x, y) in self.board:
            return False
        touching = False
        mine = rotated_sides(tile, rotation)
        for d, (dx, dy) in enumerate(OFFSETS):
            other = self.board.get((x + dx, y + dy))
            if other is None:
                continue
            touching = True
            theirs = rotated_sides(*other)[(d + 2) % 4]
            if theirs["type"] != mine[d]["type"]:
                return False
        return touching

    def legal_placements(self, tile: int) -> set[tuple[int, int, int]]:
        cand = {(x + dx, y + dy) for (x, y) in self.board for dx, dy in OFFSETS}
        return {(x, y, r) for (x, y) in cand for r in range(4) if self.fits(tile, x, y, r)}

    def place(self, tile: int, x: int, y: int, rotation: int) -> None:
        assert self.fits(tile, x, y, rotation), f"tile {tile} r{rotation} does not fit at {(x, y)}"
        self.board[(x, y)] = (tile, rotation)
        self._add_tile_zones(tile)
        self._join_on_tile(tile)
        mine = rotated_sides(tile, rotation)
        for d, (dx, dy) in enumerate(OFFSETS):
            other = self.board.get((x + dx, y + dy))
            if other is None:
                continue
            a = mine[d]
            b = rotated_sides(*other)[(d + 2) % 4]
            if a["type"] == "forest":
                self._union(("forest", tile * 10 + a["zone"]), ("forest", other[0] * 10 + b["zone"]))
            elif a["type"] == "meadow":
                self._union(("meadow", tile * 10 + a["zone"]), ("meadow", other[0] * 10 + b["zone"]))
            else:
                m1, r, m2 = a["zones"]
                o1, orr, o2 = b["zones"]
                self._union(("meadow", tile * 10 + m1), ("meadow", other[0] * 10 + o2))
                self._union(("meadow", tile * 10 + m2), ("meadow", other[0] * 10 + o1))
                self._union(("river", tile * 10 + r), ("river", other[0] * 10 + orr))
                self._union(("system", tile * 10 + r), ("system", other[0] * 10 + orr))

    def play(self, moves: Iterable[tuple[int, Move]]) -> Sketch:
        for tile, m in moves:
            self.place(tile, m.x, m.y, m.rotation)
        return self

    def feature(self, layer: str, zone: int) -> set[int]:
        root = self._find((layer, zone))
        return {k[1] for k in self.parent if k[0] == layer and self._find(k) == root}

    def pos_of(self, tile: int) -> tuple[int, int]:
        for pos, (t, _) in self.board.items():
            if t == tile:
                return pos
        raise KeyError(tile)

    def tiles(self, zones: Iterable[int]) -> set[int]:
        return {z // 10 for z in zones}

    def fish(self, zones: Iterable[int]) -> int:
        return sum(zone_info(z).get("fish", 0) for z in zones)

    def animals(self, zones: Iterable[int]) -> list[str]:
        out: list[str] = []
        for z in zones:
            out += zone_info(z).get("animals", [])
        return out

    def is_closed_forest(self, zone: int) -> bool:
        zones = self.feature("forest", zone)
        for (x, y), (t, r) in self.board.items():
            for d, side in enumerate(rotated_sides(t, r)):
                if side["type"] == "forest" and t * 10 + side["zone"] in zones:
                    dx, dy = OFFSETS[d]
                    if (x + dx, y + dy) not in self.board:
                        return False
        return True


# ---------------------------------------------------------------------------------------------
# Reusable scenarios.


def all_meeples_down() -> Game:
    """Seat 0 puts all 5 meeples on five separate forests of a column of tiles north of the start
    (38, 39, 40, 60, 41: each has its own E-W forest); seat 1 puts one hunter on 34's north meadow
    (zone 340) east of the start. Afterwards it is seat 0's turn with tile 37, which fits at (0, 1)
    and closes the start forest (menhir; 34 closed its east end), and the menhir pile holds the
    shaman (88)."""
    g = new_game([38, 34, 39, 61, 40, 62, 60, 35, 41, 36, 37, 33], [88])
    play_all(
        g,
        [
            mv(0, -1, 0, meeple=381),
            mv(1, 0, 0, meeple=340),
            mv(0, -2, 0, meeple=391),
            mv(0, -3, 0),
            mv(0, -4, 0, meeple=401),
            mv(0, -5, 0),
            mv(0, -6, 0, meeple=601),
            mv(0, -7, 0),
            mv(0, -8, 0, meeple=411),
            mv(0, -9, 1),
        ],
    )
    assert g.meeples == [0, 4] and g.player == 0 and g.tile == 37
    return g


def all_huts_down() -> Game:
    """Seat 0 puts its 3 huts on three separate river systems (E-W rivers of 48, 49, 51 in a column
    north of the start, each without a lake); seat 1 places meadow tiles in between. Afterwards it
    is seat 0's turn with 52 (another E-W river), which fits at (0, -7)."""
    g = new_game([48, 61, 49, 62, 51, 35, 52, 33])
    play_all(
        g,
        [
            mv(0, -1, 0, hut=481),
            mv(0, -2, 0),
            mv(0, -3, 0, hut=491),
            mv(0, -4, 0),
            mv(0, -5, 0, hut=511),
            mv(0, -6, 0),
        ],
    )
    assert g.huts == [0, 3] and g.player == 0 and g.tile == 52
    return g
