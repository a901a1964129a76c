# Perft (docs/jaeger-engine-contract.md#perft): the leaves of the game tree `depth` turns below a
# position, counted in C without the GIL, exact and without transpositions. At the last ply the
# legal turns are counted (gen_turns), not played.
#
# Fixed mode (`chance` 0): the winter deal is the game's own (its seed). Chance mode (`chance` 1):
# the winter deal is external chance: each tile space dealt is a chance node whose children are the
# distinct tile codes still in the winter deck (deal_left); chance nodes take no depth. A line that
# ends (game over) before `depth` counts nothing.

from libc.stdlib cimport malloc


cdef int64_t perft_node(State* s, int depth) noexcept nogil:
    """Leaves `depth` turns below s (not changed). -1: out of memory."""
    cdef int64_t total = 0, sub
    cdef int n, i, cap
    cdef int count[256]
    cdef State* child
    cdef Event* ev
    cdef uint32_t* buf
    if s.season == OVER:
        return 1 if depth == 0 else 0
    if depth == 0:
        return 1
    child = <State*>malloc(sizeof(State))
    ev = <Event*>malloc(MAXEV * sizeof(Event))
    if child == NULL or ev == NULL:
        free(child)
        free(ev)
        return -1
    if deal_space(s) >= 0:
        deal_left(s, count)
        for i in range(256):
            if count[i] > 0:
                memcpy(child, s, sizeof(State))
                deal_apply(child, i, ev)
                sub = perft_node(child, depth)
                if sub < 0:
                    total = -1
                    break
                total += sub
        free(child)
        free(ev)
        return total
    cap = max_turns(s)
    buf = <uint32_t*>malloc(cap * sizeof(uint32_t))
    if buf == NULL:
        free(child)
        free(ev)
        return -1
    n = gen_turns(s, buf)
    if depth == 1:
        total = n
    else:
        for i in range(n):
            memcpy(child, s, sizeof(State))
            apply_turn(child, buf[i], ev)
            sub = perft_node(child, depth - 1)
            if sub < 0:
                total = -1
                break
            total += sub
    free(buf)
    free(child)
    free(ev)
    return total


def perft(CoreGame g, int depth, bint chance=False, bint divide=False):
    """Leaves `depth` turns below g (see the comment above); with `divide`, a list of (root child,
    leaves below it): a turn code at a turn, a tile code at a pending deal."""
    cdef State* s
    cdef State* child
    cdef Event ev[MAXEV]
    cdef int count[256]
    cdef int64_t total = 0
    cdef int i, n
    cdef uint32_t* buf
    cdef list out = []
    if depth < 0 or depth > 64:
        raise ValueError("depth must be from 0 to 64")
    if not chance and deal_space(g.s) >= 0:
        raise ValueError("a winter deal is pending: only chance mode counts from here")
    s = <State*>checked_malloc(sizeof(State))
    child = <State*>checked_malloc(sizeof(State))
    memcpy(s, g.s, sizeof(State))
    s.ext_chance = chance
    try:
        if not divide:
            with nogil:
                total = perft_node(s, depth)
            if total < 0:
                raise MemoryError()
            return total
        if depth == 0 or s.season == OVER:
            return out
        if deal_space(s) >= 0:
            deal_left(s, count)
            for i in range(256):
                if count[i] > 0:
                    memcpy(child, s, sizeof(State))
                    deal_apply(child, i, ev)
                    with nogil:
                        total = perft_node(child, depth)
                    if total < 0:
                        raise MemoryError()
                    out.append((i, total))
            return out
        buf = <uint32_t*>checked_malloc(max_turns(s) * sizeof(uint32_t))
        n = gen_turns(s, buf)
        codes = uint32_list(buf, n)
        free(buf)
        for code in codes:
            memcpy(child, s, sizeof(State))
            apply_turn(child, code, ev)
            with nogil:
                total = perft_node(child, depth - 1)
            if total < 0:
                raise MemoryError()
            out.append((code, total))
        return out
    finally:
        free(s)
        free(child)
