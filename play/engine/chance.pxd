# Cython declarations for chance.py (the compiled path only; see compiled.py): Chance is a C
# class (not final: tests stack it, play/engine/testing.py) and the shuffle's loop runs on C
# integers. Types only; plain Python runs chance.py as it is, with the same draws.
cimport cython


cdef class Chance:
    cdef public object rng

    @cython.locals(ordered=list, i=Py_ssize_t, j=Py_ssize_t, n=Py_ssize_t, k=int, low=Py_ssize_t)
    cpdef list shuffle(self, cards)
