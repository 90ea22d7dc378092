# Cython declarations for match.py (the compiled path only; see compiled.py). They give the
# state classes typed C fields and the hot methods C calls; the rules stay in match.py.
# Measured (bench/engine.py --cpu -n 600, 2026-12-05, 4 interleaved rounds against a build
# without it, its cimports in policies.pxd and runner.pxd typed `object`): greedy vs greedy
# 3,290 -> 1,399 matches/s without it (x2.35), goldfish x2.5, logged matches x1.7, random x1.3.

cimport cython

from play.engine.events cimport EventLog
from play.engine.judgment cimport keep_outcome, play_end_reason, shot_outcome


@cython.final
cdef class _SideState:
    cdef public str side
    cdef public _SideState opponent
    cdef public list owned, deck, hand, discard, in_play, bench
    cdef public object goalkeeper, pk_goalkeeper
    cdef public int player_cards, keep, shoot, defense
    cdef public tuple swaps

    cpdef _SideState copy(self)


@cython.final
cdef class Match:
    cdef public object options, seed, _chance, stats, result
    cdef public EventLog _log
    cdef public dict side_decks, cards, _facts, _s, score, _initial_decks, _swap_memo
    cdef public _SideState _a, _b
    cdef public list _events, history
    cdef public bint _first_edition_log, _empty_timing_passes, _draw_phase_deck_out, shot
    cdef public int half, turn, timing, _back_passes
    cdef public str offense
    cdef public object ball_zone  # an int or None
    # Each a str or None: typed, their comparisons with the literals are C string compares.
    cdef public str pending, ball_arrow, decision, actor, _deck_out_side, _first_kickoff

    cpdef apply_action(self, action)
    cpdef _why_illegal(self, action)
    @cython.locals(state=_SideState, hand=list, table=dict, players=int, i=Py_ssize_t,
                   j=Py_ssize_t, wanted=Py_ssize_t, held=Py_ssize_t, fact=tuple)
    cpdef _play_problem(self, side, tuple card_ids)
    cpdef _decide(self, decision, side)
    cpdef _start_half(self, int half, kickoff)
    @cython.locals(offense=_SideState, defense=_SideState, state=_SideState, need=int,
                   a=_SideState, b=_SideState)
    cpdef _begin_turn(self)
    @cython.locals(deck=list, got=Py_ssize_t, hand=list, start=Py_ssize_t, _=Py_ssize_t)
    cpdef bint _draw(self, _SideState state, Py_ssize_t count, reason) except -1
    @cython.locals(offense=str, defense=str, pending=str)
    cpdef _kick_phase(self)
    cpdef _goal_kick(self, zone)
    cpdef _shoot(self, bint forced=*)
    cpdef _back_pass(self)
    cpdef _begin_play(self)
    @cython.locals(user=_SideState, opponent=_SideState, logging=bint, at=Py_ssize_t,
                   deck_out=bint, hand=list, cards=list, table=dict, own=tuple, opp=tuple,
                   log=EventLog, a=_SideState, b=_SideState, facts=list, fact=tuple,
                   i=Py_ssize_t, has_events=bint, keep=int, shoot=int, defense=int)
    cpdef _play_timing(self, side, tuple card_ids)
    cpdef _end_play(self, reason)
    @cython.locals(offense=_SideState, defense=_SideState, state=_SideState, keeper=int,
                   log=EventLog, outcome=str, offense_side=str, defense_side=str)
    cpdef _judge(self)
    cpdef _end_half(self)
    cpdef _finish(self, winner, decided_by, pk)
