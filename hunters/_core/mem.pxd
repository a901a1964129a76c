# cython: language_level=3
"""Checked allocations, shared by the game cores: a failed allocation raises MemoryError instead of
handing a NULL pointer to C code that would write through it."""
from libc.stdlib cimport malloc, calloc


cdef inline void* checked_malloc(size_t size) except NULL:
    """malloc(size), or MemoryError."""
    cdef void* p = malloc(size)
    if p == NULL:
        raise MemoryError(f"cannot allocate {size} bytes")
    return p


cdef inline void* checked_calloc(size_t n, size_t size) except NULL:
    """calloc(n, size) (zeroed), or MemoryError."""
    cdef void* p = calloc(n, size)
    if p == NULL:
        raise MemoryError(f"cannot allocate {n} x {size} bytes")
    return p
