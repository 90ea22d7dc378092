"""The comparisons of a turn: when a play phase ends (R-PLAY-4) and what it gives (R-JUDGE-1..5).

Pure functions of the totals, so the match, the bots' look-ahead and the tests share them.
"""

from __future__ import annotations

GOAL = "goal"
CORNER_KICK = "corner_kick"
GOAL_KICK = "goal_kick"
SWAP = "swap"
HOLD = "hold"

NOT_AHEAD = "not_ahead"
TIMINGS_DONE = "timings_done"


def play_end_reason(
    used_cards: bool,
    actor_keep: int,
    opponent_keep: int,
    timing: int,
    last_timing: int,
    empty_timing_passes: bool,
) -> str | None:
    """Return why the play phase ends after this timing, or None when the next timing follows.

    R-PLAY-4: after a timing at which the actor used a card, an actor whose keep total is not
    above the opponent's ends the phase at once. With `empty_timing: passes` (the default) an
    empty timing ends nothing; with `ends_phase` it is judged like any other (0 <= 0 ends).
    The phase ends after the last timing either way.
    """
    if (used_cards or not empty_timing_passes) and actor_keep <= opponent_keep:
        return NOT_AHEAD
    if timing == last_timing:
        return TIMINGS_DONE
    return None


def shot_outcome(shoot: int, defense: int, goalkeeper_defense: int) -> str:
    """R-JUDGE-1..4: the shoot total against the defense total plus the goalkeeper's defense."""
    stopping = defense + goalkeeper_defense
    if shoot > stopping:  # R-JUDGE-2
        return GOAL
    if shoot == stopping:  # R-JUDGE-3
        return CORNER_KICK
    return GOAL_KICK  # R-JUDGE-4


def keep_outcome(offense_keep: int, defense_keep: int) -> str:
    """R-JUDGE-5: the defense takes the ball only with a greater keep total."""
    return SWAP if defense_keep > offense_keep else HOLD
