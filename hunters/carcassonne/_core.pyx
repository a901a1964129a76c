# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: extra_compile_args = -O3 -fopenmp
# distutils: extra_link_args = -fopenmp
# OpenMP: LearnCore steps the games of a learning batch on several threads (their wait policy:
# hunters/carcassonne/__init__.py). The build flags of each core live in its own header (setup.py).
"""The Hunters & Gatherers rules core: placement, union-find features, occupants, scoring, game flow.

Everything on the hot path is `noexcept nogil` C over the flat `State` struct. The Python-facing
class `CoreGame` is a thin handle; `hunters.carcassonne.Game` is the typed public API on top of it.

Internal move code (uint32): `key << 16 | rotation << 14 | occupant slot << 9 | retake slot` where
key = (y + 128) << 8 | (x + 128); occupant slot 0 = none, MEEPLE_SLOT + local = meeple, HUT_SLOT +
local = hut (the slots of the dense action layout too, see _core.pxd);
retake slot 0 = none, 1 + dense zone. Numeric order of codes is the order of the legal-move list.

Learning (#14): compact codes, masks and observations are filled here into caller-owned buffers
(`learn_codes`, `observe_into`), `LearnCore` steps many games in one call, and `State.chance`
turns every draw into an external chance node (`resolve_chance`). hunters.carcassonne.learn
documents the layout.
"""
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from libc.stdlib cimport free
from cpython.bytearray cimport PyByteArray_FromStringAndSize, PyByteArray_AS_STRING

from cython.parallel cimport prange, threadid

from hunters._core.mem cimport checked_malloc
from hunters._core.pylist cimport uint32_list
from hunters._core.rng cimport rng_next, rng_below, rng_shuffle

# ---------------------------------------------------------------------------------------------
# Values the Python layer shares with the core (one source of truth: hunters.carcassonne imports them).

MIN_PLAYERS = MINP
MAX_PLAYERS = MAXP
POSITION_BOUND = COORD_BOUND
OCCUPANT_SLOTS = OCC_SLOTS
MEEPLE_SLOT_BASE = MEEPLE_SLOT
HUT_SLOT_BASE = HUT_SLOT
MEEPLE_ZONE_LOCALS = MEEPLE_LOCALS
HUT_ZONE_LOCALS = HUT_LOCALS
ACTION_RETAKE_SLOTS = RETAKE_SLOTS
ACTION_POSITIONS = ACTION_SIDE
ACTION_SPACE_SIZE = ACTION_SIDE * ACTION_SIDE * 4 * OCC_SLOTS * RETAKE_SLOTS
LEARN_FRONTIER = LEARN_FRONT
LEARN_ACTIONS = LEARN_FRONT * 4 * OCC_SLOTS * RETAKE_SLOTS
LEARN_BOARD_RADIUS = LEARN_RADIUS
LEARN_BOARD_CHANNELS = LEARN_CH
LEARN_STATUS_SIZE = LEARN_STATUS
LEARN_FRONTIER_COLUMNS = LEARN_FCOLS
LEARN_PIECE_COLUMNS = LEARN_PCOLS
LEARN_PIECES_PER_PLAYER = LEARN_PIECES
REFUSALS = {
    E_GAME_OVER: "GAME_OVER",
    E_BAD_ROTATION: "BAD_ROTATION",
    E_NOT_ADJACENT: "NOT_ADJACENT",
    E_POSITION_OCCUPIED: "POSITION_OCCUPIED",
    E_SIDE_MISMATCH: "SIDE_MISMATCH",
    E_RETAKE_NOT_ALLOWED: "RETAKE_NOT_ALLOWED",
    E_NOT_YOUR_MEEPLE: "NOT_YOUR_MEEPLE",
    E_ZONE_NOT_ON_TILE: "ZONE_NOT_ON_TILE",
    E_BAD_ZONE_TYPE: "BAD_ZONE_TYPE",
    E_NO_MEEPLE_LEFT: "NO_MEEPLE_LEFT",
    E_NO_HUT_LEFT: "NO_HUT_LEFT",
    E_FEATURE_OCCUPIED: "FEATURE_OCCUPIED",
    E_SYSTEM_OCCUPIED: "SYSTEM_OCCUPIED",
    E_UNKNOWN_ZONE: "UNKNOWN_ZONE",
    E_CHANCE_PENDING: "CHANCE_PENDING",
    E_NO_POSITION: "NO_POSITION",
}
"""Refusal code of the core (the E_* enum of _core.pxd) -> its reason name."""


def occupant_slot(bint hut, int local):
    """The occupant slot of a meeple (hut=False) or hut on local zone `local`, or 0 when no piece of
    that kind can ever stand on such a zone (a meeple on local 8 or 9: those are always lakes)."""
    if hut:
        return HUT_SLOT + local if 0 <= local < HUT_LOCALS else 0
    return MEEPLE_SLOT + local if 0 <= local < MEEPLE_LOCALS else 0

# ---------------------------------------------------------------------------------------------
# Tables: facts about the 95 tiles, filled once by load_tables() and never changed.

cdef int NZ = 0
cdef int16_t T_gid[MAXZ]          # global zone id
cdef uint8_t T_type[MAXZ]         # FOREST, MEADOW, RIVER, LAKE
cdef uint8_t T_tile[MAXZ]
cdef uint8_t T_local[MAXZ]
cdef uint8_t T_nsides[MAXZ]       # forest/river: sides of the tile this zone runs to
cdef uint8_t T_fish[MAXZ]
cdef int16_t T_lakez[MAXZ]        # river: dense zone of its lake, or -1
cdef int8_t T_lakeidx[MAXZ]       # lake: its index (bit in Agg.lakes), else -1
cdef uint8_t T_menhir[MAXZ]
cdef uint8_t T_mush[MAXZ]
cdef uint8_t T_power[MAXZ]
cdef uint8_t T_nanim[MAXZ]
cdef uint8_t T_animal[MAXZ][4]    # animal kinds (0 mammoth, 1 aurochs, 2 deer, 3 tiger) by list position
cdef int16_t T_gid2dz[NTILES * 10]
cdef int16_t T_first[NTILES]      # first dense zone of a tile
cdef uint8_t T_nz[NTILES]         # zones of a tile
cdef uint8_t T_kind[NTILES]       # 0 normal, 1 menhir, 2 start
cdef uint8_t T_stype[NTILES][4]   # unrotated side types (FOREST, MEADOW, RIVER), N E S W
cdef int16_t T_sz[NTILES][4][3]   # dense zones of each side ([zone] or [m1, river, m2] clockwise)
cdef uint8_t T_code[NTILES][4]    # by rotation: 2 bits per facing direction, the side type there
cdef uint8_t T_fit[NTILES][256]   # by a position's requirement `val`: bit r set when rotation r fits
cdef uint8_t T_twin[NTILES][5]    # by zone type: 1 when the tile has two or more zones of that type
cdef uint8_t T_lakefish[32]
cdef uint8_t T_slots[NTILES][OCC_SLOTS]  # occupant slots a piece may ever take on the tile, ascending
cdef uint8_t T_nslots[NTILES]
cdef uint8_t ALL_NORMAL[NTILES]   # the normal tiles, ascending (what a seeded shuffle starts from)
cdef uint8_t ALL_MENHIR[NTILES]
cdef int N_NORMAL = 0
cdef int N_MENHIR = 0

cdef int[4] DX = [0, 1, 0, -1]
cdef int[4] DY = [-1, 0, 1, 0]

cdef dict _TYPES = {"forest": FOREST, "meadow": MEADOW, "river": RIVER, "lake": LAKE}
cdef dict _ANIMALS = {"mammoth": 0, "aurochs": 1, "deer": 2, "tiger": 3}
cdef dict _POWERS = {None: P_NONE, "shaman": P_SHAMAN, "logboat": P_LOGBOAT,
                     "hunting_trap": P_HUNTING, "pit_trap": P_PIT, "wild_fire": P_FIRE, "raft": P_RAFT}
cdef dict _KINDS = {"normal": 0, "menhir": 1, "start": 2}

NORMAL_TILES = ()
MENHIR_TILES = ()
ZONE_TYPES = {}     # global zone id -> "forest" | "meadow" | "river" | "lake"


cdef inline uint8_t val_mask(int val) noexcept nogil:
    """The mask of a requirement: 2 bits set for each direction whose required type is not 0."""
    cdef int d
    cdef uint8_t m = 0
    for d in range(4):
        if (val >> (2 * d)) & 3:
            m |= 3 << (2 * d)
    return m


def load_tables(list tiles):
    """Fill the C tables from the parsed tile JSON (the `tiles` list). Called once at import."""
    global NZ, NORMAL_TILES, MENHIR_TILES
    cdef int dz = 0, t, s, i, r, d, nlakes = 0, local
    cdef dict local2dz
    if len(tiles) != NTILES:
        raise ValueError(f"expected {NTILES} tiles, got {len(tiles)}")
    for i in range(NTILES * 10):
        T_gid2dz[i] = -1
    normal, menhir = [], []
    for t, tile in enumerate(tiles):
        if tile["id"] != t:
            raise ValueError("tile ids must be 0..94 in order")
        T_kind[t] = _KINDS[tile["kind"]]
        (normal if tile["kind"] == "normal" else menhir if tile["kind"] == "menhir" else []).append(t)
        T_first[t] = dz
        T_nz[t] = len(tile["zones"])
        local2dz = {}
        counts = [0, 0, 0, 0, 0]
        for zone in sorted(tile["zones"], key=lambda z: z["local"]):
            if dz >= MAXZ:
                raise ValueError("too many zones")
            local = zone["local"]
            if not 0 <= local < 10 or (zone["type"] != "lake" and local >= MEEPLE_LOCALS):
                raise ValueError(f"tile {t}: local zone {local} does not fit the occupant slots")
            local2dz[local] = dz
            T_gid[dz] = t * 10 + local
            T_gid2dz[t * 10 + local] = dz
            T_type[dz] = _TYPES[zone["type"]]
            counts[T_type[dz]] += 1
            T_tile[dz] = t
            T_local[dz] = local
            T_nsides[dz] = 0
            T_fish[dz] = zone.get("fish") or 0
            T_lakez[dz] = -1
            T_lakeidx[dz] = -1
            T_menhir[dz] = zone.get("kind") == "menhir"
            T_mush[dz] = zone.get("kind") == "mushrooms"
            T_power[dz] = _POWERS[zone.get("power")]
            animals = zone.get("animals") or []
            if len(animals) > 4:
                raise ValueError("too many animals in a zone")
            T_nanim[dz] = len(animals)
            for i, a in enumerate(animals):
                T_animal[dz][i] = _ANIMALS[a]
            if T_type[dz] == LAKE:
                T_lakeidx[dz] = nlakes
                T_lakefish[nlakes] = T_fish[dz]
                nlakes += 1
            dz += 1
        for zone in tile["zones"]:
            if zone["type"] == "river" and zone.get("lake") is not None:
                T_lakez[local2dz[zone["local"]]] = local2dz[zone["lake"]]
        for i in range(5):
            T_twin[t][i] = counts[i] >= 2
        T_nslots[t] = 0
        for i in range(1, OCC_SLOTS):  # meeples on forests, meadows and rivers; huts on rivers and lakes
            local = i - MEEPLE_SLOT if i < HUT_SLOT else i - HUT_SLOT
            if local not in local2dz:
                continue
            if (T_type[local2dz[local]] != LAKE) if i < HUT_SLOT else (T_type[local2dz[local]] >= RIVER):
                T_slots[t][T_nslots[t]] = i
                T_nslots[t] += 1
        for s, side in enumerate(tile["sides"]):
            T_stype[t][s] = _TYPES[side["type"]]
            if side["type"] == "river":
                for i in range(3):
                    T_sz[t][s][i] = local2dz[side["zones"][i]]
                T_nsides[T_sz[t][s][1]] += 1
            else:
                T_sz[t][s][0] = local2dz[side["zone"]]
                T_sz[t][s][1] = -1
                T_sz[t][s][2] = -1
                if side["type"] == "forest":
                    T_nsides[T_sz[t][s][0]] += 1
        for r in range(4):
            T_code[t][r] = 0
            for d in range(4):
                T_code[t][r] |= T_stype[t][(d - r) & 3] << (2 * d)
        for i in range(256):  # a requirement's mask follows from its val: side types are never 0
            T_fit[t][i] = 0
            for r in range(4):
                if (T_code[t][r] & val_mask(i)) == i:
                    T_fit[t][i] |= 1 << r
    if nlakes > 32:
        raise ValueError("too many lakes")
    NZ = dz
    NORMAL_TILES = tuple(normal)
    MENHIR_TILES = tuple(menhir)
    global N_NORMAL, N_MENHIR
    N_NORMAL = tile_array(NORMAL_TILES, ALL_NORMAL)
    N_MENHIR = tile_array(MENHIR_TILES, ALL_MENHIR)
    ZONE_TYPES.clear()
    names = {FOREST: "forest", MEADOW: "meadow", RIVER: "river", LAKE: "lake"}
    for i in range(NZ):
        ZONE_TYPES[T_gid[i]] = names[T_type[i]]


# ---------------------------------------------------------------------------------------------
# Board cells: an open-addressing hash of positions (placed tiles and the frontier).

cdef inline uint16_t pkey(int x, int y) noexcept nogil:
    return <uint16_t>(((y + 128) << 8) | (x + 128))


cdef inline int key_x(uint16_t key) noexcept nogil:
    return (key & 0xFF) - 128


cdef inline int key_y(uint16_t key) noexcept nogil:
    return (key >> 8) - 128


cdef inline Cell* cell_at(State* s, uint16_t key) noexcept nogil:
    """The cell of `key`, or the free slot where it would go (its key is then 0)."""
    cdef uint32_t h = (<uint32_t>key * 2654435761u) >> 23
    while s.cells[h].key != 0 and s.cells[h].key != key:
        h = (h + 1) & (HSIZE - 1)
    return &s.cells[h]


cdef inline int tile_at(State* s, int x, int y) noexcept nogil:
    if x < -120 or x > 120 or y < -120 or y > 120:
        return -1
    cdef Cell* c = cell_at(s, pkey(x, y))
    return c.tile if c.key != 0 else -1


# ---------------------------------------------------------------------------------------------
# Union-find: features (forest, meadow, river) and river systems (river + lake).

cdef inline int ffind(State* s, int z) noexcept nogil:
    while s.parent[z] != z:
        s.parent[z] = s.parent[s.parent[z]]
        z = s.parent[z]
    return z


cdef inline int sfind(State* s, int z) noexcept nogil:
    while s.sparent[z] != z:
        s.sparent[z] = s.sparent[s.sparent[z]]
        z = s.sparent[z]
    return z


cdef int funion(State* s, int a, int b) noexcept nogil:
    """Join the features of zones a and b; return the root. Aggregates add up at the root."""
    cdef int p, t
    a = ffind(s, a)
    b = ffind(s, b)
    if a == b:
        return a
    if s.agg[a].size < s.agg[b].size:
        t = a; a = b; b = t
    s.parent[b] = a
    cdef Agg* ra = &s.agg[a]
    cdef Agg* rb = &s.agg[b]
    if rb.minz < ra.minz:
        ra.minz = rb.minz
    ra.size += rb.size
    ra.lakes |= rb.lakes
    ra.open += rb.open
    ra.fish += rb.fish
    ra.menhir += rb.menhir
    ra.mush += rb.mush
    for p in range(4):
        ra.anim[p] += rb.anim[p]
    ra.flags |= rb.flags
    ra.nmeeples += rb.nmeeples
    for p in range(MAXP):
        ra.meeples[p] += rb.meeples[p]
    return a


cdef int sunion(State* s, int a, int b) noexcept nogil:
    """Join the river systems of zones a and b; return the root."""
    cdef int p, t
    a = sfind(s, a)
    b = sfind(s, b)
    if a == b:
        return a
    if s.agg[a].ssize < s.agg[b].ssize:
        t = a; a = b; b = t
    s.sparent[b] = a
    cdef Agg* ra = &s.agg[a]
    cdef Agg* rb = &s.agg[b]
    if rb.sminz < ra.sminz:
        ra.sminz = rb.sminz
    ra.ssize += rb.ssize
    ra.sfish += rb.sfish
    ra.slakes += rb.slakes
    ra.sflags |= rb.sflags
    ra.nhuts += rb.nhuts
    for p in range(MAXP):
        ra.huts[p] += rb.huts[p]
    return a


# ---------------------------------------------------------------------------------------------
# Placement.

cdef bint placeable(State* s, int t) noexcept nogil:
    """Whether tile t has a legal position and rotation anywhere."""
    cdef int i
    cdef uint8_t* fit = T_fit[t]
    for i in range(s.nfront):
        if fit[s.fval[i]]:
            return True
    return False


cdef inline int fsort_find(State* s, uint16_t key) noexcept nogil:
    """Index in State.fsort of the first frontier cell whose key is >= `key` (binary search,
    branch-free: which half is taken is random, branches mispredict)."""
    cdef int base = 0, n = s.nfront, half
    if n == 0:
        return 0
    while n > 1:
        half = n >> 1
        base = base + half if s.cells[s.fsort[base + half]].key < key else base
        n -= half
    return base + (s.cells[s.fsort[base]].key < key)


cdef void place(State* s, int t, int x, int y, int rot) noexcept nogil:
    """Put tile t on the board (assumed legal): new zones, merges across sides, frontier upkeep."""
    cdef int i, dz, d, su, nsu, nt, r, od, last
    cdef uint16_t key = pkey(x, y), nkey
    cdef Cell* c = cell_at(s, key)
    cdef Cell* nc
    cdef Agg* a
    if c.key == 0:
        c.key = key
        c.fidx = -1
    if c.fidx >= 0:
        i = fsort_find(s, key)
        memmove(&s.fsort[i], &s.fsort[i + 1], (s.nfront - i - 1) * sizeof(uint16_t))
        last = s.nfront - 1
        s.frontier[c.fidx] = s.frontier[last]
        s.fval[c.fidx] = s.fval[last]
        s.cells[s.frontier[last]].fidx = c.fidx
        s.nfront = last
    c.tile = t
    c.rot = rot
    c.fidx = -1
    s.tx[t] = x
    s.ty[t] = y
    s.trot[t] = rot
    s.placed[t] = 1
    s.order[s.nplaced] = t
    s.nplaced += 1
    for dz in range(T_first[t], T_first[t] + T_nz[t]):
        s.parent[dz] = dz
        a = &s.agg[dz]
        memset(a, 0, sizeof(Agg))
        a.minz = T_gid[dz]
        a.sminz = T_gid[dz]
        a.size = 1
        a.ssize = 1
        s.occ[dz] = 0
        s.covered[dz] = 0
        if T_type[dz] == FOREST:
            a.open = T_nsides[dz]
            a.menhir = T_menhir[dz]
            a.mush = T_mush[dz]
        elif T_type[dz] == MEADOW:
            for i in range(T_nanim[dz]):
                a.anim[T_animal[dz][i]] += 1
            if T_power[dz] == P_FIRE:
                a.flags |= F_FIRE
            elif T_power[dz] == P_PIT:
                a.flags |= F_PIT
        if T_type[dz] == RIVER or T_type[dz] == LAKE:
            s.sparent[dz] = dz
            a.sfish = T_fish[dz]
            if T_type[dz] == RIVER:
                a.open = T_nsides[dz]
                a.fish = T_fish[dz]
                if T_lakez[dz] >= 0:
                    a.lakes = 1u << T_lakeidx[T_lakez[dz]]
            else:
                a.slakes = 1
                if T_power[dz] == P_RAFT:
                    a.sflags |= SF_RAFT
        else:
            s.sparent[dz] = -1
    for dz in range(T_first[t], T_first[t] + T_nz[t]):
        if T_type[dz] == RIVER and T_lakez[dz] >= 0:
            sunion(s, dz, T_lakez[dz])
    for d in range(4):
        nkey = pkey(x + DX[d], y + DY[d])
        nc = cell_at(s, nkey)
        su = (d - rot) & 3
        if nc.key != 0 and nc.tile >= 0:
            nt = nc.tile
            nsu = (d + 2 - nc.rot) & 3
            if T_stype[t][su] == RIVER:
                r = funion(s, T_sz[t][su][1], T_sz[nt][nsu][1])
                s.agg[r].open -= 2
                sunion(s, T_sz[t][su][1], T_sz[nt][nsu][1])
                funion(s, T_sz[t][su][0], T_sz[nt][nsu][2])
                funion(s, T_sz[t][su][2], T_sz[nt][nsu][0])
            else:
                r = funion(s, T_sz[t][su][0], T_sz[nt][nsu][0])
                if T_stype[t][su] == FOREST:
                    s.agg[r].open -= 2
        else:
            if nc.key == 0:
                nc.key = nkey
                nc.tile = -1
                nc.val = 0
                nc.fidx = s.nfront
                s.frontier[s.nfront] = <uint16_t>(nc - s.cells)
                i = fsort_find(s, nkey)
                memmove(&s.fsort[i + 1], &s.fsort[i], (s.nfront - i) * sizeof(uint16_t))
                s.fsort[i] = <uint16_t>(nc - s.cells)
                s.nfront += 1
            od = (d + 2) & 3
            nc.val |= T_stype[t][su] << (2 * od)
            s.fval[nc.fidx] = nc.val


# ---------------------------------------------------------------------------------------------
# What a placement would join, without placing it: the occupant checks of legal-move search
# and of validation both use this one analysis.

ctypedef struct Analysis:
    int first             # first dense zone of the tile
    int nz
    int8_t lpar[10]       # local union-find: tile zones joined through the board (features)
    int8_t spar[10]       # same for river systems
    int16_t froot[16]     # board feature roots touched, and the tile zone touching each
    int8_t fzone[16]
    int nf
    int16_t sroot[16]     # board system roots touched
    int8_t szone[16]
    int ns


cdef inline int lfind(int8_t* par, int i) noexcept nogil:
    while par[i] != i:
        i = par[i]
    return i


cdef inline void lunion(int8_t* par, int a, int b) noexcept nogil:
    a = lfind(par, a)
    b = lfind(par, b)
    if a != b:
        if a < b:
            par[b] = a
        else:
            par[a] = b


ctypedef struct Neigh:
    # what the placed neighbours of one position offer, whatever the rotation of the tile placed there
    int8_t has[4]           # by direction: a tile is placed there
    int16_t fr[4][3]        # feature roots of its facing side: river side [m2, river, m1] (our clockwise
                            # order), else [zone]
    int16_t sr[4]           # river side: the river system root


cdef void neighbours(State* s, int x, int y, uint8_t val, Neigh* nb) noexcept nogil:
    """The neighbours of the open position (x, y) whose requirement is `val` (it says which
    directions hold a tile, and their side types: only those are looked up)."""
    cdef int d, k, nt, nsu
    cdef Cell* nc
    for d in range(4):
        if not (val >> (2 * d)) & 3:
            nb.has[d] = 0
            continue
        nc = cell_at(s, pkey(x + DX[d], y + DY[d]))
        nb.has[d] = 1
        nt = nc.tile
        nsu = (d + 2 - nc.rot) & 3
        if ((val >> (2 * d)) & 3) == RIVER:
            for k in range(3):
                nb.fr[d][k] = ffind(s, T_sz[nt][nsu][2 - k])
            nb.sr[d] = sfind(s, T_sz[nt][nsu][1])
        else:
            nb.fr[d][0] = ffind(s, T_sz[nt][nsu][0])


cdef void analyze(State* s, int t, int x, int y, int rot, Analysis* an) noexcept nogil:
    """The analysis of tile t turned `rot` on the open position (x, y), a legal fit."""
    cdef Neigh nb
    neighbours(s, x, y, cell_at(s, pkey(x, y)).val, &nb)
    analyze_with(s, t, rot, &nb, an)


cdef void analyze_with(State* s, int t, int rot, Neigh* nb, Analysis* an) noexcept nogil:
    """The analysis of tile t turned `rot` on a position whose neighbours are `nb` (a legal fit:
    each placed neighbour's facing side has the type of ours)."""
    cdef int i, j, d, su, first = T_first[t], k
    an.first = first
    an.nz = T_nz[t]
    an.nf = 0
    an.ns = 0
    for i in range(an.nz):
        an.lpar[i] = i
        an.spar[i] = i
    for i in range(an.nz):
        if T_type[first + i] == RIVER and T_lakez[first + i] >= 0:
            lunion(an.spar, i, T_lakez[first + i] - first)
    for d in range(4):
        if not nb.has[d]:
            continue
        su = (d - rot) & 3
        if T_stype[t][su] == RIVER:
            for k in range(3):
                an.froot[an.nf] = nb.fr[d][k]
                an.fzone[an.nf] = T_sz[t][su][k] - first
                an.nf += 1
            an.sroot[an.ns] = nb.sr[d]
            an.szone[an.ns] = T_sz[t][su][1] - first
            an.ns += 1
        else:
            an.froot[an.nf] = nb.fr[d][0]
            an.fzone[an.nf] = T_sz[t][su][0] - first
            an.nf += 1
    for i in range(an.nf):
        for j in range(i):
            if an.froot[i] == an.froot[j]:
                lunion(an.lpar, an.fzone[i], an.fzone[j])
    for i in range(an.ns):
        for j in range(i):
            if an.sroot[i] == an.sroot[j]:
                lunion(an.spar, an.szone[i], an.szone[j])


cdef int group_meeples(State* s, Analysis* an, int local, int skip_root) noexcept nogil:
    """Meeples the feature of tile zone `local` would hold, not counting one meeple on `skip_root`."""
    cdef int g = lfind(an.lpar, local), i, j, total = 0
    cdef bint dup
    for i in range(an.nf):
        if lfind(an.lpar, an.fzone[i]) != g:
            continue
        dup = False
        for j in range(i):
            if an.froot[j] == an.froot[i]:
                dup = True
                break
        if not dup:
            total += s.agg[an.froot[i]].nmeeples
            if an.froot[i] == skip_root:
                total -= 1
    return total


cdef int group_huts(State* s, Analysis* an, int local) noexcept nogil:
    """Huts the river system of tile zone `local` would hold."""
    cdef int g = lfind(an.spar, local), i, j, total = 0
    cdef bint dup
    for i in range(an.ns):
        if lfind(an.spar, an.szone[i]) != g:
            continue
        dup = False
        for j in range(i):
            if an.sroot[j] == an.sroot[i]:
                dup = True
                break
        if not dup:
            total += s.agg[an.sroot[i]].nhuts
    return total


cdef int occupant_error(State* s, Analysis* an, int occslot, int retake) noexcept nogil:
    """Why the occupant `occslot` (with retake dense zone or -1) is refused, or OK."""
    cdef int p = s.player, t = s.tile, local, dz, typ, i, skip = -1
    if occslot == 0:
        return OK
    if occslot < HUT_SLOT:
        local = occslot - MEEPLE_SLOT
    else:
        local = occslot - HUT_SLOT
    if T_gid2dz[t * 10 + local] < 0:
        return E_ZONE_NOT_ON_TILE
    dz = T_gid2dz[t * 10 + local]
    typ = T_type[dz]
    i = dz - an.first
    if occslot < HUT_SLOT:
        if typ == LAKE:
            return E_BAD_ZONE_TYPE
        if s.meeples[p] == 0 and retake < 0:
            return E_NO_MEEPLE_LEFT
        if retake >= 0:
            skip = ffind(s, retake)
        if group_meeples(s, an, i, skip) > 0:
            return E_FEATURE_OCCUPIED
    else:
        if typ != RIVER and typ != LAKE:
            return E_BAD_ZONE_TYPE
        if s.huts[p] == 0:
            return E_NO_HUT_LEFT
        if group_huts(s, an, i) > 0:
            return E_SYSTEM_OCCUPIED
    return OK


cdef int own_meeples(State* s, int16_t* out) noexcept nogil:
    """The current seat's meeples on the board, sorted by global zone id."""
    cdef int i, j, n = 0, z
    for i in range(s.nonboard):
        z = s.onboard[i]
        if s.occ[z] == 1 + s.player:
            j = n
            while j > 0 and T_gid[out[j - 1]] > T_gid[z]:
                out[j] = out[j - 1]
                j -= 1
            out[j] = z
            n += 1
    return n


cdef int emit_with(State* s, uint16_t key, int rot, Neigh* nb, uint32_t* out) noexcept nogil:
    """Write every legal move code of one legal placement (whose neighbours `nb` are looked up), in
    code order; return the count. Without a retake (every tile but the shaman), a slot is legal when
    the seat has the piece and the feature (system) it would join holds none: counted once per joined
    group of tile zones."""
    cdef Analysis an
    cdef int t = s.tile, n = 0, slot, dz, k, nret = 0, j, g, p = s.player
    cdef int8_t gm[10]
    cdef int8_t gh[10]
    cdef int16_t rets[MAXP * NMEEPLES]
    cdef uint32_t base = (<uint32_t>key << 16) | (<uint32_t>rot << 14)
    analyze_with(s, t, rot, nb, &an)
    out[0] = base
    n = 1
    if t == SHAMAN:
        nret = own_meeples(s, rets)
        for k in range(nret):
            out[n] = base | <uint32_t>(rets[k] + 1)     # slot 0 with a retake: always legal
            n += 1
        for j in range(T_nslots[t]):
            slot = T_slots[t][j]
            if occupant_error(s, &an, slot, -1) == OK:
                out[n] = base | (<uint32_t>slot << 9)
                n += 1
            for k in range(nret):
                if occupant_error(s, &an, slot, rets[k]) == OK:
                    out[n] = base | (<uint32_t>slot << 9) | <uint32_t>(rets[k] + 1)
                    n += 1
        return n
    memset(gm, -1, 10)
    memset(gh, -1, 10)
    for j in range(T_nslots[t]):
        slot = T_slots[t][j]
        if slot < HUT_SLOT:
            if s.meeples[p] == 0:
                continue
            dz = T_gid2dz[t * 10 + slot - MEEPLE_SLOT] - an.first
            g = lfind(an.lpar, dz)
            if gm[g] < 0:
                gm[g] = group_meeples(s, &an, dz, -1) > 0
            if gm[g]:
                continue
        else:
            if s.huts[p] == 0:
                continue
            dz = T_gid2dz[t * 10 + slot - HUT_SLOT] - an.first
            g = lfind(an.spar, dz)
            if gh[g] < 0:
                gh[g] = group_huts(s, &an, dz) > 0
            if gh[g]:
                continue
        out[n] = base | (<uint32_t>slot << 9)
        n += 1
    return n


cdef inline bint bare_moves(State* s) noexcept nogil:
    """No piece in supply and no retake (not the shaman): every legal placement is exactly one
    move, without occupant, and needs no analysis."""
    return s.meeples[s.player] == 0 and s.huts[s.player] == 0 and s.tile != SHAMAN


cdef int gen_moves(State* s, uint32_t* out) noexcept nogil:
    """Every legal move code of the current decision, sorted; return the count."""
    cdef int i, r, n = 0, t = s.tile
    cdef uint8_t fits
    cdef Cell* c
    cdef Neigh nb
    cdef bint bare
    if s.over or t < 0:
        return 0
    bare = bare_moves(s)
    for i in range(s.nfront):
        c = &s.cells[s.fsort[i]]
        fits = T_fit[t][c.val]
        if not fits:
            continue
        if bare:
            for r in range(4):
                if fits & (1 << r):
                    out[n] = (<uint32_t>c.key << 16) | (<uint32_t>r << 14)
                    n += 1
            continue
        neighbours(s, key_x(c.key), key_y(c.key), c.val, &nb)
        for r in range(4):
            if fits & (1 << r):
                n += emit_with(s, c.key, r, &nb, out + n)
    return n


cdef int validate(State* s, int x, int y, int rot, int occslot, int retake) noexcept nogil:
    """Why the move is refused, or OK. retake is a dense zone or -1."""
    cdef Analysis an
    cdef Cell* c
    if s.over:
        return E_GAME_OVER
    if s.tile < 0:
        return E_CHANCE_PENDING
    if rot < 0 or rot > 3:
        return E_BAD_ROTATION
    if x < -COORD_BOUND or x > COORD_BOUND or y < -COORD_BOUND or y > COORD_BOUND:
        return E_NOT_ADJACENT
    c = cell_at(s, pkey(x, y))
    if c.key == 0:
        return E_NOT_ADJACENT
    if c.tile >= 0:
        return E_POSITION_OCCUPIED
    if not T_fit[s.tile][c.val] & (1 << rot):
        return E_SIDE_MISMATCH
    if retake >= 0:
        if s.tile != SHAMAN:
            return E_RETAKE_NOT_ALLOWED
        if s.occ[retake] != 1 + s.player:
            return E_NOT_YOUR_MEEPLE
    analyze(s, s.tile, x, y, rot, &an)
    return occupant_error(s, &an, occslot, retake)


# ---------------------------------------------------------------------------------------------
# Scoring.

cdef inline uint8_t majority(uint8_t* counts, int n) noexcept nogil:
    """Bit mask of the seats with the most pieces (none when nobody has any)."""
    cdef int p, best = 0
    cdef uint8_t mask = 0
    for p in range(n):
        if counts[p] > best:
            best = counts[p]
            mask = 1 << p
        elif counts[p] == best and best > 0:
            mask |= 1 << p
    return mask


cdef inline void award(State* s, Event* ev, int reason, uint8_t seats, int feature, int points) noexcept nogil:
    cdef int p
    ev.reason = reason
    ev.seats = seats
    ev.feature = feature
    ev.points = points
    for p in range(s.nplayers):
        if seats & (1 << p):
            s.score[p] += points


cdef int distinct_tiles(State* s, int root) noexcept nogil:
    """Tiles a forest or river covers, each once even where the feature crosses it twice."""
    cdef int n = s.agg[root].size, i, t, dz, k, typ = T_type[root]
    for i in range(s.nplaced):
        t = s.order[i]
        if not T_twin[t][typ]:
            continue
        k = 0
        for dz in range(T_first[t], T_first[t] + T_nz[t]):
            if T_type[dz] == typ and ffind(s, dz) == root:
                k += 1
        if k > 1:
            n -= k - 1
    return n


cdef int feature_value(State* s, int root) noexcept nogil:
    cdef Agg* a = &s.agg[root]
    cdef int v, i
    if T_type[root] == FOREST:
        return 2 * distinct_tiles(s, root) + 3 * a.mush
    v = distinct_tiles(s, root) + a.fish
    for i in range(32):
        if a.lakes & (1u << i):
            v += T_lakefish[i]
    return v


cdef void return_meeples(State* s, int root, bint any_feature) noexcept nogil:
    """Send home the meeples on feature `root` (or, with any_feature, on every forest and river)."""
    cdef int i = 0, z, p, r
    while i < s.nonboard:
        z = s.onboard[i]
        r = ffind(s, z)
        if (any_feature and T_type[z] != MEADOW) or (not any_feature and r == root):
            p = s.occ[z] - 1
            s.occ[z] = 0
            s.meeples[p] += 1
            s.agg[r].meeples[p] -= 1
            s.agg[r].nmeeples -= 1
            s.nonboard -= 1
            s.onboard[i] = s.onboard[s.nonboard]
        else:
            i += 1


cdef void area_animals(State* s, int centre_tile, int root, int* counts, bint cover) noexcept nogil:
    """Uncovered animals of meadow `root` on the 3x3 tiles around `centre_tile` (added to
    counts[4]); with `cover`, cover them and take them off the meadow's aggregate."""
    cdef int dx, dy, t, dz, i, kind
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            t = tile_at(s, s.tx[centre_tile] + dx, s.ty[centre_tile] + dy)
            if t < 0:
                continue
            for dz in range(T_first[t], T_first[t] + T_nz[t]):
                if T_type[dz] != MEADOW or T_nanim[dz] == 0 or ffind(s, dz) != root:
                    continue
                for i in range(T_nanim[dz]):
                    if s.covered[dz] & (1 << i):
                        continue
                    kind = T_animal[dz][i]
                    counts[kind] += 1
                    if cover:
                        s.covered[dz] |= 1 << i
                        s.agg[root].anim[kind] -= 1


cdef int meadow_value(State* s, int root) noexcept nogil:
    cdef Agg* a = &s.agg[root]
    cdef int m = a.anim[0], au = a.anim[1], d = a.anim[2], tg = a.anim[3]
    cdef int inside[4]
    cdef int cout, cin, dout
    if a.flags & F_FIRE:
        tg = 0
    if not (a.flags & F_PIT):
        return 3 * m + 2 * au + (d - tg if d > tg else 0)
    inside[0] = 0; inside[1] = 0; inside[2] = 0; inside[3] = 0
    area_animals(s, PIT_TRAP, root, inside, False)
    dout = d - inside[2]
    cout = tg if tg < dout else dout
    cin = tg - cout
    if cin > inside[2]:
        cin = inside[2]
    return (3 * (m - inside[0]) + 6 * inside[0] + 2 * (au - inside[1]) + 4 * inside[1]
            + (dout - cout) + 2 * (inside[2] - cin))


cdef inline void sort_roots(State* s, int* roots, int n, bint by_system) noexcept nogil:
    cdef int i, j, r
    for i in range(1, n):
        r = roots[i]
        j = i
        while j > 0 and ((s.agg[roots[j - 1]].sminz > s.agg[r].sminz) if by_system
                         else (s.agg[roots[j - 1]].minz > s.agg[r].minz)):
            roots[j] = roots[j - 1]
            j -= 1
        roots[j] = r


cdef int final_scoring(State* s, Event* ev) noexcept nogil:
    cdef uint8_t seen[MAXZ]
    cdef int roots[MAXZ]
    cdef int i, t, dz, r, n = 0, nev = 0, k
    cdef uint8_t seats
    return_meeples(s, -1, True)
    memset(seen, 0, sizeof(seen))
    for i in range(s.nplaced):
        t = s.order[i]
        for dz in range(T_first[t], T_first[t] + T_nz[t]):
            if T_type[dz] == RIVER or T_type[dz] == LAKE:
                r = sfind(s, dz)
                if not seen[r] and s.agg[r].nhuts > 0:
                    seen[r] = 1
                    roots[n] = r
                    n += 1
    sort_roots(s, roots, n, True)
    for k in range(n):
        r = roots[k]
        seats = majority(s.agg[r].huts, s.nplayers)
        award(s, &ev[nev], EV_SYSTEM, seats, s.agg[r].sminz, s.agg[r].sfish)
        nev += 1
        if s.agg[r].sflags & SF_RAFT:
            award(s, &ev[nev], EV_RAFT, seats, s.agg[r].sminz, s.agg[r].slakes)
            nev += 1
    memset(seen, 0, sizeof(seen))
    n = 0
    for i in range(s.nplaced):
        t = s.order[i]
        for dz in range(T_first[t], T_first[t] + T_nz[t]):
            if T_type[dz] == MEADOW:
                r = ffind(s, dz)
                if not seen[r] and s.agg[r].nmeeples > 0:
                    seen[r] = 1
                    roots[n] = r
                    n += 1
    sort_roots(s, roots, n, False)
    for k in range(n):
        r = roots[k]
        award(s, &ev[nev], EV_MEADOW, majority(s.agg[r].meeples, s.nplayers), s.agg[r].minz,
              meadow_value(s, r))
        nev += 1
    return nev


# ---------------------------------------------------------------------------------------------
# Game flow.

cdef bint draw(State* s, bint menhir_pile) noexcept nogil:
    """Draw the next placeable tile of a pile into s.tile, discarding unplaceable ones. With
    external chance, only mark the draw pending (resolve_chance makes it), when the pile has a tile."""
    cdef int t
    if s.chance:
        if (s.imenhir >= s.nmenhir) if menhir_pile else (s.inormal >= s.nnormal):
            return False
        s.pending = 2 if menhir_pile else 1
        s.tile = -1
        return True
    while True:
        if menhir_pile:
            if s.imenhir >= s.nmenhir:
                return False
            t = s.menhir[s.imenhir]
            s.imenhir += 1
        else:
            if s.inormal >= s.nnormal:
                return False
            t = s.normal[s.inormal]
            s.inormal += 1
        if placeable(s, t):
            s.tile = t
            return True
        s.discards[s.ndiscards] = t
        s.ndiscards += 1


cdef int advance(State* s, bint menhir_closed, Event* ev) noexcept nogil:
    """After a decision: the menhir extra turn, else the next seat's draw, else the end."""
    if not s.extra and menhir_closed and draw(s, True):
        s.extra = 1
        return 0
    s.extra = 0
    s.player = (s.player + 1) % s.nplayers
    if draw(s, False):
        return 0
    s.over = 1
    s.tile = -1
    return final_scoring(s, ev)


cdef int resolve_chance(State* s, int t, Event* ev) noexcept nogil:
    """External chance: the pending draw turns up tile `t` (any undrawn tile of that pile; it
    swaps places with the pile's next tile, so the drawn prefix stays the draw history). Then what
    the rules do on a draw: keep a placeable tile, else discard it and draw again (another pending
    draw), and when the pile runs out, the menhir extra turn lapses or the game ends. Returns the
    number of events (final scoring), or -1 when `t` is no undrawn tile of that pile."""
    cdef uint8_t* pile
    cdef int16_t* idx
    cdef int n, j
    if s.pending == 2:
        pile = s.menhir
        idx = &s.imenhir
        n = s.nmenhir
    elif s.pending == 1:
        pile = s.normal
        idx = &s.inormal
        n = s.nnormal
    else:
        return -1
    for j in range(idx[0], n):
        if pile[j] == t:
            break
    else:
        return -1
    pile[j] = pile[idx[0]]
    pile[idx[0]] = t
    idx[0] += 1
    if placeable(s, t):
        s.tile = t
        s.pending = 0
        return 0
    s.discards[s.ndiscards] = t
    s.ndiscards += 1
    if idx[0] < n:
        return 0                     # still pending: draw again from the same pile
    s.pending = 0
    if pile == s.menhir:             # no placeable menhir tile: no extra turn
        s.extra = 0
        s.player = (s.player + 1) % s.nplayers
        if draw(s, False):
            return 0
    s.over = 1
    s.tile = -1
    return final_scoring(s, ev)


cdef void init_state(State* s, int players, uint8_t* normal, int nnormal,
                     uint8_t* menhir, int nmenhir) noexcept nogil:
    memset(s, 0, sizeof(State))
    cdef int p
    s.nplayers = players
    for p in range(players):
        s.meeples[p] = NMEEPLES
        s.huts[p] = NHUTS
    memcpy(s.normal, normal, nnormal)
    memcpy(s.menhir, menhir, nmenhir)
    s.nnormal = nnormal
    s.nmenhir = nmenhir
    s.tile = -1
    place(s, START_TILE, 0, 0, 0)


cdef int start(State* s, Event* ev) noexcept nogil:
    """Draw seat 0's first tile; a game with nothing placeable ends at once."""
    if draw(s, False):
        return 0
    s.over = 1
    s.tile = -1
    return final_scoring(s, ev)


cdef int apply_move(State* s, uint32_t code, Event* ev) noexcept nogil:
    """Play one legal decision (validated beforehand); write its events, return their count."""
    cdef int t = s.tile, p = s.player, nev = 0, i, r, dz, nclosed = 0, local
    cdef uint16_t key = code >> 16
    cdef int x = key_x(key), y = key_y(key), rot = (code >> 14) & 3
    cdef int slot = (code >> 9) & 31, retake = <int>(code & 511) - 1
    cdef int closed[10]
    cdef int counts[4]
    cdef bint menhir_closed = False
    place(s, t, x, y, rot)
    if retake >= 0:
        r = ffind(s, retake)
        s.occ[retake] = 0
        s.meeples[p] += 1
        s.agg[r].meeples[p] -= 1
        s.agg[r].nmeeples -= 1
        for i in range(s.nonboard):
            if s.onboard[i] == retake:
                s.nonboard -= 1
                s.onboard[i] = s.onboard[s.nonboard]
                break
    if t == LOGBOAT:
        for dz in range(T_first[t], T_first[t] + T_nz[t]):
            if T_power[dz] == P_LOGBOAT:
                r = sfind(s, dz)
                award(s, &ev[nev], EV_LOGBOAT, 1 << p, s.agg[r].sminz, 2 * s.agg[r].slakes)
                nev += 1
    elif t == HUNTING_TRAP:
        for dz in range(T_first[t], T_first[t] + T_nz[t]):
            if T_power[dz] == P_HUNTING:
                r = ffind(s, dz)
                counts[0] = 0; counts[1] = 0; counts[2] = 0; counts[3] = 0
                area_animals(s, t, r, counts, True)
                award(s, &ev[nev], EV_HUNTING, 1 << p, s.agg[r].minz,
                      3 * counts[0] + 2 * counts[1] + (counts[2] - counts[3] if counts[2] > counts[3] else 0))
                nev += 1
    if slot:
        local = slot - MEEPLE_SLOT if slot < HUT_SLOT else slot - HUT_SLOT
        dz = T_gid2dz[t * 10 + local]
        if slot < HUT_SLOT:
            r = ffind(s, dz)
            s.occ[dz] = 1 + p
            s.meeples[p] -= 1
            s.agg[r].meeples[p] += 1
            s.agg[r].nmeeples += 1
            s.onboard[s.nonboard] = dz
            s.nonboard += 1
        else:
            r = sfind(s, dz)
            s.occ[dz] = 1 + MAXP + p
            s.huts[p] -= 1
            s.agg[r].huts[p] += 1
            s.agg[r].nhuts += 1
            s.hutzones[s.nhutzones] = dz
            s.nhutzones += 1
    for dz in range(T_first[t], T_first[t] + T_nz[t]):
        if T_type[dz] == FOREST or T_type[dz] == RIVER:
            r = ffind(s, dz)
            if s.agg[r].open == 0:
                for i in range(nclosed):
                    if closed[i] == r:
                        break
                else:
                    closed[nclosed] = r
                    nclosed += 1
    sort_roots(s, closed, nclosed, False)
    for i in range(nclosed):
        r = closed[i]
        if T_type[r] == FOREST and s.agg[r].menhir:
            menhir_closed = True
        if s.agg[r].nmeeples:
            award(s, &ev[nev], EV_FOREST if T_type[r] == FOREST else EV_RIVER,
                  majority(s.agg[r].meeples, s.nplayers), s.agg[r].minz, feature_value(s, r))
            nev += 1
            return_meeples(s, r, False)
    s.moves[s.nmoves] = code
    s.nmoves += 1
    return nev + advance(s, menhir_closed, ev + nev)


cdef void codes_to_actions(State* s, uint32_t* codes, int n) noexcept nogil:
    """Rewrite move codes of the current decision in place as dense action codes (same order):
    ((((y + B) * SIDE + x + B) * 4 + rotation) * OCC_SLOTS + slot) * RETAKE_SLOTS + retake, where
    retake is 0 or 1 + the rank of the retaken meeple among the seat's own by global zone id. Dense
    zones ascend with global ids, so ascending move codes give ascending actions."""
    cdef int16_t own[MAXP * NMEEPLES]
    cdef int nown = own_meeples(s, own), i, k, rdz, ret
    cdef uint32_t code
    cdef uint16_t key
    for i in range(n):
        code = codes[i]
        key = code >> 16
        rdz = <int>(code & 511) - 1
        ret = 0
        if rdz >= 0:
            for k in range(nown):
                if own[k] == rdz:
                    ret = k + 1
                    break
        codes[i] = ((((<uint32_t>(key_y(key) + COORD_BOUND) * ACTION_SIDE + <uint32_t>(key_x(key) + COORD_BOUND)) * 4
                      + ((code >> 14) & 3)) * OCC_SLOTS + ((code >> 9) & 31)) * RETAKE_SLOTS + ret)


cdef int random_placement(State* s, uint64_t* rng, uint32_t* opts) noexcept nogil:
    """A uniform legal placement of the tile in hand: write its occupant/retake options to `opts`
    (slot 0 without a retake first) and return how many there are."""
    cdef uint16_t cells[MAXFRONT * 4 + 4]
    cdef uint8_t rots[MAXFRONT * 4 + 4]
    cdef int i, r, k, n = 0
    cdef uint8_t* fit = T_fit[s.tile]
    cdef uint8_t rotset
    cdef uint16_t cell
    for i in range(s.nfront):  # branch-free: which rotations fit is random, branches mispredict
        rotset = fit[s.fval[i]]
        cell = s.frontier[i]
        for r in range(4):
            cells[n] = cell
            rots[n] = r
            n += (rotset >> r) & 1
    k = <int>rng_below(rng, n)
    cdef Cell* c = &s.cells[cells[k]]
    cdef Neigh nb
    if bare_moves(s):
        opts[0] = (<uint32_t>c.key << 16) | (<uint32_t>rots[k] << 14)
        return 1
    neighbours(s, key_x(c.key), key_y(c.key), c.val, &nb)
    return emit_with(s, c.key, rots[k], &nb, opts)


cdef uint32_t random_move(State* s, uint64_t* rng) noexcept nogil:
    """A random legal move: a uniform legal placement, then a uniform legal occupant/retake."""
    cdef uint32_t opts[OCC_SLOTS * (MAXP * NMEEPLES + 1)]
    cdef int n = random_placement(s, rng, opts)
    return opts[rng_below(rng, n)]


cdef inline void shuffle_into(uint64_t* rng, const uint8_t* tiles, int n, uint8_t* out) noexcept nogil:
    """`out` is `tiles` shuffled (rng.pxd's shuffle)."""
    memcpy(out, tiles, n)
    rng_shuffle(rng, out, n)


cdef int tile_array(tuple tiles, uint8_t* out):
    cdef int i
    for i in range(len(tiles)):
        out[i] = tiles[i]
    return len(tiles)


cdef void shuffled(uint64_t* rng, tuple tiles, uint8_t* out):
    cdef uint8_t src[NTILES]
    shuffle_into(rng, src, tile_array(tiles, src), out)


def shuffled_decks(uint64_t seed):
    """The seeded draw order of both piles: (normal, menhir)."""
    cdef uint64_t rng = seed
    cdef uint8_t normal[NTILES]
    cdef uint8_t menhir[NTILES]
    shuffled(&rng, NORMAL_TILES, normal)
    shuffled(&rng, MENHIR_TILES, menhir)
    return ([normal[i] for i in range(len(NORMAL_TILES))],
            [menhir[i] for i in range(len(MENHIR_TILES))])


# ---------------------------------------------------------------------------------------------
# Search: the hooks of the shared IS-MCTS (mcts.pxi). Hidden information is the order of the
# undrawn part of both piles; their contents are public.

ctypedef struct Det:
    double bare         # playouts: probability that a move places no piece (else uniform, like random_move)


cdef inline int mc_legal(State* s, uint32_t* out) noexcept nogil:
    return gen_moves(s, out)


cdef inline int mc_cap(State* s) noexcept nogil:
    return MAXMOVES


cdef inline void mc_apply(State* s, uint32_t code, Event* ev) noexcept nogil:
    apply_move(s, code, ev)


cdef uint32_t mc_random(State* s, Det* d, uint64_t* rng) noexcept nogil:
    """Playout policy: a uniform legal placement; then, with probability d.bare, no piece, else a
    uniform legal occupant/retake option (d NULL or d.bare 0: exactly random_move)."""
    cdef uint32_t opts[OCC_SLOTS * (MAXP * NMEEPLES + 1)]
    cdef int n
    if d == NULL or d.bare <= 0.0:
        return random_move(s, rng)
    n = random_placement(s, rng, opts)
    if (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) < d.bare:
        return opts[0]      # slot 0 without a retake: always legal, always first
    return opts[rng_below(rng, n)]


cdef inline bint mc_over(State* s) noexcept nogil:
    return s.over


cdef inline int mc_player(State* s) noexcept nogil:
    return s.player


cdef inline uint64_t mc_key(State* s, uint32_t code) noexcept nogil:
    """The move as its maker sees it: the tile in hand and the placement code."""
    return (<uint64_t><uint8_t>s.tile << 32) | code


cdef inline void mc_scores(State* s, int* out) noexcept nogil:
    cdef int p
    for p in range(s.nplayers):
        out[p] = s.score[p]


cdef inline void mc_determinize(State* s, Det* d, uint64_t* rng) noexcept nogil:
    """Reshuffle the undrawn tiles of both piles."""
    rng_shuffle(rng, s.normal + s.inormal, s.nnormal - s.inormal)
    rng_shuffle(rng, s.menhir + s.imenhir, s.nmenhir - s.imenhir)


cdef void sort_bytes(uint8_t* a, int n) noexcept nogil:
    cdef int i, j
    cdef uint8_t t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t


include "hunters/_core/mcts.pxi"



# ---------------------------------------------------------------------------------------------
# Learning (hunters.carcassonne.learn): compact codes, masks and observations, filled in C.
#
# Compact code = ((frontier index * 4 + rotation) * OCC_SLOTS + occupant slot) * RETAKE_SLOTS + retake
# slot, where the frontier index is the rank of the position among the open positions (State.fsort,
# ascending by (y, x)) and the retake slot is the dense layout's (1 + rank among own meeples by zone).
# Ascending internal move codes give ascending compact codes (the same order as legal_moves()).

ctypedef struct ObsBufs:
    uint8_t* board       # [LEARN_CH + 2 * players, LEARN_W, LEARN_W]
    int16_t* tiles       # [NTILES, 4]
    int16_t* frontier    # [LEARN_FRONT, LEARN_FCOLS]
    int16_t* pieces      # [players * LEARN_PIECES, LEARN_PCOLS]
    int16_t* status      # [LEARN_STATUS]
    int16_t* supplies    # [players, 2]
    int32_t* scores      # [players]
    uint8_t* remaining   # [NTILES]


cdef int learn_codes(State* s, uint32_t* buf) noexcept nogil:
    """The compact code of every legal move, ascending, into buf (MAXMOVES); return the count."""
    cdef int16_t own[MAXP * NMEEPLES]
    cdef int n = gen_moves(s, buf), nown, i, k = 0, j, rdz, ret
    cdef uint32_t code
    cdef uint16_t key
    if n == 0:
        return 0
    nown = own_meeples(s, own)
    for i in range(n):
        code = buf[i]
        key = code >> 16
        while s.cells[s.fsort[k]].key != key:
            k += 1
        rdz = <int>(code & 511) - 1
        ret = 0
        if rdz >= 0:
            for j in range(nown):
                if own[j] == rdz:
                    ret = j + 1
                    break
        buf[i] = ((<uint32_t>k * 4 + ((code >> 14) & 3)) * OCC_SLOTS + ((code >> 9) & 31)) * RETAKE_SLOTS + ret
    return n


cdef int learn_decode(State* s, uint32_t code, uint32_t* out) noexcept nogil:
    """The internal move code of a compact code into out, or the refusal (OK = legal)."""
    cdef int16_t own[MAXP * NMEEPLES]
    cdef int ret = code % RETAKE_SLOTS, slot, rot, k, rdz = -1, nown, err
    cdef uint16_t key
    if s.over:
        return E_GAME_OVER
    if s.tile < 0:
        return E_CHANCE_PENDING
    code //= RETAKE_SLOTS
    slot = code % OCC_SLOTS
    code //= OCC_SLOTS
    rot = code & 3
    k = code >> 2
    if k >= s.nfront:
        return E_NO_POSITION
    key = s.cells[s.fsort[k]].key
    if ret:
        if s.tile != SHAMAN:
            return E_RETAKE_NOT_ALLOWED
        nown = own_meeples(s, own)
        if ret > nown:
            return E_NOT_YOUR_MEEPLE
        rdz = own[ret - 1]
    err = validate(s, key_x(key), key_y(key), rot, slot, rdz)
    if err == OK:
        out[0] = (<uint32_t>key << 16) | (<uint32_t>rot << 14) | (<uint32_t>slot << 9) | <uint32_t>(rdz + 1)
    return err


cdef inline int rel_seat(State* s, int seat, int observer) noexcept nogil:
    return (seat - observer + s.nplayers) % s.nplayers


cdef void observe_into(State* s, int seat, ObsBufs* o, int16_t* mem) noexcept nogil:
    """Fill every observation field of `seat` (public information only: the pile order is never
    read, only which tiles remain). `mem` NULL: from scratch. Else the buffers hold this game's
    previous observation, described by mem = (tiles placed then, frontier rows, piece rows; 0 tiles:
    nothing yet, start from scratch), and only what changed is rewritten; mem is updated."""
    cdef int P = s.nplayers, W = LEARN_W, R = LEARN_RADIUS, WW = LEARN_W * LEARN_W
    cdef int i, t, x, y, d, cellix, z, p, row = 0, code, first = 0
    cdef Cell* c
    cdef int16_t* r
    if mem == NULL or mem[0] == 0 or mem[0] > s.nplaced:
        memset(o.board, 0, (LEARN_CH + 2 * P) * WW)
        memset(o.tiles, 0, NTILES * 4 * sizeof(int16_t))
        memset(o.frontier, 0, LEARN_FRONT * LEARN_FCOLS * sizeof(int16_t))
        memset(o.pieces, 0, P * LEARN_PIECES * LEARN_PCOLS * sizeof(int16_t))
    else:
        first = mem[0]
        for i in range(mem[1]):         # last time's frontier marks and rows
            r = o.frontier + i * LEARN_FCOLS
            x = r[1]
            y = r[2]
            if -R <= x <= R and -R <= y <= R:
                o.board[6 * WW + (y + R) * W + x + R] = 0
        if mem[1] > s.nfront:
            memset(o.frontier + s.nfront * LEARN_FCOLS, 0, (mem[1] - s.nfront) * LEARN_FCOLS * sizeof(int16_t))
        for i in range(mem[2]):         # last time's pieces
            r = o.pieces + i * LEARN_PCOLS
            x = r[1]
            y = r[2]
            if -R <= x <= R and -R <= y <= R:
                o.board[(LEARN_CH + (r[4] if r[0] == 1 else P + r[4])) * WW + (y + R) * W + x + R] = 0
        memset(o.pieces, 0, mem[2] * LEARN_PCOLS * sizeof(int16_t))
    memset(o.remaining, 0, NTILES)
    for i in range(first, s.nplaced):
        t = s.order[i]
        x = s.tx[t]
        y = s.ty[t]
        o.tiles[t * 4] = 1
        o.tiles[t * 4 + 1] = x
        o.tiles[t * 4 + 2] = y
        o.tiles[t * 4 + 3] = s.trot[t]
        if -R <= x <= R and -R <= y <= R:
            cellix = (y + R) * W + x + R
            o.board[cellix] = t + 1
            o.board[WW + cellix] = s.trot[t]
            code = T_code[t][s.trot[t]]
            for d in range(4):
                o.board[(2 + d) * WW + cellix] = (code >> (2 * d)) & 3
    for i in range(s.nfront):
        c = &s.cells[s.fsort[i]]
        x = key_x(c.key)
        y = key_y(c.key)
        o.frontier[i * LEARN_FCOLS] = 1
        o.frontier[i * LEARN_FCOLS + 1] = x
        o.frontier[i * LEARN_FCOLS + 2] = y
        for d in range(4):
            o.frontier[i * LEARN_FCOLS + 3 + d] = (c.val >> (2 * d)) & 3
        if -R <= x <= R and -R <= y <= R:
            o.board[6 * WW + (y + R) * W + x + R] = i + 1
    for i in range(s.nonboard + s.nhutzones):
        z = s.onboard[i] if i < s.nonboard else s.hutzones[i - s.nonboard]
        t = T_tile[z]
        p = rel_seat(s, (s.occ[z] - 1) % MAXP, seat)
        x = s.tx[t]
        y = s.ty[t]
        o.pieces[row * LEARN_PCOLS] = 1 if i < s.nonboard else 2
        o.pieces[row * LEARN_PCOLS + 1] = x
        o.pieces[row * LEARN_PCOLS + 2] = y
        o.pieces[row * LEARN_PCOLS + 3] = T_gid[z]
        o.pieces[row * LEARN_PCOLS + 4] = p
        row += 1
        if -R <= x <= R and -R <= y <= R:
            o.board[(LEARN_CH + (p if i < s.nonboard else P + p)) * WW + (y + R) * W + x + R] += 1
    if mem != NULL:
        mem[0] = s.nplaced
        mem[1] = s.nfront
        mem[2] = row
    o.status[0] = s.tile
    o.status[1] = s.extra
    o.status[2] = -1 if (s.over or s.pending) else rel_seat(s, s.player, seat)
    o.status[3] = s.nnormal - s.inormal
    o.status[4] = s.nmenhir - s.imenhir
    o.status[5] = s.over
    o.status[6] = s.nmoves
    o.status[7] = s.pending
    for p in range(P):
        i = (seat + p) % P
        o.supplies[2 * p] = s.meeples[i]
        o.supplies[2 * p + 1] = s.huts[i]
        o.scores[p] = s.score[i]
    for i in range(s.inormal, s.nnormal):
        o.remaining[s.normal[i]] = 1
    for i in range(s.imenhir, s.nmenhir):
        o.remaining[s.menhir[i]] = 1


cdef inline void winners_rewards(State* s, float* rewards, int32_t* finals) noexcept nogil:
    """hunters.learn.terminal_rewards of a finished game, and its final scores."""
    cdef int p, best = s.score[0], leaders = 0
    for p in range(s.nplayers):
        if s.score[p] > best:
            best = s.score[p]
    for p in range(s.nplayers):
        leaders += s.score[p] == best
    for p in range(s.nplayers):
        finals[p] = s.score[p]
        rewards[p] = ((1.0 if leaders == 1 else 0.0) if s.score[p] == best else -1.0)


cdef void new_game(State* s, int players, uint64_t seed, Event* ev) noexcept nogil:
    """The game Game.new(players, seed) starts (shuffled_decks' order, internal chance)."""
    cdef uint8_t normal[NTILES]
    cdef uint8_t menhir[NTILES]
    cdef uint64_t rng = seed
    memcpy(normal, ALL_NORMAL, N_NORMAL)
    rng_shuffle(&rng, normal, N_NORMAL)
    memcpy(menhir, ALL_MENHIR, N_MENHIR)
    rng_shuffle(&rng, menhir, N_MENHIR)
    init_state(s, players, normal, N_NORMAL, menhir, N_MENHIR)
    start(s, ev)



# ---------------------------------------------------------------------------------------------
# The Python handle.

cdef list _events_list(Event* ev, int n, int decision):
    cdef list out = []
    cdef int i, p
    for i in range(n):
        out.append((decision, ev[i].reason, tuple([p for p in range(MAXP) if ev[i].seats & (1 << p)]),
                    ev[i].points, ev[i].feature))
    return out


cdef class CoreGame:
    """One game's C state. Methods take and return plain ints, tuples and lists."""
    cdef State* s

    def __cinit__(self):
        self.s = <State*>checked_malloc(sizeof(State))

    def __dealloc__(self):
        free(self.s)

    @staticmethod
    def create(int players, normal, menhir, bint chance=False):
        """A new game; returns (game, events of an immediate end). `chance`: external chance (every
        draw waits for apply_chance)."""
        cdef CoreGame g = CoreGame.__new__(CoreGame)
        cdef uint8_t nbuf[NTILES]
        cdef uint8_t mbuf[NTILES]
        cdef Event ev[MAXEV]
        cdef int i, n
        if not MINP <= players <= MAXP:
            raise ValueError(f"players must be {MINP}..{MAXP}")
        if len(normal) > NTILES or len(menhir) > NTILES:
            raise ValueError("a pile holds at most every tile once")
        for i, t in enumerate(normal):
            nbuf[i] = t
        for i, t in enumerate(menhir):
            mbuf[i] = t
        init_state(g.s, players, nbuf, len(normal), mbuf, len(menhir))
        g.s.chance = chance
        n = start(g.s, ev)
        return g, _events_list(ev, n, 0)

    def clone(self):
        cdef CoreGame g = CoreGame.__new__(CoreGame)
        memcpy(g.s, self.s, sizeof(State))
        return g

    @property
    def tile(self):
        return self.s.tile if self.s.tile >= 0 else None

    @property
    def player(self):
        return self.s.player

    @property
    def nplayers(self):
        return self.s.nplayers

    @property
    def over(self):
        return bool(self.s.over)

    @property
    def extra(self):
        return bool(self.s.extra)

    @property
    def chance(self):
        """Whether draws are external chance nodes."""
        return bool(self.s.chance)

    @property
    def pending(self):
        """External chance: 0 no draw pending, 1 a normal-pile draw, 2 a menhir-pile draw."""
        return self.s.pending

    def chance_tiles(self):
        """The tiles the pending draw may turn up (the pile's undrawn tiles, ascending), or []."""
        if self.s.pending == 1:
            return sorted([self.s.normal[i] for i in range(self.s.inormal, self.s.nnormal)])
        if self.s.pending == 2:
            return sorted([self.s.menhir[i] for i in range(self.s.imenhir, self.s.nmenhir)])
        return []

    def apply_chance(self, int tile):
        """Resolve the pending draw with `tile`; return its events as play_code does (final
        scoring when the pile ran out), or None when `tile` is no outcome of it."""
        cdef Event ev[MAXEV]
        cdef int n
        if tile < 0 or tile >= NTILES:
            return None
        n = resolve_chance(self.s, tile, ev)
        if n < 0:
            return None
        return _events_list(ev, n, self.s.nmoves)

    # -- learning (hunters.carcassonne.learn) -------------------------------------------------
    def learn_codes(self):
        """The compact code of every legal move, ascending."""
        cdef uint32_t* buf = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
        cdef int n
        with nogil:
            n = learn_codes(self.s, buf)
        out = uint32_list(buf, n)
        free(buf)
        return out

    def learn_mask(self, uint8_t[::1] out):
        """Zero `out` (LEARN_ACTIONS bytes) and set 1 at every legal compact code."""
        cdef uint32_t* buf = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
        cdef int n, i
        if out.shape[0] != LEARN_FRONT * 4 * OCC_SLOTS * RETAKE_SLOTS:
            free(buf)
            raise ValueError("the mask must have LEARN_ACTIONS entries")
        with nogil:
            n = learn_codes(self.s, buf)
            memset(&out[0], 0, out.shape[0])
            for i in range(n):
                out[buf[i]] = 1
        free(buf)

    def learn_decode(self, uint32_t code):
        """(refusal, internal move code) of a compact code below LEARN_ACTIONS (refusal 0: legal)."""
        cdef uint32_t out = 0
        cdef int err = learn_decode(self.s, code, &out)
        return err, out

    def learn_code_of(self, uint32_t code):
        """The compact code of a legal internal move code."""
        cdef uint32_t* buf = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
        cdef int n, i
        cdef uint32_t res = 0xFFFFFFFF
        n = gen_moves(self.s, buf)
        for i in range(n):
            if buf[i] == code:
                n = learn_codes(self.s, buf)
                res = buf[i]
                break
        free(buf)
        return None if res == 0xFFFFFFFF else res

    def observe(self, int seat, uint8_t[::1] board, int16_t[::1] tiles, int16_t[::1] frontier,
                int16_t[::1] pieces, int16_t[::1] status, int16_t[::1] supplies, int32_t[::1] scores,
                uint8_t[::1] remaining):
        """Fill the observation of `seat` into flat buffers of the layout's sizes."""
        cdef ObsBufs o
        cdef int P = self.s.nplayers
        if not 0 <= seat < P:
            raise ValueError(f"seat must be in [0, {P})")
        if (board.shape[0] != (LEARN_CH + 2 * P) * LEARN_W * LEARN_W or tiles.shape[0] != NTILES * 4
                or frontier.shape[0] != LEARN_FRONT * LEARN_FCOLS or pieces.shape[0] != P * LEARN_PIECES * LEARN_PCOLS
                or status.shape[0] != LEARN_STATUS or supplies.shape[0] != 2 * P or scores.shape[0] != P
                or remaining.shape[0] != NTILES):
            raise ValueError("observation buffers of the wrong size")
        o.board = &board[0]
        o.tiles = &tiles[0]
        o.frontier = &frontier[0]
        o.pieces = &pieces[0]
        o.status = &status[0]
        o.supplies = &supplies[0]
        o.scores = &scores[0]
        o.remaining = &remaining[0]
        with nogil:
            observe_into(self.s, seat, &o, NULL)

    @property
    def nmoves(self):
        return self.s.nmoves

    def scores(self):
        return [self.s.score[p] for p in range(self.s.nplayers)]

    def meeples(self):
        return [self.s.meeples[p] for p in range(self.s.nplayers)]

    def huts(self):
        return [self.s.huts[p] for p in range(self.s.nplayers)]

    def piles(self):
        """Tiles left in the normal and the menhir pile."""
        return self.s.nnormal - self.s.inormal, self.s.nmenhir - self.s.imenhir

    def discards(self):
        return [self.s.discards[i] for i in range(self.s.ndiscards)]

    def moves(self):
        return [self.s.moves[i] for i in range(self.s.nmoves)]

    def board(self):
        """(x, y, tile, rotation) in placement order."""
        cdef int i, t
        return [(self.s.tx[t], self.s.ty[t], t, self.s.trot[t])
                for t in [self.s.order[i] for i in range(self.s.nplaced)]]

    def occupants(self):
        """(global zone, seat, kind) of every piece on the board, sorted by zone."""
        cdef int t, dz, o
        out = []
        for t in sorted([self.s.order[i] for i in range(self.s.nplaced)]):
            for dz in range(T_first[t], T_first[t] + T_nz[t]):
                o = self.s.occ[dz]
                if o:
                    out.append((T_gid[dz], (o - 1) % MAXP, "meeple" if o <= MAXP else "hut"))
        return out

    def feature_id(self, int gid):
        """Canonical id of the feature (lake: river system) holding a placed zone, or None."""
        if gid < 0 or gid >= NTILES * 10 or T_gid2dz[gid] < 0 or not self.s.placed[gid // 10]:
            return None
        cdef int dz = T_gid2dz[gid]
        if T_type[dz] == LAKE:
            return self.s.agg[sfind(self.s, dz)].sminz
        return self.s.agg[ffind(self.s, dz)].minz

    def system_id(self, int gid):
        """Canonical id of the river system holding a placed river or lake zone, or None."""
        if gid < 0 or gid >= NTILES * 10 or T_gid2dz[gid] < 0 or not self.s.placed[gid // 10]:
            return None
        cdef int dz = T_gid2dz[gid]
        if T_type[dz] != RIVER and T_type[dz] != LAKE:
            return None
        return self.s.agg[sfind(self.s, dz)].sminz

    def legal_codes(self):
        """Every legal move code of the current decision, sorted."""
        cdef uint32_t* buf = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
        cdef int n
        with nogil:
            n = gen_moves(self.s, buf)
        out = uint32_list(buf, n)
        free(buf)
        return out

    def legal_actions(self):
        """The dense action code of every legal move, ascending (= legal_codes() order)."""
        cdef uint32_t* buf = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
        cdef int n
        with nogil:
            n = gen_moves(self.s, buf)
            codes_to_actions(self.s, buf, n)
        out = uint32_list(buf, n)
        free(buf)
        return out

    def action_mask(self):
        """A new bytearray of ACTION_SPACE_SIZE bytes, 1 at every legal action (zeroed once, filled in C)."""
        cdef Py_ssize_t size = ACTION_SIDE * ACTION_SIDE * 4 * OCC_SLOTS * RETAKE_SLOTS
        cdef bytearray mask = PyByteArray_FromStringAndSize(NULL, size)
        cdef char* out = PyByteArray_AS_STRING(mask)
        cdef uint32_t* buf = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
        cdef int n, i
        with nogil:
            n = gen_moves(self.s, buf)
            codes_to_actions(self.s, buf, n)
            memset(out, 0, size)
            for i in range(n):
                out[buf[i]] = 1
        free(buf)
        return mask

    def action_of(self, uint32_t code):
        """The dense action code of a move code of the current decision."""
        cdef uint32_t a = code
        codes_to_actions(self.s, &a, 1)
        return a

    def count_legal(self):
        cdef uint32_t* buf = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
        cdef int n
        with nogil:
            n = gen_moves(self.s, buf)
        free(buf)
        return n

    def check(self, int x, int y, int rot, int occslot, int retake_gid):
        """Error code of a move (0 when legal); retake_gid is -1 for none."""
        cdef int rdz = -1
        if self.s.over:
            return E_GAME_OVER
        if self.s.tile < 0:
            return E_CHANCE_PENDING
        if occslot < 0 or occslot >= OCC_SLOTS:
            return E_BAD_ZONE_TYPE
        if retake_gid >= 0:
            if retake_gid >= NTILES * 10 or T_gid2dz[retake_gid] < 0:
                return E_UNKNOWN_ZONE
            rdz = T_gid2dz[retake_gid]
        return validate(self.s, x, y, rot, occslot, rdz)

    def encode(self, int x, int y, int rot, int occslot, int retake_gid):
        """Internal code of a move that check() accepted."""
        cdef uint32_t ret = 0 if retake_gid < 0 else T_gid2dz[retake_gid] + 1
        return (<uint32_t>pkey(x, y) << 16) | (<uint32_t>rot << 14) | (<uint32_t>occslot << 9) | ret

    def play_code(self, uint32_t code):
        """Apply a legal move code; return its events as tuples (decision, reason, seats, points, feature)."""
        cdef Event ev[MAXEV]
        cdef int n, decision = self.s.nmoves
        with nogil:
            n = apply_move(self.s, code, ev)
        cdef list out = _events_list(ev, n, decision)
        if self.s.over:  # final-scoring events belong to no decision: they carry the move count
            for i in range(len(out)):
                if out[i][1] in (EV_SYSTEM, EV_RAFT, EV_MEADOW):
                    out[i] = (decision + 1,) + out[i][1:]
        return out

    def random_code(self, uint64_t seed):
        """A random legal move code (uniform placement, then uniform occupant), from `seed`."""
        cdef uint64_t rng = seed
        if self.s.over or self.s.tile < 0:
            return None
        return random_move(self.s, &rng)

    # -- search (hunters.bots) ---------------------------------------------------------------
    def masked(self):
        """A copy whose undrawn tiles lie in ascending order in both piles: what a seat may know
        (the contents of the piles, not their order)."""
        cdef CoreGame g = self.clone()
        sort_bytes(g.s.normal + g.s.inormal, g.s.nnormal - g.s.inormal)
        sort_bytes(g.s.menhir + g.s.imenhir, g.s.nmenhir - g.s.imenhir)
        return g

    def redeal(self, uint64_t seed):
        """Reshuffle the undrawn tiles of both piles from `seed` (a determinization), in place."""
        cdef uint64_t rng = seed
        mc_determinize(self.s, NULL, &rng)     # Det is not read by this game's determinization

    def drawn(self):
        """The tiles drawn so far from the normal and the menhir pile, in draw order (public)."""
        return ([self.s.normal[i] for i in range(self.s.inormal)],
                [self.s.menhir[i] for i in range(self.s.imenhir)])

    def undrawn(self):
        """The undrawn tiles of the normal and the menhir pile, in draw order."""
        return ([self.s.normal[i] for i in range(self.s.inormal, self.s.nnormal)],
                [self.s.menhir[i] for i in range(self.s.imenhir, self.s.nmenhir)])

    def playouts(self, long n, uint64_t seed, bint determinize=False, double bare=0.0):
        """n random playouts to the end (uniform; `bare`: see mcts), each from a copy of this state:
        with its own pile order, or (determinize) each with the undrawn tiles reshuffled. Returns
        (total points per seat, wins per seat, decisions played)."""
        if n < 0:
            raise ValueError("n must be >= 0")
        cdef Det d
        d.bare = bare
        return mc_playouts(self.s, &d, n, seed, determinize)

    def mcts(self, long iterations, double seconds, double explore, double margin_weight,
             double margin_scale, uint64_t seed, double bare=0.0, unsigned char[::1] stop=None):
        """IS-MCTS from this state for the seat to move (see mcts.pxi): (iterations done,
        [(move code, visits, mean reward)] of the root's moves). `bare`: probability that a
        playout move places no piece (0: uniform over every legal move option)."""
        cdef Det d
        if self.s.over:
            raise ValueError("the game is over")
        if self.s.tile < 0:
            raise ValueError("a chance draw is pending")
        if iterations <= 0 and seconds <= 0:
            raise ValueError("give iterations or seconds")
        if not 0.0 <= bare <= 1.0:
            raise ValueError("bare must be in [0, 1]")
        d.bare = bare
        return mc_run(self.s, &d, iterations, seconds, explore, margin_weight, margin_scale, seed,
                      NULL if stop is None else &stop[0])


def decode(uint32_t code):
    """(x, y, rotation, occupant slot, retake global id or -1) of an internal move code."""
    cdef uint16_t key = code >> 16
    cdef int ret = <int>(code & 511) - 1
    return (key_x(key), key_y(key), (code >> 14) & 3, (code >> 9) & 31,
            T_gid[ret] if ret >= 0 else -1)


def random_games(int n, int players, uint64_t seed):
    """Play n complete random games in C (seeded decks and moves); return
    (games, decisions, total points per seat, winners per seat)."""
    cdef State* s
    cdef Event* ev
    cdef uint8_t normal[NTILES]
    cdef uint8_t menhir[NTILES]
    cdef uint8_t all_normal[NTILES]
    cdef uint8_t all_menhir[NTILES]
    cdef uint64_t rng = seed, dseed
    cdef int g, p, best, nn = tile_array(NORMAL_TILES, all_normal), nm = tile_array(MENHIR_TILES, all_menhir)
    cdef long decisions = 0
    cdef long totals[MAXP]
    cdef long wins[MAXP]
    cdef uint32_t code
    if not MINP <= players <= MAXP or n < 0:
        raise ValueError(f"players must be {MINP}..{MAXP} and n >= 0")
    s = <State*>checked_malloc(sizeof(State))
    try:
        ev = <Event*>checked_malloc(MAXEV * sizeof(Event))
    except MemoryError:
        free(s)
        raise
    for p in range(MAXP):
        totals[p] = 0
        wins[p] = 0
    with nogil:  # once for the whole run: other threads (a server's) never wait on us, nor we on them
        for g in range(n):
            dseed = rng_next(&rng)
            shuffle_into(&dseed, all_normal, nn, normal)
            shuffle_into(&dseed, all_menhir, nm, menhir)
            init_state(s, players, normal, nn, menhir, nm)
            start(s, ev)
            while not s.over:
                code = random_move(s, &rng)
                apply_move(s, code, ev)
                decisions += 1
            best = s.score[0]
            for p in range(players):
                totals[p] += s.score[p]
                if s.score[p] > best:
                    best = s.score[p]
            for p in range(players):
                if s.score[p] == best:
                    wins[p] += 1
    free(s)
    free(ev)
    return n, decisions, [totals[p] for p in range(players)], [wins[p] for p in range(players)]


def state_size():
    """Bytes copied by clone()."""
    return sizeof(State)


cdef enum:
    PREV_CAP = 2048       # mask entries a slot remembers to clear (more: the row is zeroed whole)
LEARN_LEGAL_CAP = PREV_CAP


cdef class LearnCore:
    """`games` H&G games stepped together in C (the engine of hunters.carcassonne.learn.Batch).
    Buffers are the caller's (numpy arrays passed as memoryviews once, at bind())."""
    cdef State* states
    cdef int n, players, nthreads
    cdef uint64_t seed
    cdef uint64_t* epochs         # games started so far in each slot
    cdef uint32_t[:, ::1] prev    # per slot: the mask entries set last time (PREV_CAP each): the legal codes
    cdef int32_t[::1] nprev       # per slot: how many (-1: more than PREV_CAP, clear the row)
    cdef uint32_t* work           # per thread: MAXMOVES codes
    cdef uint32_t* todo           # per slot: the internal code to play
    cdef int32_t* errs            # per slot: the refusal of its action
    cdef int16_t* omem            # per slot: what its observation buffers hold (see observe_into)
    cdef Event* ev                # per thread: MAXEV events
    cdef uint8_t[:, ::1] mask
    cdef uint8_t[:, ::1] board
    cdef int16_t[:, ::1] tiles
    cdef int16_t[:, ::1] frontier
    cdef int16_t[:, ::1] pieces
    cdef int16_t[:, ::1] status
    cdef int16_t[:, ::1] supplies
    cdef int32_t[:, ::1] scores
    cdef uint8_t[:, ::1] remaining
    cdef int32_t[::1] player
    cdef float[:, ::1] rewards
    cdef uint8_t[::1] done
    cdef int32_t[:, ::1] finals

    def __cinit__(self, int games, int players, int threads=1):
        if games < 1 or not MINP <= players <= MAXP or threads < 1:
            raise ValueError(f"games and threads must be >= 1 and players {MINP}..{MAXP}")
        self.n = games
        self.players = players
        self.nthreads = threads
        self.states = <State*>checked_malloc(games * sizeof(State))
        self.epochs = <uint64_t*>checked_malloc(games * sizeof(uint64_t))
        self.work = <uint32_t*>checked_malloc(threads * MAXMOVES * sizeof(uint32_t))
        self.todo = <uint32_t*>checked_malloc(games * sizeof(uint32_t))
        self.errs = <int32_t*>checked_malloc(games * sizeof(int32_t))
        self.omem = <int16_t*>checked_malloc(3 * games * sizeof(int16_t))
        memset(self.omem, 0, 3 * games * sizeof(int16_t))
        self.ev = <Event*>checked_malloc(threads * MAXEV * sizeof(Event))

    def __dealloc__(self):
        free(self.states)
        free(self.epochs)
        free(self.work)
        free(self.todo)
        free(self.errs)
        free(self.omem)
        free(self.ev)

    def bind(self, mask, board, tiles, frontier, pieces, status, supplies, scores, remaining,
             player, rewards, done, finals, legal, nlegal):
        """Take the output buffers (2-D: one row per game; shapes checked by the caller). `legal`
        [games, PREV_CAP] receives each game's legal codes, ascending, and `nlegal` their count
        (-1 when there are more than PREV_CAP: then only the mask has them)."""
        if legal.shape[1] != PREV_CAP:
            raise ValueError(f"legal must have {PREV_CAP} columns")
        self.prev = legal
        self.nprev = nlegal
        self.mask = mask
        self.board = board
        self.tiles = tiles
        self.frontier = frontier
        self.pieces = pieces
        self.status = status
        self.supplies = supplies
        self.scores = scores
        self.remaining = remaining
        self.player = player
        self.rewards = rewards
        self.done = done
        self.finals = finals

    cdef void refill(self, int i, int tid) noexcept nogil:
        """Mask (clearing only last time's entries), observation and player of slot i (thread tid's
        work buffer)."""
        cdef State* s = &self.states[i]
        cdef uint8_t* row = &self.mask[i, 0]
        cdef uint32_t* prev = &self.prev[i, 0]
        cdef int k, m
        cdef ObsBufs o
        if self.nprev[i] < 0:
            memset(row, 0, LEARN_FRONT * 4 * OCC_SLOTS * RETAKE_SLOTS)
        else:
            for k in range(self.nprev[i]):
                row[prev[k]] = 0
        cdef uint32_t* work = self.work + <Py_ssize_t>tid * MAXMOVES
        m = learn_codes(s, work)
        for k in range(m):
            row[work[k]] = 1
        if m <= PREV_CAP:
            memcpy(prev, work, m * sizeof(uint32_t))
            self.nprev[i] = m
        else:
            self.nprev[i] = -1
        o.board = &self.board[i, 0]
        o.tiles = &self.tiles[i, 0]
        o.frontier = &self.frontier[i, 0]
        o.pieces = &self.pieces[i, 0]
        o.status = &self.status[i, 0]
        o.supplies = &self.supplies[i, 0]
        o.scores = &self.scores[i, 0]
        o.remaining = &self.remaining[i, 0]
        observe_into(s, s.player, &o, &self.omem[3 * i])
        self.player[i] = s.player

    cdef void restart(self, int i, int tid) noexcept nogil:
        self.omem[3 * i] = 0        # a new game: its first observation starts from scratch
        new_game(&self.states[i], self.players, self.seed + self.epochs[i] * <uint64_t>self.n + <uint64_t>i,
                 self.ev + <Py_ssize_t>tid * MAXEV)
        self.epochs[i] += 1

    cdef void advance_one(self, int i, int tid) noexcept nogil:
        """Play slot i's checked move; a finished game gives its rewards and restarts; refill."""
        cdef State* s = &self.states[i]
        apply_move(s, self.todo[i], self.ev + <Py_ssize_t>tid * MAXEV)
        if s.over:
            winners_rewards(s, &self.rewards[i, 0], &self.finals[i, 0])
            self.done[i] = 1
            self.restart(i, tid)
        else:
            if self.done[i]:
                memset(&self.rewards[i, 0], 0, self.players * sizeof(float))
                memset(&self.finals[i, 0], 0, self.players * sizeof(int32_t))
            self.done[i] = 0
        self.refill(i, tid)

    def reset(self, uint64_t seed):
        cdef int i
        self.seed = seed
        with nogil:
            for i in range(self.n):
                self.epochs[i] = 0
                self.nprev[i] = -1
                self.restart(i, 0)
                self.done[i] = 0
                memset(&self.rewards[i, 0], 0, self.players * sizeof(float))
                memset(&self.finals[i, 0], 0, self.players * sizeof(int32_t))
                self.refill(i, 0)

    def step(self, const int64_t[::1] actions):
        """Play actions[i] in game i. Returns (-1, 0) after playing them all, or (slot, refusal)
        of the first illegal one, having played none (every action is checked first)."""
        cdef int i, n = self.n
        if actions.shape[0] != n:
            raise ValueError(f"expected {n} actions, got {actions.shape[0]}")
        with nogil:
            for i in prange(n, num_threads=self.nthreads, schedule="static"):
                if actions[i] < 0 or actions[i] >= LEARN_FRONT * 4 * OCC_SLOTS * RETAKE_SLOTS:
                    self.errs[i] = E_NO_POSITION
                else:
                    self.errs[i] = learn_decode(&self.states[i], <uint32_t>actions[i], &self.todo[i])
        for i in range(n):
            if self.errs[i] != OK:
                return i, self.errs[i]
        with nogil:
            for i in prange(n, num_threads=self.nthreads, schedule="dynamic", chunksize=4):
                self.advance_one(i, threadid())
        return -1, 0

    def game_state(self, int i):
        """A CoreGame copy of slot i."""
        if not 0 <= i < self.n:
            raise IndexError(f"slot must be in [0, {self.n})")
        cdef CoreGame g = CoreGame.__new__(CoreGame)
        memcpy(g.s, &self.states[i], sizeof(State))
        return g

    def slot_seed(self, int i):
        """The seed of the game now in slot i."""
        return self.seed + (self.epochs[i] - 1) * <uint64_t>self.n + <uint64_t>i


include "hunters/_core/rank.pxi"
include "_core_eval.pxi"
include "_core_perft.pxi"
include "_core_greedy.pxi"
include "_core_afterstates.pxi"
include "_core_wire.pxi"
