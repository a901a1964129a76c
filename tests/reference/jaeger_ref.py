"""Reference oracle for the `jaeger_sammler` rules engine (Jäger und Sammler).

Deliberately simple and slow, written from the rules (docs/rules/jaeger-und-sammler.md)
and the engine contract (docs/jaeger-engine-contract.md), sharing no code with the engine: the board
is a list of neighbour sets built from the board JSON, the state is plain dicts and lists, a turn is
checked by simulating its steps one by one on a copy, and the end of a season is a flood fill from
each character separately.

A step is ``(src, dst)`` with ``dst`` None for leaving the board; a move is ``(step1, step2)`` with
``step2`` None for a one-step turn. Events are tuples
``(turn, season, step, kind, seat, space, tile, detail)`` as in the contract.
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
        self.b = RefBoard(board or DEFAULT_BOARD)
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
            summer_camps = [v for v in range(self.b.n) if self.b.kind[v] == "summer"][:CHARACTERS]
            for p in range(players):
                self.chars[p] = list(summer_camps)
        else:
            self.chars = [list(s) for s in start]
        self.packs_on: dict[int, set[int]] = {}
        self.hand = [PACKS] * players
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

    # -- questions -----------------------------------------------------------------------------
    def is_camp(self, v: int) -> bool:
        return self.b.kind[v] != "tile"

    def holds_many(self, v: int) -> bool:
        return self.is_camp(v) or self.tiles[v] == "cave"

    def count_at(self, v: int) -> int:
        return sum(cs.count(v) for cs in self.chars)

    def scores(self) -> list[int]:
        out = []
        for p in range(self.players):
            total = 0
            for tok, n in self.got[p].items():
                if tok in FOOD:
                    total += FOOD[tok] * n
                elif tok.startswith("mammoth"):
                    total += mammoth_value(tok) * n
            for g in GOODS:
                total += GOODS_TABLE[min(self.got[p][g], 6)]
            total += PACK_POINTS * sum(
                1 for v, seats in self.packs_on.items() if self.b.kind[v] == "summer" and p in seats
            )
            out.append(total)
        return out

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

    # -- one step on a copy: returns None if the step is illegal ------------------------------
    def _try_step(self, st: dict, seat: int, src: int, dst, jumped_from_here: bool, may_end_occupied: bool):
        """Apply a step to the scratch state `st` (dict of tiles, chars, weapons); return
        'jump' if it ended on an occupied plain tile, True if fine, None if illegal."""
        if src not in st["chars"][seat]:
            return None
        if dst is not None:
            ok_geo = dst in self.b.adj[src] or (
                st["tiles"][src] == "cave" and st["tiles"][dst] == "cave" and src != dst
            )
            if not ok_geo:
                return None
            if not self.is_camp(dst) and st["tiles"][dst] is None:
                return None
        # moving off src takes its tile (unless path/cave/camp, or src is the jumped-over tile)
        if not jumped_from_here and not self.is_camp(src) and takeable(st["tiles"][src]):
            if st["tiles"][src] == "weapon":
                st["weapons"] += 1
            st["tiles"][src] = None
        st["chars"][seat].remove(src)
        if dst is None:
            return True
        occupied = sum(cs.count(dst) for cs in st["chars"]) > 0
        plain_tile = not self.is_camp(dst) and st["tiles"][dst] != "cave"
        result = True
        if plain_tile and occupied:
            if not may_end_occupied:
                return None
            result = "jump"
        elif plain_tile and st["tiles"][dst].startswith("mammoth"):
            if st["weapons"] < 1:
                return None
            st["weapons"] -= 1
        st["chars"][seat].append(dst)
        return result

    def _check(self, move) -> bool:
        s1, s2 = move
        seat = self.player
        st = {"tiles": list(self.tiles), "chars": [list(c) for c in self.chars], "weapons": self.weapons[seat]}
        r1 = self._try_step(st, seat, s1[0], s1[1], False, True)
        if r1 is None:
            return False
        if r1 == "jump":
            if s2 is None or s2[0] != s1[1] or s2[1] is None:
                return False
            if self.straight and not self.b.straight(s1[0], s1[1], s2[1]):
                return False
            if s2[1] not in self.b.adj[s2[0]]:
                return False
            return self._try_step(st, seat, s2[0], s2[1], True, False) is True
        if not st["chars"][seat]:
            return s2 is None
        if s2 is None:
            return False
        return self._try_step(st, seat, s2[0], s2[1], False, False) is True

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
        if not jumped_from_here and not self.is_camp(src) and takeable(self.tiles[src]):
            tok = self.tiles[src]
            self.got[seat][tok] += 1
            if tok == "weapon":
                self.weapons[seat] += 1
            self.tiles[src] = None
            took = True
            self._ev(i, "take", seat, src, tok)
        self.chars[seat].remove(src)
        if dst is None:
            self._ev(i, "leave", seat, src)
            return took
        if not self.is_camp(dst) and self.tiles[dst].startswith("mammoth") and self.count_at(dst) == 0:
            self.weapons[seat] -= 1
            self.spent[seat] += 1
            self._ev(i, "spend_weapon", seat, dst, self.tiles[dst])
            if self.season == "summer":  # a kill: the most valuable one (first on a tie) starts winter
                v = mammoth_value(self.tiles[dst])
                if self.best is None or v > self.best[0]:
                    self.best = (v, seat)
        other = "winter" if self.season == "summer" else "summer"
        if self.b.kind[dst] == other and self.hand[seat] > 0 and seat not in self.packs_on.get(dst, set()):
            self.hand[seat] -= 1
            self.packs_on.setdefault(dst, set()).add(seat)
            self._ev(i, "supply_pack", seat, dst)
        self.chars[seat].append(dst)
        return took

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
                if w not in seen and (self.is_camp(w) or self.tiles[w] is not None):
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
                if not tok.startswith("mammoth") or self.weapons[p] > 0 or weapon_reachable:
                    return True
        return False

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
            self.player = self._next_with_characters(0 if first else seat, first)
            return
        while reason is not None:
            self._ev(None, "season_end", detail=reason, turn=turn)
            for v in range(self.b.n):
                if not self.is_camp(v) and takeable(self.tiles[v]):
                    tok = self.tiles[v]
                    self.removed[tok.rstrip("0123456789")] += 1
                    self._ev(None, "remove", space=v, tile=tok, turn=turn)
                    self.tiles[v] = None
            self.chars = [[] for _ in range(self.players)]
            if self.season == "winter":
                self.season = "over"
                self.over = True
                self._ev(None, "game_end", turn=turn)
                return
            # winter set-up
            self.season = "winter"
            deck = iter(self.winter_deck)
            for v in range(self.b.n):
                if not self.is_camp(v) and self.tiles[v] is None:
                    tok = next(deck, None)
                    if tok is None:
                        break
                    self.tiles[v] = tok
                    self.laid[tok] += 1
            for v in range(self.b.n):
                if self.b.kind[v] == "winter":
                    for p in range(self.players):
                        if p in self.packs_on.get(v, set()) and len(self.chars[p]) < CHARACTERS:
                            self.chars[p].append(v)
                            self._ev(None, "place", p, v, turn=turn)
            self.packs_on = {}
            self.hand = [PACKS] * self.players
            self.idle = 0
            if self.best is not None:
                start, rule = self.best[1], "mammoth"
            elif self.winter_start_rule == "seat0":
                start, rule = 0, "seat0"
            else:
                start, rule = (self.last + 1) % self.players, "after_last"
            self._ev(None, "winter_start", start, detail=rule, turn=turn)
            self.player = start
            reason = self._end_reason()
            if reason is None:
                self.player = self._next_with_characters(start, True)

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
