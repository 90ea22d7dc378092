"""Writing the match log's events (shared/spec/match-log.md), in one place.

`Match` holds one writer: an `EventLog` when it keeps a log, else `NO_LOG`, whose methods do
nothing. The match calls the writer at every step with plain values, so a match without a log
builds no event dict at all, and no step of the rules needs an `if logging:` of its own.
Every method writes one event type of the format; the fields are the format's, in its order.
"""

from __future__ import annotations

from operator import attrgetter

_card_id = attrgetter("id")


def ids(cards) -> list[str]:
    """Return the ids of the cards, in order."""
    return list(map(_card_id, cards))


def top_first(deck) -> list[str]:
    """Return a deck's ids top first (the engine keeps a deck's top card last)."""
    return list(map(_card_id, reversed(deck)))


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

    def turn_start(self, m, a, b) -> None:
        self.events.append(
            {
                "type": "turn_start",
                "offense": m.offense,
                "pending": m.pending,
                "ball": None
                if m.ball_zone is None
                else {"zone": m.ball_zone, "arrow": m.ball_arrow},
                "score": m.score.copy(),
                "hands": {"A": list(map(_card_id, a.hand)), "B": list(map(_card_id, b.hand))},
                "deck_counts": {"A": len(a.deck), "B": len(b.deck)},
                "half": m.half,
                "turn": m.turn,
            }
        )

    def draw(self, m, side: str, drawn, reason: str, deck_count: int) -> None:
        self.events.append(
            {
                "type": "draw",
                "side": side,
                "cards": list(map(_card_id, drawn)),
                "reason": reason,
                "deck_count": deck_count,
                "half": m.half,
                "turn": m.turn,
            }
        )

    def kick(self, m, case: str, choice: str | None, forced: bool = False) -> None:
        event = {
            "type": "kick",
            "case": case,
            "choice": choice,
            "ball": {"zone": m.ball_zone, "arrow": m.ball_arrow},
            "shot": m.shot,
            "half": m.half,
            "turn": m.turn,
        }
        if forced and self.forced_field:
            event["forced"] = True  # R-KICK-3, R-KICK-4: a shot the offense did not choose
        self.events.append(event)

    def play(self, at: int, m, side: str, card_ids, player_cards: int, a, b) -> None:
        """Write a timing's `play` event at `at`, the event count before its effects."""
        event = {
            "type": "play",
            "side": side,
            "timing": m.timing,
            "cards": list(card_ids),
            "player_cards_this_turn": player_cards,
            "totals": {
                "A": {"keep": a.keep, "shoot": a.shoot, "defense": a.defense},
                "B": {"keep": b.keep, "shoot": b.shoot, "defense": b.defense},
            },
            "half": m.half,
            "turn": m.turn,
        }
        events = self.events
        if len(events) == at:  # no effect wrote anything: the usual case
            events.append(event)
        else:  # the `play` event comes before its effects (and their draws)
            events.insert(at, event)

    def effect(self, m, side: str, other: str, card, own, opp) -> None:
        self.events.append(
            {
                "type": "effect",
                "side": side,
                "card": card.id,
                "effect": card.effect,
                "delta": {
                    side: {"keep": own[0], "shoot": own[1], "defense": own[2]},
                    other: {"keep": opp[0], "shoot": opp[1], "defense": opp[2]},
                },
                "half": m.half,
                "turn": m.turn,
            }
        )

    def play_end(self, m, reason: str) -> None:
        self.events.append(
            {
                "type": "play_end",
                "reason": reason,
                "timing": m.timing,
                "half": m.half,
                "turn": m.turn,
            }
        )

    def judge_shot(self, m, shoot: int, defense: int, keeper: int, outcome: str) -> None:
        self.events.append(
            {
                "type": "judge",
                "kind": "shot",
                "shoot": shoot,
                "defense": defense,
                "goalkeeper_defense": keeper,
                "outcome": outcome,
                "half": m.half,
                "turn": m.turn,
            }
        )

    def judge_keep(self, m, offense_keep: int, defense_keep: int, outcome: str) -> None:
        self.events.append(
            {
                "type": "judge",
                "kind": "keep",
                "offense_keep": offense_keep,
                "defense_keep": defense_keep,
                "outcome": outcome,
                "half": m.half,
                "turn": m.turn,
            }
        )

    def goal(self, m, side: str) -> None:
        self.events.append(
            {"type": "goal", "side": side, "score": m.score.copy(), "half": m.half, "turn": m.turn}
        )

    def discard(self, m, side: str, cards) -> None:
        self.events.append(
            {
                "type": "discard",
                "side": side,
                "cards": list(map(_card_id, cards)),
                "half": m.half,
                "turn": m.turn,
            }
        )

    def half_end(self, m, side: str | None) -> None:
        self.events.append(
            {
                "type": "half_end",
                "half": m.half,
                "reason": "deck_out",
                "side": side,
                "score": m.score.copy(),
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

    def turn_start(self, m, a, b) -> None:
        return None

    def draw(self, m, side, drawn, reason, deck_count) -> None:
        return None

    def kick(self, m, case, choice, forced=False) -> None:
        return None

    def play(self, at, m, side, card_ids, player_cards, a, b) -> None:
        return None

    def effect(self, m, side, other, card, own, opp) -> None:
        return None

    def play_end(self, m, reason) -> None:
        return None

    def judge_shot(self, m, shoot, defense, keeper, outcome) -> None:
        return None

    def judge_keep(self, m, offense_keep, defense_keep, outcome) -> None:
        return None

    def goal(self, m, side) -> None:
        return None

    def discard(self, m, side, cards) -> None:
        return None

    def half_end(self, m, side) -> None:
        return None

    def halftime(self, swaps_a, swaps_b) -> None:
        return None

    def match_end(self, result) -> None:
        return None


NO_LOG = _NoLog()
