"""Rule constants, the options a designer may change, and the fixed house rules (HOUSE).

Everything the draft leaves open is decided once, here, and written into every log's `rules`
object, so a reader of a log knows exactly which game was played (docs/touchdown.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from play.touchdown.effects import EffectSet, load_effect_set, with_guarantee

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
MINIMUM_KICK_BALL = 7  # HOUSE: the floor `minimum_kick=True` stands for
KICKOFF_CHOICES = ("choice", "normal_only")
KICKOFF_KICK_ABILITY = ("none", "random", "both")  # which kick-offs a hero's kick ability lengthens
KICK_PLAY_HANDS = ("lead_only", "every_player")  # who spends a card on a kick play (TD-KICK-2)
SUIT_CHANGE_JUDGES = ("cards_played_after", "every_card")  # TD-PLAY-4's two readings
LOG_VERSION = 2
# Options added after logs were first written: a log that lacks one played its value here.
LATER_OPTIONS: dict[str, object] = {"guarantee_heroes": 0, "guarantee_ball": MINIMUM_KICK_BALL}

FIXED_HOUSE_RULES: dict[str, object] = {
    "left_is": "next_seat_clockwise",  # TD-SET-1: seat + 1
    "deal": "one_card_at_a_time_clockwise_from_seat_0_last_4_unused",  # TD-SET-2
    "show_order": "seats_0_1_2_3_partner_sees_until_played",  # TD-SET-3
    "kickoff_kicker": "defense_seat_left_of_the_lead",  # TD-KICK-1: who declares
    "kickoff_skipped_when": "every_hand_is_empty",  # a kick-off nobody can play after
    "onside_ball_derived": "11_minus_base_plus_roll_from_the_kicking_team_within_1_10",
    "kick_floor_applies_to": "random_kickoffs_that_are_not_onside",
    "onside_judged_on": "the_roll_alone",  # a kick ability or floor never makes a kick onside
    "hero_kick_ability": "added_to_kick_play_roll",  # TD-COMP-2, TD-KICK-2
    "kick_play_trick": "no_judgement_no_effects_skills_of_the_trick_lapse",  # TD-KICK-2
    "kick_play_score": "ball_minus_distance_at_or_below_0_scores_1",  # TD-KICK-2
    "follow_fixed_when": "card_of_the_led_suit_when_played_or_rejudged_per_option",
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


def _whole(value: object, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


@dataclass(frozen=True, slots=True)
class Options:
    """The variants a designer may try; the defaults are the draft's rules with no effects.

    Every field is written into each log's `rules.house` under its own name."""

    # TD-KICK-1: a random kick-off is onside on a roll of 1..onside_rolls (draft: 1; 0: never).
    onside_rolls: int = 1
    # Shorthand for kick_floor=7 (the guarantee the draft removed); kept for old callers.
    minimum_kick: bool = False
    # "choice" (draft) or "normal_only" (every kick-off is a normal kick, no decision).
    kickoffs: str = "choice"
    # The playbook effects and heroes; a shipped name, a file path, data or an EffectSet.
    effects: EffectSet = field(default="none")  # type: ignore[assignment]
    # TD-KICK-1: the random kick lands at base + roll (draft: 3; 0 is the "no 3 +" reading).
    random_kick_base: int = RANDOM_KICK_BASE
    # A random kick that is not onside lands no nearer than this (0: no floor, the draft).
    kick_floor: int = 0
    # The ball after an onside kick; 0: 11 - (base + roll), the draft's 7 on a 1 (HOUSE).
    onside_ball: int = 0
    # TD-KICK-1: the ball after a normal kick (draft: 8).
    normal_kick_ball: int = NORMAL_KICK_BALL
    # Whether the kicker's hero kick ability lengthens kick-offs: none (draft), random, both.
    kickoff_kick_ability: str = "none"
    # TD-KICK-2: who spends a card on a kick play: lead_only (HOUSE) or every_player.
    kick_play_hand: str = "lead_only"
    # TD-PLAY-4: after a suit change, are cards played before it judged again? (HOUSE: no)
    suit_change_judges: str = "cards_played_after"
    # The draft's remedy (TD-COMP-2, TD-KICK-1): the minimum-kick guarantee as a hero skill
    # carried by this many of the ten heroes (0: nobody, the draft), effects.with_guarantee.
    guarantee_heroes: int = 0
    # The ball that skill guarantees: a random kick-off lands no nearer than this (7: the floor).
    guarantee_ball: int = MINIMUM_KICK_BALL

    def __post_init__(self) -> None:
        problems = []
        if not _whole(self.onside_rolls, 0, 5):
            problems.append("onside_rolls must be a whole number 0..5 (the draft: 1).")
        if not isinstance(self.minimum_kick, bool):
            problems.append("minimum_kick must be true or false.")
        if self.kickoffs not in KICKOFF_CHOICES:
            problems.append(f"kickoffs must be one of {', '.join(KICKOFF_CHOICES)}.")
        if not _whole(self.random_kick_base, 0, 7):
            problems.append("random_kick_base must be a whole number 0..7 (the draft: 3).")
        if not _whole(self.kick_floor, 0, 10):
            problems.append("kick_floor must be a whole number 0..10 (0: none, the draft).")
        if not _whole(self.onside_ball, 0, 10):
            problems.append("onside_ball must be a whole number 0..10 (0: 11 - (base + roll)).")
        if not _whole(self.normal_kick_ball, 1, 10):
            problems.append("normal_kick_ball must be a whole number 1..10 (the draft: 8).")
        if self.kickoff_kick_ability not in KICKOFF_KICK_ABILITY:
            problems.append(
                f"kickoff_kick_ability must be one of {', '.join(KICKOFF_KICK_ABILITY)}."
            )
        if self.kick_play_hand not in KICK_PLAY_HANDS:
            problems.append(f"kick_play_hand must be one of {', '.join(KICK_PLAY_HANDS)}.")
        if self.suit_change_judges not in SUIT_CHANGE_JUDGES:
            problems.append(f"suit_change_judges must be one of {', '.join(SUIT_CHANGE_JUDGES)}.")
        if not _whole(self.guarantee_heroes, 0, 10):
            problems.append("guarantee_heroes must be a whole number 0..10 (0: none, the draft).")
        if not _whole(self.guarantee_ball, 1, 10):
            problems.append("guarantee_ball must be a whole number 1..10 (7: the old guarantee).")
        if problems:
            raise ValueError(" ".join(problems))
        if self.minimum_kick and not self.kick_floor:
            object.__setattr__(self, "kick_floor", MINIMUM_KICK_BALL)
        object.__setattr__(self, "minimum_kick", self.kick_floor == MINIMUM_KICK_BALL)
        effects = load_effect_set(self.effects)
        object.__setattr__(
            self, "effects", with_guarantee(effects, self.guarantee_heroes, self.guarantee_ball)
        )

    def onside_ball_after(self, roll: int) -> int:
        """TD-KICK-1: the ball after an onside kick on this roll (the kicking team attacks)."""
        if self.onside_ball:
            return self.onside_ball
        # HOUSE: 11 - (3 + 1) = 7, the draft's own arithmetic, with the variant's base
        return max(1, min(FIELD_SQUARES, TURNOVER_SUM - (self.random_kick_base + roll)))

    def variant(self) -> dict[str, object]:
        """Return every option but the effect set, by name (JSON-ready)."""
        return {
            "onside_rolls": self.onside_rolls,
            "kickoffs": self.kickoffs,
            "random_kick_base": self.random_kick_base,
            "kick_floor": self.kick_floor,
            "onside_ball": self.onside_ball,
            "normal_kick_ball": self.normal_kick_ball,
            "kickoff_kick_ability": self.kickoff_kick_ability,
            "kick_play_hand": self.kick_play_hand,
            "suit_change_judges": self.suit_change_judges,
            "guarantee_heroes": self.guarantee_heroes,
            "guarantee_ball": self.guarantee_ball,
        }

    def replace(self, **changes: object) -> Options:
        """Return a copy with some options changed (the effect set kept unless named)."""
        data = {**self.variant(), "effects": self.effects, **changes}
        return Options(**data)

    def house(self) -> dict[str, object]:
        """Return the log's `rules.house`: the fixed house rules, then every option by name."""
        return {
            **FIXED_HOUSE_RULES,
            **self.variant(),
            "minimum_kick": self.minimum_kick,
            "effects": self.effects.name,
        }

    @classmethod
    def from_rules(cls, rules: dict) -> Options:
        """Return the options a log's `rules` object names, refusing rules this engine lacks."""
        house = rules["house"]
        for name, value in FIXED_HOUSE_RULES.items():
            if house.get(name) != value:
                raise ValueError(f"House rule {name}={house.get(name)!r} is not this engine's.")
        names = cls().variant()
        house = {**LATER_OPTIONS, **house}  # logs written before these options existed
        missing = [name for name in names if name not in house]
        if missing:
            raise ValueError(f"The log's rules do not name the option(s) {', '.join(missing)}.")
        return cls(
            **{name: house[name] for name in names},
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
        "normal_kick_ball": options.normal_kick_ball,
        "random_kick_base": options.random_kick_base,
        "combination_bonus": COMBINATION_BONUS,
        "house": options.house(),
        "effect_set": options.effects.to_dict(),
    }


DEFAULT_OPTIONS = Options()
