"""The rule constants and house rules of a match, as written into the log's `rules` object.

Gaps in the source are decided here once. The choices a user may change are fields of
`Options`; the ones the engine fixes are named in `FIXED_HOUSE_RULES`. Both go into
`rules.house`, so a referee reading a log knows exactly which game was played.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from play.engine.legality import DECK_SIZE

HAND_SIZE = 4  # R-DRAW-1
MAX_PLAYER_CARDS_PER_TURN = 2  # R-PLAY-2
TIMINGS_PER_SIDE = 2  # R-PLAY-1
PK_KICKS = 5  # R-PK-4
GOAL_KICK_DRAW = 1  # R-KICK-2
SHOT_DRAW = 2  # R-KICK-3, R-KICK-4

FIXED_HOUSE_RULES: dict[str, object] = {
    "field_zones": 5,  # R-DECK-6
    "kickoff": "coin_toss_then_other_side",  # R-MATCH-4
    "halftime": "swaps_then_shuffle_all_cards",  # R-MATCH-5
    "ball_at_half_start": "off_field_until_kickoff",
    "draw_order": "offense_then_defense",  # R-DRAW-1 leaves the order open
    "half_end_mid_turn": "rest_of_turn_not_played_cards_in_play_stay_until_gathered",
    "effect_order": "cards_in_id_order_each_changes_totals_then_draws",  # R-PLAY-3
    "play_end_at_last_timing": "not_ahead_before_timings_done",  # R-PLAY-4
    "player_cards_instant": True,  # R-END-1
    "pk_goalkeeper": "bench_pk_goalkeeper_else_match_goalkeeper",  # R-PK-1
    "pk_first_kicks": "all_taken",  # R-PK-4
    "pk_deck_out": "reshuffle_revealed_cards",  # R-PK-5
    "pk_never_decisive": "coin_toss",  # R-PK-6
    "halftime_swaps": "all_at_once",  # R-MATCH-5: one player's swaps are judged together
    "pk_swaps": "none",  # R-PK-2: no bench swaps before the shootout
}

# The two readings of each second-edition option (the first value is the default).
EMPTY_TIMINGS = ("passes", "ends_phase")  # R-PLAY-4
DECK_OUTS = ("draw_phase", "any_draw")  # R-DRAW-2, R-MATCH-3

# How a first-edition log (one that lacks the second edition's names) wrote `rules.house`:
# its fixed rules, in its order, with `deck_out` as a fixed rule, then the options it had.
FIRST_EDITION_FIXED: dict[str, object] = {
    "field_zones": 5,
    "kickoff": "coin_toss_then_other_side",
    "halftime": "swaps_then_shuffle_all_cards",
    "ball_at_half_start": "off_field_until_kickoff",
    "deck_out": "any_draw_from_empty_deck_ends_half_at_once",
    "draw_order": "offense_then_defense",
    "half_end_mid_turn": "rest_of_turn_not_played_cards_in_play_stay_until_gathered",
    "effect_order": "cards_in_id_order_each_changes_totals_then_draws",
    "play_end_at_last_timing": "not_ahead_before_timings_done",
    "player_cards_instant": True,
    "pk_goalkeeper": "bench_pk_goalkeeper_else_match_goalkeeper",
    "pk_first_kicks": "all_taken",
    "pk_deck_out": "reshuffle_revealed_cards",
    "pk_never_decisive": "coin_toss",
}
_SECOND_EDITION_NAMES = ("empty_timing", "halftime_swaps", "pk_swaps")


@dataclass(frozen=True, slots=True)
class Options:
    """The house rules a user may choose; the defaults are the spec's."""

    # R-MATCH-5 (option): keep the hand through halftime instead of shuffling it in.
    halftime_keep_hands: bool = False
    # R-KICK-4 (ours): after this many back passes in a row by the same offense, its next
    # shot chance is a forced shot. Without it an offense that never shoots and never plays a
    # card holds the ball for ever and the match never ends. None lifts the limit.
    max_back_passes: int | None = 3
    # R-PLAY-4 (option): "passes" (second edition) lets an empty timing end nothing, so the
    # opponent gets the next timing; "ends_phase" (first edition) judges it like any other.
    empty_timing: str = "passes"
    # R-DRAW-2 (option): "draw_phase" (second edition) ends a half only in a draw phase, and an
    # extra draw takes what is left; "any_draw" (first edition) ends it at any draw that finds
    # the deck empty.
    deck_out: str = "draw_phase"

    def __post_init__(self) -> None:
        if self.empty_timing not in EMPTY_TIMINGS:
            raise ValueError(f"empty_timing must be one of {', '.join(EMPTY_TIMINGS)}.")
        if self.deck_out not in DECK_OUTS:
            raise ValueError(f"deck_out must be one of {', '.join(DECK_OUTS)}.")
        if not isinstance(self.halftime_keep_hands, bool):
            raise ValueError("halftime_keep_hands must be true or false.")
        limit = self.max_back_passes
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise ValueError("max_back_passes must be a whole number or None.")
        if limit is not None and limit < 0:
            raise ValueError("max_back_passes must be 0 or more.")

    def house(self) -> dict[str, object]:
        """Return the log's `rules.house` object: the fixed house rules, then these options."""
        return {**FIXED_HOUSE_RULES, **asdict(self)}

    @property
    def edition(self) -> int:
        """Return 2 for the second edition's readings, 1 for the first's, 0 for a mix."""
        if (self.empty_timing, self.deck_out) == (EMPTY_TIMINGS[0], DECK_OUTS[0]):
            return 2
        if (self.empty_timing, self.deck_out) == (EMPTY_TIMINGS[1], DECK_OUTS[1]):
            return 1
        return 0

    def first_edition_house(self) -> dict[str, object]:
        """Return `rules.house` as a first-edition log wrote it (only for first-edition rules)."""
        if self.edition != 1:
            raise ValueError("Only the first edition's readings have a first-edition log.")
        return {
            **FIRST_EDITION_FIXED,
            "halftime_keep_hands": self.halftime_keep_hands,
            "max_back_passes": self.max_back_passes,
        }

    @classmethod
    def from_house(cls, house: dict) -> Options:
        """Return the options a log's `rules.house` names, refusing rules this engine lacks.

        A log that lacks the second edition's names is a first-edition log (match-log.md):
        its rules are `ends_phase` and `any_draw`, and it must name the first edition's rules.
        """
        if is_first_edition_house(house):
            for name, value in FIRST_EDITION_FIXED.items():
                if house.get(name, value) != value:
                    raise ValueError(f"House rule {name}={house[name]!r} is not this engine's.")
            known = {*FIRST_EDITION_FIXED, "halftime_keep_hands", "max_back_passes"}
            unknown = set(house) - known
            if unknown:
                raise ValueError(f"Unknown house rules: {', '.join(sorted(unknown))}.")
            return cls(
                halftime_keep_hands=house.get("halftime_keep_hands", False),
                max_back_passes=house.get("max_back_passes", 3),
                empty_timing="ends_phase",
                deck_out="any_draw",
            )
        for name, value in FIXED_HOUSE_RULES.items():
            if house.get(name, value) != value:
                raise ValueError(f"House rule {name}={house[name]!r} is not this engine's.")
        names = {f.name for f in fields(cls)}
        unknown = set(house) - names - set(FIXED_HOUSE_RULES)
        if unknown:
            raise ValueError(f"Unknown house rules: {', '.join(sorted(unknown))}.")
        return cls(**{name: house[name] for name in names if name in house})


def is_first_edition_house(house: dict) -> bool:
    """Return whether a log's `rules.house` is a first-edition one (match-log.md)."""
    return (
        not any(name in house for name in _SECOND_EDITION_NAMES)
        and house.get("deck_out", FIRST_EDITION_FIXED["deck_out"]) not in DECK_OUTS
    )


def rules_object(options: Options, *, first_edition_log: bool = False) -> dict:
    """Return the log's `rules` object (as a first-edition log wrote it, if asked)."""
    return {
        "deck_size": DECK_SIZE,
        "hand_size": HAND_SIZE,
        "max_player_cards_per_turn": MAX_PLAYER_CARDS_PER_TURN,
        "timings_per_side": TIMINGS_PER_SIDE,
        "pk_kicks": PK_KICKS,
        "house": options.first_edition_house() if first_edition_log else options.house(),
    }


DEFAULT_OPTIONS = Options()  # the spec's defaults; Options is frozen, so one shared value is safe
