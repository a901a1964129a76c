"""Reference oracle for the `jaeger_sammler` rules engine (Jäger und Sammler).

Deliberately simple and slow, written from the rules (docs/rules/jaeger-und-sammler.md)
and the engine contract (docs/jaeger-engine-contract.md), sharing no code with the engine: the board
is a list of neighbour sets built from the board JSON, the state is plain dicts and lists, a turn is
checked by simulating its steps one by one on a copy, and the end of a season is a flood fill from
each character separately.

A step is ``(src, dst)`` with ``dst`` None for leaving the board; a move is ``(step1, step2)`` with
``step2`` None for a one-step turn. Events are tuples
``(turn, season, step, kind, seat, space, tile, detail)`` as in the contract.

Each rule that the conformance tests break on purpose (tests/conformance/mutants/) sits in a method
or a class attribute of its own (``RefGame.reaches``, ``RefGame.pay``, ``RefGame.food`` ...), so that a
subclass can change one rule and nothing else.
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "hunters", "jaeger", "board.json")

with open(_DATA, encoding="utf-8") as _f:
    DATA = json.load(_f)

FOOD = {"berries": 1, "tubers": 2, "herbs": 3}
GOODS = ("jug", "necklace", "pelt", "skull")
GOODS_TABLE = [0, 1, 3, 6, 10, 15, 20]  # by count; 6 or more -> 20
PACK_POINTS = 5
CHARACTERS = 4
PACKS = 4


# ---------------------------------------------------------------------------------------------
# The board, built from its JSON independently of the engine.


class RefBoard:
    def __init__(self, d: dict):
        self.kind: list[str] = []  # "tile", "summer", "winter"
        self.adj: list[set[int]] = []
        self.cube: list[tuple[int, int, int] | None] = []
        if "grid" in d:
            g = d["grid"]
            rows, cols = g["rows"], g["cols"]
            odd_shifted = g.get("offset", "odd-r") == "odd-r"
            missing = {tuple(c) for c in g.get("missing", [])}
            cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in missing]
            summer = {tuple(c) for c in d["camps"].get("summer", [])}
            winter = {tuple(c) for c in d["camps"].get("winter", [])}
            for r, c in cells:
                self.kind.append("summer" if (r, c) in summer else "winter" if (r, c) in winter else "tile")
                # offset -> cube coordinates (pointy top)
                if odd_shifted:
                    x = c - (r - (r & 1)) // 2
                else:
                    x = c - (r + (r & 1)) // 2
                z = r
                self.cube.append((x, -x - z, z))
            for i, (x, y, z) in enumerate(self.cube):
                near = set()
                for j, (a, b, e) in enumerate(self.cube):
                    if i != j and max(abs(x - a), abs(y - b), abs(z - e)) == 1:
                        near.add(j)
                self.adj.append(near)
        else:
            n = len(d["spaces"])
            names = {"tile": "tile", "summer_camp": "summer", "winter_camp": "winter"}
            for sp in d["spaces"]:
                self.kind.append(names[sp.get("kind", "tile")])
                pos = sp.get("pos")
                self.cube.append(None if pos is None else (pos[0], -pos[0] - pos[1], pos[1]))
            self.adj = [set() for _ in range(n)]
            for a, b in d.get("adjacency", []):
                self.adj[a].add(b)
                self.adj[b].add(a)
        self.n = len(self.kind)

    def straight(self, a: int, b: int, c: int) -> bool:
        """Whether a, b, c lie on one straight line of hexes in this order."""
        pa, pb, pc = self.cube[a], self.cube[b], self.cube[c]
        if pa is None or pb is None or pc is None:
            return False
        return all(pc[i] - pb[i] == pb[i] - pa[i] for i in range(3))


DEFAULT_BOARD = {"grid": DATA["grid"], "camps": DATA["camps"]}


# ---------------------------------------------------------------------------------------------


def takeable(tile: str | None) -> bool:
    return tile is not None and tile not in ("path", "cave")


def mammoth_value(tile: str) -> int:
    return int(tile[len("mammoth") :])


class RefGame:
    board_class = RefBoard
    food = FOOD
    goods_table = GOODS_TABLE
    pack_points = PACK_POINTS
    packs = PACKS
    first_seat = 0

    def __init__(
        self,
        players: int,
        summer: list,
        winter: list,
        start=None,
        board: dict | None = None,
        stall_rounds: int | None = 10,
        straight_jumps: bool = False,
        winter_start: str = "after_last",
        ties: str = "shared",
        **_ignored,
    ):
        self.b = self.board_class(board or DEFAULT_BOARD)
        self.players = players
        self.stall_rounds = stall_rounds or 0
        self.straight = straight_jumps
        self.winter_start_rule = winter_start
        self.ties = ties
        self.tiles: list[str | None] = list(summer)
        self.winter_deck = list(winter)
        self.caves = sorted(v for v in range(self.b.n) if self.tiles[v] == "cave")
        self.chars: list[list[int]] = [[] for _ in range(players)]
        if start is None:
            for p in range(players):
                self.chars[p] = self.default_start()
        else:
            self.chars = [list(s) for s in start]
        self.packs_on: dict[int, set[int]] = {}
        self.hand = [self.packs] * players
        self.got: list[Counter] = [Counter() for _ in range(players)]  # tokens taken
        self.weapons = [0] * players
        self.spent = [0] * players
        self.removed: Counter = Counter()
        self.laid: Counter = Counter(t for t in self.tiles if t is not None)
        self.season = "summer"
        self.player = 0
        self.turn = 0
        self.idle = 0
        self.last = -1
        self.best: tuple[int, int] | None = None  # (value, seat) of the best summer mammoth
        self.events: list[tuple] = []
        self.over = False
        self._after(None, first=True)

    def default_start(self) -> list[int]:
        """A seat's summer characters without an explicit start: one on each of the first 4 summer camps."""
        return [v for v in range(self.b.n) if self.b.kind[v] == "summer"][:CHARACTERS]

    # -- questions -----------------------------------------------------------------------------
    def is_camp(self, v: int) -> bool:
        return self.b.kind[v] != "tile"

    def holds_many(self, v: int, tiles: list | None = None) -> bool:
        """A camp or a cave holds any number of characters; any other tile one."""
        return self.is_camp(v) or (self.tiles if tiles is None else tiles)[v] == "cave"

    def count_at(self, v: int) -> int:
        return sum(cs.count(v) for cs in self.chars)

    def scores(self) -> list[int]:
        out = []
        for p in range(self.players):
            total = 0
            for tok, n in self.got[p].items():
                if tok in self.food:
                    total += self.food[tok] * n
                elif tok.startswith("mammoth"):
                    total += self.mammoth_points(tok) * n
            for g in GOODS:
                total += self.goods_table[min(self.got[p][g], 6)]
            total += self.pack_points * sum(
                1 for v, seats in self.packs_on.items() if self.b.kind[v] == "summer" and p in seats
            )
            out.append(total)
        return out

    def mammoth_points(self, tile: str) -> int:
        return mammoth_value(tile)

    def winners(self) -> list[int]:
        if not self.over:
            return []
        s = self.scores()
        best = [p for p in range(self.players) if s[p] == max(s)]
        return best if len(best) == 1 or self.ties == "shared" else []

    def characters(self) -> list[tuple[int, int]]:
        return sorted((p, v) for p in range(self.players) for v in self.chars[p])

    def supply_packs(self) -> list[tuple[int, int]]:
        return sorted((v, p) for v, seats in self.packs_on.items() for p in seats)

    # -- the rules of a step, one method each -------------------------------------------------
    def reaches(self, tiles, src: int, dst) -> bool:
        """Whether a step may go from `src` to `dst` (None: off the board): a neighbour, or another
        cave from a cave."""
        if dst is None:
            return True
        return dst in self.b.adj[src] or (tiles[src] == "cave" and tiles[dst] == "cave" and src != dst)

    def enterable(self, tiles, dst: int) -> bool:
        """A camp, or a space that still holds a tile (a hole is never entered)."""
        return self.is_camp(dst) or tiles[dst] is not None

    def takes(self, tiles, src: int, dst, step: int, jumped_from_here: bool) -> bool:
        """Whether moving off `src` (step 0 or 1 of the turn) takes its tile: any takeable tile, but
        not the jumped one."""
        return not jumped_from_here and not self.is_camp(src) and takeable(tiles[src])

    def pay(self, st: dict) -> bool:
        """Pay for entering an unoccupied mammoth with a weapon held (`st["weapons"]`, those taken
        this turn included: `st["took"]` lists the (step, tile) taken so far this turn, `st["step"]`
        is this step); False if none."""
        if st["weapons"] < 1:
            return False
        st["weapons"] -= 1
        return True

    # -- one step on a copy: returns None if the step is illegal ------------------------------
    def _try_step(
        self, st: dict, seat: int, src: int, dst, jumped_from_here: bool, may_end_occupied: bool, step: int = 0
    ):
        """Apply a step to the scratch state `st` (dict of tiles, chars, weapons, took); return
        'jump' if it ended on an occupied plain tile, True if fine, None if illegal."""
        if src not in st["chars"][seat]:
            return None
        st["step"] = step
        if not self.reaches(st["tiles"], src, dst) or (dst is not None and not self.enterable(st["tiles"], dst)):
            return None
        # moving off src takes its tile (unless path/cave/camp, or src is the jumped-over tile)
        if self.takes(st["tiles"], src, dst, step, jumped_from_here):
            if st["tiles"][src] == "weapon":
                st["weapons"] += 1
            st["took"].append((step, st["tiles"][src]))
            st["tiles"][src] = None
        st["chars"][seat].remove(src)
        if dst is None:
            return True
        occupied = sum(cs.count(dst) for cs in st["chars"]) > 0
        plain_tile = not self.holds_many(dst, st["tiles"])
        result = True
        if plain_tile and occupied:
            if not may_end_occupied:
                return None
            result = "jump"
        elif plain_tile and str(st["tiles"][dst]).startswith("mammoth") and not self.pay(st):
            return None
        st["chars"][seat].append(dst)
        return result

    def _check(self, move) -> bool:
        s1, s2 = move
        seat = self.player
        st = {
            "tiles": list(self.tiles),
            "chars": [list(c) for c in self.chars],
            "weapons": self.weapons[seat],
            "took": [],
        }
        r1 = self._try_step(st, seat, s1[0], s1[1], False, self.jumps)
        if r1 is None:
            return False
        if r1 == "jump":
            if not self.jump_lands(s1, s2):
                return False
            return self._try_step(st, seat, s2[0], s2[1], True, False, 1) is True
        if s2 is None:
            return self.one_step_turn(st, seat)
        return self._try_step(st, seat, s2[0], s2[1], False, False, 1) is True

    jumps = True  # a first step may end on an occupied tile, as the start of a jump

    def jump_lands(self, s1, s2) -> bool:
        """The second step of a jump: the jumper steps on to a neighbour (straight on with
        `straight_jumps`); leaving the board from the jumped tile is no jump."""
        if s2 is None or s2[0] != s1[1] or s2[1] is None:
            return False
        if self.straight and not self.b.straight(s1[0], s1[1], s2[1]):
            return False
        return s2[1] in self.b.adj[s2[0]]

    def one_step_turn(self, st: dict, seat: int) -> bool:
        """A turn of one step: only when it takes the seat's last character off the board."""
        return not st["chars"][seat]

    def _candidates(self, tiles, v: int) -> list:
        out = [None, *sorted(self.b.adj[v])]
        if tiles[v] == "cave":
            out += [c for c in self.caves if c != v and c not in self.b.adj[v]]
        return out

    def legal_moves(self) -> set:
        """Every legal move, found by trying every first step and every second step."""
        if self.over:
            return set()
        seat = self.player
        out = set()
        for src in set(self.chars[seat]):
            for dst in self._candidates(self.tiles, src):
                one = ((src, dst), None)
                if self._check(one):
                    out.add(one)
                # every second step from any space a character of the seat may stand on afterwards
                spaces_after = set(self.chars[seat]) | ({dst} if dst is not None else set())
                for src2 in spaces_after:
                    for dst2 in self._candidates(self.tiles, src2):
                        mv = ((src, dst), (src2, dst2))
                        if self._check(mv):
                            out.add(mv)
        return out

    # -- playing --------------------------------------------------------------------------------
    def _ev(self, step, kind, seat=None, space=None, tile=None, detail=None, season=None, turn="now"):
        self.events.append(
            (self.turn if turn == "now" else turn, season or self.season, step, kind, seat, space, tile, detail)
        )

    def _real_step(self, seat: int, i: int, src: int, dst, jumped_from_here: bool) -> bool:
        took = False
        if self.takes(self.tiles, src, dst, i, jumped_from_here):
            tok = self.tiles[src]
            self.got[seat][tok] += 1
            if tok == "weapon":
                self.weapons[seat] += 1
            self.tiles[src] = None
            took = True
            self._ev(i, "take", seat, src, tok)
            self._took(seat, tok)
        self.chars[seat].remove(src)
        if dst is None:
            self._ev(i, "leave", seat, src)
            return took
        if not self.holds_many(dst) and str(self.tiles[dst]).startswith("mammoth") and self.count_at(dst) == 0:
            self.spend(seat, i, dst)
        if self.drops_pack(seat, dst, i):
            self.hand[seat] -= 1
            self.packs_on.setdefault(dst, set()).add(seat)
            self._ev(i, "supply_pack", seat, dst)
        self.chars[seat].append(dst)
        return took

    def spend(self, seat: int, i: int, dst: int) -> None:
        """Enter the mammoth on `dst`: a weapon goes back to the box; in summer, a kill."""
        self.weapons[seat] -= 1
        self.spent[seat] += 1
        self._ev(i, "spend_weapon", seat, dst, self.tiles[dst])
        if self.season == "summer":
            self._killed(seat, mammoth_value(self.tiles[dst]))

    def _killed(self, seat: int, value: int) -> None:
        """A summer kill: the most valuable one (the first on a tie) starts winter."""
        if self.best is None or value > self.best[0]:
            self.best = (value, seat)

    def _took(self, seat: int, tile: str) -> None:
        """A tile taken (kills, not takes, count for winter's start)."""

    def drops_pack(self, seat: int, dst: int, step: int) -> bool:
        """Entering a camp of the other season drops a pack of the seat's, if it has one in hand and
        none of its colour lies there (the first of two steps too)."""
        other = "winter" if self.season == "summer" else "summer"
        return self.b.kind[dst] == other and self.hand[seat] > 0 and seat not in self.packs_on.get(dst, set())

    def play(self, move) -> None:
        assert self._check(move), move
        s1, s2 = move
        seat = self.player
        jump = s1[1] is not None and not self.holds_many(s1[1]) and self.count_at(s1[1]) > 0
        took = self._real_step(seat, 0, s1[0], s1[1], False)
        if s2 is not None:
            took |= self._real_step(seat, 1, s2[0], s2[1], jump)
        self.idle = 0 if took else self.idle + 1
        self.last = seat
        self.turn += 1
        self._after(seat)

    def _region(self, start: int) -> set[int]:
        """Every space a character on `start` can reach: steps onto camps and tiles (holes are not
        entered), cave jumps between caves, other characters ignored."""
        seen = {start}
        todo = [start]
        while todo:
            v = todo.pop()
            nxt = list(self.b.adj[v])
            if not self.is_camp(v) and self.tiles[v] == "cave":
                nxt += self.caves
            for w in nxt:
                if w not in seen and self.enterable(self.tiles, w):
                    seen.add(w)
                    todo.append(w)
        return seen

    def _open_tile(self) -> bool:
        """Spec §6: is a tile other than a path or cave under a character or accessible to one?"""
        owned = [(p, v) for p in range(self.players) for v in self.chars[p]]
        if any(not self.is_camp(v) and takeable(self.tiles[v]) for _, v in owned):
            return True
        regions = [(p, self._region(v)) for p, v in owned]
        weapon_reachable = any(not self.is_camp(w) and self.tiles[w] == "weapon" for _, r in regions for w in r)
        for p, region in regions:
            for w in region:
                tok = None if self.is_camp(w) else self.tiles[w]
                if not takeable(tok):
                    continue
                if not tok.startswith("mammoth") or self.armed(p) or weapon_reachable:
                    return True
        return False

    def armed(self, seat: int) -> bool:
        """Whether a mammoth a character of `seat` reaches counts as accessible: its owner holds a weapon."""
        return self.weapons[seat] > 0

    def _end_reason(self):
        active = [p for p in range(self.players) if self.chars[p]]
        if not active:
            return "no_characters"
        if not self._open_tile():
            return "unreachable"
        if self.stall_rounds and self.idle >= self.stall_rounds * len(active):
            return "stall"
        return None

    def _next_with_characters(self, start: int, inclusive: bool) -> int:
        for i in range(0 if inclusive else 1, self.players + 1):
            q = (start + i) % self.players
            if self.chars[q]:
                return q
        return start

    def _after(self, seat, first=False):
        turn = None if first else self.turn - 1
        reason = self._end_reason()
        if reason is None:
            self.player = self._next_with_characters(self.first_seat if first else seat, first)
            return
        while reason is not None:
            self._ev(None, "season_end", detail=reason, turn=turn)
            self._remove_leftovers(turn)
            self.chars = [[] for _ in range(self.players)]
            if self.season == "winter" or not self.winter_follows():
                self.season = "over"
                self.over = True
                self._ev(None, "game_end", turn=turn)
                return
            # winter set-up
            self.season = "winter"
            self._deal_winter()
            self._place_winter(turn)
            self._start_winter_counts()
            start, rule = self._winter_starter()
            self._ev(None, "winter_start", start, detail=rule, turn=turn)
            self.player = start
            reason = self._end_reason()
            if reason is None:
                self.player = self._winter_first(start)

    def winter_follows(self) -> bool:
        """The game ends when winter ends: summer is always followed by winter."""
        return True

    def _remove_leftovers(self, turn) -> None:
        """Every takeable tile left (those under characters too) leaves the game, by ascending space."""
        for v in range(self.b.n):
            if not self.is_camp(v) and takeable(self.tiles[v]):
                tok = self.tiles[v]
                self.removed[tok.rstrip("0123456789")] += 1
                self._ev(None, "remove", space=v, tile=tok, turn=turn)
                self.tiles[v] = None

    def _deal_winter(self) -> None:
        """The winter deck onto the empty tile spaces, by ascending space, first tile first."""
        deck = iter(self.winter_deck)
        for v in range(self.b.n):
            if not self.is_camp(v) and self.tiles[v] is None:
                tok = next(deck, None)
                if tok is None:
                    break
                self.tiles[v] = tok
                self.laid[tok] += 1

    def _place_winter(self, turn) -> None:
        """A character of each seat on each winter camp holding one of its packs (camps ascending, at most 4)."""
        for v in range(self.b.n):
            if self.b.kind[v] == "winter":
                for p in range(self.players):
                    if p in self.packs_on.get(v, set()) and len(self.chars[p]) < CHARACTERS:
                        self.chars[p].append(v)
                        self._ev(None, "place", p, v, turn=turn)

    def _start_winter_counts(self) -> None:
        """Every pack back to its owner; idle turns from 0."""
        self.packs_on = {}
        self.hand = [self.packs] * self.players
        self.idle = 0

    def _winter_starter(self) -> tuple[int, str]:
        """Who starts winter: the killer of the most valuable summer mammoth, else by `winter_start`."""
        if self.best is not None:
            return self.best[1], "mammoth"
        if self.winter_start_rule == "seat0":
            return 0, "seat0"
        return (self.last + 1) % self.players, "after_last"

    def _winter_first(self, start: int) -> int:
        """The first to move in winter: the starter, else the next seat in order with a character."""
        return self._next_with_characters(start, True)

    def tile_counts(self) -> dict:
        taken = Counter()
        for c in self.got:
            for tok, n in c.items():
                taken[tok.rstrip("0123456789")] += n
        on_board = Counter(t.rstrip("0123456789") for t in self.tiles if t is not None)
        laid = Counter()
        for tok, n in self.laid.items():
            laid[tok.rstrip("0123456789")] += n
        return {"laid": laid, "taken": taken, "removed": self.removed, "on_board": on_board}

    def clone(self) -> RefGame:
        return copy.deepcopy(self)
