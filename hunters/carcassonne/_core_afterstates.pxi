# Afterstate features for learners (hunters.carcassonne.learn.AFTERSTATE_FEATURES names and explains
# the columns): one row per legal move, in compact-code order, each filled by playing the move on a
# scratch state. Textually included at the end of _core.pyx (after _core_eval.pxi).

cdef enum:
    AF_COUNT = 17


cdef void afterstate_row(State* before, State* after, int seat, uint32_t code, double* w,
                         double* est_before, float* row) noexcept nogil:
    cdef double est[MAXP]
    cdef int p, g, others = -1000000, best_other = -1000000, slot = (code >> 9) & 31, local, dz, o
    cdef double best_est = -1e300
    estimate_into(after, w, est)
    for p in range(before.nplayers):
        if p != seat:
            g = after.score[p] - before.score[p]
            if g > others:
                others = g
            if after.score[p] > best_other:
                best_other = after.score[p]
            if est[p] > best_est:
                best_est = est[p]
    if before.nplayers < 2:
        others = 0
        best_other = 0
        best_est = 0.0
    for p in range(AF_COUNT):
        row[p] = 0.0
    row[0] = 1.0
    row[1] = (after.score[seat] - before.score[seat]) / 10.0
    row[2] = others / 10.0
    row[3] = (after.score[seat] - best_other) / 50.0
    row[4] = <float>((est[seat] - best_est) / 50.0)
    row[5] = <float>((est[seat] - est_before[seat]) / 20.0)
    row[6] = after.meeples[seat] / <float>NMEEPLES
    row[7] = after.huts[seat] / <float>NHUTS
    if slot:
        local = slot - MEEPLE_SLOT if slot < HUT_SLOT else slot - HUT_SLOT
        dz = T_gid2dz[before.tile * 10 + local]
        o = after.occ[dz]
        if o and (o - 1) % MAXP == seat:
            row[8 if slot < HUT_SLOT else 9] = 1.0
        if FOREST <= T_type[dz] <= LAKE:
            row[10 + T_type[dz] - FOREST] = 1.0
    row[14] = (code & 511) != 0
    row[15] = not after.over and after.player == seat
    row[16] = (before.nnormal - before.inormal) / 78.0


def afterstates(CoreGame g, tuple weights, float[:, ::1] out):
    """Fill out[i] (AF_COUNT columns) with the features of the position after the i-th legal move
    in compact-code order (`learn_codes()`), for the seat to move; return the compact codes.
    `weights`: the estimate's (hunters.carcassonne.strategy.WEIGHTS). out must have a row per
    legal move at least."""
    cdef double w[EW_NPARAMS]
    cdef double est_before[MAXP]
    cdef State* work = <State*>checked_malloc(sizeof(State))
    cdef uint32_t* moves = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
    cdef uint32_t* codes = <uint32_t*>checked_malloc(MAXMOVES * sizeof(uint32_t))
    cdef Event* ev = <Event*>checked_malloc(MAXEV * sizeof(Event))
    cdef int n = 0, i, seat = g.s.player
    try:
        eval_weights(weights, w)
        if out.shape[1] != AF_COUNT:
            raise ValueError(f"out must have {AF_COUNT} columns")
        with nogil:
            if not g.s.over and g.s.tile >= 0:
                n = gen_moves(g.s, moves)
                memcpy(codes, moves, n * sizeof(uint32_t))
                learn_codes(g.s, codes)
        if out.shape[0] < n:
            raise ValueError(f"out has {out.shape[0]} rows, {n} legal moves")
        with nogil:
            estimate_into(g.s, w, est_before)
            for i in range(n):
                memcpy(work, g.s, sizeof(State))
                apply_move(work, moves[i], ev)
                afterstate_row(g.s, work, seat, moves[i], w, est_before, &out[i, 0])
        return uint32_list(codes, n)
    finally:
        free(ev)
        free(codes)
        free(moves)
        free(work)


AFTERSTATE_COUNT = AF_COUNT
