# A rules-based estimate of the final scores, for the `strong` bot's search (hunters.bots.strong;
# hunters.jaeger.strategy holds the weights and says what each means). Textually included at the
# end of _core.pyx.

cdef enum:
    JW_DECAY = 0        # a tile d steps from the nearest character of its taker counts DECAY^d
    JW_WEAPON = 1       # a weapon tile on the board: points of the mammoth it may pay for
    JW_UNARMED = 2      # a mammoth for a seat without a weapon: this fraction of its value
    JW_WINTER = 3       # summer: points of the whole winter, shared by winter characters
    JW_WINTER_K = 4     # summer: the share of a seat with n winter characters is n / (total + K)
    JW_CAMP = 5         # a camp of the other season still to reach counts its marginal value times CAMP^d
    JW_HELD = 6         # summer: each weapon held (for winter's mammoths), up to 3
    JW_CONTEST = 7      # a tile as near to another seat's character: this fraction each
    JW_NPARAMS = 8


cdef void jdistances(State* s, int p, int16_t* dist) noexcept nogil:
    """Steps from p's characters to every space over camps and tiles (cave jumps: one step),
    ignoring characters; -1 where none reaches."""
    cdef Config* c = s.cfg
    cdef int16_t queue[MAXS]
    cdef int head = 0, tail = 0, v, w, k, i
    cdef bint caves_done = False
    for v in range(c.n):
        dist[v] = -1
    for i in range(s.nch[p]):
        v = s.pos[p][i]
        if v >= 0 and dist[v] < 0:
            dist[v] = 0
            queue[tail] = v
            tail += 1
    while head < tail:
        v = queue[head]
        head += 1
        for k in range(c.ndir):
            w = c.nb[v][k]
            if w >= 0 and dist[w] < 0 and (c.kind[w] != SP_TILE or s.tile[w] != 0):
                dist[w] = dist[v] + 1
                queue[tail] = w
                tail += 1
        if not caves_done and (s.tile[v] & 15) == K_CAVE and c.kind[v] == SP_TILE:
            caves_done = True
            for k in range(c.ncaves):
                w = c.caves[k]
                if dist[w] < 0:
                    dist[w] = dist[v] + 1
                    queue[tail] = w
                    tail += 1


cdef double jtile_value(State* s, int p, int t, double* w) noexcept nogil:
    cdef int k = t & 15, n
    if k == K_MAMMOTH:
        return (t >> 4) * (1.0 if s.weapons[p] > 0 else w[JW_UNARMED])
    if k == K_WEAPON:
        return w[JW_WEAPON]
    if G_goods[k]:
        n = s.taken[p][k]
        if n + 1 >= G_ntable:
            return 0.0
        return G_table[n + 1] - G_table[n]
    return G_points[k]


cdef void jestimate_into(State* s, double* w, double* out) noexcept nogil:
    """Expected final score of each seat: points now + the tiles it is nearest to (discounted by
    distance, shared where another seat is as near) + camps of the other season + (summer) its share
    of winter and weapons kept for it."""
    cdef Config* c = s.cfg
    cdef int16_t dist[MAXP][MAXS]
    cdef double pw[64]
    cdef int p, q, v, t, dmin, nmin, i, other = 1 - s.season, total = 0, d
    cdef int nw[MAXP]
    cdef double val, f
    for p in range(s.nplayers):
        out[p] = score_of(s, p)
    if s.season == OVER:
        return
    pw[0] = 1.0
    for i in range(1, 64):
        pw[i] = pw[i - 1] * w[JW_DECAY]
    for p in range(s.nplayers):
        jdistances(s, p, dist[p])
    for v in range(c.n):
        t = s.tile[v]
        if c.kind[v] != SP_TILE or not G_takeable[t & 15]:
            continue
        dmin = 9999
        nmin = 0
        for p in range(s.nplayers):
            d = dist[p][v]
            if d >= 0 and d < dmin:
                dmin = d
                nmin = 1
            elif d >= 0 and d == dmin:
                nmin += 1
        if nmin == 0:
            continue
        for p in range(s.nplayers):
            d = dist[p][v]
            if d == dmin:
                f = pw[d if d < 63 else 63] * (1.0 if nmin == 1 else w[JW_CONTEST])
                out[p] += f * jtile_value(s, p, t, w)
    # camps of the other season: one supply pack each (summer: a winter character; winter: points)
    for p in range(s.nplayers):
        nw[p] = 0
        for i in range(c.ncamps[WINTER]):
            if (s.packs_at[c.camps[WINTER][i]] >> p) & 1:
                nw[p] += 1
        total += nw[p]
    for p in range(s.nplayers):
        if s.season == SUMMER:
            val = w[JW_WINTER] * ((nw[p] + 1.0) / (total + 1.0 + w[JW_WINTER_K]) - nw[p] / (total + w[JW_WINTER_K]))
            out[p] += w[JW_WINTER] * nw[p] / (total + w[JW_WINTER_K])
            out[p] += w[JW_HELD] * (s.weapons[p] if s.weapons[p] < 3 else 3)
        else:
            val = G_pack_points
        if s.packs[p] <= 0 or s.onb[p] <= 0:
            continue
        for i in range(c.ncamps[other]):
            v = c.camps[other][i]
            if (s.packs_at[v] >> p) & 1:
                continue
            d = dist[p][v]
            if d > 0:
                f = 1.0
                for q in range(d):
                    f *= w[JW_CAMP]
                out[p] += f * val


cdef int jeval_weights(tuple weights, double* w) except -1:
    if len(weights) != JW_NPARAMS:
        raise ValueError(f"expected {JW_NPARAMS} weights, got {len(weights)}")
    for i in range(JW_NPARAMS):
        w[i] = weights[i]
    return 0


def estimate(CoreGame g, tuple weights):
    """Expected final score of each seat in `g` (see jestimate_into); `weights`: JW_NPARAMS floats."""
    cdef double w[JW_NPARAMS]
    cdef double out[MAXP]
    jeval_weights(weights, w)
    jestimate_into(g.s, w, out)
    return [out[p] for p in range(g.s.nplayers)]


def child_estimates(CoreGame g, list codes, tuple weights, int mover=-1, double scale=1.0):
    """For each legal turn code of `g`: the estimate of the position after it, as one flat list
    (nplayers values per code, in code order). With a `mover` (seat), (flat, order, priors) as
    rank_children gives them (rank.pxi) for that seat and reward `scale`."""
    cdef double w[JW_NPARAMS]
    cdef double out[MAXP]
    cdef Event* ev = <Event*>checked_malloc(MAXEV * sizeof(Event))
    cdef State* work = <State*>checked_malloc(sizeof(State))
    cdef int n = len(codes), i, p, np = g.s.nplayers
    cdef uint32_t* buf = <uint32_t*>checked_malloc((n + 1) * sizeof(uint32_t))
    cdef double* res = <double*>checked_malloc((n * np + 1) * sizeof(double))
    try:
        jeval_weights(weights, w)
        for i in range(n):
            buf[i] = codes[i]
        for i in range(n):
            memcpy(work, g.s, sizeof(State))
            apply_turn(work, buf[i], ev)
            jestimate_into(work, w, out)
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
        free(ev)
