# cython: language_level=3
"""A small deterministic RNG of our own (splitmix64), shared by the game cores.

Results must not depend on Python's `random`, hash order or the platform: everything here is
plain 64-bit integer arithmetic.
"""
from libc.stdint cimport uint8_t, uint64_t


cdef inline uint64_t rng_next(uint64_t* state) noexcept nogil:
    """Advance the splitmix64 state and return the next 64-bit output."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t rng_below(uint64_t* state, uint64_t n) noexcept nogil:
    """Uniform integer in [0, n) without modulo bias (rejection sampling); n >= 1."""
    cdef uint64_t threshold = (<uint64_t>0 - n) % n
    cdef uint64_t r = rng_next(state)
    while r < threshold:
        r = rng_next(state)
    return r % n


cdef inline void rng_shuffle(uint64_t* state, uint8_t* a, int n) noexcept nogil:
    """Shuffle a[0:n] in place: Fisher-Yates from the end with unbiased bounded draws. The one
    shuffle of every core (decks, layouts): tests/splitmix.py is its Python oracle."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(state, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
