"""Writing the match log's events (shared/spec/match-log.md), in one place.

`Match` holds one writer: an `EventLog` when it keeps a log, else `NO_LOG`, whose methods do
nothing. The match calls the writer at every step with plain values, so a match without a log
builds no event dict at all, and no step of the rules needs an `if logging:` of its own.
Every method writes one event type of the format; the fields are the format's, in its order.
"""

from __future__ import annotations


def ids(cards) -> list[str]:
    """Return the ids of the cards, in order."""
    return [card.id for card in cards]  # compiled: a C loop (events.pxd), called as C


def top_first(deck) -> list[str]:
    """Return a deck's ids top first (the engine keeps a deck's top card last)."""
    return [card.id for card in deck[::-1]]


# Each event of 7 or more fields starts as a copy of its type's template, the fields in the
# format's order, and gets its values in place: `{**_PLAY, "side": side, ...}` is a shallow
# copy of a small dict (compiled: PyDict_Copy clones the key table) and one replacement a field,
# cheaper than a literal's fresh dict growing key by key (the logging-cost measurements that
# docs/performance.md points to). The templates hold only constants and None and are never
# handed out: every event is a new dict of its own, with the same keys in the same order as
# the literal gave.
def _template(event_type: str, *fields: str, **fixed: str) -> dict:
    """Return the template of an event type: `type`, then the fields in order, all None but
    the `fixed` ones."""
    template = dict.fromkeys(("type", *fields))
    template["type"] = event_type
    template.update(fixed)
    return template


_TURN_START = _template(
    "turn_start", "offense", "pending", "ball", "score", "hands", "deck_counts", "half", "turn"
)
_DRAW = _template("draw", "side", "cards", "reason", "deck_count", "half", "turn")
_KICK = _template("kick", "case", "choice", "ball", "shot", "half", "turn")
_PLAY = _template(
    "play", "side", "timing", "cards", "player_cards_this_turn", "totals", "half", "turn"
)
_EFFECT = _template("effect", "side", "card", "effect", "delta", "half", "turn")
_JUDGE_SHOT = _template(
    "judge",
    "kind",
    "shoot",
    "defense",
    "goalkeeper_defense",
    "outcome",
    "half",
    "turn",
    kind="shot",
)
_JUDGE_KEEP = _template(
    "judge", "kind", "offense_keep", "defense_keep", "outcome", "half", "turn", kind="keep"
)


class EventLog:
    """Appends the events of one match to `events`."""

    __slots__ = ("events", "forced_field")

    def __init__(self, *, forced_field: bool = True) -> None:
        self.events: list[dict] = []
        # First-edition logs had no `forced` on kick events; replaying one writes none.
        self.forced_field = forced_field

    def __len__(self) -> int:
        return len(self.events)

    def half_start(self, half: int, kickoff: str, a, b) -> None:
        self.events.append(
            {
                "type": "half_start",
                "half": half,
                "kickoff": kickoff,
                "decks": {"A": top_first(a.deck), "B": top_first(b.deck)},
            }
        )

    def turn_start(
        self,
        offense,
        pending,
        ball_zone,
        ball_arrow,
        score,
        hand_a,
        hand_b,
        deck_a,
        deck_b,
        half,
        turn,
    ) -> None:
        self.events.append(
            {
                **_TURN_START,
                "offense": offense,
                "pending": pending,
                "ball": None if ball_zone is None else {"zone": ball_zone, "arrow": ball_arrow},
                "score": score.copy(),
                "hands": {"A": ids(hand_a), "B": ids(hand_b)},
                "deck_counts": {"A": deck_a, "B": deck_b},
                "half": half,
                "turn": turn,
            }
        )

    def draw(self, side: str, drawn, reason: str, deck_count: int, half: int, turn: int) -> None:
        self.events.append(
            {
                **_DRAW,
                "side": side,
                "cards": ids(drawn),
                "reason": reason,
                "deck_count": deck_count,
                "half": half,
                "turn": turn,
            }
        )

    def kick(
        self,
        case: str,
        choice,
        ball_zone,
        ball_arrow,
        shot: bool,
        half: int,
        turn: int,
        forced: bool = False,
    ) -> None:
        event = {
            **_KICK,
            "case": case,
            "choice": choice,
            "ball": {"zone": ball_zone, "arrow": ball_arrow},
            "shot": shot,
            "half": half,
            "turn": turn,
        }
        if forced and self.forced_field:
            event["forced"] = True  # R-KICK-3, R-KICK-4: a shot the offense did not choose
        self.events.append(event)

    def play(
        self,
        at: int,
        side: str,
        timing: int,
        card_ids,
        player_cards: int,
        keep_a: int,
        shoot_a: int,
        defense_a: int,
        keep_b: int,
        shoot_b: int,
        defense_b: int,
        half: int,
        turn: int,
    ) -> None:
        """Write a timing's `play` event at `at`, the event count before its effects."""
        event = {
            **_PLAY,
            "side": side,
            "timing": timing,
            "cards": list(card_ids),
            "player_cards_this_turn": player_cards,
            "totals": {
                "A": {"keep": keep_a, "shoot": shoot_a, "defense": defense_a},
                "B": {"keep": keep_b, "shoot": shoot_b, "defense": defense_b},
            },
            "half": half,
            "turn": turn,
        }
        events = self.events
        if len(events) == at:  # no effect wrote anything: the usual case
            events.append(event)
        else:  # the `play` event comes before its effects (and their draws)
            events.insert(at, event)

    def effect(self, side: str, other: str, card, own, opp, half: int, turn: int) -> None:
        self.events.append(
            {
                **_EFFECT,
                "side": side,
                "card": card.id,
                "effect": card.effect,
                "delta": {
                    side: {"keep": own[0], "shoot": own[1], "defense": own[2]},
                    other: {"keep": opp[0], "shoot": opp[1], "defense": opp[2]},
                },
                "half": half,
                "turn": turn,
            }
        )

    def play_end(self, reason: str, timing: int, half: int, turn: int) -> None:
        self.events.append(
            {"type": "play_end", "reason": reason, "timing": timing, "half": half, "turn": turn}
        )

    def judge_shot(
        self, shoot: int, defense: int, keeper: int, outcome: str, half: int, turn: int
    ) -> None:
        self.events.append(
            {
                **_JUDGE_SHOT,
                "shoot": shoot,
                "defense": defense,
                "goalkeeper_defense": keeper,
                "outcome": outcome,
                "half": half,
                "turn": turn,
            }
        )

    def judge_keep(
        self, offense_keep: int, defense_keep: int, outcome: str, half: int, turn: int
    ) -> None:
        self.events.append(
            {
                **_JUDGE_KEEP,
                "offense_keep": offense_keep,
                "defense_keep": defense_keep,
                "outcome": outcome,
                "half": half,
                "turn": turn,
            }
        )

    def goal(self, side: str, score, half: int, turn: int) -> None:
        self.events.append(
            {"type": "goal", "side": side, "score": score.copy(), "half": half, "turn": turn}
        )

    def discard(self, side: str, cards, half: int, turn: int) -> None:
        self.events.append(
            {
                "type": "discard",
                "side": side,
                "cards": ids(cards),
                "half": half,
                "turn": turn,
            }
        )

    def half_end(self, side: str | None, half: int, score) -> None:
        self.events.append(
            {
                "type": "half_end",
                "half": half,
                "reason": "deck_out",
                "side": side,
                "score": score.copy(),
            }
        )

    def halftime(self, swaps_a, swaps_b) -> None:
        self.events.append(
            {
                "type": "halftime",
                "swaps": {"A": [list(p) for p in swaps_a], "B": [list(p) for p in swaps_b]},
            }
        )

    def match_end(self, result: dict) -> None:
        self.events.append({"type": "match_end", **result})


class _NoLog(EventLog):
    """The writer of a match that keeps no log: every method does nothing."""

    __slots__ = ()

    def __init__(self) -> None:
        self.events = None  # type: ignore[assignment]
        self.forced_field = False

    def __len__(self) -> int:
        return 0

    # Each writer's method written out as doing nothing (not one shared catch-all), so the
    # compiled path calls them as C methods (events.pxd).
    def half_start(self, half, kickoff, a, b) -> None:
        return None

    def turn_start(
        self,
        offense,
        pending,
        ball_zone,
        ball_arrow,
        score,
        hand_a,
        hand_b,
        deck_a,
        deck_b,
        half,
        turn,
    ) -> None:
        return None

    def draw(self, side, drawn, reason, deck_count, half, turn) -> None:
        return None

    def kick(self, case, choice, ball_zone, ball_arrow, shot, half, turn, forced=False) -> None:
        return None

    def play(
        self,
        at,
        side,
        timing,
        card_ids,
        player_cards,
        keep_a,
        shoot_a,
        defense_a,
        keep_b,
        shoot_b,
        defense_b,
        half,
        turn,
    ) -> None:
        return None

    def effect(self, side, other, card, own, opp, half, turn) -> None:
        return None

    def play_end(self, reason, timing, half, turn) -> None:
        return None

    def judge_shot(self, shoot, defense, keeper, outcome, half, turn) -> None:
        return None

    def judge_keep(self, offense_keep, defense_keep, outcome, half, turn) -> None:
        return None

    def goal(self, side, score, half, turn) -> None:
        return None

    def discard(self, side, cards, half, turn) -> None:
        return None

    def half_end(self, side, half, score) -> None:
        return None

    def halftime(self, swaps_a, swaps_b) -> None:
        return None

    def match_end(self, result) -> None:
        return None


NO_LOG = _NoLog()
