# Perft (docs/carcassonne-engine-contract.md#perft): the leaves of the game tree `depth` decisions
# below a position, counted in C without the GIL, exact and without transpositions. At the last
# ply the legal moves are counted (gen_moves), not played.
#
# Fixed mode (`chance` 0): the draws are the piles' own order (discards and menhir extra turns as
# the rules make them). Chance mode (`chance` 1): every draw is a chance node whose children are
# every undrawn tile of that pile (resolve_chance); chance nodes take no depth. A line that ends
# (game over) before `depth` counts nothing.

from libc.stdlib cimport malloc

ctypedef struct PerftCtl:
    const unsigned char* stop  # a byte another thread sets to stop the count (NULL: never)
    int64_t nodes              # positions expanded so far (a node whose moves were listed)
    int64_t limit              # most nodes to expand (-1: no limit)


cdef inline bint perft_halt(PerftCtl* ctl) noexcept nogil:
    """Count one expanded node; true when the count must stop (stop byte set, node limit passed)."""
    ctl.nodes += 1
    return (ctl.limit >= 0 and ctl.nodes > ctl.limit) or mc_stopped(ctl.stop)


cdef int64_t perft_node(State* s, int depth, uint32_t* buf, PerftCtl* ctl) noexcept nogil:
    """Leaves `depth` decisions below s. `buf`: MAXMOVES * (depth + 1) codes of scratch (one
    MAXMOVES block per remaining ply). s is not changed. -1: out of memory; -2: stopped (`ctl`)."""
    cdef int64_t total = 0, sub
    cdef int n, i, j, lo, hi
    cdef uint8_t tiles[NTILES]
    cdef State* child
    cdef Event* ev
    if s.over:
        return 1 if depth == 0 else 0
    if depth == 0:
        return 1
    if perft_halt(ctl):
        return -2
    if s.pending:
        child = <State*>malloc(sizeof(State))
        ev = <Event*>malloc(MAXEV * sizeof(Event))
        if child == NULL or ev == NULL:
            free(child)
            free(ev)
            return -1
        if s.pending == 2:
            lo, hi = s.imenhir, s.nmenhir
            for j in range(lo, hi):
                tiles[j - lo] = s.menhir[j]
        else:
            lo, hi = s.inormal, s.nnormal
            for j in range(lo, hi):
                tiles[j - lo] = s.normal[j]
        for j in range(hi - lo):
            memcpy(child, s, sizeof(State))
            resolve_chance(child, tiles[j], ev)
            sub = perft_node(child, depth, buf, ctl)
            if sub < 0:
                total = sub
                break
            total += sub
        free(child)
        free(ev)
        return total
    n = gen_moves(s, buf)
    if depth == 1:
        return n
    child = <State*>malloc(sizeof(State))
    ev = <Event*>malloc(MAXEV * sizeof(Event))
    if child == NULL or ev == NULL:
        free(child)
        free(ev)
        return -1
    for i in range(n):
        memcpy(child, s, sizeof(State))
        apply_move(child, buf[i], ev)
        sub = perft_node(child, depth - 1, buf + MAXMOVES, ctl)
        if sub < 0:
            total = sub
            break
        total += sub
    free(child)
    free(ev)
    return total


def perft(CoreGame g, int depth, bint chance=False, bint divide=False):
    """Leaves `depth` decisions below g (see the comment above); with `divide`, a list of
    (root child, leaves below it): a move code at a decision, a tile at a pending draw."""
    cdef PerftCtl ctl
    cdef State* s = <State*>checked_malloc(sizeof(State))
    cdef State* child = <State*>checked_malloc(sizeof(State))
    cdef uint32_t* buf = <uint32_t*>malloc(MAXMOVES * (depth + 2) * sizeof(uint32_t))
    cdef Event ev[MAXEV]
    cdef int64_t total = 0
    cdef int i, n
    cdef list out = []
    ctl.stop = NULL
    ctl.nodes = 0
    ctl.limit = -1
    if depth < 0 or depth > 64:
        free(s)
        free(child)
        free(buf)
        raise ValueError("depth must be from 0 to 64")
    if buf == NULL:
        free(s)
        free(child)
        raise MemoryError()
    memcpy(s, g.s, sizeof(State))
    s.chance = chance
    try:
        if not divide:
            with nogil:
                total = perft_node(s, depth, buf, &ctl)
            if total < 0:
                raise MemoryError()
            return total
        if depth == 0 or s.over:
            return out
        if s.pending:
            tiles = sorted([s.menhir[i] for i in range(s.imenhir, s.nmenhir)] if s.pending == 2
                           else [s.normal[i] for i in range(s.inormal, s.nnormal)])
            for t in tiles:
                memcpy(child, s, sizeof(State))
                resolve_chance(child, t, ev)
                with nogil:
                    total = perft_node(child, depth, buf, &ctl)
                if total < 0:
                    raise MemoryError()
                out.append((t, total))
            return out
        n = gen_moves(s, buf)
        codes = uint32_list(buf, n)
        for code in codes:
            memcpy(child, s, sizeof(State))
            apply_move(child, code, ev)
            with nogil:
                total = perft_node(child, depth - 1, buf, &ctl)
            if total < 0:
                raise MemoryError()
            out.append((code, total))
        return out
    finally:
        free(s)
        free(child)
        free(buf)


def perft_bounded(CoreGame g, int depth, bint chance, unsigned char[::1] stop=None, int64_t limit=-1):
    """(leaves, nodes expanded) as `perft` counts them (no divide), or (None, nodes) when the count
    stopped: the byte `stop[0]` was set by another thread, or more than `limit` nodes (positions
    whose moves were listed) would be expanded (-1: no limit)."""
    cdef PerftCtl ctl
    cdef int64_t total
    cdef State* s
    cdef uint32_t* buf
    if depth < 0 or depth > 64:
        raise ValueError("depth must be from 0 to 64")
    ctl.stop = NULL if stop is None else &stop[0]
    ctl.nodes = 0
    ctl.limit = limit
    s = <State*>checked_malloc(sizeof(State))
    buf = <uint32_t*>malloc(MAXMOVES * (depth + 2) * sizeof(uint32_t))
    if buf == NULL:
        free(s)
        raise MemoryError()
    memcpy(s, g.s, sizeof(State))
    s.chance = chance
    with nogil:
        total = perft_node(s, depth, buf, &ctl)
    free(s)
    free(buf)
    if total == -1:
        raise MemoryError()
    return (None if total < 0 else total), ctl.nodes


def set_chance(CoreGame g, bint chance):
    """Make g's later draws external chance nodes (or not): what perft's chance mode counts from."""
    g.s.chance = chance
