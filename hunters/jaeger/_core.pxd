# cython: language_level=3
"""Flat C data of the Jäger und Sammler core: the per-game configuration (never changes during
play: board, caves, winter deck, options) and the game state.

Spaces are addressed by their index 0 .. n - 1 (default board: row * 12 + col). A tile on a space is
one byte `code = kind | value << 4` (value: a mammoth's points, else 0); 0 is no tile (a camp, or a
hole where a tile was taken or removed). The whole game is one `State` struct holding a pointer to its
`Config`: cloning is a single memcpy, the configuration is shared.
"""
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t

cdef enum:
    MAXS = 256          # spaces on a board
    MAXDEG = 8          # neighbour slots per space
    MAXP = 4            # players
    MAXCH = 16          # characters of one player on the board in one season
    MAXCAMPS = 16       # camps of one season
    MAXCAVES = 32       # cave tiles
    NKINDS = 12         # tile kinds (below)
    MAXMV = 16          # mammoth values are 1 .. MAXMV - 1
    MAXEV = 1024        # events of one call (a turn with two season ends included)
    LEAVE = -1          # the destination of a "leave the board" step
    NOWHERE = -2        # no destination (a slot that leads nowhere)

# tile kinds (low 4 bits of a tile code)
cdef enum:
    K_NONE = 0
    K_BERRIES = 1
    K_TUBERS = 2
    K_HERBS = 3
    K_JUG = 4
    K_NECKLACE = 5
    K_PELT = 6
    K_SKULL = 7
    K_WEAPON = 8
    K_MAMMOTH = 9
    K_PATH = 10
    K_CAVE = 11

# space kinds
cdef enum:
    SP_TILE = 0
    SP_SUMMER = 1       # summer camp
    SP_WINTER = 2       # winter camp

# seasons
cdef enum:
    SUMMER = 0
    WINTER = 1
    OVER = 2

# why a season ended
cdef enum:
    END_NO_CHARACTERS = 1
    END_UNREACHABLE = 2
    END_STALL = 3

# who starts winter when nobody took a summer mammoth (option winter_start); START_MAMMOTH = the rule
cdef enum:
    START_MAMMOTH = 0
    START_AFTER_LAST = 1
    START_SEAT0 = 2

# events
cdef enum:
    EV_TAKE = 0
    EV_SPEND_WEAPON = 1
    EV_SUPPLY_PACK = 2
    EV_LEAVE = 3
    EV_SEASON_END = 4
    EV_REMOVE = 5
    EV_PLACE = 6
    EV_WINTER_START = 7
    EV_GAME_END = 8

# why a turn is refused (0 = legal); the Python layer names them
cdef enum:
    OK = 0
    E_GAME_OVER = 1
    E_UNKNOWN_SPACE = 2
    E_NOT_YOUR_CHARACTER = 3
    E_NOT_ADJACENT = 4
    E_HOLE = 5
    E_OCCUPIED = 6
    E_NO_WEAPON = 7
    E_NOT_STRAIGHT = 8
    E_STEP_COUNT = 9

ctypedef struct Config:
    int16_t n                       # spaces
    int16_t ndir                    # neighbour slots per space (default grid: 6 directions)
    uint8_t kind[MAXS]              # SP_TILE, SP_SUMMER or SP_WINTER
    int16_t nb[MAXS][MAXDEG]        # neighbour in slot k, or -1
    int16_t beyond[MAXS][MAXDEG]    # straight continuation of a jump from s over nb[s][k], or -1
    int16_t camps[2][MAXCAMPS]      # summer camps, winter camps: spaces, ascending
    int16_t ncamps[2]
    int16_t caves[MAXCAVES]         # spaces of the cave tiles (caves never leave the board), ascending
    int16_t ncaves
    int8_t cave_idx[MAXS]           # index of the space in caves, or -1
    int16_t nslots                  # action slots per space: ndir + ncaves + 1 (the last = leave)
    uint32_t nstep                  # step codes: n * nslots
    uint8_t wdeck[MAXS]             # winter tiles (codes) in dealing order
    int16_t nwdeck
    int16_t stall_rounds            # option: rounds without a taken tile that end a season; 0 = off
    uint8_t straight                # option: a jump over an occupied tile must be straight
    uint8_t winter_start            # option: START_AFTER_LAST or START_SEAT0 when nobody took a summer mammoth
    uint8_t shared_ties             # option: tied players share the victory (else a tie has no winner)

ctypedef struct State:
    Config* cfg                     # shared, never written during play
    uint8_t tile[MAXS]              # tile code on each space, 0 = none
    uint8_t nocc[MAXS]              # characters on the space (all players)
    uint8_t packs_at[MAXS]          # bit p: a supply pack of player p is on this camp
    int16_t pos[MAXP][MAXCH]        # space of each character this season, -1 = off the board
    int8_t nch[MAXP]                # characters each player has this season (entries of pos)
    int8_t onb[MAXP]                # of those, still on the board
    int8_t packs[MAXP]              # supply packs in hand
    int16_t weapons[MAXP]           # weapons held (taken and not spent)
    int16_t spent[MAXP]             # weapons spent on mammoths
    int16_t taken[MAXP][NKINDS]     # tiles taken, by kind (spent weapons included)
    int16_t mcount[MAXP][MAXMV]     # mammoths taken, by value
    int16_t removed[NKINDS]         # leftover tiles removed at a season end, by kind
    int16_t laid[NKINDS]            # tiles laid on the board (both seasons), by kind
    int8_t nplayers
    int8_t player                   # seat to play now
    int8_t season                   # SUMMER, WINTER, OVER
    int8_t last_player              # seat that played the last turn, -1 before the first
    int8_t best_val                 # most valuable mammoth killed in summer (0: none yet)
    int8_t best_seat                # who killed it first (entered it spending a weapon), -1 none
    int32_t idle                    # turns in a row without a taken tile (this season)
    int32_t turns                   # turns played
    int16_t deal_next               # external chance: a winter deal is pending from this space on; -1 none
    int16_t dealt                   # external chance: winter tiles dealt so far by chance outcomes
    uint8_t ext_chance              # external chance: the winter deal waits for chance outcomes

ctypedef struct Event:
    uint8_t kind                    # EV_*
    int8_t step                     # 0 / 1 for step events, -1 otherwise
    int8_t season
    int8_t seat                     # -1 when none
    int16_t space                   # -1 when none
    uint8_t tile                    # tile code, 0 when none
    uint8_t detail                  # season end: END_*; winter start: START_*

ctypedef struct Undo:               # what a light step changed (legal-turn search), to put it back
    int16_t src
    int16_t dst
    int8_t ci
    uint8_t tile
    int8_t dweapons

cpdef enum:
    STAY_PATIENCE = 1000    # the "stay" random policy draws uniformly after this many idle turns in a row

ctypedef struct Sim:                # one run of random games: the position, its configuration, events
    State s
    Config c
    Event ev[MAXEV]


# ---------------------------------------------------------------------------------------------
# Turn codes (see _core.pyx): written once, here, for the core and the test-only self-check.

cdef inline int dir_slot(Config* c, int a, int b) noexcept nogil:
    """Neighbour slot of b around a, or -1."""
    cdef int k
    for k in range(c.ndir):
        if c.nb[a][k] == b:
            return k
    return -1


cdef inline int slot_dst(Config* c, int src, int slot) noexcept nogil:
    """Destination of a step from src through a slot: a space, LEAVE, or NOWHERE."""
    cdef int t
    if slot < c.ndir:
        t = c.nb[src][slot]
        return t if t >= 0 else NOWHERE
    if slot == c.nslots - 1:
        return LEAVE
    if c.cave_idx[src] < 0:
        return NOWHERE
    t = c.caves[slot - c.ndir]
    if t == src or dir_slot(c, src, t) >= 0:
        return NOWHERE
    return t


cdef inline int step_code(Config* c, int src, int dst) noexcept nogil:
    """Step code of (src, dst), or -1 when dst is neither a neighbour, another cave, nor LEAVE."""
    cdef int k
    if dst == LEAVE:
        return src * c.nslots + c.nslots - 1
    k = dir_slot(c, src, dst)
    if k >= 0:
        return src * c.nslots + k
    if c.cave_idx[src] >= 0 and c.cave_idx[dst] >= 0 and src != dst:
        return src * c.nslots + c.ndir + c.cave_idx[dst]
    return -1


cdef inline void decode_turn(Config* c, uint32_t code, int* src1, int* dst1, int* src2, int* dst2) noexcept nogil:
    """Spaces of a turn code: dst LEAVE or NOWHERE as slot_dst gives them; src2 = -1 when the turn
    has one step. The code must be below nstep * (nstep + 1)."""
    cdef uint32_t W = c.nstep + 1
    cdef int c1 = <int>(code // W), c2 = <int>(code % W) - 1
    src1[0] = c1 // c.nslots
    dst1[0] = slot_dst(c, src1[0], c1 % c.nslots)
    src2[0] = -1
    dst2[0] = NOWHERE
    if c2 >= 0:
        src2[0] = c2 // c.nslots
        dst2[0] = slot_dst(c, src2[0], c2 % c.nslots)


# ---------------------------------------------------------------------------------------------
# What other Cython modules may cimport: the engine of _core.pyx, for the test-only self-check
# (tests/jaeger/_selfcheck.pyx). Nothing here is public Python API.

cdef int G_chars                    # characters per player (load_components)
cdef int G_packs                    # supply packs per player

cdef class CoreConfig:
    cdef Config* c
    cdef public dict cache          # decoded turn codes (the Python layer memoises Moves here)

cdef int own_spaces(State* s, int p, int16_t* out) noexcept nogil
cdef int turn_error(State* s, int src1, int dst1, bint has2, int src2, int dst2) noexcept nogil
cdef int gen_turns(State* s, uint32_t* out) noexcept nogil
cdef int max_turns(State* s) noexcept nogil
cdef uint32_t random_code(State* s, uint64_t* rng, bint stay) noexcept nogil
cdef int apply_turn(State* s, uint32_t code, Event* ev) noexcept nogil
cdef int score_of(State* s, int p) noexcept nogil
cdef int tile_codes(list tiles, uint8_t* out) except -1
cdef void random_config(Config* c, CoreConfig board, int stall_rounds, bint straight, int winter_start,
                        bint shared_ties) noexcept
cdef int deal_random_game(Sim* sim, int players, uint8_t* summer, int ns, uint8_t* winter, int nw,
                          uint64_t seed) noexcept nogil
