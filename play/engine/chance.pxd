# Cython declarations for chance.py (the compiled path only; see compiled.py): Chance is a C
# class (not final: tests stack it, play/engine/testing.py) and the shuffle's loop runs on C
# integers. Types only; plain Python runs chance.py as it is, with the same draws.
cimport cython


@cython.locals(given=list, count=Py_ssize_t, table=dict, key=tuple, known=tuple, seen=list,
               i=Py_ssize_t, ordered=list)
cpdef list _id_order(cards)

@cython.locals(groups=dict, group=list, ordered=list)
cpdef list _sorted_by_id(list cards)


cdef class Chance:
    cdef public object rng

    @cython.locals(ordered=list, i=Py_ssize_t, j=Py_ssize_t, n=Py_ssize_t, k=int, low=Py_ssize_t)
    cpdef list shuffle(self, cards)


@cython.locals(k=int, r=Py_ssize_t)
cpdef Py_ssize_t below(rng, Py_ssize_t n) except -1

cpdef choice_of(rng, seq)
