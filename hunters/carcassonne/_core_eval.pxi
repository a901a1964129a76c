# A rules-based estimate of the final scores, for the `strong` bot's search (hunters.bots.strong,
# hunters.carcassonne.strategy holds the weights and says what each means). Textually included at
# the end of _core.pyx. It reads only public state: the board, the pieces, the scores and the
# number of undrawn tiles (never their order).

cdef enum:
    EW_Q = 0            # closing chance per open edge: q = R / (R + EW_Q), R = undrawn normal tiles
    EW_FGROW = 1        # points a closed forest is expected to gain per open edge
    EW_RGROW = 2        # points a closed river is expected to gain per open end
    EW_MGROW = 3        # points a held meadow is expected to gain by the end, times R / 78
    EW_SGROW = 4        # points a held river system is expected to gain by the end, times R / 78
    EW_MEEPLE = 5       # value of the first meeple in supply, times R / (R + EW_MHALF)
    EW_HUT = 6          # value of a hut in supply, times R / 78
    EW_MENHIR = 7       # a held menhir forest: points of the extra turn its closing brings, times its chance
    EW_MHALF = 8        # undrawn tiles at which a meeple in supply is worth half of EW_MEEPLE
    EW_MDECAY = 9       # each further meeple in supply is worth this fraction of the one before
    EW_OPENPEN = 10     # points lost per open edge beyond the first few (hard-to-close features)
    EW_NPARAMS = 11


cdef void estimate_into(State* s, double* w, double* out) noexcept nogil:
    """Expected final score of each seat: points now + for every feature a seat holds (majority,
    ties all) its chance of scoring times what it would score + pieces in supply."""
    cdef int roots[MAXP * (NMEEPLES + NHUTS)]
    cdef int i, j, r, p, typ, nopen, nroots
    cdef double R = s.nnormal - s.inormal, q, prob, val, left = R / 78.0, mv, m
    cdef uint8_t seats
    cdef Agg* a
    for p in range(s.nplayers):
        out[p] = s.score[p]
    if s.over:
        return
    q = R / (R + w[EW_Q]) if R + w[EW_Q] > 0 else 0.0
    mv = w[EW_MEEPLE] * (R / (R + w[EW_MHALF]) if R + w[EW_MHALF] > 0 else 0.0)
    nroots = 0
    for i in range(s.nonboard):            # the features holding meeples (each once)
        r = ffind(s, s.onboard[i])
        for j in range(nroots):
            if roots[j] == r:
                break
        else:
            roots[nroots] = r
            nroots += 1
    for j in range(nroots):
        r = roots[j]
        typ = T_type[r]
        a = &s.agg[r]
        seats = majority(a.meeples, s.nplayers)
        if typ == MEADOW:
            prob = 1.0
            val = meadow_value(s, r) + w[EW_MGROW] * left
        else:
            nopen = a.open
            prob = 1.0
            for p in range(nopen):
                prob *= q
            val = feature_value(s, r)
            if typ == FOREST:
                val += w[EW_FGROW] * nopen
                if a.menhir:
                    val += w[EW_MENHIR]
            else:
                val += w[EW_RGROW] * nopen
            if nopen > 2:
                val -= w[EW_OPENPEN] * (nopen - 2)
            for p in range(s.nplayers):   # meeples that come home when it closes
                out[p] += prob * mv * 0.5 * a.meeples[p]
        for p in range(s.nplayers):
            if seats & (1 << p):
                out[p] += prob * val
    nroots = 0
    for i in range(s.nhutzones):           # the river systems holding huts (each once)
        r = sfind(s, s.hutzones[i])
        for j in range(nroots):
            if roots[j] == r:
                break
        else:
            roots[nroots] = r
            nroots += 1
    for j in range(nroots):
        a = &s.agg[roots[j]]
        seats = majority(a.huts, s.nplayers)
        val = a.sfish + w[EW_SGROW] * left
        if a.sflags & SF_RAFT:
            val += a.slakes
        for p in range(s.nplayers):
            if seats & (1 << p):
                out[p] += val
    for p in range(s.nplayers):
        m = mv
        for i in range(s.meeples[p]):
            out[p] += m
            m *= w[EW_MDECAY]
        out[p] += w[EW_HUT] * left * s.huts[p]
    if s.extra:                           # a menhir extra turn is pending for the seat to move
        out[s.player] += w[EW_MENHIR]


cdef int eval_weights(tuple weights, double* w) except -1:
    if len(weights) != EW_NPARAMS:
        raise ValueError(f"expected {EW_NPARAMS} weights, got {len(weights)}")
    for i in range(EW_NPARAMS):
        w[i] = weights[i]
    return 0


def estimate(CoreGame g, tuple weights):
    """Expected final score of each seat in `g` (see estimate_into); `weights`: EW_NPARAMS floats."""
    cdef double w[EW_NPARAMS]
    cdef double out[MAXP]
    eval_weights(weights, w)
    estimate_into(g.s, w, out)
    return [out[p] for p in range(g.s.nplayers)]


def child_estimates(CoreGame g, list codes, tuple weights, int mover=-1, double scale=1.0):
    """For each legal move code of `g`: the estimate of the position after it, as one flat list
    (nplayers values per code, in code order). With a `mover` (seat), (flat, order, priors) as
    rank_children gives them (rank.pxi) for that seat and reward `scale`."""
    cdef double w[EW_NPARAMS]
    cdef double out[MAXP]
    cdef Event ev[MAXEV]
    cdef State* work = <State*>checked_malloc(sizeof(State))
    cdef int n = len(codes), i, p, np = g.s.nplayers
    cdef uint32_t* buf = <uint32_t*>checked_malloc((n + 1) * sizeof(uint32_t))
    cdef double* res = <double*>checked_malloc((n * np + 1) * sizeof(double))
    try:
        eval_weights(weights, w)
        for i in range(n):
            buf[i] = codes[i]
        for i in range(n):
            memcpy(work, g.s, sizeof(State))
            apply_move(work, buf[i], ev)
            estimate_into(work, w, out)
            for p in range(np):
                res[i * np + p] = out[p]
        flat = [res[i] for i in range(n * np)]
        if mover < 0:
            return flat
        if mover >= np or scale <= 0:
            raise ValueError("bad mover or scale")
        order, priors = rank_children(res, n, np, mover, scale)
        return flat, order, priors
    finally:
        free(res)
        free(work)
        free(buf)
