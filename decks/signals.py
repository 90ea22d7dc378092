"""How decks hooks into the catalog: sample decks after a load, a section on card pages."""

from django.db.models import Q
from django.utils.translation import gettext_lazy

from catalog.extensions import UserSearchTerm
from decks.models import CollectionEntry
from decks.selectors import public_decks_using
from decks.services import sample_decks_sync

CARD_PAGE_DECKS = 20


def make_sample_decks(sender, *, pool, skipped_sets=(), **kwargs):
    """Create or update the sample prebuilt decks when the catalog has been loaded."""
    sample_decks_sync(pool=pool, skipped_sets=skipped_sets)


def public_decks_section(request, card):
    """Return the card page's list of public decks that use the card."""
    decks = public_decks_using(card)
    return {
        "template": "decks/_card_decks.html",
        "data": {
            "card": card,
            "decks": decks[:CARD_PAGE_DECKS],
            "total": decks.count(),
        },
    }


def _owned_rows(user):
    from django.db.models import Sum

    owner = user.pk if user is not None and user.is_authenticated else None
    return (
        CollectionEntry.objects.filter(owner_id=owner).values("card_id").annotate(n=Sum("quantity"))
    )


def owned_is_q(user) -> Q:
    """`is:owned`: the cards the user owns at least one copy of."""
    return Q(pk__in=_owned_rows(user).filter(n__gte=1).values("card_id"))


def owned_count_q(user, lookup: str, number: int) -> Q:
    """`owned>=2` etc.: compare the copies owned (over every variant); unowned cards count 0."""
    checks = {
        "exact": lambda n: n == number,
        "lt": lambda n: n < number,
        "lte": lambda n: n <= number,
        "gt": lambda n: n > number,
        "gte": lambda n: n >= number,
    }
    rows = _owned_rows(user)
    if checks[lookup](0):
        return ~Q(pk__in=rows.exclude(**{f"n__{lookup}": number}).values("card_id"))
    return Q(pk__in=rows.filter(**{f"n__{lookup}": number}).values("card_id"))


OWNED_TERM = UserSearchTerm(
    name="owned",
    is_q=owned_is_q,
    count_q=owned_count_q,
    text=gettext_lazy("in your collection"),
    negated_text=gettext_lazy("not in your collection"),
    # Translators: %(op)s is a comparison sign (≥, <, =…), %(n)s a number of copies.
    count_text=gettext_lazy("copies owned %(op)s %(n)s"),
    examples=("is:owned", "owned>=2", "-is:owned"),
    help_text=gettext_lazy(
        "the cards in your collection, by copies owned (over every variant), or not in it"
    ),
)


def collection_section(request, card):
    """Return the card page's "in my collection" editor for a signed-in user."""
    from decks.collections.selectors import collection_entries

    if not request.user.is_authenticated:
        return {"template": "decks/collection/_card_section.html", "data": {"card": card}}
    entries = list(
        collection_entries(request.user)
        .filter(card=card)
        .order_by("printing__card_set__display_order", "printing__code", "condition", "language")
    )
    printings = sorted(card.printings.all(), key=lambda p: (p.kind != p.Kind.FIRST, p.code))
    return {
        "template": "decks/collection/_card_section.html",
        "data": {
            "card": card,
            "entries": entries,
            "total": sum(e.quantity for e in entries),
            "printings": printings,
            "conditions": CollectionEntry.Condition.choices,
            "languages": CollectionEntry.Language.choices,
        },
    }


def deck_collection_section(request, deck, *, is_legal):
    """Return the deck page's "what you miss to build it" for a signed-in viewer."""
    from decks.collections.selectors import deck_missing
    from decks.selectors import deck_content

    if not request.user.is_authenticated:
        return None
    missing = deck_missing(deck_content(deck), request.user)
    return {
        "template": "decks/collection/_deck_section.html",
        "after_deck": True,
        "data": {
            "deck": deck,
            "missing": missing,
            "missing_copies": sum(need.missing for need in missing),
            "is_owner": deck.owner_id == request.user.pk,
        },
    }
