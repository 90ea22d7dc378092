"""Reads of collections: owned counts, set completion, what a deck needs, the shared pool
across a user's decks, haves and wants, trade matches, exports, and who may see what."""

import csv
import io
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, F, Q, Sum
from django.http import Http404

from catalog.models import Card, CardSet, Printing
from decks.content import DeckContent
from decks.models import Collection, CollectionEntry, Deck, DeckEntry


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def owned_counts(user) -> dict[str, int]:
    """Return {card id: copies owned} over every variant (empty for anonymous users)."""
    if not _signed_in(user):
        return {}
    rows = (
        CollectionEntry.objects.filter(owner=user, quantity__gt=0)
        .values("card_id")
        .annotate(n=Sum("quantity"))
    )
    return {row["card_id"]: row["n"] for row in rows}


def plain_quantities(user, printing_codes) -> dict[str, int]:
    """Return {printing code: copies} of the printings' plain rows (no condition or language:
    the grid's)."""
    rows = CollectionEntry.objects.filter(
        owner=user, printing__code__in=list(printing_codes), condition="", language=""
    ).values_list("printing__code", "quantity")
    return dict(rows)


@dataclass(frozen=True)
class GridCell:
    """One printing of a set in the bulk grid: its plain row's copies, and all the card's."""

    printing: Printing
    quantity: int
    card_total: int


def grid_printings(user, card_set: CardSet) -> list[GridCell]:
    """Return the set's printings in number order (its cards' first prints, and the reprints,
    promos and finishes printed in it) with the user's plain-row copies of each."""
    printings = list(
        Printing.objects.filter(card_set=card_set).select_related("card").order_by("number", "code")
    )
    plain = plain_quantities(user, [p.code for p in printings]) if _signed_in(user) else {}
    totals = owned_counts(user)
    return [GridCell(p, plain.get(p.code, 0), totals.get(p.card_id, 0)) for p in printings]


def owned_card_ids_q(user, *, at_least: int = 1) -> Q:
    """Return a Card filter for the cards the user owns at least `at_least` copies of."""
    if not _signed_in(user):
        return Q(pk__in=[])
    owned = (
        CollectionEntry.objects.filter(owner=user)
        .values("card_id")
        .annotate(n=Sum("quantity"))
        .filter(n__gte=at_least)
        .values("card_id")
    )
    return Q(pk__in=owned)


def collection_entries(user):
    return CollectionEntry.objects.filter(owner=user).select_related(
        "card", "card__card_set", "printing", "printing__card_set"
    )


def collection_for_owner(user) -> Collection | None:
    return Collection.objects.filter(owner=user).first()


def collection_for_viewer(*, slug: str, user) -> Collection:
    """Return the collection behind a share link if the viewer may see it, else 404.

    Owner: always. Others and anonymous: when it is public or shared by link (R-decks-like:
    a private collection is indistinguishable from a missing one).
    """
    collection = Collection.objects.select_related("owner").filter(slug=slug).first()
    if collection is None:
        raise Http404
    if _signed_in(user) and collection.owner_id == user.pk:
        return collection
    if collection.visibility in (Collection.Visibility.LINK, Collection.Visibility.PUBLIC):
        return collection
    raise Http404


def public_collections():
    return Collection.objects.filter(visibility=Collection.Visibility.PUBLIC).select_related(
        "owner"
    )


@dataclass(frozen=True)
class SetCompletion:
    card_set: CardSet
    owned: int
    total: int
    missing: list[int]

    @property
    def percent(self) -> int:
        return round(100 * self.owned / self.total) if self.total else 0


def set_completion(user, card_set: CardSet, counts: dict[str, int] | None = None) -> SetCompletion:
    """Return how many of the set's cards the user owns, and the missing numbers."""
    counts = owned_counts(user) if counts is None else counts
    numbers = list(card_set.cards.order_by("number").values_list("id", "number"))
    missing = [number for card_id, number in numbers if counts.get(card_id, 0) < 1]
    return SetCompletion(card_set, len(numbers) - len(missing), len(numbers), missing)


def sets_completion(user) -> list[SetCompletion]:
    counts = owned_counts(user)
    sets = CardSet.objects.annotate(n=Count("cards")).filter(n__gt=0).order_by("display_order")
    return [set_completion(user, card_set, counts) for card_set in sets]


@dataclass(frozen=True)
class CardNeed:
    card: Card
    needed: int
    owned: int

    @property
    def missing(self) -> int:
        return max(0, self.needed - self.owned)


def content_needs(content: DeckContent) -> dict[str, int]:
    """Return {card id: copies a deck needs}: deck, bench and goalkeepers together."""
    needs: dict[str, int] = defaultdict(int)
    for zone in ("deck", "bench"):
        for card_id, quantity in content.zone(zone).items():
            needs[card_id] += quantity
    for keeper in {content.goalkeeper, content.pk_goalkeeper} - {None, ""}:
        needs[keeper] += 1
    return dict(needs)


def deck_needs(content: DeckContent, user) -> list[CardNeed]:
    """Return, per card of the content, how many the deck needs and the user owns."""
    needs = content_needs(content)
    counts = owned_counts(user)
    cards = Card.objects.select_related("card_set").in_bulk(list(needs))
    return [
        CardNeed(cards[card_id], needed, counts.get(card_id, 0))
        for card_id, needed in sorted(needs.items())
        if card_id in cards
    ]


def deck_missing(content: DeckContent, user) -> list[CardNeed]:
    return [need for need in deck_needs(content, user) if need.missing]


def content_owned_only(content: DeckContent, user) -> DeckContent:
    """Return the part of the content the user owns (for "copy only what I own")."""
    counts = dict(owned_counts(user))
    zones = {}
    for zone in ("deck", "bench"):
        kept = {}
        for card_id, quantity in sorted(content.zone(zone).items()):
            take = min(quantity, counts.get(card_id, 0))
            if take:
                kept[card_id] = take
                counts[card_id] -= take
        zones[zone] = kept
    keepers = [
        k if k and counts.get(k, 0) > 0 else None
        for k in (content.goalkeeper, content.pk_goalkeeper)
    ]
    return DeckContent(keepers[0], keepers[1], zones["deck"], zones["bench"])


@dataclass(frozen=True)
class PoolLine:
    card: Card
    owned: int
    needed: int
    decks: list[tuple[str, int]]

    @property
    def short(self) -> int:
        return max(0, self.needed - self.owned)


def decks_needs(user) -> dict[str, dict[str, int]]:
    """Return {card id: {deck name: copies}} over the user's (non-sample) decks."""
    result: dict[str, dict[str, int]] = defaultdict(dict)
    rows = DeckEntry.objects.filter(deck__owner=user, deck__is_sample=False).values_list(
        "card_id", "deck__name", "quantity"
    )
    for card_id, deck_name, quantity in rows:
        result[card_id][deck_name] = result[card_id].get(deck_name, 0) + quantity
    return result


def shared_pool(user) -> list[PoolLine]:
    """Return the cards over-committed across the user's decks: needed in total > owned."""
    counts = owned_counts(user)
    needs = decks_needs(user)
    cards = Card.objects.select_related("card_set").in_bulk(list(needs))
    lines = []
    for card_id, per_deck in sorted(needs.items()):
        total = sum(per_deck.values())
        if total > counts.get(card_id, 0) and card_id in cards and len(per_deck) > 0:
            lines.append(
                PoolLine(cards[card_id], counts.get(card_id, 0), total, sorted(per_deck.items()))
            )
    return lines


def haves(user) -> dict[str, int]:
    """Return {card id: copies to trade}: beyond what the user's decks need, or marked."""
    counts = owned_counts(user)
    needed = {card_id: max(per.values()) for card_id, per in decks_needs(user).items()}
    marked = dict(
        CollectionEntry.objects.filter(owner=user, for_trade__gt=0)
        .values("card_id")
        .annotate(n=Sum("for_trade"))
        .values_list("card_id", "n")
    )
    result = {}
    for card_id, owned in counts.items():
        spare = max(owned - max(needed.get(card_id, 0), 1), marked.get(card_id, 0))
        if spare > 0:
            result[card_id] = spare
    return result


def wants(user) -> dict[str, int]:
    """Return {card id: copies wanted}: missing for the user's decks, or marked."""
    counts = owned_counts(user)
    result = {}
    for card_id, per_deck in decks_needs(user).items():
        short = max(per_deck.values()) - counts.get(card_id, 0)
        if short > 0:
            result[card_id] = short
    marked = (
        CollectionEntry.objects.filter(owner=user, wanted__gt=0)
        .values("card_id")
        .annotate(n=Sum("wanted"))
        .values_list("card_id", "n")
    )
    for card_id, n in marked:
        result[card_id] = max(result.get(card_id, 0), n)
    return result


def trade_match(me, other) -> dict[str, list[tuple[Card, int]]]:
    """Return what `other` has that `me` wants ("give"), and what `me` has that `other` wants."""
    mine_h, mine_w, their_h, their_w = haves(me), wants(me), haves(other), wants(other)
    get = {cid: min(n, mine_w[cid]) for cid, n in their_h.items() if cid in mine_w}
    give = {cid: min(n, their_w[cid]) for cid, n in mine_h.items() if cid in their_w}
    cards = Card.objects.select_related("card_set").in_bulk(list(get) + list(give))
    return {
        "they_give": [(cards[c], n) for c, n in sorted(get.items())],
        "you_give": [(cards[c], n) for c, n in sorted(give.items())],
    }


@dataclass(frozen=True)
class PrintingMark:
    """Copies of one printing marked by hand as haves (for trade) or wants."""

    code: str
    label: str
    copies: int


def marks_by_printing(user, field: str) -> dict[str, list[PrintingMark]]:
    """Return {card id: [marks per printing]} of the hand-made `for_trade` or `wanted` marks,
    summed over conditions and languages, in printing code order."""
    rows = (
        CollectionEntry.objects.filter(owner=user, **{f"{field}__gt": 0})
        .values("card_id", "printing__code", "printing__kind", "printing__label")
        .annotate(n=Sum(field))
        .order_by("card_id", "printing__code")
    )
    kinds = dict(Printing.Kind.choices)
    result: dict[str, list[PrintingMark]] = defaultdict(list)
    for row in rows:
        label = row["printing__label"] or str(kinds[row["printing__kind"]])
        result[row["card_id"]].append(PrintingMark(row["printing__code"], label, row["n"]))
    return dict(result)


def cards_with_marks(
    counts: dict[str, int], marks: dict[str, list[PrintingMark]]
) -> list[tuple[Card, int, list[PrintingMark]]]:
    """Return (card, copies, the hand-made marks per printing) in card id order."""
    return [(card, n, marks.get(card.id, [])) for card, n in cards_with_counts(counts)]


def cards_with_counts(counts: dict[str, int]) -> list[tuple[Card, int]]:
    cards = Card.objects.select_related("card_set").in_bulk(list(counts))
    return [(cards[c], n) for c, n in sorted(counts.items()) if c in cards]


def export_rows(user, *, card_id: str | None = None) -> list[dict]:
    """Return the user's collection rows (or one card's) as plain data, in card order, then
    printing (code) and variant."""
    rows = CollectionEntry.objects.filter(owner=user)
    if card_id is not None:
        rows = rows.filter(card_id=card_id)
    return [
        {
            "card": e.card_id,
            "printing": e.printing_code,
            "quantity": e.quantity,
            "condition": e.condition,
            "language": e.language,
            "for_trade": e.for_trade,
            "wanted": e.wanted,
        }
        for e in rows.annotate(printing_code=F("printing__code")).order_by(
            "card_id", "printing_code", "condition", "language"
        )
    ]


def export_csv(user) -> str:
    from decks.collections.services import CSV_COLUMNS

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(export_rows(user))
    return out.getvalue()


def deck_visible(deck: Deck) -> bool:
    return deck.visibility != Deck.Visibility.PRIVATE
