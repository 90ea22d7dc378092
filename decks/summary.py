"""What the pages show about a deck's content: groups by position and kind, counters, stats,
and the draw-odds categories. Reads only the cards it is given (no queries).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import Case, Value, When
from django.utils.translation import gettext_lazy as _

from catalog.models import Card
from decks import odds
from decks.content import DeckContent
from play.engine.legality import BENCH_MAX, DECK_SIZE, PERSONS_PER_DECK

GROUPS = [
    ("FW", "FW"),
    ("MF", "MF"),
    ("DF", "DF"),
    ("event", _("Events")),
    ("GK", _("Goalkeepers")),
]
_GROUP_INDEX = {key: index for index, (key, _label) in enumerate(GROUPS)}
STATS = ("shoot", "keep", "defense")


def group_key(card: Card) -> str:
    if card.kind == Card.Kind.EVENT:
        return "event"
    return card.position or "GK"


def card_order(card: Card) -> tuple:
    """Return the sort key of a card in a deck list: group, then set and number."""
    return (_GROUP_INDEX[group_key(card)], card.card_set.display_order, card.number)


@dataclass
class Row:
    card: Card
    quantity: int


@dataclass
class Group:
    key: str
    label: str
    rows: list[Row] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(row.quantity for row in self.rows)


def zone_groups(entries: Mapping[str, int], cards: Mapping[str, Card]) -> list[Group]:
    """Return the non-empty groups of a zone's cards, in GROUPS order."""
    groups = {key: Group(key, label) for key, label in GROUPS}
    for card_id in sorted(entries, key=lambda c: card_order(cards[c])):
        card = cards[card_id]
        groups[group_key(card)].rows.append(Row(card, entries[card_id]))
    return [group for group in groups.values() if group.rows]


# The builder's result orders: key -> (label, ORM ordering); each also groups the results.
RESULT_SORTS = {
    "position": (_("Position"), ("group_rank", "card_set__display_order", "number")),
    "team": (_("Team"), ("team__name", "card_set__display_order", "number")),
    "set": (_("Set"), ("card_set__display_order", "number")),
    "shoot": (_("Shoot"), ("-shoot", "card_set__display_order", "number")),
    "keep": (_("Keep"), ("-keep", "card_set__display_order", "number")),
    "defense": (_("Defense"), ("-defense", "card_set__display_order", "number")),
}


def results_sorted(cards, *, sort: str):
    """Return search results in the chosen order (the query's own order when none is chosen)."""
    if sort not in RESULT_SORTS:
        return cards
    if sort == "position":
        cards = cards.annotate(
            group_rank=Case(
                When(kind=Card.Kind.EVENT, then=Value(len(GROUPS))),
                *(When(position=key, then=Value(i)) for i, (key, _l) in enumerate(GROUPS)),
                default=Value(len(GROUPS)),
            )
        )
    return cards.order_by(*RESULT_SORTS[sort][1])


def _result_group(card: Card, sort: str) -> str:
    if sort == "position":
        return str(dict(GROUPS)[group_key(card)])
    if sort == "team":
        return card.team.display_name if card.team else str(_("No team"))
    if sort == "set":
        return card.card_set.display_name
    if card.kind == Card.Kind.EVENT:
        return str(_("Events"))
    return f"{dict(RESULT_SORTS)[sort][0]} {getattr(card, sort)}"


def result_groups(cards: list[Card], *, sort: str) -> list[dict]:
    """Return the results as consecutive groups under a heading (one unnamed group if unsorted)."""
    if sort not in RESULT_SORTS:
        return [{"label": "", "cards": cards}] if cards else []
    groups: list[dict] = []
    for card in cards:
        label = _result_group(card, sort)
        if not groups or groups[-1]["label"] != label:
            groups.append({"label": label, "cards": []})
        groups[-1]["cards"].append(card)
    return groups


def counters(content: DeckContent, cards: Mapping[str, Card]) -> dict:
    """Return the builder's live counters: cards, persons, goalkeeper, bench."""
    persons = {cards[c].person for c in content.deck if cards[c].kind == Card.Kind.PLAYER}
    keeper = cards.get(content.goalkeeper) if content.goalkeeper else None
    size = sum(content.deck.values())
    bench = sum(content.bench.values())
    return {
        "cards": size,
        "cards_max": DECK_SIZE,
        "cards_ok": size == DECK_SIZE,
        "persons": len(persons),
        "persons_max": PERSONS_PER_DECK,
        "persons_ok": len(persons) == PERSONS_PER_DECK,
        "goalkeeper": keeper,
        "goalkeeper_ok": keeper is not None and keeper.kind == Card.Kind.GOALKEEPER,
        "bench": bench,
        "bench_max": BENCH_MAX,
        "bench_ok": bench <= BENCH_MAX,
    }


def deck_stats(content: DeckContent, cards: Mapping[str, Card]) -> dict:
    """Return counts by kind and position, and totals, averages and histograms of the stats.

    Stats count every copy of the deck's player cards (events have none of their own).
    """
    by_kind: dict[str, int] = {}
    by_position: dict[str, int] = {}
    totals = dict.fromkeys(STATS, 0)
    histogram: dict[str, dict[int, int]] = {stat: {} for stat in STATS}
    players = 0
    for card_id, quantity in content.deck.items():
        card = cards[card_id]
        by_kind[card.kind] = by_kind.get(card.kind, 0) + quantity
        if card.position:
            by_position[card.position] = by_position.get(card.position, 0) + quantity
        if card.kind == Card.Kind.EVENT:
            continue
        players += quantity
        for stat in STATS:
            value = getattr(card, stat)
            totals[stat] += value * quantity
            histogram[stat][value] = histogram[stat].get(value, 0) + quantity
    top = max([v for h in histogram.values() for v in h] or [0])
    return {
        "size": sum(content.deck.values()),
        "by_kind": by_kind,
        "by_position": [(p, by_position.get(p, 0)) for p in ("FW", "MF", "DF")],
        "players": players,
        "totals": totals,
        "averages": {s: (totals[s] / players if players else 0.0) for s in STATS},
        "histogram": {
            "values": list(range(top + 1)),
            "series": {s: [histogram[s].get(v, 0) for v in range(top + 1)] for s in STATS},
        },
    }


def odds_categories(content: DeckContent, cards: Mapping[str, Card]) -> list[dict]:
    """Return the kinds of card the draw-odds calculator offers, with their count in the deck."""

    def count(test) -> int:
        return sum(n for c, n in content.deck.items() if test(cards[c]))

    def is_player(card):
        return card.kind == Card.Kind.PLAYER

    categories = [
        ("event", _("Any event"), lambda c: c.kind == Card.Kind.EVENT),
        ("player", _("Any player"), is_player),
        ("FW", _("FW player"), lambda c: c.position == "FW"),
        ("MF", _("MF player"), lambda c: c.position == "MF"),
        ("DF", _("DF player"), lambda c: c.position == "DF"),
        ("shoot5", _("Shoot ≥ 5"), lambda c: is_player(c) and c.shoot >= 5),
        ("keep5", _("Keep ≥ 5"), lambda c: is_player(c) and c.keep >= 5),
        ("defense5", _("Defense ≥ 5"), lambda c: is_player(c) and c.defense >= 5),
        ("draw", _("Event that draws"), lambda c: "draw:" in c.effect),
    ]
    result = [{"key": k, "label": label, "count": count(test)} for k, label, test in categories]
    for card_id in sorted(content.deck, key=lambda c: card_order(cards[c])):
        card = cards[card_id]
        result.append(
            {
                "key": card_id,
                "label": f"{card_id} {card.display_name}",
                "count": content.deck[card_id],
            }
        )
    return result


def odds_row(*, population: int, successes: int, hits: int, draws: int) -> dict:
    """Return P(≥ hits) in the opening hand and after `draws` more cards, as fractions."""

    def p(seen: int):
        if population == 0 or seen > population:
            return None
        return odds.at_least(population=population, successes=successes, draws=seen, hits=hits)

    return {"opening": p(odds.OPENING_HAND), "after": p(odds.seen_after(draws))}
