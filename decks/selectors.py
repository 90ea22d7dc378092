"""Read paths of decks: who may see which deck, listings, and a deck's content and cards.

Visibility (issue #3): private decks are the owner's alone (others get 404); unlisted decks open
to anyone with the share slug but are listed nowhere; public decks are listed and searchable.
"""

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum
from django.http import Http404

from catalog.models import Card, Team
from decks.content import DeckContent
from decks.legality import content_problems
from decks.models import Deck, DeckEntry, DeckVersion
from decks.names import normalize
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


def legal_decks_to_play(user, *, others_prebuilt_only: bool = False) -> list[Deck]:
    """Return the legal decks a deck choice offers the user, each group by name: their own,
    then other people's public decks (none with `others_prebuilt_only`), then the prebuilt."""
    decks = decks_listed_for(user).filter(is_legal=True)
    if others_prebuilt_only:
        decks = decks.filter(Q(owner_id=getattr(user, "id", None)) | Q(is_sample=True))
    ordered = list(decks.order_by("-is_sample", "name", "id"))
    ordered.sort(key=lambda deck: (deck.owner_id != user.id, deck.is_sample))  # own first
    return ordered


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


DECK_SORTS = {
    "newest": ("-updated_at", "id"),
    "name": ("name", "id"),
    "owner": ("owner__username", "name", "id"),
    "legal": ("-is_legal", "-updated_at", "id"),
    "stars": ("-star_count", "-updated_at", "id"),
}


def public_decks(
    *,
    name: str = "",
    card: str = "",
    owner: str = "",
    team: str = "",
    legal_only: bool = False,
    sample: bool | None = None,
    sort: str = "newest",
) -> QuerySet[Deck]:
    """Return public decks filtered by name, a card they contain (id or name), owner, a team
    whose cards they hold, legality and being a prebuilt sample; in the chosen order."""
    decks = (
        Deck.objects.filter(visibility=Deck.Visibility.PUBLIC)
        .select_related("owner")
        .annotate(star_count=Count("stars", distinct=True))
    )
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
    if team.strip():
        decks = decks.filter(
            Exists(DeckEntry.objects.filter(deck=OuterRef("pk"), card__team_id=team.strip()))
        )
    if legal_only:
        decks = decks.filter(is_legal=True)
    if sample is not None:
        decks = decks.filter(is_sample=sample)
    return decks.order_by(*DECK_SORTS.get(sort, DECK_SORTS["newest"]))


def deck_columns(decks: list[Deck]) -> dict[int, dict]:
    """Return {deck id: {"team": Team | None, "totals": {stat: n}}} for a page of decks.

    The main team is the one with the most deck copies (ties: the first by name); totals sum
    shoot, keep and defense over every copy in the deck (bench excluded). Two queries.
    """
    ids = [d.pk for d in decks]
    columns = {i: {"team": None, "totals": {"shoot": 0, "keep": 0, "defense": 0}} for i in ids}
    rows = (
        DeckEntry.objects.filter(deck_id__in=ids, zone=DeckEntry.Zone.DECK)
        .values("deck_id")
        .annotate(
            shoot=Sum(F("card__shoot") * F("quantity")),
            keep=Sum(F("card__keep") * F("quantity")),
            defense=Sum(F("card__defense") * F("quantity")),
        )
    )
    for row in rows:
        columns[row["deck_id"]]["totals"] = {s: row[s] or 0 for s in ("shoot", "keep", "defense")}
    teams = (
        DeckEntry.objects.filter(
            deck_id__in=ids, zone=DeckEntry.Zone.DECK, card__team__isnull=False
        )
        .values("deck_id", "card__team")
        .annotate(copies=Sum("quantity"))
    )
    best: dict[int, tuple[int, str]] = {}
    for row in teams:
        key = (-row["copies"], row["card__team"])
        if row["deck_id"] not in best or key < best[row["deck_id"]]:
            best[row["deck_id"]] = key
    by_id = Team.objects.in_bulk([team for _n, team in best.values()])
    for deck_id, (_n, team) in best.items():
        columns[deck_id]["team"] = by_id.get(team)
    return columns


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


def sample_decks() -> QuerySet[Deck]:
    """Return the public prebuilt sample decks, by name."""
    return Deck.objects.filter(is_sample=True, visibility=Deck.Visibility.PUBLIC).order_by("name")


def catalog_names() -> dict[str, tuple[str, str]]:
    """Return {normalised name: (card id, kind)} for English and Japanese names.

    A name printed in several sets picks its first printing in catalog order.
    """
    names: dict[str, tuple[str, str]] = {}
    for card_id, name, name_ja, kind in Card.objects.order_by(
        "card_set__display_order", "number"
    ).values_list("id", "name", "name_ja", "kind"):
        for text in (name, name_ja):
            if text:
                names.setdefault(normalize(text), (card_id, kind))
    return names


def starred_decks(*, user) -> QuerySet[Deck]:
    """Return the decks the user starred that they may still see, newest star first."""
    return (
        decks_readable_by(user)
        .filter(Q(visibility=Deck.Visibility.PUBLIC) | Q(owner=user), stars__user=user)
        .order_by("-stars__created_at", "id")
    )


def deck_is_starred(*, deck: Deck, user) -> bool:
    user = _user_or_none(user)
    return user is not None and deck.stars.filter(user=user).exists()


def latest_version(deck: Deck) -> DeckVersion | None:
    """Return the deck's newest saved version, or None."""
    return deck.versions.order_by("-number").first()
