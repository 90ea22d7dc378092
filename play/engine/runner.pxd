# Cython declarations for runner.py (the compiled path only; see compiled.py): the match loop
# reads the match's C fields and calls its apply_action directly.

from play.engine.match cimport Match


cpdef _play_out(Match match, dict choose, dict rngs, seed)
