# Perft (docs/carcassonne-engine-contract.md#perft): the leaves of the game tree `depth` decisions
# below a position, counted in C without the GIL, exact and without transpositions. At the last
# ply the legal moves are counted (gen_moves), not played.
#
# Fixed mode (`chance` 0): the draws are the piles' own order (discards and menhir extra turns as
# the rules make them). Chance mode (`chance` 1): every draw is a chance node whose children are
# every undrawn tile of that pile (resolve_chance); chance nodes take no depth. A line that ends
# (game over) before `depth` counts nothing.

from libc.stdlib cimport malloc

cdef int64_t perft_node(State* s, int depth, uint32_t* buf) noexcept nogil:
    """Leaves `depth` decisions below s. `buf`: MAXMOVES * (depth + 1) codes of scratch (one
    MAXMOVES block per remaining ply). s is not changed. -1: out of memory."""
    cdef int64_t total = 0, sub
    cdef int n, i, j, lo, hi
    cdef uint8_t tiles[NTILES]
    cdef State* child
    cdef Event* ev
    if s.over:
        return 1 if depth == 0 else 0
    if depth == 0:
        return 1
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
            sub = perft_node(child, depth, buf)
            if sub < 0:
                total = -1
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
        sub = perft_node(child, depth - 1, buf + MAXMOVES)
        if sub < 0:
            total = -1
            break
        total += sub
    free(child)
    free(ev)
    return total


def perft(CoreGame g, int depth, bint chance=False, bint divide=False):
    """Leaves `depth` decisions below g (see the comment above); with `divide`, a list of
    (root child, leaves below it): a move code at a decision, a tile at a pending draw."""
    cdef State* s = <State*>checked_malloc(sizeof(State))
    cdef State* child = <State*>checked_malloc(sizeof(State))
    cdef uint32_t* buf = <uint32_t*>malloc(MAXMOVES * (depth + 2) * sizeof(uint32_t))
    cdef Event ev[MAXEV]
    cdef int64_t total = 0
    cdef int i, n
    cdef list out = []
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
                total = perft_node(s, depth, buf)
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
                    total = perft_node(child, depth, buf)
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
                total = perft_node(child, depth - 1, buf)
            if total < 0:
                raise MemoryError()
            out.append((code, total))
        return out
    finally:
        free(s)
        free(child)
        free(buf)


def set_chance(CoreGame g, bint chance):
    """Make g's later draws external chance nodes (or not): what perft's chance mode counts from."""
    g.s.chance = chance
