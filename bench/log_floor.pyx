# cython: language_level=3
"""A floor under any writer of the match log's format (bench/engine.py, `speed`).

`clone` makes a fresh copy of a log's events the cheapest way CPython has: each dict is a copy
of the finished dict (its key table cloned whole, no insert a key) and each list a slice of the
finished list, the nested ones then cloned in turn. So it pays only for making and freeing the
log's dicts and lists, with every value already known: no match state read, no value set a
field. bench/engine.py builds this file with pyximport into var/bench-build when it runs; the
engine never imports it.
"""


cpdef object clone(object value):
    cdef dict made
    cdef list items
    cdef Py_ssize_t i
    if type(value) is dict:
        made = (<dict>value).copy()
        for key, item in (<dict>value).items():
            if type(item) is dict or type(item) is list:
                made[key] = clone(item)
        return made
    if type(value) is list:
        items = (<list>value)[:]
        for i in range(len(items)):
            item = items[i]
            if type(item) is dict or type(item) is list:
                items[i] = clone(item)
        return items
    return value
