# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Test-only self-check of the Jäger und Sammler core: random games in C with every invariant checked
at every turn, so CI can run thousands of games (the Python-level round-trip checks run on fewer).

Not part of the package: tests/jaeger/selfcheck.py compiles it on first use, against the engine that
hunters/jaeger/_core.pxd exports (the functions run from the production extension itself)."""
from libc.stdint cimport int16_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free

from hunters.jaeger._core cimport (
    LEAVE, MAXCH, MAXP, MAXS, NKINDS, OK, OVER, SP_TILE, K_CAVE, K_WEAPON, STAY_PATIENCE,
    Config, CoreConfig, Sim, State, G_chars, G_packs, apply_turn, deal_random_game, decode_turn, gen_turns,
    max_turns, own_spaces, random_code, random_config, score_of, step_code, tile_codes, turn_error,
)
from hunters._core.mem cimport checked_malloc
from hunters._core.rng cimport rng_below, rng_next

cdef int invariant_errors(State* s, int* prev_scores, long* viol) noexcept nogil:
    """Check the invariants of a position; count violations by kind in viol[0..5]; return total."""
    cdef Config* c = s.cfg
    cdef int k, p, i, v, n = 0, total, cnt
    cdef int onboard[NKINDS]
    cdef int occ[MAXS]
    for k in range(NKINDS):
        onboard[k] = 0
    for v in range(c.n):
        occ[v] = 0
        if s.tile[v]:
            onboard[s.tile[v] & 15] += 1
            if c.kind[v] != SP_TILE:
                viol[0] += 1
                n += 1
    for k in range(NKINDS):                                  # 0: tiles conserved
        total = s.removed[k] + onboard[k]
        for p in range(s.nplayers):
            total += s.taken[p][k]
        if total != s.laid[k]:
            viol[0] += 1
            n += 1
    for p in range(s.nplayers):                              # 1: characters and occupancy
        cnt = 0
        for i in range(s.nch[p]):
            v = s.pos[p][i]
            if v >= 0:
                cnt += 1
                occ[v] += 1
                if c.kind[v] == SP_TILE and s.tile[v] == 0:
                    viol[1] += 1
                    n += 1
        if cnt != s.onb[p] or s.nch[p] > G_chars:
            viol[1] += 1
            n += 1
    for v in range(c.n):
        if occ[v] != s.nocc[v] or (c.kind[v] == SP_TILE and (s.tile[v] & 15) != K_CAVE and occ[v] > 1):
            viol[1] += 1
            n += 1
    for p in range(s.nplayers):
        cnt = s.packs[p]                                     # 2: supply packs conserved
        for v in range(c.n):
            if (s.packs_at[v] >> p) & 1:
                cnt += 1
                if c.kind[v] == SP_TILE:
                    viol[2] += 1
                    n += 1
        if cnt != G_packs:
            viol[2] += 1
            n += 1
        if s.weapons[p] != s.taken[p][K_WEAPON] - s.spent[p] or s.weapons[p] < 0:   # 3: weapons
            viol[3] += 1
            n += 1
        total = score_of(s, p)                               # 4: scores never decrease
        if total < prev_scores[p]:
            viol[4] += 1
            n += 1
        prev_scores[p] = total
    if s.season != OVER and s.onb[s.player] == 0:           # 5: the player to move has a character
        viol[5] += 1
        n += 1
    return n


cdef bint in_sorted(uint32_t* a, int n, uint32_t x) noexcept nogil:
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo < n and a[lo] == x


def selfcheck_games(int n, int players, uint64_t seed, CoreConfig board, list summer_tiles,
                    list winter_tiles, int stall_rounds, bint straight, int winter_start, bint stay,
                    int probes):
    """Play n random games like the core's random_games() and check at every turn: the position's
    invariants; that the legal list is strictly ascending, non-empty and every listed turn is accepted
    by the validator; that the drawn turn is listed; and that `probes` random turns near the player's
    characters are accepted exactly when listed. Return (games, turns, listed turns checked, probes,
    violations by name)."""
    cdef uint8_t summer[MAXS]
    cdef uint8_t winter[MAXS]
    cdef int16_t srcs[MAXCH]
    cdef uint64_t rng = seed
    cdef uint32_t W, code
    cdef int g, i, j, m, nl, ns, nw, p, err, nsrc
    cdef int s1 = 0, d1 = 0, s2 = 0, d2 = 0, c1, c2, cap
    cdef bint has2, listed
    cdef int prev[MAXP]
    cdef long turns = 0, checked = 0, probed = 0
    cdef long viol[10]
    cdef Sim* sim
    cdef State* s
    cdef Config* c
    cdef uint32_t* buf
    if not 1 <= players <= MAXP or n < 0:
        raise ValueError("bad configuration")
    ns = tile_codes(summer_tiles, summer)
    nw = tile_codes(winter_tiles, winter)
    sim = <Sim*>checked_malloc(sizeof(Sim))
    try:
        buf = <uint32_t*>checked_malloc(65536 * sizeof(uint32_t))
    except MemoryError:
        free(sim)
        raise
    s = &sim.s
    c = &sim.c
    for i in range(10):
        viol[i] = 0
    random_config(c, board, stall_rounds, straight, winter_start, False)
    with nogil:
        for g in range(n):
            deal_random_game(sim, players, summer, ns, winter, nw, rng_next(&rng))
            for p in range(MAXP):
                prev[p] = 0
            W = c.nstep + 1
            while True:
                invariant_errors(s, prev, viol)
                if s.season == OVER:
                    break
                cap = max_turns(s)
                if cap > 65536:
                    viol[6] += 1
                    break
                nl = gen_turns(s, buf)
                if nl == 0:
                    viol[6] += 1
                    break
                for i in range(nl):                          # 6: every listed turn is accepted
                    checked += 1
                    if i > 0 and buf[i] <= buf[i - 1]:
                        viol[6] += 1
                    decode_turn(c, buf[i], &s1, &d1, &s2, &d2)
                    if turn_error(s, s1, d1, s2 >= 0, s2 if s2 >= 0 else 0, d2 if s2 >= 0 else 0) != OK:
                        viol[6] += 1
                nsrc = own_spaces(s, s.player, srcs)
                for j in range(probes):                      # 7: anything else is refused
                    probed += 1
                    s1 = srcs[rng_below(&rng, nsrc)] if rng_below(&rng, 8) else <int>rng_below(&rng, c.n)
                    m = <int>rng_below(&rng, c.ndir + 2)
                    d1 = LEAVE if m == c.ndir else (c.nb[s1][m] if m < c.ndir else <int>rng_below(&rng, c.n))
                    if d1 == -1 and m < c.ndir:
                        continue
                    has2 = rng_below(&rng, 6) != 0
                    s2 = d1 if (d1 >= 0 and rng_below(&rng, 2)) else srcs[rng_below(&rng, nsrc)]
                    m = <int>rng_below(&rng, c.ndir + 2)
                    d2 = LEAVE if m == c.ndir else (c.nb[s2][m] if m < c.ndir else <int>rng_below(&rng, c.n))
                    if d2 == -1 and m < c.ndir:
                        continue
                    err = turn_error(s, s1, d1, has2, s2, d2)
                    c1 = step_code(c, s1, d1)
                    c2 = step_code(c, s2, d2) if has2 else 0
                    if c1 < 0 or c2 < 0:
                        listed = False
                    else:
                        code = <uint32_t>c1 * W + (<uint32_t>(c2 + 1) if has2 else 0)
                        listed = in_sorted(buf, nl, code)
                    if listed != (err == OK):
                        viol[7] += 1
                code = random_code(s, &rng, stay and s.idle < STAY_PATIENCE)
                if not in_sorted(buf, nl, code):             # 8: the random turn is a listed one
                    viol[8] += 1
                apply_turn(s, code, sim.ev)
                turns += 1
    free(sim)
    free(buf)
    names = ("tiles_conserved", "characters", "supply_packs", "weapons", "scores_monotone", "player_to_move",
             "listed_accepted", "unlisted_refused", "random_turn_listed")
    return n, turns, checked, probed, {names[i]: viol[i] for i in range(9)}
