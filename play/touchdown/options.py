"""Rule constants, the options a designer may change, and the fixed house rules (HOUSE).

Everything the draft leaves open is decided once, here, and written into every log's `rules`
object, so a reader of a log knows exactly which game was played (docs/touchdown.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from play.touchdown.effects import EffectSet, load_effect_set

HAND_SIZE = 9  # TD-SET-2
HEROES_PER_SEAT = 1  # TD-SET-2
FIELD_SQUARES = 10  # TD-COMP-3
SERIES_CARDS = 3  # TD-COMP-3, TD-SERIES-1
NORMAL_KICK_BALL = 8  # TD-KICK-1
RANDOM_KICK_BASE = 3  # TD-KICK-1: the ball lands at 3 + roll
TURNOVER_SUM = 11  # TD-KICK-2, TD-SERIES-1: the ball goes to 11 - its value
COMBINATION_BONUS = 2  # TD-JUDGE-2
TOUCHDOWN_POINTS = 2  # TD-SCORE-1: the ball reaches 0 exactly
LONG_TOUCHDOWN_POINTS = 3  # TD-SCORE-1: the ball passes 0
KICK_POINTS = 1  # TD-KICK-2
MINIMUM_KICK_BALL = 7  # HOUSE: the guarantee the draft removed, when switched on
KICKOFF_CHOICES = ("choice", "normal_only")

FIXED_HOUSE_RULES: dict[str, object] = {
    "left_is": "next_seat_clockwise",  # TD-SET-1: seat + 1
    "deal": "one_card_at_a_time_clockwise_from_seat_0_last_4_unused",  # TD-SET-2
    "show_order": "seats_0_1_2_3_partner_sees_until_played",  # TD-SET-3
    "kickoff_kicker": "defense_seat_left_of_the_lead",  # TD-KICK-1: who declares
    "kickoff_skipped_when": "every_hand_is_empty",  # a kick-off nobody can play after
    "onside_ball": "11_minus_3_plus_roll_from_the_kicking_team",  # TD-KICK-1: 7 on a 1
    "minimum_kick_applies_to": "random_kickoffs_that_are_not_onside",
    "hero_kick_ability": "added_to_kick_play_roll",  # TD-COMP-2, TD-KICK-2
    "kick_play_trick": "only_the_led_card_is_spent_others_keep_their_cards",  # TD-KICK-2
    "kick_play_score": "ball_minus_distance_at_or_below_0_scores_1",  # TD-KICK-2
    "follows": "card_of_the_led_suit_at_the_time_it_is_played",  # TD-PLAY-2..4
    "eligible_to_take": "led_card_and_cards_that_followed_not_cancelled",  # TD-JUDGE-1
    "effect_timing": "at_once_when_played_choices_by_the_player",  # TD-PLAY-2/3
    "skill_timing": "before_the_holder_plays_or_when_the_kicker_declares",  # TD-COMP-2
    "skill_turns_own_hero_up": False,  # else a hero_up skill could be used for ever
    "kickoff_skill_user": "the_kicker_only",  # TD-COMP-2 at TD-KICK-1
    "suit_change_before_the_lead": "the_coming_trick_is_led_in_that_suit",  # TD-PLAY-4
    "cancel_card_targets": "followers_other_than_the_led_card",
    "forced_failure_lead": "taker_if_offense_else_left_of_taker",  # TD-JUDGE-3
    "failure_ball_moves": "only_defensive_advance_effects",  # TD-JUDGE-3
    "lead_after_failure_and_turnover": "left_of_taker_then_left_again",  # TD-JUDGE-3, SERIES
    "interception": "applies_only_if_the_trick_is_an_attack_failure",  # TD-JUDGE-3
    "ball_far_end": "clamped_at_10",  # TD-COMP-3
    "after_score": "kickoff_by_the_scoring_team",  # TD-SCORE-1 (the spec's HOUSE)
    "half_end": "player_who_must_lead_or_follow_has_no_card_unfinished_trick_void",  # TD-END-1
    "halftime": "reshuffle_redeal_heroes_and_cards_show_again",  # TD-END-1, TD-SET-5
    "second_half_offense": "first_half_initial_defense",  # TD-SET-5
}


@dataclass(frozen=True, slots=True)
class Options:
    """The variants a designer may try; the defaults are the draft's rules with no effects."""

    # TD-KICK-1: a random kick-off is onside on a roll of 1..onside_rolls (draft: 1).
    onside_rolls: int = 1
    # The draft removed the minimum kick; on, a random kick lands no nearer than 7.
    minimum_kick: bool = False
    # "choice" (draft) or "normal_only" (every kick-off is a normal kick, no decision).
    kickoffs: str = "choice"
    # The playbook effects and heroes; a shipped name, a file path, data or an EffectSet.
    effects: EffectSet = field(default="none")  # type: ignore[assignment]

    def __post_init__(self) -> None:
        rolls = self.onside_rolls
        if isinstance(rolls, bool) or not isinstance(rolls, int) or not 0 <= rolls <= 5:
            raise ValueError("onside_rolls must be a whole number 0..5 (the draft: 1).")
        if not isinstance(self.minimum_kick, bool):
            raise ValueError("minimum_kick must be true or false.")
        if self.kickoffs not in KICKOFF_CHOICES:
            raise ValueError(f"kickoffs must be one of {', '.join(KICKOFF_CHOICES)}.")
        object.__setattr__(self, "effects", load_effect_set(self.effects))

    def house(self) -> dict[str, object]:
        """Return the log's `rules.house`: the fixed house rules, then these options."""
        return {
            **FIXED_HOUSE_RULES,
            "onside_rolls": self.onside_rolls,
            "minimum_kick": self.minimum_kick,
            "minimum_kick_ball": MINIMUM_KICK_BALL,
            "kickoffs": self.kickoffs,
            "effects": self.effects.name,
        }

    @classmethod
    def from_rules(cls, rules: dict) -> Options:
        """Return the options a log's `rules` object names, refusing rules this engine lacks."""
        house = rules["house"]
        for name, value in FIXED_HOUSE_RULES.items():
            if house.get(name) != value:
                raise ValueError(f"House rule {name}={house.get(name)!r} is not this engine's.")
        if house.get("minimum_kick_ball") != MINIMUM_KICK_BALL:
            raise ValueError("This engine's minimum kick is 7.")
        return cls(
            onside_rolls=house["onside_rolls"],
            minimum_kick=house["minimum_kick"],
            kickoffs=house["kickoffs"],
            effects=load_effect_set(rules["effect_set"]),
        )


def rules_object(options: Options) -> dict:
    """Return the log's `rules` object."""
    return {
        "game": "touchdown-heroes",
        "draft": 5,
        "hand_size": HAND_SIZE,
        "field_squares": FIELD_SQUARES,
        "series_cards": SERIES_CARDS,
        "normal_kick_ball": NORMAL_KICK_BALL,
        "random_kick_base": RANDOM_KICK_BASE,
        "combination_bonus": COMBINATION_BONUS,
        "house": options.house(),
        "effect_set": options.effects.to_dict(),
    }


DEFAULT_OPTIONS = Options()
