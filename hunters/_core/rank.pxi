# Ranking the children of a decision for the `strong` bot's search (hunters.bots.strong), shared by
# both cores' estimate files: by the mover's margin (own estimate - best other), best first, ties by
# lower index (the codes ascend), and each one's prior reward (1 + tanh(margin / scale)) / 2.

from libc.math cimport tanh as _rank_tanh
from libc.stdlib cimport qsort


ctypedef struct RankItem:
    double margin
    int index


cdef int rank_cmp(const void* a, const void* b) noexcept nogil:
    cdef const RankItem* x = <const RankItem*>a
    cdef const RankItem* y = <const RankItem*>b
    if x.margin > y.margin:
        return -1
    if x.margin < y.margin:
        return 1
    return x.index - y.index


cdef tuple rank_children(double* flat, int n, int np, int mover, double scale):
    """(order, priors): child indices best first for `mover`, and the prior reward of each child
    (by index)."""
    cdef RankItem* items = <RankItem*>checked_malloc((n + 1) * sizeof(RankItem))
    cdef int i, q
    cdef double other
    try:
        for i in range(n):
            other = -1e300
            for q in range(np):
                if q != mover and flat[i * np + q] > other:
                    other = flat[i * np + q]
            items[i].margin = flat[i * np + mover] - (other if np > 1 else 0.0)
            items[i].index = i
        priors = [0.5 * (1.0 + _rank_tanh(items[i].margin / scale)) for i in range(n)]
        qsort(items, n, sizeof(RankItem), rank_cmp)
        return [items[i].index for i in range(n)], priors
    finally:
        free(items)
