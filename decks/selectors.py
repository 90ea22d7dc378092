"""Read paths of decks: who may see which deck, listings, and a deck's content and cards.

Visibility (issue #3): private decks are the owner's alone (others get 404); unlisted decks open
to anyone with the share slug but are listed nowhere; public decks are listed and searchable.
"""

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from catalog.models import Card
from decks.content import DeckContent
from decks.legality import content_problems
from decks.models import Deck, DeckEntry, DeckVersion
from play.engine.legality import Problem


class UnknownCards(Exception):
    """Card ids that are not (or no longer) in the catalog."""

    def __init__(self, ids: list[str]):
        self.ids = sorted(ids)
        super().__init__(", ".join(self.ids))


def _user_or_none(user):
    return (
        None
        if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated
        else user
    )


def decks_listed_for(user) -> QuerySet[Deck]:
    """Return the decks a listing may show the user: their own and the public ones."""
    user = _user_or_none(user)
    condition = Q(visibility=Deck.Visibility.PUBLIC)
    if user is not None:
        condition |= Q(owner=user)
    return Deck.objects.filter(condition).select_related("owner")


def decks_readable_by(user) -> QuerySet[Deck]:
    """Return the decks the user may open by share slug: their own, unlisted and public."""
    user = _user_or_none(user)
    condition = Q(visibility__in=[Deck.Visibility.PUBLIC, Deck.Visibility.UNLISTED])
    if user is not None:
        condition |= Q(owner=user)
    return Deck.objects.filter(condition).select_related(
        "owner", "goalkeeper", "pk_goalkeeper", "copied_from"
    )


def deck_for_viewer(*, slug: str, user) -> Deck:
    """Return the deck with this share slug if the user may see it; else raise Http404."""
    deck = decks_readable_by(user).filter(slug=slug).first()
    if deck is None:
        raise Http404("No such deck.")
    return deck


def deck_for_owner(*, slug: str, user) -> Deck:
    """Return the user's own deck; 404 when they may not see it, 403 when they only may see it."""
    deck = deck_for_viewer(slug=slug, user=user)
    if deck.owner_id != getattr(user, "id", None):
        raise PermissionDenied("Only the deck's owner may change it.")
    return deck


def deck_source_shown_to(deck: Deck, user):
    """Return the deck this one was copied from, if telling the user would leak nothing.

    An unlisted deck's slug is its key, so a copy names its source only when the source is
    public or the user's own.
    """
    source = deck.copied_from
    if source is None:
        return None
    if source.is_public or source.owner_id == getattr(user, "id", None):
        return source
    return None


def public_decks(
    *, name: str = "", card: str = "", owner: str = "", legal_only: bool = False
) -> QuerySet[Deck]:
    """Return public decks filtered by name, a card they contain (id or name), owner, legality."""
    decks = Deck.objects.filter(visibility=Deck.Visibility.PUBLIC).select_related("owner")
    if name.strip():
        decks = decks.filter(name__icontains=name.strip())
    if owner.strip():
        decks = decks.filter(owner__username__iexact=owner.strip())
    if card.strip():
        text = card.strip()
        cards = Card.objects.filter(
            Q(id__iexact=text) | Q(name__icontains=text) | Q(name_ja__icontains=text)
        )
        decks = decks.filter(
            Exists(DeckEntry.objects.filter(deck=OuterRef("pk"), card__in=cards))
            | Q(goalkeeper__in=cards)
            | Q(pk_goalkeeper__in=cards)
        )
    if legal_only:
        decks = decks.filter(is_legal=True)
    return decks.order_by("-is_sample", "-updated_at", "id")


def public_decks_using(card: Card) -> QuerySet[Deck]:
    """Return the public decks that hold the card in deck or bench, or as a goalkeeper."""
    return (
        Deck.objects.filter(visibility=Deck.Visibility.PUBLIC)
        .filter(
            Exists(DeckEntry.objects.filter(deck=OuterRef("pk"), card=card))
            | Q(goalkeeper=card)
            | Q(pk_goalkeeper=card)
        )
        .select_related("owner")
        .order_by("-is_sample", "-updated_at", "id")
    )


def user_decks(*, owner, viewer) -> QuerySet[Deck]:
    """Return the owner's decks as the viewer may list them (all for the owner, else public)."""
    decks = Deck.objects.filter(owner=owner).select_related("owner")
    if getattr(viewer, "id", None) != owner.id:
        decks = decks.filter(visibility=Deck.Visibility.PUBLIC)
    return decks.order_by("-updated_at", "id")


def deck_content(deck: Deck) -> DeckContent:
    """Return the deck's saved content as plain data."""
    zones: dict[str, dict[str, int]] = {"deck": {}, "bench": {}}
    for card_id, zone, quantity in deck.entries.values_list("card_id", "zone", "quantity"):
        zones[zone][card_id] = quantity
    return DeckContent(deck.goalkeeper_id, deck.pk_goalkeeper_id, zones["deck"], zones["bench"])


def cards_of(content: DeckContent) -> dict[str, Card]:
    """Return {id: card} for every card the content names; raise UnknownCards for the rest."""
    ids = content.card_ids()
    cards = Card.objects.select_related("team", "card_set").in_bulk(list(ids))
    missing = ids - set(cards)
    if missing:
        raise UnknownCards(list(missing))
    return cards


def content_check(content: DeckContent) -> tuple[list[Problem], dict[str, Card]]:
    """Return the content's problems and its cards; raise UnknownCards for unknown ids."""
    cards = cards_of(content)
    return content_problems(content, cards), cards


def deck_problems_now(deck: Deck) -> list[Problem]:
    """Return the saved deck's problems as the catalog stands now."""
    content = deck_content(deck)
    return content_check(content)[0]


def latest_version(deck: Deck) -> DeckVersion | None:
    """Return the deck's newest saved version, or None."""
    return deck.versions.order_by("-number").first()
