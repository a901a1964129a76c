# The greedy bot's one-ply choice in the core (hunters.bots.GreedyBot): the twin of the plugin value
# `hunters.jaeger.bots.value`, which stays the definition (tests/bots/test_greedy_core.py checks
# that both choose the same moves). Textually included at the end of _core.pyx.

cdef double jgreedy_value(State* before, State* after, int seat, int score_before) noexcept nogil:
    """Points gained plus weapons gained, less half a point per character that left the board
    while takeable tiles remain (`score_before`: score_of(before, seat))."""
    cdef int v, left = before.onb[seat] - after.onb[seat]
    cdef double out = <double>(score_of(after, seat) - score_before)
    out += <double>(after.weapons[seat] - before.weapons[seat])
    if left > 0:
        for v in range(after.cfg.n):
            if after.tile[v] and G_takeable[after.tile[v] & 15]:
                out -= 0.5 * left
                break
    return out


def greedy_best(CoreGame g):
    """The codes (ascending: in `legal_codes()` order) of the legal turns with the best `jgreedy_value`
    for the seat to move: each turn played on a scratch copy and valued; a value within 1e-9 of
    the best so far ties, one above it by more replaces the list (the Python greedy's rule)."""
    cdef int cap = max_turns(g.s)
    cdef State* work = <State*>checked_malloc(sizeof(State))
    cdef uint32_t* buf = <uint32_t*>checked_malloc((cap + 1) * sizeof(uint32_t))
    cdef int32_t* best = <int32_t*>checked_malloc((cap + 1) * sizeof(int32_t))
    cdef Event* ev = <Event*>checked_malloc(MAXEV * sizeof(Event))
    cdef int n = 0, i, nbest = 0, seat = g.s.player, before
    cdef double v, best_v = -1e300
    try:
        with nogil:
            if g.s.season != OVER:
                n = gen_turns(g.s, buf)
                before = score_of(g.s, seat)
            for i in range(n):
                memcpy(work, g.s, sizeof(State))
                apply_turn(work, buf[i], ev)
                v = jgreedy_value(g.s, work, seat, before)
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
