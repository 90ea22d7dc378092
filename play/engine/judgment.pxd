# Cython declarations for judgment.py (the compiled path only; see compiled.py): C calls with
# C ints from the match. The comparisons stay in judgment.py.
# Measured (bench/engine.py --cpu -n 600, 2026-12-05, 7 interleaved rounds against a build
# without it): greedy vs greedy and goldfish +4%, logged matches +2-3%.

cimport cython

cpdef play_end_reason(
    bint used_cards,
    int actor_keep,
    int opponent_keep,
    int timing,
    int last_timing,
    bint empty_timing_passes,
)
@cython.locals(stopping=int)
cpdef shot_outcome(int shoot, int defense, int goalkeeper_defense)
cpdef keep_outcome(int offense_keep, int defense_keep)
