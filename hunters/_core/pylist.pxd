# cython: language_level=3
"""Python lists from C buffers, shared by the game cores."""
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint32_t


cdef inline list uint32_list(const uint32_t* buf, int n):
    """A new list of the n ints in buf (built in place, no appends)."""
    cdef list out = PyList_New(n)
    cdef object v
    cdef int i
    for i in range(n):
        v = buf[i]
        Py_INCREF(v)
        PyList_SET_ITEM(out, i, v)
    return out
