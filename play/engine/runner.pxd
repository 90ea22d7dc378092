# Cython declarations for runner.py (the compiled path only; see compiled.py): the match loop
# reads the match's C fields and calls its apply_action directly.

cimport cython

from play.engine.match cimport Match


@cython.locals(unchecked=int)
cpdef _play_out(Match match, dict choose, dict rngs, seed, bint paused)
