"""Reference oracle for the `carcassonne_hg` rules engine (Carcassonne: Hunters & Gatherers).

Deliberately simple and slow: the board is a dict ``(x, y) -> (tile, rotation)`` and every
feature (forest, river, meadow, river system) is recomputed by flood fill over the board whenever
it is needed.  Nothing is maintained incrementally except the pieces on the board, the covered
animals, the scores and the piles.

Conventions follow ``docs/carcassonne-engine-contract.md``:

* directions 0 = N (0, -1), 1 = E (+1, 0), 2 = S (0, +1), 3 = W (-1, 0);
* with rotation r the side facing direction d is the unrotated side (d - r) % 4;
* a river side lists ``[m1, r, m2]`` clockwise; where two river sides meet, m1 of one touches m2 of
  the other and the rivers join;
* a zone is named by its global id ``tile * 10 + local``.

A move is the tuple ``(x, y, rotation, occ_kind, occ_zone, retake)`` with ``occ_kind`` None,
``'meeple'`` or ``'hut'``, ``occ_zone`` None or a global zone id of the tile being placed, and
``retake`` None or (tile 88 only) the global zone id of one of the seat's own meeples.

A score event is the tuple ``(decision, reason, seats, points, feature)``.

Each rule that the conformance tests break on purpose (tests/conformance/mutants/) sits in a method
of its own (``Board.side``, ``RefGame.earns_extra_turn``, ``RefGame.next_seat`` ...), so that a
subclass can change one rule and nothing else.
"""

import json
import os
import random

_DATA_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "hunters", "carcassonne", "tiles.json"
)

START_TILE = 56
MEEPLES_PER_SEAT = 5
HUTS_PER_SEAT = 3
DELTAS = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # N, E, S, W
ANIMAL_POINTS = {"mammoth": 3, "aurochs": 2, "deer": 1, "tiger": 0}


def _load_tiles():
    with open(_DATA_PATH, encoding="utf-8") as f:
        data = json.load(f)
    tiles = {}
    for t in data["tiles"]:
        tiles[t["id"]] = {
            "kind": t["kind"],
            "sides": t["sides"],
            "zones": {z["local"]: z for z in t["zones"]},
        }
    return tiles


TILES = _load_tiles()
NORMAL_TILES = sorted(i for i, t in TILES.items() if t["kind"] == "normal")
MENHIR_TILES = sorted(i for i, t in TILES.items() if t["kind"] == "menhir")


def _power_zone(power):
    """Global id of the (unique) zone carrying a special power."""
    found = [tid * 10 + loc for tid, t in TILES.items() for loc, z in t["zones"].items() if z.get("power") == power]
    assert len(found) == 1, (power, found)
    return found[0]


SHAMAN_ZONE = _power_zone("shaman")  # tile 88
LOGBOAT_ZONE = _power_zone("logboat")  # lake of tile 93
HUNTING_TRAP_ZONE = _power_zone("hunting_trap")  # meadow of tile 94
PIT_TRAP_ZONE = _power_zone("pit_trap")  # meadow of tile 92
WILD_FIRE_ZONE = _power_zone("wild_fire")  # meadow of tile 85
RAFT_ZONE = _power_zone("raft")  # lake of tile 91
SHAMAN_TILE = SHAMAN_ZONE // 10


def zone_info(gid):
    """The tile-data dict of a zone given its global id."""
    return TILES[gid // 10]["zones"][gid % 10]


def zone_type(gid):
    return zone_info(gid)["type"]


def side_facing(tile, rot, d):
    """The (unrotated) side description of `tile` that faces direction d under rotation rot."""
    return TILES[tile]["sides"][(d - rot) % 4]


def step(pos, d):
    return (pos[0] + DELTAS[d][0], pos[1] + DELTAS[d][1])


def near(a, b):
    """True if position a is in the 3x3 square centred on position b."""
    return abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def majority(counts):
    """Sorted tuple of the seats with the maximal count, provided that count is > 0."""
    if not counts:
        return ()
    best = max(counts.values())
    if best <= 0:
        return ()
    return tuple(sorted(s for s, c in counts.items() if c == best))


def move_sort_key(move):
    """A total order on move tuples (None sorts first in every field)."""
    return tuple((0, 0) if v is None else (1, v) for v in move)


class Board:
    """Placed tiles: ``cells[(x, y)] = (tile, rotation)`` and ``where[tile] = (x, y)``."""

    def side(self, tile, rot, d):
        """The side of `tile`, turned `rot`, facing direction d."""
        return side_facing(tile, rot, d)

    def __init__(self):
        self.cells = {}
        self.where = {}

    def put(self, pos, tile, rot):
        assert pos not in self.cells and tile not in self.where
        self.cells[pos] = (tile, rot)
        self.where[tile] = pos

    def with_tile(self, pos, tile, rot):
        """A copy of this board with one more tile placed."""
        b = type(self)()
        b.cells = dict(self.cells)
        b.where = dict(self.where)
        b.put(pos, tile, rot)
        return b

    def frontier(self):
        """Empty positions orthogonally adjacent to a placed tile."""
        out = set()
        for pos in self.cells:
            for d in range(4):
                n = step(pos, d)
                if n not in self.cells:
                    out.add(n)
        return out

    def fits(self, pos, tile, rot):
        """Every side touching a placed tile matches it (forest/meadow/river)."""
        for d in range(4):
            nb = self.cells.get(step(pos, d))
            if nb is None:
                continue
            mine = self.side(tile, rot, d)["type"]
            theirs = self.side(nb[0], nb[1], (d + 2) % 4)["type"]
            if mine != theirs:
                return False
        return True

    def placements(self, tile):
        """All (pos, rot) where `tile` may be placed."""
        return [(pos, rot) for pos in sorted(self.frontier()) for rot in range(4) if self.fits(pos, tile, rot)]

    # ---- connectivity -------------------------------------------------------------------------

    def links(self, gid, ftype):
        """Zones directly connected to zone `gid` for feature type `ftype`, and whether one of the
        relevant sides of the zone faces an empty position.

        ftype: 'forest' (forest zones across forest sides), 'river' (river zones across river
        sides), 'meadow' (meadow zones across meadow sides and the meadow halves of river sides),
        'system' (river and lake zones: rivers across river sides, a river and its lake on a tile).
        """
        tile, local = divmod(gid, 10)
        pos = self.where[tile]
        rot = self.cells[pos][1]
        out = []
        is_open = False
        if ftype == "system":
            z = zone_info(gid)
            if z["type"] == "river" and z["lake"] is not None:
                out.append(tile * 10 + z["lake"])
            if z["type"] == "lake":
                for loc, zz in TILES[tile]["zones"].items():
                    if zz["type"] == "river" and zz["lake"] == local:
                        out.append(tile * 10 + loc)
        for d in range(4):
            side = self.side(tile, rot, d)
            nb = self.cells.get(step(pos, d))
            nside = self.side(nb[0], nb[1], (d + 2) % 4) if nb is not None else None
            if ftype == "forest":
                if side["type"] == "forest" and side["zone"] == local:
                    if nb is None:
                        is_open = True
                    else:
                        assert nside["type"] == "forest"
                        out.append(nb[0] * 10 + nside["zone"])
            elif ftype in ("river", "system"):
                if side["type"] == "river" and side["zones"][1] == local:
                    if nb is None:
                        is_open = True
                    else:
                        assert nside["type"] == "river"
                        out.append(nb[0] * 10 + nside["zones"][1])
            elif ftype == "meadow":
                if side["type"] == "meadow" and side["zone"] == local:
                    if nb is None:
                        is_open = True
                    else:
                        assert nside["type"] == "meadow"
                        out.append(nb[0] * 10 + nside["zone"])
                if side["type"] == "river":
                    m1, _, m2 = side["zones"]
                    if nb is None:
                        is_open = is_open or local in (m1, m2)
                    else:
                        assert nside["type"] == "river"
                        for mine, theirs in self.banks(side["zones"], nside["zones"]):
                            if mine == local:
                                out.append(nb[0] * 10 + theirs)
            else:
                raise ValueError(ftype)
        return out, is_open

    @staticmethod
    def banks(mine, theirs):
        """The meadow zones that touch across two river sides (each listed clockwise from its own
        tile): m1 of one with m2 of the other."""
        return ((mine[0], theirs[2]), (mine[2], theirs[0]))

    def feature(self, gid, ftype):
        """Flood fill: (frozenset of connected zone ids, open?) of zone `gid`'s feature."""
        seen = {gid}
        stack = [gid]
        is_open = False
        while stack:
            g = stack.pop()
            nbrs, o = self.links(g, ftype)
            is_open = is_open or o
            for n in nbrs:
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        return frozenset(seen), is_open


def forest_points(zones):
    tiles = {g // 10 for g in zones}
    mushrooms = sum(1 for g in zones if zone_info(g)["kind"] == "mushrooms")
    return 2 * len(tiles) + 3 * mushrooms


def river_points(zones):
    tiles = {g // 10 for g in zones}
    fish = sum(zone_info(g)["fish"] for g in zones)
    lakes = {(g // 10) * 10 + zone_info(g)["lake"] for g in zones if zone_info(g)["lake"] is not None}
    return len(tiles) + fish + sum(zone_info(l)["fish"] for l in lakes)


class RefGame:
    """One game of Carcassonne: Hunters & Gatherers, played decision by decision."""

    board_class = Board
    meeples_per_seat = MEEPLES_PER_SEAT
    huts_per_seat = HUTS_PER_SEAT

    def __init__(self, players, normal_deck, menhir_deck):
        if not 2 <= players <= 5:
            raise ValueError("players must be 2..5")
        normal_deck = list(normal_deck)
        menhir_deck = list(menhir_deck)
        for deck, kind in ((normal_deck, "normal"), (menhir_deck, "menhir")):
            if len(set(deck)) != len(deck):
                raise ValueError("duplicate tile in deck")
            for t in deck:
                if t not in TILES or TILES[t]["kind"] != kind:
                    raise ValueError(f"tile {t} is not a {kind} tile")
        self.players = players
        self.normal_deck = tuple(normal_deck)  # as given, for replaying
        self.menhir_deck = tuple(menhir_deck)
        self.normal_pile = normal_deck  # remaining draw piles, first element on top
        self.menhir_pile = menhir_deck
        self.board = self.board_class()
        self.board.put((0, 0), START_TILE, 0)
        self.scores = [0] * players
        self.meeples = [self.meeples_per_seat] * players  # in supply
        self.huts = [self.huts_per_seat] * players  # in supply
        self.board_meeples = {}  # global zone id -> seat
        self.board_huts = {}  # global zone id -> seat
        self.covered = set()  # (global zone id, animal index) covered by the hunting trap
        self.events = []
        self.discards = []
        self.history = []  # moves played
        self.decision = 0  # number of play() calls so far
        self.player = 0
        self.tile = None
        self.is_extra = False  # the current decision is a menhir extra turn
        self.is_over = False
        self._legal = None  # cache of legal_moves() for the current decision
        self._start_normal_turn()

    # ---- flow ---------------------------------------------------------------------------------

    def _draw(self, pile):
        """Top placeable tile of `pile` (unplaceable ones are discarded), or None."""
        while pile:
            t = pile.pop(0)
            if self.board.placements(t):
                return t
            self.discards.append(t)
        return None

    def _start_normal_turn(self):
        self.is_extra = False
        self.tile = self._draw(self.normal_pile)
        if self.tile is None:
            self._final_scoring()

    def _advance(self, earned_extra):
        self._legal = None
        if earned_extra:
            t = self._draw(self.menhir_pile)
            if t is not None:
                self.tile = t
                self.is_extra = True
                return
        self.player = self.next_seat()
        self._start_normal_turn()

    def next_seat(self):
        """The seat after the current one."""
        return (self.player + 1) % self.players

    # ---- moves --------------------------------------------------------------------------------

    def legal_moves(self):
        if self.is_over:
            return set()
        if self._legal is not None:
            return set(self._legal)
        tile, seat = self.tile, self.player
        retakes = [None]
        if tile == SHAMAN_TILE:
            retakes += self.retake_candidates(seat)
        zones = sorted(tile * 10 + loc for loc in TILES[tile]["zones"])
        moves = set()
        for pos, rot in self.board.placements(tile):
            hyp = self.board.with_tile(pos, tile, rot)
            cache = {}

            def feat(gid, ftype):
                if (gid, ftype) not in cache:
                    cache[(gid, ftype)] = hyp.feature(gid, ftype)[0]
                return cache[(gid, ftype)]

            for retake in retakes:
                moves.add((pos[0], pos[1], rot, None, None, retake))
                if self.meeples[seat] + (retake is not None) > 0:
                    for g in zones:
                        ztype = zone_type(g)
                        if ztype not in ("forest", "river", "meadow"):
                            continue
                        holders = [z for z in feat(g, ztype) if z in self.board_meeples and z != retake]
                        if not holders:
                            moves.add((pos[0], pos[1], rot, "meeple", g, retake))
                if self.huts[seat] > 0:
                    for g in zones:
                        if zone_type(g) not in ("river", "lake"):
                            continue
                        if not any(z in self.board_huts for z in feat(g, "system")):
                            moves.add((pos[0], pos[1], rot, "hut", g, retake))
        self._legal = frozenset(moves)
        return set(moves)

    def retake_candidates(self, seat):
        """The zones the shaman's placer may take a meeple back from: their own meeples."""
        return sorted(g for g, s in self.board_meeples.items() if s == seat)

    def _retake(self, seat, zone):
        del self.board_meeples[zone]
        self.meeples[seat] += 1

    def play(self, move):
        move = tuple(move)
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move!r}")
        x, y, rot, occ_kind, occ_zone, retake = move
        tile, seat, dec = self.tile, self.player, self.decision
        self.history.append(move)
        board = self.board
        # 1. place
        board.put((x, y), tile, rot)
        # 2. shaman retake
        if retake is not None:
            self._retake(seat, retake)
        # 3. immediate effect
        self._immediate_effect(tile, seat, dec, (x, y))
        # 4. occupy
        if occ_kind == "meeple":
            self.board_meeples[occ_zone] = seat
            self.meeples[seat] -= 1
        elif occ_kind == "hut":
            self.board_huts[occ_zone] = seat
            self.huts[seat] -= 1
        # 5. closed forests and rivers containing a zone of the new tile
        closed = {}
        for loc, z in TILES[tile]["zones"].items():
            if z["type"] in ("forest", "river"):
                zones, is_open = board.feature(tile * 10 + loc, z["type"])
                if not is_open:
                    closed[self.feature_id(zones)] = (z["type"], zones)
        earned_extra = self.earns_extra_turn(closed)
        self._score_closed(dec, closed)
        # 6. next decision
        self.decision += 1
        self._advance(earned_extra)

    def _immediate_effect(self, tile, seat, dec, pos):
        """The logboat's or the hunting trap's effect, placed at `pos`."""
        board = self.board
        if tile == LOGBOAT_ZONE // 10:
            system, _ = board.feature(LOGBOAT_ZONE, "system")
            lakes = [g for g in system if zone_type(g) == "lake"]
            self._score(dec, "logboat", (seat,), 2 * len(lakes), self.feature_id(system))
        elif tile == HUNTING_TRAP_ZONE // 10:
            meadow, _ = board.feature(HUNTING_TRAP_ZONE, "meadow")
            in_range = [
                (g, i, a)
                for g in sorted(meadow)
                for i, a in enumerate(zone_info(g)["animals"])
                if (g, i) not in self.covered and near(board.where[g // 10], pos)
            ]
            tigers = sum(1 for _, _, a in in_range if a == "tiger")
            self._score(dec, "hunting_trap", (seat,), self.animal_points(in_range, tigers), self.feature_id(meadow))
            self.covered.update((g, i) for g, i, _ in in_range)

    def earns_extra_turn(self, closed):
        """Whether this decision earns a menhir extra turn: it is no extra turn itself and closed a
        forest with a menhir (`closed`: feature id -> (type, zones))."""
        return (not self.is_extra) and any(
            ftype == "forest" and any(zone_info(g)["kind"] == "menhir" for g in zones)
            for ftype, zones in closed.values()
        )

    def _score_closed(self, dec, closed):
        """Score the closed features that hold meeples, by feature id; their meeples go home."""
        for fid in sorted(closed):
            ftype, zones = closed[fid]
            on_it = [g for g in zones if g in self.board_meeples]
            if not on_it:
                continue
            counts = {}
            for g in on_it:
                counts[self.board_meeples[g]] = counts.get(self.board_meeples[g], 0) + 1
            points = self.forest_points(zones) if ftype == "forest" else self.river_points(zones)
            self._score(dec, ftype, self.majority(counts), points, fid)
            for g in on_it:
                self.meeples[self.board_meeples.pop(g)] += 1

    # the scoring rules, as methods so that one can be changed alone
    def feature_id(self, zones):
        return min(zones)

    def majority(self, counts):
        return majority(counts)

    def forest_points(self, zones):
        return forest_points(zones)

    def river_points(self, zones):
        return river_points(zones)

    def animal_points(self, animals, cancelled_deer):
        return animal_points(animals, cancelled_deer)

    # ---- scoring ------------------------------------------------------------------------------

    def _score(self, decision, reason, seats, points, feature):
        self.events.append((decision, reason, tuple(seats), points, feature))
        for s in seats:
            self.scores[s] += points

    def meadow_value(self, meadow):
        """Final-scoring value of a meadow (a set of meadow zone ids)."""
        animals = [
            (g, i, a)
            for g in sorted(meadow)
            for i, a in enumerate(zone_info(g)["animals"])
            if (g, i) not in self.covered
        ]
        if WILD_FIRE_ZONE in meadow:
            animals = [(g, i, a) for g, i, a in animals if a != "tiger"]
        if PIT_TRAP_ZONE in meadow:
            pit = self.board.where[PIT_TRAP_ZONE // 10]
            inside = [t for t in animals if near(self.board.where[t[0] // 10], pit)]
            outside = [t for t in animals if not near(self.board.where[t[0] // 10], pit)]
            tigers = sum(1 for t in animals if t[2] == "tiger")
            deer_out = sum(1 for t in outside if t[2] == "deer")
            cancel_out = min(tigers, deer_out)  # cancelled deer: outside the 3x3 first
            return self.animal_points(outside, cancel_out) + 2 * self.animal_points(inside, tigers - cancel_out)
        tigers = sum(1 for t in animals if t[2] == "tiger")
        return self.animal_points(animals, tigers)

    def _final_scoring(self):
        self.tile = None
        self.is_over = True
        self._legal = None
        dec = self.decision
        for g in [g for g in self.board_meeples if zone_type(g) in ("forest", "river")]:
            self.meeples[self.board_meeples.pop(g)] += 1  # unfinished: home without points
        self._score_systems(dec)
        self._score_meadows(dec)

    def _score_systems(self, dec):
        """Final scoring of the river systems that hold huts, by feature id (raft after its system)."""
        systems = {}
        for g in self.board_huts:
            zones, _ = self.board.feature(g, "system")
            systems[self.feature_id(zones)] = zones
        for fid in sorted(systems):
            zones = systems[fid]
            counts = {}
            for g in zones:
                if g in self.board_huts:
                    counts[self.board_huts[g]] = counts.get(self.board_huts[g], 0) + 1
            seats = self.majority(counts)
            self._score(dec, "river_system", seats, self.system_points(zones), fid)
            if RAFT_ZONE in zones:
                lakes = sum(1 for g in zones if zone_type(g) == "lake")
                self._score(dec, "raft", seats, lakes, fid)

    def system_points(self, zones):
        """A river system's value: the fish of every river and lake zone in it."""
        return sum(zone_info(g)["fish"] for g in zones)

    def _score_meadows(self, dec):
        """Final scoring of the meadows that hold hunters, by feature id."""
        meadows = {}
        for g in self.board_meeples:
            if zone_type(g) == "meadow":
                zones, _ = self.board.feature(g, "meadow")
                meadows[self.feature_id(zones)] = zones
        for fid in sorted(meadows):
            zones = meadows[fid]
            counts = {}
            for g in zones:
                if g in self.board_meeples:
                    counts[self.board_meeples[g]] = counts.get(self.board_meeples[g], 0) + 1
            self._score(dec, "meadow", self.majority(counts), self.meadow_value(zones), fid)


def animal_points(animals, cancelled_deer):
    """Points of a list of (zone, index, animal): mammoth 3, aurochs 2, deer 1, tiger 0, after
    removing `cancelled_deer` deer (never below zero deer)."""
    deer = sum(1 for _, _, a in animals if a == "deer")
    others = sum(ANIMAL_POINTS[a] for _, _, a in animals if a != "deer")
    return others + max(0, deer - cancelled_deer)


def random_game(players, seed, normal_deck=None, menhir_deck=None):
    """Play a whole game with uniformly random legal moves.

    One ``random.Random(seed)`` is used for everything, in this order: shuffle the full normal
    deck (if not given), shuffle the full menhir deck (if not given), then one
    ``rng.choice(sorted(legal_moves(), key=move_sort_key))`` per decision.
    """
    rng = random.Random(seed)
    if normal_deck is None:
        normal_deck = list(NORMAL_TILES)
        rng.shuffle(normal_deck)
    if menhir_deck is None:
        menhir_deck = list(MENHIR_TILES)
        rng.shuffle(menhir_deck)
    game = RefGame(players, normal_deck, menhir_deck)
    while not game.is_over:
        game.play(rng.choice(sorted(game.legal_moves(), key=move_sort_key)))
    return game
