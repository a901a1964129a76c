# Information-set MCTS over a game core, shared by the cores (textually included in each game's
# hunters/<game>/_core.pyx). The including core defines, before the include:
#
#   ctypedef struct Det                  hidden-information sampler of one search (per game)
#   cdef int mc_legal(State*, uint32_t* out) noexcept nogil      legal move codes, ascending
#   cdef int mc_cap(State*) noexcept nogil                       a bound on that count (buffer size)
#   cdef void mc_apply(State*, uint32_t code, Event*) noexcept nogil
#   cdef uint32_t mc_random(State*, Det*, uint64_t* rng) noexcept nogil  a playout move
#   cdef bint mc_over(State*) noexcept nogil
#   cdef int mc_player(State*) noexcept nogil                      seat to move
#   cdef uint64_t mc_key(State*, uint32_t code) noexcept nogil    edge key: the move as the mover
#                                         sees it (ascending with the code within one decision)
#   cdef void mc_scores(State*, int* out) noexcept nogil
#   cdef void mc_determinize(State*, Det*, uint64_t* rng) noexcept nogil  redraw the hidden parts
#
# The search is single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012): every iteration starts
# from a fresh determinization of the root (hidden parts drawn anew, consistent with what the
# searching seat sees), descends a tree whose edges are moves (keyed as the mover sees them, so the
# same node gathers statistics across determinizations), choosing among the moves legal in this
# determinization by UCB1 with availability counts, expands one untried move, plays a uniformly
# random playout to the end inside the core, and backs the result up: each node keeps the reward of
# the seat that moved into it. Everything runs without the GIL.

from libc.math cimport log, sqrt, tanh
from libc.stdlib cimport realloc
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    """
    static inline int mc_stopped(const unsigned char* stop) {
        return stop != 0 && __atomic_load_n(stop, __ATOMIC_RELAXED) != 0;
    }
    """
    bint mc_stopped(const unsigned char* stop) noexcept nogil  # a byte another thread sets to end a search

cdef enum:
    MC_MAXDEPTH = 4095  # tree depth bound (the path buffer); deeper, an iteration goes to its playout

ctypedef struct MNode:
    uint64_t key        # the move into this node (mc_key)
    int32_t child       # first child (children sorted by key), -1 when none
    int32_t sibling     # next sibling, -1 when last
    int32_t visits
    int32_t avail       # times this move was legal when its parent was passed through
    int8_t mover        # seat that made the move
    double total        # sum of the mover's rewards


cdef inline double mc_now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void mc_rewards(State* s, int nplayers, double margin_weight, double margin_scale,
                     double* out) noexcept nogil:
    """Reward of each seat for a finished game: (1 - w) * its share of the win (ties share) +
    w * (1 + tanh((score - best other score) / scale)) / 2."""
    cdef int sc[8]
    cdef int p, q, best = -2147483647, nbest = 0, other
    mc_scores(s, sc)
    for p in range(nplayers):
        if sc[p] > best:
            best = sc[p]
            nbest = 1
        elif sc[p] == best:
            nbest += 1
    for p in range(nplayers):
        other = -2147483647
        for q in range(nplayers):
            if q != p and sc[q] > other:
                other = sc[q]
        out[p] = (1.0 - margin_weight) * ((1.0 / nbest) if sc[p] == best else 0.0) \
            + margin_weight * 0.5 * (1.0 + tanh((sc[p] - other) / margin_scale))


cdef int32_t mc_new_node(MNode** nodes, int32_t* n, int32_t* cap, uint64_t key, int mover) noexcept nogil:
    """Append a node; -1 when memory runs out."""
    cdef MNode* grown
    if n[0] >= cap[0]:
        grown = <MNode*>realloc(nodes[0], 2 * cap[0] * sizeof(MNode))
        if grown == NULL:
            return -1
        nodes[0] = grown
        cap[0] *= 2
    cdef MNode* m = &nodes[0][n[0]]
    m.key = key
    m.child = -1
    m.sibling = -1
    m.visits = 0
    m.avail = 0
    m.mover = mover
    m.total = 0.0
    n[0] += 1
    return n[0] - 1


cdef void mc_link(MNode* nodes, int32_t parent, int32_t node) noexcept nogil:
    """Insert `node` among the children of `parent`, keeping keys ascending."""
    cdef int32_t prev = -1, ch = nodes[parent].child
    cdef uint64_t key = nodes[node].key
    while ch >= 0 and nodes[ch].key < key:
        prev = ch
        ch = nodes[ch].sibling
    nodes[node].sibling = ch
    if prev < 0:
        nodes[parent].child = node
    else:
        nodes[prev].sibling = node


cdef long mc_search(State* root, Det* det, MNode** nodes, int32_t* nnodes, int32_t* cap,
                    long iterations, double seconds, double explore, double margin_weight,
                    double margin_scale, uint64_t seed, uint32_t* buf, int* unexp, int32_t* path,
                    State* work, Event* ev, const unsigned char* stop) noexcept nogil:
    """Run the search from `root` (node 0 must exist); return the iterations done. Stops after
    `iterations` (> 0) or, when `seconds` > 0, once that much time has passed, or as soon as
    another thread sets the byte at `stop` (checked every 8 iterations; NULL: never)."""
    cdef uint64_t rng = seed
    cdef long it = 0
    cdef double deadline = mc_now() + seconds if seconds > 0 else 0.0
    cdef double rewards[8]
    cdef double v, best_v, lg
    cdef int n, i, nun, depth, nplayers = root.nplayers, mover
    cdef int32_t node, ch, best, fresh
    cdef uint32_t code, best_code
    cdef uint64_t k
    cdef MNode* m
    while (iterations <= 0 or it < iterations) and (deadline == 0.0 or (it & 7) != 0 or mc_now() < deadline):
        if (it & 7) == 0 and mc_stopped(stop):
            break
        memcpy(work, root, sizeof(State))
        mc_determinize(work, det, &rng)
        node = 0
        path[0] = 0
        depth = 1
        while not mc_over(work) and depth < MC_MAXDEPTH:
            n = mc_legal(work, buf)
            if n == 0:
                break
            m = nodes[0]
            ch = m[node].child
            nun = 0
            best = -1
            best_v = -1e300
            best_code = 0
            lg = 0.0
            for i in range(n):
                k = mc_key(work, buf[i])
                while ch >= 0 and m[ch].key < k:
                    ch = m[ch].sibling
                if ch >= 0 and m[ch].key == k:
                    m[ch].avail += 1
                    v = m[ch].total / m[ch].visits + explore * sqrt(log(<double>m[ch].avail) / m[ch].visits)
                    if v > best_v:
                        best_v = v
                        best = ch
                        best_code = buf[i]
                else:
                    unexp[nun] = i
                    nun += 1
            mover = mc_player(work)
            if nun > 0:
                code = buf[unexp[rng_below(&rng, nun)]]
                fresh = mc_new_node(nodes, nnodes, cap, mc_key(work, code), mover)
                mc_apply(work, code, ev)
                if fresh >= 0:
                    m = nodes[0]
                    m[fresh].avail = 1
                    mc_link(m, node, fresh)
                    path[depth] = fresh
                    depth += 1
                break
            mc_apply(work, best_code, ev)
            node = best
            path[depth] = node
            depth += 1
        while not mc_over(work):
            mc_apply(work, mc_random(work, det, &rng), ev)
        mc_rewards(work, nplayers, margin_weight, margin_scale, rewards)
        m = nodes[0]
        m[0].visits += 1
        for i in range(1, depth):
            m[path[i]].visits += 1
            m[path[i]].total += rewards[m[path[i]].mover]
        it += 1
    return it


cdef object mc_run(State* root, Det* det, long iterations, double seconds, double explore,
                   double margin_weight, double margin_scale, uint64_t seed, const unsigned char* stop=NULL):
    """The search as Python data: (iterations, [(code, visits, mean reward), ...] of the root's
    moves, ascending codes). The root's legal moves do not depend on hidden information."""
    cdef int cap_moves = mc_cap(root)
    cdef int32_t cap = 1024, nnodes = 0
    cdef long done
    cdef MNode* nodes = <MNode*>checked_malloc(cap * sizeof(MNode))
    cdef uint32_t* buf = NULL
    cdef int* unexp = NULL
    cdef int32_t* path = NULL
    cdef State* work = NULL
    cdef Event* ev = NULL
    try:
        buf = <uint32_t*>checked_malloc(cap_moves * sizeof(uint32_t))
        unexp = <int*>checked_malloc(cap_moves * sizeof(int))
        path = <int32_t*>checked_malloc((MC_MAXDEPTH + 1) * sizeof(int32_t))
        work = <State*>checked_malloc(sizeof(State))
        ev = <Event*>checked_malloc(MAXEV * sizeof(Event))
        mc_new_node(&nodes, &nnodes, &cap, 0, -1)
        with nogil:
            done = mc_search(root, det, &nodes, &nnodes, &cap, iterations, seconds, explore, margin_weight,
                             margin_scale, seed, buf, unexp, path, work, ev, stop)
        out = []
        ch = nodes[0].child
        while ch >= 0:
            out.append((<uint32_t>(nodes[ch].key & 0xFFFFFFFF), nodes[ch].visits,
                        nodes[ch].total / nodes[ch].visits if nodes[ch].visits else 0.0))
            ch = nodes[ch].sibling
        return done, out
    finally:
        free(nodes)
        free(buf)
        free(unexp)
        free(path)
        free(work)
        free(ev)


cdef object mc_playouts(State* root, Det* det, long n, uint64_t seed, bint determinize):
    """n uniformly random playouts from `root` (each from a fresh copy; with `determinize`, each
    from its own draw of the hidden parts, else with the root's own hidden order); return
    (total points per seat, wins per seat (ties share a win each), decisions played)."""
    cdef State* work = <State*>checked_malloc(sizeof(State))
    cdef Event* ev = NULL
    cdef uint64_t rng = seed
    cdef long g, decisions = 0
    cdef int p, best, nplayers = root.nplayers
    cdef int sc[8]
    cdef long totals[8]
    cdef long wins[8]
    for p in range(8):
        totals[p] = 0
        wins[p] = 0
    try:
        ev = <Event*>checked_malloc(MAXEV * sizeof(Event))
        with nogil:
            for g in range(n):
                memcpy(work, root, sizeof(State))
                if determinize:
                    mc_determinize(work, det, &rng)
                while not mc_over(work):
                    mc_apply(work, mc_random(work, det, &rng), ev)
                    decisions += 1
                mc_scores(work, sc)
                best = sc[0]
                for p in range(nplayers):
                    totals[p] += sc[p]
                    if sc[p] > best:
                        best = sc[p]
                for p in range(nplayers):
                    if sc[p] == best:
                        wins[p] += 1
        return [totals[p] for p in range(nplayers)], [wins[p] for p in range(nplayers)], decisions
    finally:
        free(work)
        free(ev)
