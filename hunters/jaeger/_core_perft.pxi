# Perft (docs/jaeger-engine-contract.md#perft): the leaves of the game tree `depth` turns below a
# position, counted in C without the GIL, exact and without transpositions. At the last ply the
# legal turns are counted (gen_turns), not played.
#
# Fixed mode (`chance` 0): the winter deal is the game's own (its seed). Chance mode (`chance` 1):
# the winter deal is external chance: each tile space dealt is a chance node whose children are the
# distinct tile codes still in the winter deck (deal_left); chance nodes take no depth. A line that
# ends (game over) before `depth` counts nothing.

from libc.stdlib cimport malloc

ctypedef struct PerftCtl:
    const unsigned char* stop  # a byte another thread sets to stop the count (NULL: never)
    int64_t nodes              # positions expanded so far (a node whose turns were listed)
    int64_t limit              # most nodes to expand (-1: no limit)


cdef inline bint perft_halt(PerftCtl* ctl) noexcept nogil:
    """Count one expanded node; true when the count must stop (stop byte set, node limit passed)."""
    ctl.nodes += 1
    return (ctl.limit >= 0 and ctl.nodes > ctl.limit) or mc_stopped(ctl.stop)


cdef int64_t perft_node(State* s, int depth, PerftCtl* ctl) noexcept nogil:
    """Leaves `depth` turns below s (not changed). -1: out of memory; -2: stopped (`ctl`)."""
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
    if perft_halt(ctl):
        return -2
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
                sub = perft_node(child, depth, ctl)
                if sub < 0:
                    total = sub
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
            sub = perft_node(child, depth - 1, ctl)
            if sub < 0:
                total = sub
                break
            total += sub
    free(buf)
    free(child)
    free(ev)
    return total


def perft(CoreGame g, int depth, bint chance=False, bint divide=False):
    """Leaves `depth` turns below g (see the comment above); with `divide`, a list of (root child,
    leaves below it): a turn code at a turn, a tile code at a pending deal."""
    cdef PerftCtl ctl
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
    ctl.stop = NULL
    ctl.nodes = 0
    ctl.limit = -1
    s = <State*>checked_malloc(sizeof(State))
    child = <State*>checked_malloc(sizeof(State))
    memcpy(s, g.s, sizeof(State))
    s.ext_chance = chance
    try:
        if not divide:
            with nogil:
                total = perft_node(s, depth, &ctl)
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
                        total = perft_node(child, depth, &ctl)
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
                total = perft_node(child, depth - 1, &ctl)
            if total < 0:
                raise MemoryError()
            out.append((code, total))
        return out
    finally:
        free(s)
        free(child)


def perft_bounded(CoreGame g, int depth, bint chance, unsigned char[::1] stop=None, int64_t limit=-1):
    """(leaves, nodes expanded) as `perft` counts them (no divide), or (None, nodes) when the count
    stopped: the byte `stop[0]` was set by another thread, or more than `limit` nodes (positions
    whose turns were listed) would be expanded (-1: no limit)."""
    cdef PerftCtl ctl
    cdef int64_t total
    cdef State* s
    if depth < 0 or depth > 64:
        raise ValueError("depth must be from 0 to 64")
    if not chance and deal_space(g.s) >= 0:
        raise ValueError("a winter deal is pending: only chance mode counts from here")
    ctl.stop = NULL if stop is None else &stop[0]
    ctl.nodes = 0
    ctl.limit = limit
    s = <State*>checked_malloc(sizeof(State))
    memcpy(s, g.s, sizeof(State))
    s.ext_chance = chance
    with nogil:
        total = perft_node(s, depth, &ctl)
    free(s)
    if total == -1:
        raise MemoryError()
    return (None if total < 0 else total), ctl.nodes
