# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: extra_compile_args = -O3
# The build flags of each core live in its own header (setup.py).
"""The Jäger und Sammler rules core: steps and turns, taking tiles, weapons and mammoths, supply packs,
season ends, winter set-up, final scoring, and the legal-turn search.

Everything on the hot path is `noexcept nogil` C over the flat `State` struct. `CoreConfig` holds a
game's fixed data (board, caves, winter deck, options), `CoreGame` a game's state; both are thin
handles. `hunters.jaeger.Game` is the typed public API on top of them. _core.pxd holds the turn-code
helpers (`slot_dst`, `step_code`, `decode_turn`) and declares the engine functions other Cython
modules may cimport (the test-only self-check, tests/jaeger/_selfcheck.pyx).

Turn code (uint32) = the dense action code of the public API:
    step code  = src * nslots + slot       slot: 0 .. ndir-1 neighbour slot (grid: direction),
                                                 ndir + k  cave jump to the k-th cave (by space),
                                                 nslots - 1 leave the board
    turn code  = step1 * (nstep + 1) + (0 if there is no second step else step2 + 1)
A step onto a neighbouring cave uses the neighbour slot, never the cave slot, so every turn has
exactly one code. Numeric order of codes is the order of the legal-turn list.
"""
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport free, realloc

from hunters._core.mem cimport checked_malloc
from hunters._core.pylist cimport uint32_list
from hunters._core.rng cimport rng_next, rng_below, rng_shuffle

# ---------------------------------------------------------------------------------------------
# Component tables (the same for every game): filled once by load_components().

cdef int G_points[NKINDS]        # points per tile of a food kind (berries, tubers, herbs), else 0
cdef uint8_t G_goods[NKINDS]     # 1 for the valuable goods scored by the count table
cdef int G_table[64]             # goods points by how many of one kind a player holds
cdef int G_ntable = 1
cdef int G_pack_points = 0       # per supply pack on a summer camp at the end
G_chars = 4                      # characters per player (declared in _core.pxd)
G_packs = 4                      # supply packs per player (declared in _core.pxd)
cdef uint8_t G_takeable[16]      # kinds a character takes when it moves off (not path, cave, none)

KINDS = ("", "berries", "tubers", "herbs", "jug", "necklace", "pelt", "skull", "weapon", "mammoth",
         "path", "cave")
REFUSALS = {E_GAME_OVER: "GAME_OVER", E_UNKNOWN_SPACE: "UNKNOWN_SPACE",
            E_NOT_YOUR_CHARACTER: "NOT_YOUR_CHARACTER", E_NOT_ADJACENT: "NOT_ADJACENT", E_HOLE: "HOLE",
            E_OCCUPIED: "OCCUPIED", E_NO_WEAPON: "NO_WEAPON", E_NOT_STRAIGHT: "NOT_STRAIGHT",
            E_STEP_COUNT: "STEP_COUNT"}
EVENT_KINDS = ("take", "spend_weapon", "supply_pack", "leave", "season_end", "remove", "place",
               "winter_start", "game_end")
END_REASONS = {END_NO_CHARACTERS: "no_characters", END_UNREACHABLE: "unreachable", END_STALL: "stall"}
START_RULES = {START_MAMMOTH: "mammoth", START_AFTER_LAST: "after_last", START_SEAT0: "seat0"}
LIMITS = {"spaces": MAXS, "degree": MAXDEG, "players": MAXP, "characters": MAXCH, "camps": MAXCAMPS,
          "caves": MAXCAVES, "mammoth_value": MAXMV - 1}


def load_components(dict food_points, list goods, list table, int pack_points, int chars, int packs):
    """Fill the component tables: food points by kind index, goods kind indices, the goods table
    (points by count, the last entry for that many or more), supply-pack points, pieces per player."""
    global G_ntable, G_pack_points, G_chars, G_packs
    cdef int k
    if not 1 <= len(table) <= 64 or not 1 <= chars <= MAXCH or not 0 <= packs <= 8:
        raise ValueError("bad component data")
    for k in range(NKINDS):
        G_points[k] = food_points.get(k, 0)
        G_goods[k] = k in goods
    for k in range(len(table)):
        G_table[k] = table[k]
    G_ntable = len(table)
    G_pack_points = pack_points
    G_chars = chars
    G_packs = packs
    for k in range(16):
        G_takeable[k] = K_BERRIES <= k <= K_MAMMOTH


# ---------------------------------------------------------------------------------------------
# Small helpers.

cdef inline int own_at(State* s, int p, int v) noexcept nogil:
    """Index of a character of p on space v, or -1."""
    cdef int i
    for i in range(s.nch[p]):
        if s.pos[p][i] == v:
            return i
    return -1


cdef inline void memmove16(int16_t* a, int j, int n) noexcept nogil:
    cdef int i = n
    while i > j:
        a[i] = a[i - 1]
        i -= 1


cdef int own_spaces(State* s, int p, int16_t* out) noexcept nogil:
    """The distinct spaces holding p's characters, ascending; return their count."""
    cdef int i, j, n = 0, v
    for i in range(s.nch[p]):
        v = s.pos[p][i]
        if v < 0:
            continue
        j = 0
        while j < n and out[j] < v:
            j += 1
        if j < n and out[j] == v:
            continue
        memmove16(out, j, n)
        out[j] = v
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Steps.

cdef int check_step(State* s, int p, int src, int dst, bint mid, bint adj_known, int* jump) noexcept nogil:
    """Why player p may not make the step src -> dst now (OK if it may). `mid`: src is the tile being
    jumped over (it will not be taken). `adj_known`: dst came from a slot (no adjacency test).
    *jump is set when dst is a tile occupied by a character (only the first half of a jump)."""
    cdef Config* c = s.cfg
    cdef int t, k, w
    jump[0] = 0
    if own_at(s, p, src) < 0:
        return E_NOT_YOUR_CHARACTER
    if dst == LEAVE:
        return OK
    if not adj_known and dir_slot(c, src, dst) < 0:
        if c.cave_idx[src] < 0 or c.cave_idx[dst] < 0 or src == dst:
            return E_NOT_ADJACENT
    if c.kind[dst] != SP_TILE:
        return OK
    t = s.tile[dst]
    if t == 0:
        return E_HOLE
    k = t & 15
    if k == K_CAVE:
        return OK
    if s.nocc[dst]:
        jump[0] = 1
        return OK
    if k == K_MAMMOTH:
        w = s.weapons[p]
        if not mid and c.kind[src] == SP_TILE and (s.tile[src] & 15) == K_WEAPON:
            w += 1          # the weapon it stands on is taken as it moves off, before it enters
        if w <= 0:
            return E_NO_WEAPON
    return OK


cdef void light_step(State* s, int p, int src, int dst, bint mid, Undo* u) noexcept nogil:
    """Apply what a step changes that matters for the legality of the next step (positions, the
    tile taken, weapons), recording how to undo it. Used by the legal-turn search."""
    cdef Config* c = s.cfg
    cdef int ci = own_at(s, p, src)
    u.src = src
    u.dst = dst
    u.ci = ci
    u.tile = 0
    u.dweapons = 0
    s.nocc[src] -= 1
    if not mid and c.kind[src] == SP_TILE and G_takeable[s.tile[src] & 15]:
        u.tile = s.tile[src]
        if (u.tile & 15) == K_WEAPON:
            u.dweapons += 1
        s.tile[src] = 0
    if dst == LEAVE:
        s.pos[p][ci] = -1
        s.onb[p] -= 1
    else:
        if c.kind[dst] == SP_TILE and (s.tile[dst] & 15) == K_MAMMOTH and s.nocc[dst] == 0:
            u.dweapons -= 1
        s.nocc[dst] += 1
        s.pos[p][ci] = dst
    s.weapons[p] += u.dweapons


cdef void light_undo(State* s, int p, Undo* u) noexcept nogil:
    s.weapons[p] -= u.dweapons
    if u.dst == LEAVE:
        s.onb[p] += 1
    else:
        s.nocc[u.dst] -= 1
    s.pos[p][u.ci] = u.src
    if u.tile:
        s.tile[u.src] = u.tile
    s.nocc[u.src] += 1


cdef inline void put_event(Event* e, int kind, int step, int season, int seat, int space, int tile,
                           int detail) noexcept nogil:
    e.kind = kind
    e.step = step
    e.season = season
    e.seat = seat
    e.space = space
    e.tile = tile
    e.detail = detail


cdef int do_step(State* s, int p, int src, int dst, bint mid, int step, Event* ev, int* took) noexcept nogil:
    """Play one legal step for p: take the tile moved off, leave / spend a weapon / drop a supply
    pack. Write its events; return their count. *took counts tiles taken."""
    cdef Config* c = s.cfg
    cdef int nev = 0, ci = own_at(s, p, src), t, k, v
    s.nocc[src] -= 1
    t = s.tile[src]
    if not mid and c.kind[src] == SP_TILE and G_takeable[t & 15]:
        k = t & 15
        s.taken[p][k] += 1
        if k == K_WEAPON:
            s.weapons[p] += 1
        elif k == K_MAMMOTH:
            v = t >> 4
            s.mcount[p][v] += 1
        s.tile[src] = 0
        took[0] += 1
        put_event(&ev[nev], EV_TAKE, step, s.season, p, src, t, 0)
        nev += 1
    if dst == LEAVE:
        s.pos[p][ci] = -1
        s.onb[p] -= 1
        put_event(&ev[nev], EV_LEAVE, step, s.season, p, src, 0, 0)
        return nev + 1
    if c.kind[dst] == SP_TILE:
        t = s.tile[dst]
        if (t & 15) == K_MAMMOTH and s.nocc[dst] == 0:
            s.weapons[p] -= 1
            s.spent[p] += 1
            if s.season == SUMMER and (t >> 4) > s.best_val:     # the kill (spec §7): earlier wins ties
                s.best_val = t >> 4
                s.best_seat = p
            put_event(&ev[nev], EV_SPEND_WEAPON, step, s.season, p, dst, t, 0)
            nev += 1
    elif c.kind[dst] == (SP_WINTER if s.season == SUMMER else SP_SUMMER):
        if s.packs[p] > 0 and not (s.packs_at[dst] >> p) & 1:
            s.packs[p] -= 1
            s.packs_at[dst] |= 1 << p
            put_event(&ev[nev], EV_SUPPLY_PACK, step, s.season, p, dst, 0, 0)
            nev += 1
    s.nocc[dst] += 1
    s.pos[p][ci] = dst
    return nev


# ---------------------------------------------------------------------------------------------
# Seasons.

cdef bint flood(State* s, uint8_t* seen, int16_t* queue, int tail, bint mammoths) noexcept nogil:
    """Breadth-first search from queue[0 .. tail) (already marked in `seen`) over tiles, camps and
    cave jumps, ignoring characters: whether it finds a tile other than a path or cave that is a
    source (under a character) or, when reached, is accessible (a mammoth only if `mammoths`)."""
    cdef Config* c = s.cfg
    cdef int head = 0, v, w, k, n0 = tail, t
    cdef bint caves_done = False
    while head < tail:
        v = queue[head]
        t = s.tile[v] & 15
        if G_takeable[t] and (head < n0 or mammoths or t != K_MAMMOTH):
            return True
        head += 1
        for k in range(c.ndir):
            w = c.nb[v][k]
            if w >= 0 and not seen[w] and (c.kind[w] != SP_TILE or s.tile[w] != 0):
                seen[w] = 1
                queue[tail] = w
                tail += 1
        if not caves_done and t == K_CAVE and c.kind[v] == SP_TILE:
            caves_done = True
            for k in range(c.ncaves):
                w = c.caves[k]
                if not seen[w]:
                    seen[w] = 1
                    queue[tail] = w
                    tail += 1
    return False


cdef bint reachable(State* s) noexcept nogil:
    """Whether a tile other than a path or cave is under a character or accessible (spec §6): some
    character reaches it moving over tiles, camps and cave jumps, ignoring other characters, and for
    a mammoth, that character's owner holds a weapon or some weapon tile is accessible. A reachable
    weapon tile is itself accessible (and keeps the season going), so a mammoth only needs an armed
    owner: one search from the armed players' characters (any tile counts), then one from everyone
    else's (mammoths reached only then do not count; reachability is symmetric, so a space the first
    search saw is not searched again)."""
    cdef Config* c = s.cfg
    cdef uint8_t seen[MAXS]
    cdef int16_t queue[MAXS]
    cdef int tail, p, i, v, armed
    memset(seen, 0, c.n)
    for armed in range(1, -1, -1):
        tail = 0
        for p in range(s.nplayers):
            if (s.weapons[p] > 0) != armed:
                continue
            for i in range(s.nch[p]):
                v = s.pos[p][i]
                if v >= 0 and not seen[v]:
                    seen[v] = 1
                    queue[tail] = v
                    tail += 1
        if flood(s, seen, queue, tail, armed):
            return True
    return False


cdef int active_players(State* s) noexcept nogil:
    cdef int p, n = 0
    for p in range(s.nplayers):
        if s.onb[p] > 0:
            n += 1
    return n


cdef int end_reason(State* s) noexcept nogil:
    """Why the season ends now (END_*), or 0 if it goes on."""
    cdef int active = active_players(s)
    if active == 0:
        return END_NO_CHARACTERS
    if not reachable(s):
        return END_UNREACHABLE
    if s.cfg.stall_rounds > 0 and s.idle >= s.cfg.stall_rounds * active:
        return END_STALL
    return 0


cdef int next_active(State* s, int start, bint inclusive) noexcept nogil:
    """The first seat with a character on the board after `start` (or from it, if inclusive)."""
    cdef int i, q
    for i in range(0 if inclusive else 1, s.nplayers + 1):
        q = (start + i) % s.nplayers
        if s.onb[q] > 0:
            return q
    return start


cdef void deal_winter(State* s) noexcept nogil:
    """Deal the winter deck on the empty tile spaces (ascending)."""
    cdef Config* c = s.cfg
    cdef int v, k = 0
    for v in range(c.n):
        if c.kind[v] == SP_TILE and s.tile[v] == 0 and k < c.nwdeck:
            s.tile[v] = c.wdeck[k]
            s.laid[c.wdeck[k] & 15] += 1
            k += 1


cdef int winter_place(State* s, Event* ev) noexcept nogil:
    """Winter set-up once the tiles lie: put characters on the winter camps holding their supply
    packs, return the packs, choose the start player. Return the event count."""
    cdef Config* c = s.cfg
    cdef int nev = 0, p, i, w, start, rule
    for p in range(s.nplayers):
        s.nch[p] = 0
        s.onb[p] = 0
    for i in range(c.ncamps[WINTER]):
        w = c.camps[WINTER][i]
        for p in range(s.nplayers):
            if (s.packs_at[w] >> p) & 1 and s.nch[p] < G_chars and s.nch[p] < MAXCH:
                s.pos[p][s.nch[p]] = w
                s.nch[p] += 1
                s.onb[p] += 1
                s.nocc[w] += 1
                put_event(&ev[nev], EV_PLACE, -1, WINTER, p, w, 0, 0)
                nev += 1
    memset(s.packs_at, 0, MAXS)
    for p in range(s.nplayers):
        s.packs[p] = G_packs
    s.idle = 0
    if s.best_seat >= 0:
        start = s.best_seat
        rule = START_MAMMOTH
    elif c.winter_start == START_SEAT0:
        start = 0
        rule = START_SEAT0
    else:
        start = (s.last_player + 1) % s.nplayers
        rule = START_AFTER_LAST
    s.player = start
    put_event(&ev[nev], EV_WINTER_START, -1, WINTER, start, -1, 0, rule)
    return nev + 1


cdef int winter_setup(State* s, Event* ev) noexcept nogil:
    """Deal the winter deck on the empty tile spaces (ascending), put characters on the winter camps
    holding their supply packs, return the packs, choose the start player. Return the event count."""
    s.season = WINTER
    deal_winter(s)
    return winter_place(s, ev)


cdef int after_setup(State* s, Event* ev) noexcept nogil:
    """After the winter set-up: winter may end at once, else its first seat with a character plays."""
    cdef int r = end_reason(s)
    if r:
        return end_season(s, r, ev)
    s.player = next_active(s, s.player, True)
    return 0


cdef int end_season(State* s, int reason, Event* ev) noexcept nogil:
    """Remove the leftover tiles (paths and caves stay), send the characters home, then set up
    winter or end the game. Return the event count."""
    cdef Config* c = s.cfg
    cdef int nev = 0, v, p, i, r
    put_event(&ev[nev], EV_SEASON_END, -1, s.season, -1, -1, 0, reason)
    nev += 1
    for v in range(c.n):
        if c.kind[v] == SP_TILE and G_takeable[s.tile[v] & 15]:
            s.removed[s.tile[v] & 15] += 1
            put_event(&ev[nev], EV_REMOVE, -1, s.season, -1, v, s.tile[v], 0)
            nev += 1
            s.tile[v] = 0
    for p in range(s.nplayers):
        for i in range(s.nch[p]):
            s.pos[p][i] = -1
        s.nch[p] = 0
        s.onb[p] = 0
    memset(s.nocc, 0, MAXS)
    if s.season == WINTER:
        s.season = OVER
        put_event(&ev[nev], EV_GAME_END, -1, OVER, -1, -1, 0, 0)
        return nev + 1
    if s.ext_chance:                # the winter tiles come from chance outcomes (chance_apply)
        s.season = WINTER
        s.deal_next = 0
        s.dealt = 0
        if deal_space(s) >= 0:
            return nev
        s.deal_next = -1
        nev += winter_place(s, ev + nev)
        return nev + after_setup(s, ev + nev)
    nev += winter_setup(s, ev + nev)
    return nev + after_setup(s, ev + nev)


cdef int after_turn(State* s, Event* ev) noexcept nogil:
    cdef int r = end_reason(s)
    if r:
        return end_season(s, r, ev)
    s.player = next_active(s, s.player, False)
    return 0


# ---------------------------------------------------------------------------------------------
# Game flow.

cdef void init_state(State* s, Config* c, int players, uint8_t* summer, int16_t* start_seat,
                     int16_t* start_space, int nstart) noexcept nogil:
    """Lay the summer tiles (by space) and the characters: explicit (seat, space) pairs when
    nstart >= 0, else one per summer camp (the first G_chars camps) for every player."""
    cdef int v, p, i, w
    memset(s, 0, sizeof(State))
    s.cfg = c
    s.nplayers = players
    s.last_player = -1
    s.best_seat = -1
    s.season = SUMMER
    s.deal_next = -1
    for v in range(c.n):
        if c.kind[v] == SP_TILE and summer[v]:
            s.tile[v] = summer[v]
            s.laid[summer[v] & 15] += 1
    for p in range(players):
        s.packs[p] = G_packs
        for i in range(MAXCH):
            s.pos[p][i] = -1
    if nstart < 0:
        for i in range(c.ncamps[SUMMER]):
            if i >= G_chars or i >= MAXCH:
                break
            w = c.camps[SUMMER][i]
            for p in range(players):
                s.pos[p][s.nch[p]] = w
                s.nch[p] += 1
                s.onb[p] += 1
                s.nocc[w] += 1
    else:
        for i in range(nstart):
            p = start_seat[i]
            s.pos[p][s.nch[p]] = start_space[i]
            s.nch[p] += 1
            s.onb[p] += 1
            s.nocc[start_space[i]] += 1


cdef int begin(State* s, Event* ev) noexcept nogil:
    """Start summer: it may end at once (nothing reachable); else the first seat with a character."""
    cdef int r = end_reason(s)
    if r:
        return end_season(s, r, ev)
    s.player = next_active(s, 0, True)
    return 0


cdef inline bint is_jump_half(State* s, int dst) noexcept nogil:
    """Whether a step onto dst (legal) is the first half of a jump: dst is a tile that is neither a
    cave nor a camp and holds a character."""
    return dst >= 0 and s.cfg.kind[dst] == SP_TILE and (s.tile[dst] & 15) != K_CAVE and s.nocc[dst] > 0


cdef int apply_turn(State* s, uint32_t code, Event* ev) noexcept nogil:
    """Play one legal turn code (validated beforehand); write its events, return their count."""
    cdef int p = s.player, nev = 0, took = 0, src1 = 0, dst1 = 0, src2 = 0, dst2 = 0
    cdef bint jump
    decode_turn(s.cfg, code, &src1, &dst1, &src2, &dst2)
    jump = is_jump_half(s, dst1)
    nev += do_step(s, p, src1, dst1, False, 0, ev, &took)
    if src2 >= 0:
        nev += do_step(s, p, src2, dst2, jump, 1, ev + nev, &took)
    s.turns += 1
    s.last_player = p
    if took:
        s.idle = 0
    else:
        s.idle += 1
    return nev + after_turn(s, ev + nev)


cdef int turn_error(State* s, int src1, int dst1, bint has2, int src2, int dst2) noexcept nogil:
    """Why the turn (src1 -> dst1[, src2 -> dst2]) is refused now, or OK. Changes nothing."""
    cdef Config* c = s.cfg
    cdef int p = s.player, err, jump = 0, jump2 = 0
    cdef Undo u
    if s.season == OVER:
        return E_GAME_OVER
    err = check_step(s, p, src1, dst1, False, False, &jump)
    if err:
        return err
    light_step(s, p, src1, dst1, False, &u)
    if jump:
        if not has2 or src2 != dst1 or dst2 == LEAVE:
            err = E_OCCUPIED        # a step may end on an occupied tile only to jump on from it
        else:
            err = check_step(s, p, src2, dst2, True, False, &jump2)
            if err == OK and jump2:
                err = E_OCCUPIED
            elif err == OK and c.straight and dst2 != c.beyond[src1][dir_slot(c, src1, dst1)]:
                err = E_NOT_STRAIGHT
    elif s.onb[p] == 0:
        if has2:
            err = E_STEP_COUNT      # the first step removed the last character: the turn is over
    elif not has2:
        err = E_STEP_COUNT          # a turn is two steps
    else:
        err = check_step(s, p, src2, dst2, False, False, &jump2)
        if err == OK and jump2:
            err = E_OCCUPIED
    light_undo(s, p, &u)
    return err


cdef int gen_turns(State* s, uint32_t* out) noexcept nogil:
    """Every legal turn code of the current player, ascending; return the count."""
    return search_turns(s, NULL, out)


cdef int max_turns(State* s) noexcept nogil:
    """An upper bound on the number of legal turns now (buffer size)."""
    cdef int k = s.onb[s.player] * s.cfg.nslots
    return k * (k + 1) + 1


cdef uint32_t random_code(State* s, uint64_t* rng, bint stay) noexcept nogil:
    """A random legal turn: a uniform legal first step (among those that can be completed), then a
    uniform legal second step. With `stay`, steps that leave the board are drawn only when nothing
    else is legal (first step and second step alike)."""
    cdef Config* c = s.cfg
    cdef uint32_t W = c.nstep + 1
    cdef int16_t srcs[MAXCH]
    cdef int32_t firsts[MAXCH * (MAXDEG + MAXCAVES + 1)]
    cdef uint32_t seconds[MAXCH * (MAXDEG + MAXCAVES + 1)]
    cdef int32_t leaves1[MAXCH]
    cdef uint32_t leaves2[MAXCH]
    cdef int nf = 0, ns = 0, nl1 = 0, nl2 = 0, n1, i, slot, src, dst, jump, j2, p = s.player, k, c1
    cdef bint ok
    cdef Undo u
    n1 = own_spaces(s, p, srcs)
    for i in range(n1):
        src = srcs[i]
        for slot in range(c.nslots):
            dst = slot_dst(c, src, slot)
            if dst == NOWHERE or check_step(s, p, src, dst, False, True, &jump) != OK:
                continue
            if jump:            # keep only jump halves that can be completed
                ok = False
                light_step(s, p, src, dst, False, &u)
                for k in range(c.ndir):
                    if c.nb[dst][k] >= 0 and not (c.straight and c.nb[dst][k] != c.beyond[src][slot]):
                        if check_step(s, p, dst, c.nb[dst][k], True, True, &j2) == OK and not j2:
                            ok = True
                            break
                light_undo(s, p, &u)
                if not ok:
                    continue
            if stay and dst == LEAVE:
                leaves1[nl1] = src * c.nslots + slot
                nl1 += 1
            else:
                firsts[nf] = src * c.nslots + slot
                nf += 1
    if nf > 0:
        c1 = firsts[rng_below(rng, nf)]
    elif nl1 > 0:
        c1 = leaves1[rng_below(rng, nl1)]
    else:
        return 0
    src = c1 // c.nslots
    slot = c1 % c.nslots
    dst = slot_dst(c, src, slot)
    jump = is_jump_half(s, dst)
    light_step(s, p, src, dst, False, &u)
    if jump:
        for k in range(c.ndir):
            if c.nb[dst][k] >= 0 and not (c.straight and c.nb[dst][k] != c.beyond[src][slot]):
                if check_step(s, p, dst, c.nb[dst][k], True, True, &j2) == OK and not j2:
                    seconds[ns] = dst * c.nslots + k + 1
                    ns += 1
    elif s.onb[p] > 0:
        n1 = own_spaces(s, p, srcs)
        for i in range(n1):
            for slot in range(c.nslots):
                dst = slot_dst(c, srcs[i], slot)
                if dst != NOWHERE and check_step(s, p, srcs[i], dst, False, True, &j2) == OK and not j2:
                    if stay and dst == LEAVE:
                        leaves2[nl2] = srcs[i] * c.nslots + slot + 1
                        nl2 += 1
                    else:
                        seconds[ns] = srcs[i] * c.nslots + slot + 1
                        ns += 1
    light_undo(s, p, &u)
    if ns > 0:
        return <uint32_t>c1 * W + seconds[rng_below(rng, ns)]
    if nl2 > 0:
        return <uint32_t>c1 * W + leaves2[rng_below(rng, nl2)]
    return <uint32_t>c1 * W


cdef int score_parts(State* s, int p, int* parts) noexcept nogil:
    """Current total of p by the final-scoring table; parts = food, mammoths, goods, supply packs."""
    cdef Config* c = s.cfg
    cdef int k, v, n, i
    for i in range(4):
        parts[i] = 0
    for k in range(NKINDS):
        parts[0] += G_points[k] * s.taken[p][k]
        if G_goods[k]:
            n = s.taken[p][k]
            parts[2] += G_table[n if n < G_ntable else G_ntable - 1]
    for v in range(MAXMV):
        parts[1] += v * s.mcount[p][v]
    for i in range(c.ncamps[SUMMER]):
        if (s.packs_at[c.camps[SUMMER][i]] >> p) & 1:
            parts[3] += G_pack_points
    return parts[0] + parts[1] + parts[2] + parts[3]


cdef int score_of(State* s, int p) noexcept nogil:
    cdef int parts[4]
    return score_parts(s, p, parts)


# ---------------------------------------------------------------------------------------------
# Layouts: seeded shuffles and the per-game configuration.

cdef void deal_summer(Config* c, uint8_t* deck, int ndeck, uint8_t* by_space) noexcept nogil:
    """Lay a summer deck on the tile spaces in ascending order (the shorter of the two decides)."""
    cdef int v, k = 0
    for v in range(c.n):
        by_space[v] = 0
        if c.kind[v] == SP_TILE and k < ndeck:
            by_space[v] = deck[k]
            k += 1


cdef void set_layout(Config* c, uint8_t* summer, uint8_t* wdeck, int nw) noexcept nogil:
    """Fill the per-game part of a configuration: the caves of a summer layout, the winter deck."""
    cdef int v
    c.ncaves = 0
    for v in range(c.n):
        c.cave_idx[v] = -1
        if c.kind[v] == SP_TILE and (summer[v] & 15) == K_CAVE and c.ncaves < MAXCAVES:
            c.cave_idx[v] = c.ncaves
            c.caves[c.ncaves] = v
            c.ncaves += 1
    c.nslots = c.ndir + c.ncaves + 1
    c.nstep = <uint32_t>c.n * c.nslots
    memcpy(c.wdeck, wdeck, nw)
    c.nwdeck = nw


def shuffled_decks(uint64_t seed, summer_tiles, winter_tiles):
    """The seeded order of both decks (tile codes): Fisher-Yates of the summer tiles, then of the
    winter tiles, from one splitmix64 stream started at `seed`."""
    cdef uint64_t rng = seed
    cdef uint8_t a[MAXS]
    cdef uint8_t b[MAXS]
    cdef int i, ns = len(summer_tiles), nw = len(winter_tiles)
    if ns > MAXS or nw > MAXS:
        raise ValueError("too many tiles")
    for i in range(ns):
        a[i] = summer_tiles[i]
    for i in range(nw):
        b[i] = winter_tiles[i]
    rng_shuffle(&rng, a, ns)
    rng_shuffle(&rng, b, nw)
    return [a[i] for i in range(ns)], [b[i] for i in range(nw)]


cdef class CoreConfig:
    """A game's fixed data. `CoreConfig.board(...)` makes a board template; `derive(...)` a game's
    configuration from it (caves of its summer layout, its winter deck, its options). Its C fields
    are declared in _core.pxd."""

    def __cinit__(self):
        self.c = <Config*>checked_malloc(sizeof(Config))
        memset(self.c, 0, sizeof(Config))
        self.cache = {}

    def __dealloc__(self):
        free(self.c)

    @staticmethod
    def board(list kinds, list nb, list beyond, int ndir):
        """A board template: space kinds (0 tile, 1 summer camp, 2 winter camp), neighbours by slot
        (-1 none) and straight continuations by slot (-1 none)."""
        cdef CoreConfig cc = CoreConfig.__new__(CoreConfig)
        cdef Config* c = cc.c
        cdef int n = len(kinds), v, k, w
        if not 1 <= n <= MAXS or not 1 <= ndir <= MAXDEG or len(nb) != n or len(beyond) != n:
            raise ValueError("bad board size")
        c.n = n
        c.ndir = ndir
        for v in range(n):
            if kinds[v] not in (SP_TILE, SP_SUMMER, SP_WINTER) or len(nb[v]) != ndir or len(beyond[v]) != ndir:
                raise ValueError(f"bad space {v}")
            c.kind[v] = kinds[v]
            c.cave_idx[v] = -1
            for k in range(ndir):
                w = nb[v][k]
                if not -1 <= w < n or not -1 <= beyond[v][k] < n:
                    raise ValueError(f"bad neighbour of space {v}")
                c.nb[v][k] = w
                c.beyond[v][k] = beyond[v][k]
            if kinds[v] != SP_TILE:
                w = kinds[v] - 1
                if c.ncamps[w] >= MAXCAMPS:
                    raise ValueError("too many camps")
                c.camps[w][c.ncamps[w]] = v
                c.ncamps[w] += 1
        c.nslots = c.ndir + 1
        c.nstep = <uint32_t>n * c.nslots
        return cc

    def derive(self, list summer, list winter, int stall_rounds, bint straight, int winter_start,
               bint shared_ties):
        """A game's configuration: this board, the caves of `summer` (tile code by space), the winter
        deck `winter` (codes in dealing order) and the options."""
        cdef CoreConfig cc = CoreConfig.__new__(CoreConfig)
        cdef uint8_t sbuf[MAXS]
        cdef uint8_t wbuf[MAXS]
        cdef int v, n = self.c.n
        if len(summer) != n or len(winter) > MAXS:
            raise ValueError("bad layout size")
        for v in range(n):
            sbuf[v] = summer[v]
        for v in range(len(winter)):
            wbuf[v] = winter[v]
        memcpy(cc.c, self.c, sizeof(Config))
        set_layout(cc.c, sbuf, wbuf, len(winter))
        cc.c.stall_rounds = stall_rounds
        cc.c.straight = straight
        cc.c.winter_start = winter_start
        cc.c.shared_ties = shared_ties
        return cc

    @property
    def n(self):
        return self.c.n

    @property
    def ndir(self):
        return self.c.ndir

    @property
    def nslots(self):
        return self.c.nslots

    @property
    def action_space_size(self):
        return int(self.c.nstep) * (int(self.c.nstep) + 1)

    @property
    def caves(self):
        return [self.c.caves[i] for i in range(self.c.ncaves)]

    @property
    def shared_ties(self):
        return bool(self.c.shared_ties)

    def decode(self, uint32_t code):
        """(src1, dst1, src2, dst2) of a turn code: dst None = leave; src2 None = no second step.
        Raises ValueError when a slot leads nowhere or the code is out of range."""
        cdef Config* c = self.c
        cdef int s1 = 0, d1 = 0, s2 = 0, d2 = 0
        if code >= <uint64_t>(c.nstep + 1) * c.nstep:
            raise ValueError("code out of range")
        decode_turn(c, code, &s1, &d1, &s2, &d2)
        if d1 == NOWHERE:
            raise ValueError("the first step leads nowhere")
        if s2 < 0:
            return (s1, None if d1 == LEAVE else d1, None, None)
        if d2 == NOWHERE:
            raise ValueError("the second step leads nowhere")
        return (s1, None if d1 == LEAVE else d1, s2, None if d2 == LEAVE else d2)

    def encode(self, int src1, int dst1, bint has2, int src2, int dst2):
        """The turn code of (src1 -> dst1[, src2 -> dst2]) (dst -1 = leave), or -1 when a step is
        not between neighbours or caves. Spaces must be in range."""
        cdef Config* c = self.c
        cdef int a = step_code(c, src1, dst1), b = 0
        if a < 0:
            return -1
        if has2:
            b = step_code(c, src2, dst2)
            if b < 0:
                return -1
            b += 1
        return <uint64_t>a * (c.nstep + 1) + b


# ---------------------------------------------------------------------------------------------
# Search: the hooks of the shared IS-MCTS (mcts.pxi). Hidden from the searching seat: the order of
# the winter deck before winter (its contents follow from the options), and which food and goods
# tiles the other seats hold face down (their number is public, and so is the pool they were drawn
# from: every tile was laid face up; the split of the pool between opponents is what is sampled).

ctypedef struct Det:
    Config cfg          # the search's own configuration: the winter deck is redrawn in it
    uint8_t wbase[MAXS] # the winter deck's contents
    int seat            # the searching seat (its own tiles are known to it)


cdef inline int mc_legal(State* s, uint32_t* out) noexcept nogil:
    return gen_turns(s, out)


cdef inline int mc_cap(State* s) noexcept nogil:
    cdef int k = MAXCH * s.cfg.nslots
    return k * (k + 1) + 1


cdef inline void mc_apply(State* s, uint32_t code, Event* ev) noexcept nogil:
    apply_turn(s, code, ev)


cdef inline uint32_t mc_random(State* s, Det* d, uint64_t* rng) noexcept nogil:
    """Playout policy: the "stay" random policy of random_games (uniform playouts mostly walk off
    the board at once, which ends the game within a few turns and teaches the search nothing)."""
    return random_code(s, rng, s.idle < STAY_PATIENCE)


cdef inline bint mc_over(State* s) noexcept nogil:
    return s.season == OVER


cdef inline int mc_player(State* s) noexcept nogil:
    return s.player


cdef inline uint64_t mc_key(State* s, uint32_t code) noexcept nogil:
    return code


cdef inline void mc_scores(State* s, int* out) noexcept nogil:
    cdef int p
    for p in range(s.nplayers):
        out[p] = score_of(s, p)


cdef void deal_face_down(State* s, int seat, uint64_t* rng) noexcept nogil:
    """Pool the face-down tiles (kinds K_BERRIES..K_SKULL) of every seat but `seat` and deal them
    back, each seat keeping its number: at random (rng), or in kind order by seat when rng is NULL."""
    cdef uint8_t pool[1024]
    cdef int count[MAXP]
    cdef int p, k, j, n = 0, i = 0
    for p in range(s.nplayers):
        count[p] = 0
    for k in range(K_BERRIES, K_SKULL + 1):      # the pool in kind order
        for p in range(s.nplayers):
            if p == seat:
                continue
            for j in range(s.taken[p][k]):
                if n < 1024:
                    pool[n] = k
                    n += 1
                    count[p] += 1
            s.taken[p][k] = 0
    if rng != NULL:
        rng_shuffle(rng, pool, n)
    for p in range(s.nplayers):
        for j in range(count[p]):
            s.taken[p][pool[i]] += 1
            i += 1


cdef inline void mc_determinize(State* s, Det* d, uint64_t* rng) noexcept nogil:
    """Redraw the winter deck (before winter) and the other seats' face-down tiles."""
    if s.season == SUMMER:
        memcpy(d.cfg.wdeck, d.wbase, d.cfg.nwdeck)
        rng_shuffle(rng, d.cfg.wdeck, d.cfg.nwdeck)
    s.cfg = &d.cfg
    deal_face_down(s, d.seat, rng)


cdef Det* new_det(State* s, int seat) except NULL:
    cdef Det* d = <Det*>checked_malloc(sizeof(Det))
    memcpy(&d.cfg, s.cfg, sizeof(Config))
    memcpy(d.wbase, s.cfg.wdeck, s.cfg.nwdeck)
    d.seat = seat
    return d


include "hunters/_core/mcts.pxi"


# ---------------------------------------------------------------------------------------------
# External chance (OpenSpiel, hunters.jaeger.learn): with `ext_chance` set, a summer that ends
# leaves the winter deal pending; each tile space to deal (ascending, as winter_setup deals) is one
# chance node whose outcome is the tile code laid there. The probabilities are the counts of the
# undealt rest of the winter deck (its contents are public: the options fix them).

cdef int deal_space(State* s) noexcept nogil:
    """The space the next winter tile goes to while a deal is pending; -1 when none is."""
    cdef Config* c = s.cfg
    cdef int v
    if s.deal_next < 0 or s.dealt >= c.nwdeck:
        return -1
    for v in range(s.deal_next, c.n):
        if c.kind[v] == SP_TILE and s.tile[v] == 0:
            return v
    return -1


cdef void deal_left(State* s, int* count) noexcept nogil:
    """count[code] (256 entries) = tiles of the winter deck not dealt yet: the deck's contents minus
    the tiles dealt so far (while a deal is pending, the takeable tiles before deal_next: every
    summer leftover was removed). Without a pending deal: the whole deck in summer, none later."""
    cdef Config* c = s.cfg
    cdef int k, v, t
    memset(count, 0, 256 * sizeof(int))
    if s.season == SUMMER or s.deal_next >= 0:
        for k in range(c.nwdeck):
            count[c.wdeck[k]] += 1
    if s.deal_next >= 0:
        for v in range(s.deal_next if s.deal_next < c.n else c.n):
            t = s.tile[v]
            if c.kind[v] == SP_TILE and G_takeable[t & 15]:
                count[t] -= 1


cdef int deal_apply(State* s, int code, Event* ev) noexcept nogil:
    """Lay winter tile `code` (one with count > 0 in deal_left) on deal_space; when the deal is
    complete, finish the winter set-up. Return the event count."""
    cdef int v = deal_space(s), nev
    if v < 0:  # no deal pending (callers check first; this keeps the write provably in bounds)
        return 0
    s.tile[v] = code
    s.laid[code & 15] += 1
    s.dealt += 1
    s.deal_next = v + 1
    if deal_space(s) >= 0:
        return 0
    s.deal_next = -1
    nev = winter_place(s, ev)
    return nev + after_setup(s, ev + nev)


# ---------------------------------------------------------------------------------------------
# Learning (hunters.jaeger.learn): compact action codes, masks, observations, batches.
#
# Compact code (see hunters/jaeger/learn.py for the documentation users read):
#   character index i = rank of a space among the mover's occupied spaces (distinct, ascending)
#   learn slot  = core slot, except "leave" which is always slot S - 1 (S = ndir + K + 1, K >= caves)
#   first       = i * S + slot1
#   second      = 0 (no second step) or 1 + k * S + slot2, k = C: the character that made the first
#                 step (from where it stands now), k < C: the k-th space of the pre-turn list
#   code        = first * W2 + second,   W2 = (C + 1) * S + 1,   A = C * S * W2 codes
# A second step from the space the first step ended on always uses k = C (one code per move).

ctypedef struct LearnSpec:
    int C           # character indices
    int K           # cave slots (>= caves of the layout)
    int S           # slots per step: ndir + K + 1
    int W2          # second-step part: (C + 1) * S + 1
    int A           # compact codes: C * S * W2
    int P           # players (observation rows)
    int F           # board channels: 17 + 2 P

cdef enum:
    LE_RANGE = 20           # the code is outside 0 .. A - 1
    LE_NO_CHARACTER = 21    # the character index names no character
    LE_NOWHERE = 22         # the slot leads nowhere from there
    LE_NOT_CANONICAL = 23   # the move has another code (second step from where the first ended: k = C)

LEARN_REFUSALS = {LE_RANGE: "UNKNOWN_CODE", LE_NO_CHARACTER: "NO_CHARACTER", LE_NOWHERE: "NOWHERE",
                  LE_NOT_CANONICAL: "NOT_CANONICAL"}

# board channels
cdef enum:
    B_KIND = 0      # 3: tile space, summer camp, winter camp
    B_EMPTY = 3     # tile space without a tile
    B_TILE = 4      # 11: kinds berries .. cave
    B_MVAL = 15     # mammoth value
    B_CHARS = 16    # P: characters by relative seat; then P: supply packs; then own character index

cdef enum:
    NCOL = 18       # collection columns
    NSTATUS = 10    # status entries
    NFACE = 7       # face-down kinds: berries .. skull
    NMARKS = 2 * MAXCAMPS + MAXP * MAXCH    # spaces whose piece channels one observation writes

LEARN_SIZES = {"collection": NCOL, "status": NSTATUS, "face_down": NFACE, "kinds": NKINDS - 1}


cdef int learn_spec(LearnSpec* L, Config* c, int C, int K, int P) noexcept nogil:
    L.C = C
    L.K = K
    L.S = c.ndir + K + 1
    L.W2 = (C + 1) * L.S + 1
    L.A = C * L.S * L.W2
    L.P = P
    L.F = B_CHARS + 2 * P + 1
    return L.A


cdef inline int learn_slot(Config* c, LearnSpec* L, int slot) noexcept nogil:
    return L.S - 1 if slot == c.nslots - 1 else slot


cdef inline int core_slot(Config* c, LearnSpec* L, int ls) noexcept nogil:
    if ls == L.S - 1:
        return c.nslots - 1
    if ls < c.ndir + c.ncaves:
        return ls
    return -1


cdef inline int rank_of(int16_t* a, int n, int v) noexcept nogil:
    cdef int i
    for i in range(n):
        if a[i] == v:
            return i
    return -1


cdef int compact_of(State* s, LearnSpec* L, uint32_t code, int16_t* srcs, int nsrc) noexcept nogil:
    """The compact code of a legal turn code (srcs: the mover's occupied spaces before the turn)."""
    cdef Config* c = s.cfg
    cdef uint32_t W = c.nstep + 1
    cdef int c1 = <int>(code // W), c2 = <int>(code % W) - 1, src1, sl1, first, src2, k
    src1 = c1 // c.nslots
    sl1 = c1 % c.nslots
    first = rank_of(srcs, nsrc, src1) * L.S + learn_slot(c, L, sl1)
    if c2 < 0:
        return first * L.W2
    src2 = c2 // c.nslots
    k = L.C if src2 == slot_dst(c, src1, sl1) else rank_of(srcs, nsrc, src2)
    return first * L.W2 + 1 + k * L.S + learn_slot(c, L, c2 % c.nslots)


cdef int compact_turn(State* s, LearnSpec* L, int64_t code, uint32_t* out) noexcept nogil:
    """The turn code of a compact code now, in *out; return OK, or why not (LE_* or E_*)."""
    cdef Config* c = s.cfg
    cdef int16_t srcs[MAXCH]
    cdef int nsrc, first, second, i, k, sl1, sl2 = 0, src1, dst1, src2 = 0, dst2 = 0, err
    cdef bint has2
    if s.season == OVER:
        return E_GAME_OVER
    if code < 0 or code >= L.A:
        return LE_RANGE
    nsrc = own_spaces(s, s.player, srcs)
    first = <int>(code // L.W2)
    second = <int>(code % L.W2)
    i = first // L.S
    if i >= nsrc:
        return LE_NO_CHARACTER
    src1 = srcs[i]
    sl1 = core_slot(c, L, first % L.S)
    if sl1 < 0:
        return LE_NOWHERE
    dst1 = slot_dst(c, src1, sl1)
    if dst1 == NOWHERE:
        return LE_NOWHERE
    has2 = second > 0
    if has2:
        k = (second - 1) // L.S
        if k == L.C:
            if dst1 == LEAVE:
                return LE_NO_CHARACTER
            src2 = dst1
        elif k >= nsrc:
            return LE_NO_CHARACTER
        else:
            src2 = srcs[k]
            if src2 == dst1:
                return LE_NOT_CANONICAL
        sl2 = core_slot(c, L, (second - 1) % L.S)
        if sl2 < 0:
            return LE_NOWHERE
        dst2 = slot_dst(c, src2, sl2)
        if dst2 == NOWHERE:
            return LE_NOWHERE
    err = turn_error(s, src1, dst1, has2, src2, dst2)
    if err:
        return err
    out[0] = <uint32_t>(src1 * c.nslots + sl1) * (c.nstep + 1)
    if has2:
        out[0] += <uint32_t>(src2 * c.nslots + sl2 + 1)
    return OK


cdef int search_turns(State* s, LearnSpec* L, uint32_t* out) noexcept nogil:
    """Every legal turn of the current player into out (max_turns(s) entries); return the count.
    One search, two encodings: with L NULL the core's turn codes (ascending), else compact codes
    (in the same order, which is not ascending for them)."""
    cdef Config* c = s.cfg
    cdef uint32_t W = c.nstep + 1, base, kb
    cdef int16_t srcs1[MAXCH]
    cdef int16_t srcs2[MAXCH]
    cdef int n = 0, n1, n2, i, j, p = s.player, src1, slot1, dst1, src2, slot2, dst2, jump, j2
    cdef Undo u
    if s.season == OVER:
        return 0
    n1 = own_spaces(s, p, srcs1)
    for i in range(n1):
        src1 = srcs1[i]
        for slot1 in range(c.nslots):
            dst1 = slot_dst(c, src1, slot1)
            if dst1 == NOWHERE or check_step(s, p, src1, dst1, False, True, &jump) != OK:
                continue
            if L == NULL:
                base = <uint32_t>(src1 * c.nslots + slot1) * W
            else:
                base = <uint32_t>(i * L.S + learn_slot(c, L, slot1)) * L.W2
            light_step(s, p, src1, dst1, False, &u)
            if jump:  # the second step is the same character's, in a direction
                kb = base + 1 + <uint32_t>(dst1 * c.nslots if L == NULL else L.C * L.S)
                for slot2 in range(c.ndir):
                    dst2 = c.nb[dst1][slot2]
                    if dst2 < 0 or (c.straight and dst2 != c.beyond[src1][slot1]):
                        continue
                    if check_step(s, p, dst1, dst2, True, True, &j2) == OK and not j2:
                        out[n] = kb + slot2
                        n += 1
            elif s.onb[p] == 0:
                out[n] = base
                n += 1
            else:
                n2 = own_spaces(s, p, srcs2)
                for j in range(n2):
                    src2 = srcs2[j]
                    if L == NULL:
                        kb = base + 1 + <uint32_t>(src2 * c.nslots)
                    else:
                        kb = base + 1 + <uint32_t>((L.C if src2 == dst1 else rank_of(srcs1, n1, src2)) * L.S)
                    for slot2 in range(c.nslots):
                        dst2 = slot_dst(c, src2, slot2)
                        if dst2 == NOWHERE:
                            continue
                        if check_step(s, p, src2, dst2, False, True, &j2) == OK and not j2:
                            out[n] = kb + <uint32_t>(slot2 if L == NULL else learn_slot(c, L, slot2))
                            n += 1
            light_undo(s, p, &u)
    return n


cdef inline int16_t clamp16(long v) noexcept nogil:
    return <int16_t>(32767 if v > 32767 else (-32768 if v < -32768 else v))


cdef inline void tile_row(uint8_t* row, int kind, int t) noexcept nogil:
    """The space and tile channels (0 .. 15) of one board row."""
    memset(row, 0, B_CHARS)
    row[B_KIND + kind] = 1
    if kind == SP_TILE:
        if t == 0:
            row[B_EMPTY] = 1
        else:
            row[B_TILE + (t & 15) - 1] = 1
            if (t & 15) == K_MAMMOTH:
                row[B_MVAL] = t >> 4


cdef int learn_observe(State* s, LearnSpec* L, int seat, int open_, uint8_t* board, int16_t* chars,
                       int16_t* coll, int16_t* tiles, int16_t* pool, int16_t* status, uint8_t* shown,
                       int16_t* marks, int nmarks) noexcept nogil:
    """Fill one observation of `seat` (see hunters/jaeger/learn.py for the fields). `open_`: 0 the
    face-down tiles hidden (spec §5); 1 every collection shown in full (option open_collections, or
    the game is over); 2 the information state: only `seat`'s own shown in full (it took them).

    `shown` NULL: the board is written in full. Else the board is updated (the batch): shown[v] is
    the tile code row v shows (rows whose tile changed are rewritten and shown updated), and the
    piece channels (characters, packs, own index) of the nmarks spaces in marks, written last time,
    are cleared first. When marks is not NULL it receives the spaces whose piece channels are
    written now (at most 2 * MAXCAMPS + MAXP * MAXCH); return their count."""
    cdef Config* c = s.cfg
    cdef int P = s.nplayers, F = L.F, v, p, r, i, j, k, t, n, fd, mp, sc, pks, pkw, nm = 0, w
    cdef int16_t srcs[MAXCH]
    cdef int left[256]
    cdef uint8_t* row
    cdef int16_t* col
    if shown == NULL:
        for v in range(c.n):
            row = board + v * F
            memset(row + B_CHARS, 0, F - B_CHARS)
            tile_row(row, c.kind[v], s.tile[v])
    else:
        for v in range(c.n):
            if shown[v] != s.tile[v]:
                tile_row(board + v * F, c.kind[v], s.tile[v])
                shown[v] = s.tile[v]
        for j in range(nmarks):
            memset(board + marks[j] * F + B_CHARS, 0, F - B_CHARS)
    for j in range(2):
        for i in range(c.ncamps[j]):
            w = c.camps[j][i]
            if s.packs_at[w]:
                for p in range(P):
                    if (s.packs_at[w] >> p) & 1:
                        board[w * F + B_CHARS + P + (p - seat + P) % P] = 1
                if marks != NULL:
                    marks[nm] = w
                    nm += 1
    for p in range(P):
        r = (p - seat + P) % P
        for i in range(s.nch[p]):
            v = s.pos[p][i]
            if v >= 0:
                board[v * F + B_CHARS + r] += 1
                if marks != NULL:
                    marks[nm] = v
                    nm += 1
        n = own_spaces(s, p, srcs)
        for i in range(L.C):
            chars[r * L.C + i] = srcs[i] if i < n else -1
        if p == seat:
            for i in range(n):
                board[srcs[i] * F + B_CHARS + 2 * P] = i + 1
        # collection
        col = coll + r * NCOL
        fd = 0
        for k in range(NFACE):
            fd += s.taken[p][K_BERRIES + k]
            col[k] = s.taken[p][K_BERRIES + k] if open_ == 1 or (open_ == 2 and p == seat) else 0
        mp = 0
        for k in range(MAXMV):
            mp += k * s.mcount[p][k]
        pks = 0
        pkw = 0
        for i in range(c.ncamps[SUMMER]):
            pks += (s.packs_at[c.camps[SUMMER][i]] >> p) & 1
        for i in range(c.ncamps[WINTER]):
            pkw += (s.packs_at[c.camps[WINTER][i]] >> p) & 1
        col[7] = fd
        col[8] = s.weapons[p]
        col[9] = s.spent[p]
        col[10] = s.taken[p][K_MAMMOTH]
        col[11] = mp
        col[12] = s.packs[p]
        col[13] = pks
        col[14] = pkw
        col[15] = s.onb[p]
        col[16] = s.nch[p]
        col[17] = clamp16(score_of(s, p) if open_ == 1 or (open_ == 2 and p == seat) else mp + pks * G_pack_points)
    # tiles by kind: on the board, still to be laid, removed
    memset(tiles, 0, 3 * (NKINDS - 1) * sizeof(int16_t))
    for v in range(c.n):
        t = s.tile[v] & 15
        if t and c.kind[v] == SP_TILE:
            tiles[t - 1] += 1
    if s.deal_next >= 0:
        deal_left(s, left)
        for t in range(256):
            if left[t] and (t & 15):
                tiles[(NKINDS - 1) + (t & 15) - 1] += left[t]
    elif s.season == SUMMER:
        for k in range(c.nwdeck):
            tiles[(NKINDS - 1) + (c.wdeck[k] & 15) - 1] += 1
    for k in range(1, NKINDS):
        tiles[2 * (NKINDS - 1) + k - 1] = s.removed[k]
    # every seat's face-down tiles together, by kind (public: what left the board face down)
    for k in range(NFACE):
        n = 0
        for p in range(P):
            n += s.taken[p][K_BERRIES + k]
        pool[k] = n
    status[0] = s.season
    status[1] = -1 if (s.season == OVER or s.deal_next >= 0) else (s.player - seat + P) % P
    status[2] = clamp16(s.turns)
    status[3] = clamp16(s.idle)
    status[4] = c.stall_rounds
    status[5] = s.best_val
    status[6] = -1 if s.best_seat < 0 else (s.best_seat - seat + P) % P
    status[7] = open_ == 1
    status[8] = P
    status[9] = (c.nwdeck - s.dealt) if s.deal_next >= 0 else 0
    return nm



# ---------------------------------------------------------------------------------------------
# The Python handle.

cdef list _events_list(Event* ev, int n, object turn):
    cdef list out = []
    cdef int i
    for i in range(n):
        out.append((turn, ev[i].season, ev[i].step, ev[i].kind, ev[i].seat, ev[i].space, ev[i].tile,
                    ev[i].detail))
    return out


cdef class CoreGame:
    """One game's C state. Methods take and return plain ints, tuples and lists."""
    cdef State* s
    cdef readonly CoreConfig config

    def __cinit__(self):
        self.s = <State*>checked_malloc(sizeof(State))

    def __dealloc__(self):
        free(self.s)

    @staticmethod
    def create(CoreConfig config, int players, list summer, start, bint begin_now=True, bint external=False):
        """A new game: summer tile codes by space; start = None (the rules) or a list of (seat, space).
        Returns (game, events of an immediate season end). `begin_now` False: the game waits before
        its first turn (the external summer deal lays its tiles, then a new game is made);
        `external`: a winter deal waits for chance outcomes."""
        cdef CoreGame g = CoreGame.__new__(CoreGame)
        cdef Config* c = config.c
        cdef uint8_t sbuf[MAXS]
        cdef int16_t seats[MAXP * MAXCH]
        cdef int16_t spaces[MAXP * MAXCH]
        cdef int8_t count[MAXP]
        cdef Event ev[MAXEV]
        cdef int v, n, nstart = -1, p
        if not 1 <= players <= MAXP or len(summer) != c.n:
            raise ValueError("bad game size")
        for v in range(c.n):
            sbuf[v] = summer[v]
        if start is not None:
            nstart = len(start)
            if nstart > MAXP * MAXCH:
                raise ValueError("too many characters")
            memset(count, 0, MAXP)
            for v, (p, sp) in enumerate(start):
                if not 0 <= p < players or not 0 <= sp < c.n or count[p] >= MAXCH:
                    raise ValueError("bad start position")
                count[p] += 1
                seats[v] = p
                spaces[v] = sp
        g.config = config
        init_state(g.s, c, players, sbuf, seats, spaces, nstart)
        g.s.ext_chance = external
        n = begin(g.s, ev) if begin_now else 0
        return g, _events_list(ev, n, None)

    def clone(self):
        cdef CoreGame g = CoreGame.__new__(CoreGame)
        memcpy(g.s, self.s, sizeof(State))
        g.config = self.config
        return g

    @property
    def player(self):
        return self.s.player

    @property
    def nplayers(self):
        return self.s.nplayers

    @property
    def season(self):
        return self.s.season

    @property
    def over(self):
        return self.s.season == OVER

    @property
    def turns(self):
        return self.s.turns

    @property
    def idle(self):
        return self.s.idle

    @property
    def summer_mammoth(self):
        """(value, seat) of the most valuable mammoth killed in summer (the first kill on equal value), or None."""
        return (self.s.best_val, self.s.best_seat) if self.s.best_seat >= 0 else None

    def scores(self):
        return [score_of(self.s, p) for p in range(self.s.nplayers)]

    def score_parts(self, int p):
        """(food, mammoths, goods, supply packs) of seat p."""
        cdef int parts[4]
        score_parts(self.s, p, parts)
        return parts[0], parts[1], parts[2], parts[3]

    def tiles(self):
        """Tile code on each space (0 = none)."""
        return [self.s.tile[v] for v in range(self.s.cfg.n)]

    def characters(self):
        """(seat, space) of every character on the board, sorted."""
        cdef int p, i
        return sorted([(p, self.s.pos[p][i]) for p in range(self.s.nplayers)
                       for i in range(self.s.nch[p]) if self.s.pos[p][i] >= 0])

    def supply_packs(self):
        """(space, seat) of every supply pack on a camp, sorted."""
        cdef int v, p
        return [(v, p) for v in range(self.s.cfg.n) for p in range(self.s.nplayers)
                if (self.s.packs_at[v] >> p) & 1]

    def collection(self, int p):
        """Seat p's pieces: (taken by kind, mammoths by value, weapons held, weapons spent,
        supply packs in hand, characters on the board, characters this season)."""
        return ([self.s.taken[p][k] for k in range(NKINDS)], [self.s.mcount[p][v] for v in range(MAXMV)],
                self.s.weapons[p], self.s.spent[p], self.s.packs[p], self.s.onb[p], self.s.nch[p])

    def tile_counts(self):
        """(laid, removed) tile counts by kind."""
        return [self.s.laid[k] for k in range(NKINDS)], [self.s.removed[k] for k in range(NKINDS)]

    def legal_codes(self):
        """Every legal turn code now, ascending."""
        cdef int n, i, cap = max_turns(self.s)
        cdef uint32_t* buf = <uint32_t*>checked_malloc(cap * sizeof(uint32_t))
        with nogil:
            n = gen_turns(self.s, buf)
        out = uint32_list(buf, n)
        free(buf)
        return out

    def count_legal(self):
        cdef int n, cap = max_turns(self.s)
        cdef uint32_t* buf = <uint32_t*>checked_malloc(cap * sizeof(uint32_t))
        with nogil:
            n = gen_turns(self.s, buf)
        free(buf)
        return n

    def check(self, int src1, int dst1, bint has2, int src2, int dst2):
        """Error code of a turn given by spaces (dst -1 = leave), 0 when legal. Spaces in range."""
        return turn_error(self.s, src1, dst1, has2, src2, dst2)

    def play_code(self, uint32_t code):
        """Apply a legal turn code; return its events as tuples
        (turn, season, step, kind, seat, space, tile, detail)."""
        cdef Event ev[MAXEV]
        cdef int n, turn = self.s.turns
        with nogil:
            n = apply_turn(self.s, code, ev)
        return _events_list(ev, n, turn)

    def random_code(self, uint64_t seed, bint stay=False):
        """A random legal turn code (uniform first step, then uniform second step), from `seed`;
        `stay`: leave the board only when nothing else is legal."""
        cdef uint64_t rng = seed
        if self.s.season == OVER:
            return None
        return random_code(self.s, &rng, stay)

    # -- external chance and learning (hunters.jaeger.learn) ---------------------------------
    def set_external(self):
        """Make a later winter deal wait for chance outcomes (`deal_outcomes`, `deal_apply`)."""
        self.s.ext_chance = 1

    def lay(self, int v, int code):
        """Put summer tile `code` on the empty tile space v (the external summer deal, before `begin`)."""
        if not 0 <= v < self.s.cfg.n or self.s.cfg.kind[v] != SP_TILE or self.s.tile[v] or not 0 < code < 256:
            raise ValueError("a summer tile goes on an empty tile space")
        self.s.tile[v] = code
        self.s.laid[code & 15] += 1

    @property
    def deal_space(self):
        """The space the next winter tile of a pending external deal goes to, or None."""
        cdef int v = deal_space(self.s)
        return None if v < 0 else v

    def deal_outcomes(self):
        """[(tile code, count)] of the undealt winter tiles (count > 0), by code."""
        cdef int count[256]
        cdef int t
        deal_left(self.s, count)
        return [(t, count[t]) for t in range(256) if count[t] > 0]

    def deal_apply(self, int code):
        """Lay winter tile `code` on `deal_space` (ValueError if no deal is pending or no such tile
        is left); return the events (those of the winter set-up once the deal is complete, dated
        like the internal deal's: the turn that ended summer)."""
        cdef int count[256]
        cdef Event ev[MAXEV]
        cdef int n
        if deal_space(self.s) < 0:
            raise ValueError("no chance node is pending")
        deal_left(self.s, count)
        if not 0 <= code < 256 or count[code] <= 0:
            raise ValueError(f"tile code {code} is not among the chance outcomes")
        n = deal_apply(self.s, code, ev)
        return _events_list(ev, n, self.s.turns - 1 if self.s.turns > 0 else None)

    def learn_actions(self, int C, int K):
        """Every legal compact code now, ascending."""
        cdef LearnSpec L
        cdef int n, j, c
        cdef uint32_t* buf
        cdef uint8_t* seen
        if self.s.season == OVER or deal_space(self.s) >= 0:
            return []
        learn_spec(&L, self.s.cfg, C, K, self.s.nplayers)
        buf = <uint32_t*>checked_malloc(max_turns(self.s) * sizeof(uint32_t))
        seen = <uint8_t*>checked_malloc(L.A)
        with nogil:
            n = search_turns(self.s, &L, buf)
            memset(seen, 0, L.A)        # sort by marking: the codes are distinct and below A
            for j in range(n):
                seen[buf[j]] = 1
            j = 0
            for c in range(L.A):
                if seen[c]:
                    buf[j] = c
                    j += 1
        out = uint32_list(buf, n)
        free(seen)
        free(buf)
        return out

    def learn_mask(self, uint8_t[::1] out, int C, int K):
        """Fill `out` (A entries) with 1 at each legal compact code, 0 elsewhere."""
        cdef LearnSpec L
        cdef int n, j
        cdef uint32_t* buf
        learn_spec(&L, self.s.cfg, C, K, self.s.nplayers)
        if out.shape[0] != L.A:
            raise ValueError(f"the mask needs {L.A} entries")
        memset(&out[0], 0, L.A)
        if self.s.season == OVER or deal_space(self.s) >= 0:
            return
        buf = <uint32_t*>checked_malloc(max_turns(self.s) * sizeof(uint32_t))
        with nogil:
            n = search_turns(self.s, &L, buf)
            for j in range(n):
                out[buf[j]] = 1
        free(buf)

    def learn_turn(self, int64_t code, int C, int K):
        """(0, turn code) of a compact code that is legal now, else (reason code, None)."""
        cdef LearnSpec L
        cdef uint32_t turn = 0
        cdef int err
        learn_spec(&L, self.s.cfg, C, K, self.s.nplayers)
        err = compact_turn(self.s, &L, code, &turn)
        return (0, turn) if err == OK else (err, None)

    def learn_code(self, uint32_t turn, int C, int K):
        """The compact code of a legal turn code."""
        cdef LearnSpec L
        cdef int16_t srcs[MAXCH]
        cdef int nsrc = own_spaces(self.s, self.s.player, srcs)
        learn_spec(&L, self.s.cfg, C, K, self.s.nplayers)
        return compact_of(self.s, &L, turn, srcs, nsrc)

    def observe(self, int seat, int C, int K, int open_, uint8_t[:, ::1] board, int16_t[:, ::1] chars,
                int16_t[:, ::1] coll, int16_t[:, ::1] tiles, int16_t[::1] pool, int16_t[::1] status):
        """Fill the observation of `seat` into the buffers (shapes from hunters.jaeger.learn)."""
        cdef LearnSpec L
        learn_spec(&L, self.s.cfg, C, K, self.s.nplayers)
        if not 0 <= seat < self.s.nplayers:
            raise ValueError("no such seat")
        if (board.shape[0] != self.s.cfg.n or board.shape[1] != L.F or chars.shape[0] != L.P
                or chars.shape[1] != C or coll.shape[0] != L.P or coll.shape[1] != NCOL
                or tiles.shape[0] != 3 or tiles.shape[1] != NKINDS - 1 or pool.shape[0] != NFACE
                or status.shape[0] != NSTATUS):
            raise ValueError("buffer shapes do not match the game")
        learn_observe(self.s, &L, seat, open_, &board[0, 0], &chars[0, 0], &coll[0, 0], &tiles[0, 0],
                      &pool[0], &status[0], NULL, NULL, 0)

    # -- search (hunters.bots) ---------------------------------------------------------------
    def masked(self, CoreConfig config, int seat, seed=None, bint deal=True):
        """A copy on `config` (the caller's: the same board, layout and options, the winter deck in
        an order the caller chose) whose other seats' face-down tiles are pooled and dealt back,
        each seat keeping its number: in kind order by seat (seed None: what `seat` may know), or at
        random from `seed` (a determinization)."""
        cdef uint64_t rng
        if config.c.n != self.s.cfg.n or config.c.nwdeck != self.s.cfg.nwdeck or not 0 <= seat < self.s.nplayers:
            raise ValueError("config or seat does not match the game")
        cdef CoreGame g = self.clone()
        g.config = config
        g.s.cfg = config.c
        if not deal:
            pass
        elif seed is None:
            deal_face_down(g.s, seat, NULL)
        else:
            rng = seed
            deal_face_down(g.s, seat, &rng)
        return g

    def playouts(self, long n, uint64_t seed, bint determinize=False):
        """n uniformly random playouts to the end, each from a copy of this state: with its own
        hidden parts, or (determinize) each with them redrawn for the seat to move. Returns (total
        points per seat, wins per seat, turns played)."""
        if n < 0:
            raise ValueError("n must be >= 0")
        cdef Det* d = new_det(self.s, self.s.player)
        try:
            return mc_playouts(self.s, d, n, seed, determinize)
        finally:
            free(d)

    def mcts(self, long iterations, double seconds, double explore, double margin_weight,
             double margin_scale, uint64_t seed, double bare=0.0, unsigned char[::1] stop=None):
        """IS-MCTS from this state for the seat to move (see mcts.pxi): (iterations done,
        [(turn code, visits, mean reward)] of the root's moves). `bare` is ignored (H&G only)."""
        if self.s.season == OVER:
            raise ValueError("the game is over")
        if iterations <= 0 and seconds <= 0:
            raise ValueError("give iterations or seconds")
        cdef Det* d = new_det(self.s, self.s.player)
        try:
            return mc_run(self.s, d, iterations, seconds, explore, margin_weight, margin_scale, seed,
                          NULL if stop is None else &stop[0])
        finally:
            free(d)


cdef int tile_codes(list tiles, uint8_t* out) except -1:
    """Copy a list of tile codes into out (MAXS bytes); return the count (ValueError when too many)."""
    cdef int i, n = len(tiles)
    if n > MAXS:
        raise ValueError("too many tiles")
    for i in range(n):
        out[i] = tiles[i]
    return n


cdef void random_config(Config* c, CoreConfig board, int stall_rounds, bint straight, int winter_start,
                        bint shared_ties) noexcept:
    """The configuration of random games on a board template (caves and winter deck are set per game
    by deal_random_game)."""
    memcpy(c, board.c, sizeof(Config))
    c.stall_rounds = stall_rounds
    c.straight = straight
    c.winter_start = winter_start
    c.shared_ties = shared_ties


cdef int deal_random_game(Sim* sim, int players, uint8_t* summer, int ns, uint8_t* winter, int nw,
                          uint64_t seed) noexcept nogil:
    """Begin in sim the game Game.new(players, seed) makes from these decks (tile codes): both
    shuffled from `seed` (summer first, as shuffled_decks), the summer tiles dealt on the tile spaces,
    the caves and the winter deck set in sim.c. Return the count of events (in sim.ev)."""
    cdef uint8_t sdeck[MAXS]
    cdef uint8_t wdeck[MAXS]
    cdef uint8_t by_space[MAXS]
    memcpy(sdeck, summer, ns)
    memcpy(wdeck, winter, nw)
    rng_shuffle(&seed, sdeck, ns)
    rng_shuffle(&seed, wdeck, nw)
    deal_summer(&sim.c, sdeck, ns, by_space)
    set_layout(&sim.c, by_space, wdeck, nw)
    init_state(&sim.s, &sim.c, players, by_space, NULL, NULL, -1)
    return begin(&sim.s, sim.ev)


def random_games(int n, int players, uint64_t seed, CoreConfig board, list summer_tiles,
                 list winter_tiles, int stall_rounds, bint straight, int winter_start, bint shared_ties,
                 bint stay):
    """Play n complete random games in C. Game g is the game of Game.new(seed=d_g) where d_g is the
    g-th output of splitmix64(seed); its turns are drawn from the same stream (random_code, `stay`
    policy as given). Return
    (games, turns, total points per seat, wins per seat)."""
    cdef uint8_t summer[MAXS]
    cdef uint8_t winter[MAXS]
    cdef uint64_t rng = seed
    cdef int g, p, best, nbest, ns, nw
    cdef long turns = 0
    cdef long totals[MAXP]
    cdef long wins[MAXP]
    cdef int sc[MAXP]
    cdef uint32_t code
    cdef Sim* sim
    cdef State* s
    if not 1 <= players <= MAXP or n < 0:
        raise ValueError("bad configuration")
    ns = tile_codes(summer_tiles, summer)
    nw = tile_codes(winter_tiles, winter)
    sim = <Sim*>checked_malloc(sizeof(Sim))
    s = &sim.s
    random_config(&sim.c, board, stall_rounds, straight, winter_start, shared_ties)
    for p in range(MAXP):
        totals[p] = 0
        wins[p] = 0
    with nogil:
        for g in range(n):
            deal_random_game(sim, players, summer, ns, winter, nw, rng_next(&rng))
            while s.season != OVER:
                code = random_code(s, &rng, stay and s.idle < STAY_PATIENCE)
                apply_turn(s, code, sim.ev)
                turns += 1
            best = -1
            for p in range(players):
                sc[p] = score_of(s, p)
                totals[p] += sc[p]
                if sc[p] > best:
                    best = sc[p]
            nbest = 0
            for p in range(players):
                if sc[p] == best:
                    nbest += 1
            if nbest == 1 or shared_ties:
                for p in range(players):
                    if sc[p] == best:
                        wins[p] += 1
    free(sim)
    return n, turns, [totals[p] for p in range(players)], [wins[p] for p in range(players)]


def state_size():
    """Bytes copied by clone()."""
    return sizeof(State)


# ---------------------------------------------------------------------------------------------
# The learning batch.

ctypedef struct BGame:              # one slot of a LearnCore: a game and its own configuration
    State s
    Config c


cdef class LearnCore:
    """`games` random games of one configuration stepped together (hunters.jaeger.learn.LearnBatch
    wraps it with numpy buffers, bound once by `bind`). Slot i's e-th game is the game of
    Game.new(players, seed=seed + e * games + i, **options)."""
    cdef BGame* g
    cdef int N, P
    cdef LearnSpec L
    cdef Config tmpl
    cdef uint8_t sdeck[MAXS]
    cdef uint8_t wdeck[MAXS]
    cdef int ns, nw, cap
    cdef int open_
    cdef uint64_t seed
    cdef uint64_t* episode
    cdef uint32_t* buf              # legal turns of one game
    cdef int32_t* prev              # N * A: the mask entries set last time, per game
    cdef int32_t* nprev
    cdef uint8_t* shown             # N * MAXS: the tile code each board row shows, per game
    cdef int16_t* marks             # N * NMARKS: spaces whose piece channels were written, per game
    cdef int32_t* nmarks            # per game; -1: the board is written in full next time
    cdef uint32_t* todo             # N: turn codes of the step being played
    cdef uint32_t** hist            # per slot: turn codes of the current game
    cdef int32_t* hlen
    cdef int32_t* hcap
    cdef Event* ev                  # events of one turn
    cdef uint8_t[:, ::1] mask
    cdef uint8_t[:, :, ::1] board
    cdef int16_t[:, :, ::1] chars
    cdef int16_t[:, :, ::1] coll
    cdef int16_t[:, :, ::1] tiles
    cdef int16_t[:, ::1] pool
    cdef int16_t[:, ::1] status
    cdef int32_t[::1] player
    cdef float[:, ::1] rewards
    cdef uint8_t[::1] done
    cdef int32_t[:, ::1] final

    def __cinit__(self, int games, int players, CoreConfig board, list summer_tiles, list winter_tiles,
                  int stall_rounds, bint straight, int winter_start, bint shared_ties, bint open_collections,
                  int C, int K, bint own=False):
        cdef int i
        if games < 1 or not 1 <= players <= MAXP or not 1 <= C <= MAXCH:
            raise ValueError("bad batch size")
        self.N = games
        self.P = players
        self.ns = tile_codes(summer_tiles, self.sdeck)
        self.nw = tile_codes(winter_tiles, self.wdeck)
        random_config(&self.tmpl, board, stall_rounds, straight, winter_start, shared_ties)
        self.open_ = 1 if open_collections else (2 if own else 0)   # own: information states
        learn_spec(&self.L, &self.tmpl, C, K, players)
        self.cap = (C * (self.tmpl.ndir + MAXCAVES + 1)) * (C * (self.tmpl.ndir + MAXCAVES + 1) + 1) + 1
        self.g = <BGame*>checked_malloc(games * sizeof(BGame))
        self.episode = <uint64_t*>checked_malloc(games * sizeof(uint64_t))
        self.buf = <uint32_t*>checked_malloc(<size_t>self.cap * sizeof(uint32_t))
        self.prev = <int32_t*>checked_malloc(<size_t>games * self.L.A * sizeof(int32_t))
        self.nprev = <int32_t*>checked_malloc(games * sizeof(int32_t))
        self.shown = <uint8_t*>checked_malloc(<size_t>games * MAXS)
        self.marks = <int16_t*>checked_malloc(<size_t>games * NMARKS * sizeof(int16_t))
        self.nmarks = <int32_t*>checked_malloc(games * sizeof(int32_t))
        self.todo = <uint32_t*>checked_malloc(games * sizeof(uint32_t))
        self.hist = <uint32_t**>checked_malloc(games * sizeof(uint32_t*))
        self.hlen = <int32_t*>checked_malloc(games * sizeof(int32_t))
        self.hcap = <int32_t*>checked_malloc(games * sizeof(int32_t))
        self.ev = <Event*>checked_malloc(MAXEV * sizeof(Event))
        for i in range(games):
            self.hist[i] = NULL
            self.hlen[i] = 0
            self.hcap[i] = 0
            self.nprev[i] = 0
            self.nmarks[i] = -1

    def __dealloc__(self):
        cdef int i
        if self.hist != NULL:
            for i in range(self.N):
                free(self.hist[i])
        free(self.hist)
        free(self.hlen)
        free(self.hcap)
        free(self.g)
        free(self.episode)
        free(self.buf)
        free(self.prev)
        free(self.nprev)
        free(self.shown)
        free(self.marks)
        free(self.nmarks)
        free(self.todo)
        free(self.ev)

    @property
    def actions(self):
        return self.L.A

    def bind(self, uint8_t[:, ::1] mask, uint8_t[:, :, ::1] board, int16_t[:, :, ::1] chars,
             int16_t[:, :, ::1] coll, int16_t[:, :, ::1] tiles, int16_t[:, ::1] pool, int16_t[:, ::1] status,
             int32_t[::1] player, float[:, ::1] rewards, uint8_t[::1] done, int32_t[:, ::1] final):
        """The buffers the batch fills (shapes as hunters.jaeger.learn lays them out)."""
        cdef int N = self.N, P = self.P
        cdef int C = self.L.C, T = NKINDS - 1
        if (mask.shape[0] != N or mask.shape[1] != self.L.A or board.shape[0] != N
                or board.shape[1] != self.tmpl.n or board.shape[2] != self.L.F
                or chars.shape[0] != N or chars.shape[1] != P or chars.shape[2] != C
                or coll.shape[0] != N or coll.shape[1] != P or coll.shape[2] != NCOL
                or tiles.shape[0] != N or tiles.shape[1] != 3 or tiles.shape[2] != T
                or pool.shape[0] != N or pool.shape[1] != NFACE or status.shape[0] != N
                or status.shape[1] != NSTATUS or player.shape[0] != N or rewards.shape[0] != N
                or rewards.shape[1] != P or done.shape[0] != N or final.shape[0] != N or final.shape[1] != P):
            raise ValueError("buffer shapes do not match the batch")
        self.mask = mask
        self.board = board
        self.chars = chars
        self.coll = coll
        self.tiles = tiles
        self.pool = pool
        self.status = status
        self.player = player
        self.rewards = rewards
        self.done = done
        self.final = final

    cdef void start(self, int i) noexcept nogil:
        """Deal slot i's current episode (a game over at set-up is skipped: next episode)."""
        cdef BGame* b = &self.g[i]
        cdef uint8_t sd[MAXS]
        cdef uint8_t wd[MAXS]
        cdef uint8_t by_space[MAXS]
        cdef uint64_t rng
        while True:
            rng = self.seed + self.episode[i] * <uint64_t>self.N + <uint64_t>i
            memcpy(&b.c, &self.tmpl, sizeof(Config))
            memcpy(sd, self.sdeck, self.ns)
            memcpy(wd, self.wdeck, self.nw)
            rng_shuffle(&rng, sd, self.ns)
            rng_shuffle(&rng, wd, self.nw)
            deal_summer(&b.c, sd, self.ns, by_space)
            set_layout(&b.c, by_space, wd, self.nw)
            init_state(&b.s, &b.c, self.P, by_space, NULL, NULL, -1)
            begin(&b.s, self.ev)
            self.hlen[i] = 0
            self.nmarks[i] = -1
            if b.s.season != OVER:
                return
            self.episode[i] += 1

    cdef void fill(self, int i) noexcept nogil:
        """Mask (clearing only last time's entries), observation and seat to move of slot i."""
        cdef State* s = &self.g[i].s
        cdef int j, n
        cdef int32_t* pv = self.prev + <size_t>i * self.L.A
        cdef uint8_t* m = &self.mask[i, 0]
        cdef uint32_t* buf = self.buf
        cdef uint8_t* shown = self.shown + <size_t>i * MAXS
        cdef int16_t* marks = self.marks + <size_t>i * NMARKS
        cdef bint full = self.nmarks[i] < 0
        for j in range(self.nprev[i]):
            m[pv[j]] = 0
        n = search_turns(s, &self.L, buf)
        for j in range(n):
            m[buf[j]] = 1
            pv[j] = buf[j]
        self.nprev[i] = n
        self.nmarks[i] = learn_observe(s, &self.L, s.player, self.open_, &self.board[i, 0, 0],
                                       &self.chars[i, 0, 0], &self.coll[i, 0, 0], &self.tiles[i, 0, 0],
                                       &self.pool[i, 0], &self.status[i, 0], NULL if full else shown, marks,
                                       0 if full else self.nmarks[i])
        if full:
            memcpy(shown, s.tile, s.cfg.n)
        self.player[i] = s.player

    def reset(self, uint64_t seed):
        cdef int i
        if self.mask is None:
            raise ValueError("bind the buffers first")
        self.seed = seed
        with nogil:
            for i in range(self.N):
                self.episode[i] = 0
                self.nprev[i] = 0
                memset(&self.mask[i, 0], 0, self.L.A)
                self.done[i] = 0
                memset(&self.rewards[i, 0], 0, self.P * sizeof(float))
                self.start(i)
                self.fill(i)

    def step(self, int64_t[::1] actions):
        """Play actions[i] in every slot. Returns None, or (slot, reason code) of the first illegal
        code, in which case no game changed."""
        cdef int i, err = 0, bad = -1
        if actions.shape[0] != self.N:
            raise ValueError(f"actions must hold {self.N} codes")
        if self.mask is None:
            raise ValueError("bind the buffers first")
        with nogil:
            for i in range(self.N):
                err = compact_turn(&self.g[i].s, &self.L, actions[i], &self.todo[i])
                if err:
                    bad = i
                    break
        if bad >= 0:
            return bad, err
        with nogil:
            for i in range(self.N):
                self.advance(i)
        return None

    cdef void advance(self, int i) noexcept nogil:
        """Play slot i's checked turn; a game that ends is scored and the slot's next one dealt."""
        cdef State* s = &self.g[i].s
        cdef uint32_t* h
        cdef int sc[MAXP]
        cdef int p, best = -1, nbest = 0
        apply_turn(s, self.todo[i], self.ev)
        if self.hlen[i] == self.hcap[i]:
            h = <uint32_t*>realloc(self.hist[i], (2 * self.hcap[i] + 64) * sizeof(uint32_t))
            if h != NULL:
                self.hist[i] = h
                self.hcap[i] = 2 * self.hcap[i] + 64
        if self.hlen[i] < self.hcap[i]:
            self.hist[i][self.hlen[i]] = self.todo[i]
            self.hlen[i] += 1
        memset(&self.rewards[i, 0], 0, self.P * sizeof(float))
        self.done[i] = 0
        if s.season == OVER:
            for p in range(self.P):
                sc[p] = score_of(s, p)
                self.final[i, p] = sc[p]
                if sc[p] > best:
                    best = sc[p]
            for p in range(self.P):
                nbest += sc[p] == best
            for p in range(self.P):
                self.rewards[i, p] = (1.0 if nbest == 1 else 0.0) if sc[p] == best else -1.0
            self.done[i] = 1
            self.episode[i] += 1
            self.start(i)
        self.fill(i)

    def slot(self, int i):
        """(seed, turn codes so far) of the game in slot i."""
        if not 0 <= i < self.N:
            raise IndexError("no such slot")
        return (self.seed + self.episode[i] * <uint64_t>self.N + <uint64_t>i) & 0xFFFFFFFFFFFFFFFF, \
            [self.hist[i][j] for j in range(self.hlen[i])]


include "hunters/_core/rank.pxi"
include "_core_eval.pxi"
include "_core_perft.pxi"
include "_core_greedy.pxi"
