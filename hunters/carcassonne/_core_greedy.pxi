# The greedy bot's one-ply choice in the core (hunters.bots.GreedyBot): the twin of the plugin value
# `hunters.carcassonne.bots.value`, which stays the definition (tests/bots/test_greedy_core.py
# checks that both choose the same moves). Textually included at the end of _core.pyx.

cdef double greedy_value(State* before, State* after, int seat, uint32_t code) noexcept nogil:
    """Points gained minus the most another seat gained, plus a little for a piece placed and
    still standing (a hut 2, a meeple in a forest or river 2, on a meadow 1; 1 less for the last
    meeple)."""
    cdef int p, g, others = 0, slot = (code >> 9) & 31, local, dz, o
    cdef bint first = True
    cdef double v
    for p in range(before.nplayers):
        if p != seat:
            g = after.score[p] - before.score[p]
            if first or g > others:
                others = g
                first = False
    v = <double>(after.score[seat] - before.score[seat] - others)
    if slot:
        local = slot - MEEPLE_SLOT if slot < HUT_SLOT else slot - HUT_SLOT
        dz = T_gid2dz[before.tile * 10 + local]
        o = after.occ[dz]
        if o and (o - 1) % MAXP == seat:
            if slot >= HUT_SLOT:
                v += 2.0
            else:
                v += 1.0 if T_type[dz] == MEADOW else 2.0
                if after.meeples[seat] == 0:
                    v -= 1.0
    return v


def greedy_best(CoreGame g):
    """The codes (ascending: in `legal_codes()` order) of the legal moves with the best `greedy_value`
    for the seat to move: each move played on a scratch copy and valued; a value within 1e-9 of
    the best so far ties, one above it by more replaces the list (the Python greedy's rule)."""
    cdef State* work = <State*>checked_malloc(sizeof(State))
    cdef uint32_t* buf = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
    cdef int32_t* best = <int32_t*>checked_malloc(MAXMOVES * sizeof(int32_t))
    cdef Event* ev = <Event*>checked_malloc(MAXEV * sizeof(Event))
    cdef int n = 0, i, nbest = 0, seat = g.s.player
    cdef double v, best_v = -1e300
    try:
        with nogil:
            if not g.s.over and g.s.tile >= 0:
                n = gen_moves(g.s, buf)
            for i in range(n):
                memcpy(work, g.s, sizeof(State))
                apply_move(work, buf[i], ev)
                v = greedy_value(g.s, work, seat, buf[i])
                if v > best_v + 1e-9:
                    best_v = v
                    best[0] = i
                    nbest = 1
                elif v > best_v - 1e-9:
                    best[nbest] = i
                    nbest += 1
        return [buf[best[i]] for i in range(nbest)]
    finally:
        free(ev)
        free(best)
        free(buf)
        free(work)
