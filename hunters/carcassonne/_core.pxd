# cython: language_level=3
"""Flat C data of the Hunters & Gatherers core: tables (never change) and the game state.

Zones are addressed by a dense index `dz` (0 .. number of zones - 1, ordered by tile then local id);
`T_gid[dz]` is the public global id `tile * 10 + local`. Union-find aggregates are only meaningful
at a root. The whole game is one `State` struct: cloning is a single memcpy.
"""
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t

cdef enum:
    NTILES = 95
    MAXZ = 416          # >= zones in the tile set (408), checked when the tables load
    MAXP = 5            # players
    NMEEPLES = 5        # meeples per player
    NHUTS = 3           # huts per player
    HSIZE = 512         # cells hash table (tiles + frontier <= 95 + 192)
    MAXFRONT = 256      # frontier positions
    MAXDEC = 128        # decisions per game (78 normal + 16 menhir tiles at most)
    MAXEV = 512         # events of one call (final scoring included)
    MAXMOVES = 16384    # legal moves of one decision (generous: measured maxima are in the hundreds)
    START_TILE = 56
    SHAMAN = 88
    LOGBOAT = 93
    HUNTING_TRAP = 94
    PIT_TRAP = 92
    WILD_FIRE = 85
    MINP = 2            # players: MINP..MAXP
    COORD_BOUND = 94    # |x|, |y| of any position a tile can be placed on (94 tiles around the start)

# occupant slots of a move (shared with the dense action layout of hunters.carcassonne.actions):
# 0 none, MEEPLE_SLOT + local for a meeple on local zone 0..MEEPLE_LOCALS-1 (forest, meadow and river
# zones all have such locals: checked when the tables load), HUT_SLOT + local for a hut on 0..9
cdef enum:
    MEEPLE_SLOT = 1
    MEEPLE_LOCALS = 8
    HUT_SLOT = 9        # MEEPLE_SLOT + MEEPLE_LOCALS
    HUT_LOCALS = 10
    OCC_SLOTS = 19      # HUT_SLOT + HUT_LOCALS
    RETAKE_SLOTS = 6    # 0 none, 1 + k for the k-th own meeple on the board (NMEEPLES + 1)
    ACTION_SIDE = 189   # 2 * COORD_BOUND + 1

# side and zone types (side types use the first three)
cdef enum:
    FOREST = 1
    MEADOW = 2
    RIVER = 3
    LAKE = 4

# powers
cdef enum:
    P_NONE = 0
    P_SHAMAN = 1
    P_LOGBOAT = 2
    P_HUNTING = 3
    P_PIT = 4
    P_FIRE = 5
    P_RAFT = 6

# meadow flags / system flags
cdef enum:
    F_FIRE = 1
    F_PIT = 2
    SF_RAFT = 1

# event reasons
cdef enum:
    EV_FOREST = 0
    EV_RIVER = 1
    EV_LOGBOAT = 2
    EV_HUNTING = 3
    EV_SYSTEM = 4
    EV_RAFT = 5
    EV_MEADOW = 6

# why a move is refused (0 = legal); the Python layer names them
cdef enum:
    OK = 0
    E_GAME_OVER = 1
    E_BAD_ROTATION = 2
    E_NOT_ADJACENT = 3
    E_POSITION_OCCUPIED = 4
    E_SIDE_MISMATCH = 5
    E_RETAKE_NOT_ALLOWED = 6
    E_NOT_YOUR_MEEPLE = 7
    E_ZONE_NOT_ON_TILE = 8
    E_BAD_ZONE_TYPE = 9
    E_NO_MEEPLE_LEFT = 10
    E_NO_HUT_LEFT = 11
    E_FEATURE_OCCUPIED = 12
    E_SYSTEM_OCCUPIED = 13
    E_UNKNOWN_ZONE = 14
    E_CHANCE_PENDING = 15   # external chance: a draw is pending, no seat decides now
    E_NO_POSITION = 16      # compact code: no open position has that frontier index

# the compact learning layout (hunters.carcassonne.learn)
cdef enum:
    LEARN_FRONT = 192       # frontier indices: an open position count never exceeds 2 * 94 + 2
    LEARN_RADIUS = 15       # board planes: positions with |x|, |y| <= LEARN_RADIUS
    LEARN_W = 31            # 2 * LEARN_RADIUS + 1
    LEARN_CH = 7            # board channels before the 2 * players occupant channels
    LEARN_STATUS = 8        # entries of the status field
    LEARN_FCOLS = 7         # columns of the frontier field
    LEARN_PCOLS = 5         # columns of the pieces field
    LEARN_PIECES = 8        # piece rows per player (NMEEPLES + NHUTS)

ctypedef struct Agg:
    int16_t minz        # feature root: smallest global zone id (the canonical feature id)
    int16_t sminz       # system root: smallest global zone id of the river system
    int16_t size        # feature root: zones in the feature (union by size; distinct-tile base)
    int16_t ssize       # system root: zones in the system
    uint32_t lakes      # river root: bitmask of lake indices attached to its zones (its end lakes)
    int8_t open         # forest/river root: sides not yet matched by a neighbour
    uint8_t fish        # river root: fish in its river zones
    uint8_t menhir      # forest root: menhir forest zones
    uint8_t mush        # forest root: mushroom forest zones
    uint8_t anim[4]     # meadow root: uncovered mammoths, aurochs, deer, tigers
    uint8_t flags       # meadow root: F_FIRE | F_PIT
    uint8_t nmeeples    # feature root: meeples of all players
    uint8_t meeples[MAXP]  # feature root: meeples per player
    uint8_t nhuts       # system root: huts of all players
    uint8_t huts[MAXP]  # system root: huts per player
    uint8_t sfish       # system root: fish in all its river and lake zones
    uint8_t slakes      # system root: lake zones
    uint8_t sflags      # system root: SF_RAFT

ctypedef struct Cell:
    uint16_t key        # packed position ((y + 128) << 8 | (x + 128)); 0 = free slot
    int8_t tile         # tile placed here, or -1 for a frontier position
    uint8_t val         # frontier: 2 bits per direction, the side type a placed neighbour requires
                        # there (0: no neighbour; side types are never 0, so val alone is the rule)
    uint8_t rot         # placed: rotation
    int16_t fidx        # frontier: index in State.frontier, else -1

ctypedef struct State:
    int16_t parent[MAXZ]     # feature union-find (forest, meadow, river zones)
    int16_t sparent[MAXZ]    # river-system union-find (river and lake zones)
    Agg agg[MAXZ]
    uint8_t occ[MAXZ]        # 0 empty, 1 + p meeple of p, 1 + MAXP + p hut of p
    uint8_t covered[MAXZ]    # bit i: animal i of this zone covered by the hunting trap
    Cell cells[HSIZE]
    uint16_t frontier[MAXFRONT]  # cells (slots of State.cells) of the empty positions next to a tile
    uint8_t fval[MAXFRONT]   # copy of each frontier cell's val, contiguous for the scans
    int16_t nfront
    int8_t tx[NTILES]        # placed tiles: position and rotation, by tile id
    int8_t ty[NTILES]
    uint8_t trot[NTILES]
    uint8_t placed[NTILES]
    uint8_t order[NTILES]    # tiles in placement order (start tile first)
    int16_t nplaced
    uint8_t normal[NTILES]   # normal draw pile, drawn from index inormal
    uint8_t menhir[NTILES]   # menhir draw pile, drawn from index imenhir
    int16_t nnormal
    int16_t inormal
    int16_t nmenhir
    int16_t imenhir
    uint8_t discards[NTILES]
    int16_t ndiscards
    int8_t nplayers
    int8_t player            # seat deciding now
    int8_t tile              # tile to place now, -1 when over
    int8_t extra             # 1 while the current decision is a menhir extra turn
    int8_t over
    int32_t score[MAXP]
    uint8_t meeples[MAXP]    # in supply
    uint8_t huts[MAXP]       # in supply
    int16_t onboard[MAXP * NMEEPLES]  # dense zones holding a meeple
    int16_t nonboard
    uint32_t moves[MAXDEC]   # decisions played, as internal move codes
    int16_t nmoves
    uint16_t fsort[MAXFRONT] # cells (slots of State.cells) of the frontier, ascending by key (y, x)
    int16_t hutzones[MAXP * NHUTS]  # dense zones holding a hut, in placement order
    int16_t nhutzones
    uint8_t chance           # 1: external chance (every draw waits for apply_chance)
    uint8_t pending          # external chance: 0 none, 1 a normal-pile draw, 2 a menhir-pile draw

ctypedef struct Event:
    uint8_t reason
    uint8_t seats            # bit p set: seat p scores
    int16_t feature          # canonical feature id (smallest global zone id)
    int32_t points
