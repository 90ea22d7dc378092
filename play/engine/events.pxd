# Cython declarations for events.py (the compiled path only; see compiled.py): the writers
# as C classes whose methods the match calls directly. What they write stays in events.py.

cimport cython


cdef class EventLog:
    cdef public list events
    cdef public bint forced_field

    cpdef half_start(self, half, kickoff, a, b)
    cpdef turn_start(self, m, a, b)
    cpdef draw(self, m, side, drawn, reason, deck_count)
    cpdef kick(self, m, case, choice, bint forced=*)
    @cython.locals(events=list)
    cpdef play(self, Py_ssize_t at, m, side, card_ids, player_cards, a, b)
    cpdef effect(self, m, side, other, card, own, opp)
    cpdef play_end(self, m, reason)
    cpdef judge_shot(self, m, shoot, defense, keeper, outcome)
    cpdef judge_keep(self, m, offense_keep, defense_keep, outcome)
    cpdef goal(self, m, side)
    cpdef discard(self, m, side, cards)
    cpdef half_end(self, m, side)
    cpdef halftime(self, swaps_a, swaps_b)
    cpdef match_end(self, result)


cdef class _NoLog(EventLog):
    cpdef half_start(self, half, kickoff, a, b)
    cpdef turn_start(self, m, a, b)
    cpdef draw(self, m, side, drawn, reason, deck_count)
    cpdef kick(self, m, case, choice, bint forced=*)
    cpdef play(self, Py_ssize_t at, m, side, card_ids, player_cards, a, b)
    cpdef effect(self, m, side, other, card, own, opp)
    cpdef play_end(self, m, reason)
    cpdef judge_shot(self, m, shoot, defense, keeper, outcome)
    cpdef judge_keep(self, m, offense_keep, defense_keep, outcome)
    cpdef goal(self, m, side)
    cpdef discard(self, m, side, cards)
    cpdef half_end(self, m, side)
    cpdef halftime(self, swaps_a, swaps_b)
    cpdef match_end(self, result)
