# Cython declarations for the compiled path of policies.py (play/engine/compiled.py): C types
# for greedy's per-decision work. Types only, never rules: the plain path runs policies.py as
# it is and both give the same decisions (tests/play/engine/test_policies.py, test_golden.py).
# Measured (bench/engine.py --cpu -n 600, 2026-12-05, 3 interleaved rounds against a build
# without it): greedy vs greedy 3,313 -> 1,558 matches/s without it (x2.1), goldfish x1.8.
cimport cython

from play.engine.match cimport Match, _SideState


# The contest indexes and greedy's constants as C integers (the .py assigns them).
cdef long _KEEP, _SHOOT, _DEFENSE, _AFFORDABLE_KEEP, _CONTEST_WORTH, _MAX_CANDIDATE_PLAYERS


@cython.final
cdef class _Entry:
    cdef public long gain, value, keep
    cdef public object card, id
    cdef public double ratio


@cython.final
cdef class _Facts:
    cdef public object card, id, features
    cdef public bint player, draws_only, free
    cdef public long value, keep_gain, shoot_gain, free_value
    cdef public _Entry keep_entry, shoot_entry, defense_entry


@cython.locals(table=dict)
cpdef object _play(object side, tuple card_ids)

cpdef _Facts _card_facts(object card)

@cython.locals(table=dict, found=list, facts=_Facts)
cpdef list _hand_facts(object hand)

@cython.locals(i=Py_ssize_t, j=Py_ssize_t, entry=_Entry, before=_Entry, second=long,
               before_second=long)
cpdef _sort_strongest(list entries, bint by_keep)

@cython.locals(i=Py_ssize_t, j=Py_ssize_t, entry=_Entry, before=_Entry)
cpdef _sort_events(list events)

cpdef tuple _candidates(object hand, long contest, bint keep_free=*)

@cython.locals(players=list, events=list, facts=_Facts, entry=_Entry)
cpdef tuple _candidates_of(list hand, long contest, bint keep_free)

@cython.locals(entry=_Entry)
cdef long _with_events(long gained, long cost, long keep, list events, long need, bint limited, long keep_limit) except? -2

@cython.locals(
    count=Py_ssize_t,
    top=Py_ssize_t,
    reach=long,
    i=Py_ssize_t,
    j=Py_ssize_t,
    size=Py_ssize_t,
    a=_Entry,
    b=_Entry,
    entry=_Entry,
    limited=bint,
    limit=long,
    best_cost=long,
    cost=long,
    gained=long,
    keep=long,
    picked=list,
)
cpdef object _search(list players, list events, long budget, long need, object keep_limit)

cpdef list _keep_free(object hand, long budget, long deck_count, long most=*)

@cython.locals(facts=_Facts, best=_Facts, best_value=long, value=long)
cpdef list _keep_free_of(list hand, long budget, long deck_count, long most=*)

@cython.locals(zone=long, target=long, distance=long, worth=long)
cpdef long _keep_worth(Match state, object side) except? -1

cpdef list _all_in(object hand, long budget)

@cython.locals(shooters=list, helpers=list, picked=list, facts=_Facts, entry=_Entry)
cpdef list _all_in_of(list hand, long budget)

@cython.locals(mine=_SideState, theirs=_SideState, hand=list, budget=long, need=long,
               attacking=bint, passes=bint, players=list, events=list)
cpdef list _greedy_cards(Match state, object side)

@cython.locals(need=long, stopping=long, wanted=long, facts=list, players=list, events=list)
cpdef list _shot_cards(Match state, object side, list hand, bint attacking, _SideState mine, _SideState theirs, long budget)

@cython.locals(mine=_SideState, shots=list, helped=long, cycles=bint, facts=_Facts, potential=long)
cpdef bint _shoots(Match state, object side) except -1

cpdef object _goal_kick_zone(Match state, object side)

cpdef object _greedy_choice(Match state)
