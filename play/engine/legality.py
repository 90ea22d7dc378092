"""Deck legality: the one function the deck builder, the API and the engine all call.

It returns every problem at once, in rule order, in plain English, so a builder page can show
them all and the engine can refuse an illegal deck with the same words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from play.engine.cards import Card

DECK_SIZE = 60
PERSONS_PER_DECK = 10
BENCH_MAX = 20
_DECK_KINDS = frozenset({"player", "event"})  # R-DECK-2


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken construction rule."""

    rule: str
    message: str
    cards: tuple[str, ...] = ()
    # Which sentence this is and its values, so a user interface can say it in its own
    # language (decks/legality.py does, for Japanese); `message` stays the English one.
    key: str = field(default="", compare=False)
    params: tuple[tuple[str, object], ...] = field(default=(), compare=False)

    def to_dict(self) -> dict:
        """Return the problem as JSON-ready data."""
        return {"rule": self.rule, "message": self.message, "cards": list(self.cards)}


def _count(entries: Iterable[tuple[Card, int]], what: str) -> dict[str, tuple[Card, int]]:
    """Return {card id: (card, total quantity)}, summing repeated ids."""
    counted: dict[str, tuple[Card, int]] = {}
    for card, quantity in entries:
        if quantity < 0:
            raise ValueError(f"{what}: card {card.id} has a negative quantity ({quantity}).")
        if quantity == 0:
            continue
        known = counted.get(card.id)
        counted[card.id] = (card, quantity + (known[1] if known else 0))
    return counted


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def deck_problems(
    *,
    deck: Iterable[tuple[Card, int]],
    bench: Iterable[tuple[Card, int]],
    goalkeeper: Card | None,
    pk_goalkeeper: Card | None = None,
) -> list[Problem]:
    """Return the deck's problems, in rule order; an empty list means the deck is legal."""
    in_deck = _count(deck, "deck")
    on_bench = _count(bench, "bench")
    problems: list[Problem] = []

    size = sum(quantity for _, quantity in in_deck.values())
    if size != DECK_SIZE:  # R-DECK-1
        problems.append(
            Problem(
                "R-DECK-1",
                f"The deck has {_plural(size, 'card')}; it must have exactly {DECK_SIZE}.",
                key="deck_size",
                params=(("size", size), ("required", DECK_SIZE)),
            )
        )

    outsiders = sorted(cid for cid, (card, _) in in_deck.items() if card.kind not in _DECK_KINDS)
    if outsiders:  # R-DECK-2
        problems.append(
            Problem(
                "R-DECK-2",
                "The deck may hold only field player and event cards; these must stay out of "
                f"it: {', '.join(outsiders)}.",
                tuple(outsiders),
                key="deck_kinds",
                params=(("cards", ", ".join(outsiders)),),
            )
        )

    players = sorted(cid for cid, (card, _) in in_deck.items() if card.kind == "player")
    persons = sorted({in_deck[cid][0].person for cid in players})  # R-CARD-3: one person
    if len(persons) != PERSONS_PER_DECK:  # R-DECK-3
        named = f" ({', '.join(persons)})" if persons else ""
        problems.append(
            Problem(
                "R-DECK-3",
                f"The deck's player cards name {_plural(len(persons), 'person')}{named}; "
                f"they must name exactly {PERSONS_PER_DECK}.",
                tuple(players),
                key="deck_persons",
                params=(
                    ("count", len(persons)),
                    ("persons", ", ".join(persons)),
                    ("required", PERSONS_PER_DECK),
                ),
            )
        )

    if goalkeeper is None:  # R-DECK-4
        problems.append(
            Problem(
                "R-DECK-4",
                "No goalkeeper is given; each side brings exactly 1.",
                key="goalkeeper_missing",
            )
        )
    elif goalkeeper.kind != "goalkeeper":
        problems.append(
            Problem(
                "R-DECK-4",
                f"{goalkeeper.id} is a {goalkeeper.kind} card, not a goalkeeper.",
                (goalkeeper.id,),
                key="goalkeeper_kind",
                params=(("card", goalkeeper.id), ("kind", goalkeeper.kind)),
            )
        )

    bench_size = sum(quantity for _, quantity in on_bench.values())
    if bench_size > BENCH_MAX:  # R-DECK-5
        problems.append(
            Problem(
                "R-DECK-5",
                f"The bench has {_plural(bench_size, 'card')}; it may have at most {BENCH_MAX}.",
                key="bench_size",
                params=(("size", bench_size), ("limit", BENCH_MAX)),
            )
        )

    if pk_goalkeeper is not None:  # R-PK-1
        if pk_goalkeeper.kind != "goalkeeper":
            problems.append(
                Problem(
                    "R-PK-1",
                    f"The PK goalkeeper {pk_goalkeeper.id} is a {pk_goalkeeper.kind} card, "
                    "not a goalkeeper.",
                    (pk_goalkeeper.id,),
                    key="pk_goalkeeper_kind",
                    params=(("card", pk_goalkeeper.id), ("kind", pk_goalkeeper.kind)),
                )
            )
        if pk_goalkeeper.id not in on_bench:
            problems.append(
                Problem(
                    "R-PK-1",
                    f"The PK goalkeeper {pk_goalkeeper.id} is not among the bench cards.",
                    (pk_goalkeeper.id,),
                    key="pk_goalkeeper_bench",
                    params=(("card", pk_goalkeeper.id),),
                )
            )
    return problems
