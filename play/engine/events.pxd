# Cython declarations for events.py (the compiled path only; see compiled.py): the writers
# as C classes whose methods the match calls directly. What they write stays in events.py.
# Measured (bench/engine.py --cpu -n 600, 2026-12-05, 7 interleaved rounds against a build
# without it, EventLog typed `object` in match.pxd): logged matches +7-8%, unlogged +5-6%.

cimport cython


cpdef list ids(cards)


cdef class EventLog:
    cdef public list events
    cdef public bint forced_field

    cpdef half_start(self, half, kickoff, a, b)
    cpdef turn_start(self, offense, pending, ball_zone, ball_arrow, dict score, list hand_a,
                     list hand_b,
                     Py_ssize_t deck_a, Py_ssize_t deck_b, int half, int turn)
    cpdef draw(self, side, list drawn, reason, Py_ssize_t deck_count, int half, int turn)
    cpdef kick(self, case, choice, ball_zone, ball_arrow, bint shot, int half, int turn,
               bint forced=*)
    @cython.locals(events=list)
    cpdef play(self, Py_ssize_t at, side, int timing, tuple card_ids, int player_cards,
               int keep_a, int shoot_a, int defense_a, int keep_b, int shoot_b, int defense_b,
               int half, int turn)
    cpdef effect(self, side, other, card, tuple own, tuple opp, int half, int turn)
    cpdef play_end(self, reason, int timing, int half, int turn)
    cpdef judge_shot(self, int shoot, int defense, int keeper, outcome, int half, int turn)
    cpdef judge_keep(self, int offense_keep, int defense_keep, outcome, int half, int turn)
    cpdef goal(self, side, dict score, int half, int turn)
    cpdef discard(self, side, list cards, int half, int turn)
    cpdef half_end(self, side, int half, dict score)
    cpdef halftime(self, swaps_a, swaps_b)
    cpdef match_end(self, result)


cdef class _NoLog(EventLog):
    cpdef half_start(self, half, kickoff, a, b)
    cpdef turn_start(self, offense, pending, ball_zone, ball_arrow, dict score, list hand_a,
                     list hand_b,
                     Py_ssize_t deck_a, Py_ssize_t deck_b, int half, int turn)
    cpdef draw(self, side, list drawn, reason, Py_ssize_t deck_count, int half, int turn)
    cpdef kick(self, case, choice, ball_zone, ball_arrow, bint shot, int half, int turn,
               bint forced=*)
    cpdef play(self, Py_ssize_t at, side, int timing, tuple card_ids, int player_cards,
               int keep_a, int shoot_a, int defense_a, int keep_b, int shoot_b, int defense_b,
               int half, int turn)
    cpdef effect(self, side, other, card, tuple own, tuple opp, int half, int turn)
    cpdef play_end(self, reason, int timing, int half, int turn)
    cpdef judge_shot(self, int shoot, int defense, int keeper, outcome, int half, int turn)
    cpdef judge_keep(self, int offense_keep, int defense_keep, outcome, int half, int turn)
    cpdef goal(self, side, dict score, int half, int turn)
    cpdef discard(self, side, list cards, int half, int turn)
    cpdef half_end(self, side, int half, dict score)
    cpdef halftime(self, swaps_a, swaps_b)
    cpdef match_end(self, result)
