"""Write paths of decks: create, save (entries + one version, atomically), copy, import, delete,
and the sample prebuilt decks made when the catalog loads.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from catalog.models import Card
from decks.content import DeckContent, content_diff
from decks.formats.text import LineError, ParsedDeck, parse_deck_text
from decks.legality import content_problems
from decks.models import Deck, DeckEntry, DeckStar, DeckVersion
from decks.names import deck_name_problem
from decks.selectors import UnknownCards, cards_of, deck_content

SYSTEM_USERNAME = "cardlab"


class DeckSaveError(Exception):
    """A save that cannot be done; `messages` says why, in words for the user."""

    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__(" ".join(messages))


class DeckConflict(Exception):
    """A save that started from an older version than the deck's latest; nothing was saved."""

    def __init__(self, *, base: DeckVersion | None, current: DeckVersion):
        self.base = base
        self.current = current
        super().__init__(
            f"The deck was saved as version {current.number} since version "
            f"{base.number if base else '?'} you started from."
        )


class DeckImportError(Exception):
    """A deck text with bad lines; nothing was saved."""

    def __init__(self, errors: list[LineError]):
        self.errors = errors
        super().__init__("; ".join(str(e) for e in errors))


def _check_bounds(content: DeckContent, name: str | None) -> None:
    """Refuse (DeckSaveError) quantities outside 1-60 and a name breaking the name rule."""
    problems = content.quantity_problems()
    name_problem = deck_name_problem(name) if name is not None else None
    if name_problem:
        problems.append(f"The name {name_problem}.")
    if problems:
        raise DeckSaveError(problems)


def _resolve(content: DeckContent) -> dict[str, Card]:
    try:
        return cards_of(content)
    except UnknownCards as exc:
        raise DeckSaveError(
            [
                f"Card {card_id} is not in the catalog (it may have been removed); "
                "remove it from the deck and save again."
                for card_id in exc.ids
            ]
        ) from None


def _meta_changes(deck: Deck, *, name, description, visibility) -> list[str]:
    changes = []
    if name is not None and name != deck.name:
        changes.append(f"renamed to “{name}”")
    if description is not None and description != deck.description:
        changes.append("description edited")
    if visibility is not None and visibility != deck.visibility:
        changes.append(f"visibility {deck.visibility} → {visibility}")
    return changes


def deck_save(
    *,
    deck: Deck,
    editor,
    content: DeckContent,
    name: str | None = None,
    description: str | None = None,
    visibility: str | None = None,
    note: str = "",
    base_version: int | None = None,
) -> DeckVersion | None:
    """Save the deck's content and details with one new version; None when nothing changed.

    Raise DeckSaveError (and change nothing) when a card id is unknown, a quantity is out of
    bounds or the name breaks the name rule. With `base_version` (the version the edit started
    from), raise DeckConflict and change nothing when the deck has been saved since then: a
    second tab or API client must not silently discard the first one's changes.
    """
    _check_bounds(content, name)
    cards = _resolve(content)
    with transaction.atomic():
        # Lock the deck row so two saves cannot take the same version number.
        Deck.objects.select_for_update().filter(pk=deck.pk).values_list("pk").get()
        before = deck_content(deck)
        last = deck.versions.order_by("-number").first()
        if base_version is not None and last is not None and last.number != base_version:
            base = deck.versions.filter(number=base_version).first()
            raise DeckConflict(base=base, current=last)
        deck.refresh_from_db(fields=["name", "description", "visibility"])
        diff = content_diff(before, content)
        meta = _meta_changes(deck, name=name, description=description, visibility=visibility)
        if last is not None and diff.is_empty and not meta and not note:
            return None
        problems = content_problems(content, cards)
        if not diff.is_empty or last is None:
            deck.entries.all().delete()
            DeckEntry.objects.bulk_create(
                DeckEntry(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
                for zone in ("deck", "bench")
                for card_id, quantity in content.zone(zone).items()
            )
        deck.name = name if name is not None else deck.name
        deck.description = description if description is not None else deck.description
        deck.visibility = visibility if visibility is not None else deck.visibility
        deck.goalkeeper_id = content.goalkeeper
        deck.pk_goalkeeper_id = content.pk_goalkeeper
        deck.is_legal = not problems
        try:
            deck.full_clean(exclude=["slug", "goalkeeper", "pk_goalkeeper", "copied_from", "owner"])
        except ValidationError as exc:
            raise DeckSaveError(exc.messages) from None
        deck.save()
        summary = "; ".join(part for part in [note, *meta, diff.summary()] if part)
        return DeckVersion.objects.create(
            deck=deck,
            number=(last.number + 1) if last else 1,
            editor=editor,
            name=deck.name,
            description=deck.description,
            summary=summary[:500],
            content=content.to_json(),
            is_legal=deck.is_legal,
        )


def deck_create(
    *,
    owner,
    name: str,
    description: str = "",
    visibility: str = Deck.Visibility.PRIVATE,
    content: DeckContent | None = None,
    copied_from: Deck | None = None,
    is_sample: bool = False,
    slug: str | None = None,
) -> Deck:
    """Create a deck with its first version; raise DeckSaveError for unknown card ids."""
    content = content or DeckContent()
    _check_bounds(content, name)
    _resolve(content)
    with transaction.atomic():
        deck = Deck(
            owner=owner,
            name=name,
            description=description,
            visibility=visibility,
            copied_from=copied_from,
            is_sample=is_sample,
        )
        if slug:
            deck.slug = slug
        deck.save()
        note = f"copied from “{copied_from.name}”" if copied_from else "created"
        deck_save(deck=deck, editor=owner, content=content, note=note)
    return deck


def deck_copy(*, deck: Deck, owner, content: DeckContent | None = None) -> Deck:
    """Copy a deck the owner may see into their own decks (private), recording `copied_from`.

    `content` replaces the copied content (e.g. only the cards the owner's collection holds).
    """
    return deck_create(
        owner=owner,
        name=f"{deck.name} (copy)"[:100],
        description=deck.description,
        content=deck_content(deck) if content is None else content,
        copied_from=deck,
    )


def deck_delete(*, deck: Deck) -> None:
    deck.delete()


def deck_import_text(
    *, owner, text: str, name: str = "", visibility: str = Deck.Visibility.PRIVATE
) -> Deck:
    """Create a deck from the text format; raise DeckImportError (saving nothing) on bad lines.

    A deck that parses but breaks construction rules is saved as a draft (deck-format.md).
    """
    parsed = parse_deck_text(text)
    errors = parsed.errors + unknown_card_lines(parsed)
    if errors:
        raise DeckImportError(sorted(errors, key=lambda e: e.line))
    return deck_create(
        owner=owner,
        name=parsed.name or name.strip() or "Imported deck",
        visibility=visibility,
        content=parsed.content(),
    )


def unknown_card_lines(parsed: ParsedDeck) -> list[LineError]:
    """Return an error for every line of a parsed text naming a card not in the catalog."""
    lines = parsed.card_lines()
    known = set(Card.objects.filter(id__in={c.card for c in lines}).values_list("id", flat=True))
    return [
        LineError(c.line, f"unknown card id {c.card} (not in the catalog)")
        for c in lines
        if c.card not in known
    ]


def system_user():
    """Return the user who owns the sample decks (no usable password)."""
    User = get_user_model()
    user, created = User.objects.get_or_create(username=SYSTEM_USERNAME)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def sample_deck_slug(set_code: str, name: str) -> str:
    return f"sample-{set_code.lower()}-{slugify(name)}"


def sample_decks_sync(*, pool, skipped_sets=()) -> int:
    """Create or update one public sample deck per prebuilt/starter deck of the sample pool.

    Running it again changes nothing. A deck whose cards are not all in the catalog (its set
    was replaced by a real card list) is left as it is. Return how many decks were written.
    """
    owner = system_user()
    written = 0
    for sample in pool.decks:
        if sample.set_code in skipped_sets:
            continue
        content = DeckContent(
            goalkeeper=sample.goalkeeper,
            pk_goalkeeper=sample.pk_goalkeeper,
            deck=dict(sample.deck),
            bench=dict(sample.bench),
        )
        ids = content.card_ids()
        if Card.objects.filter(id__in=ids).count() != len(ids):
            continue
        slug = sample_deck_slug(sample.set_code, sample.name)
        description = (
            f"The {sample.set_code} {sample.product_kind.replace('_', ' ')} deck, "
            "made of generated sample cards."
        )
        deck = Deck.objects.filter(slug=slug).first()
        if deck is None:
            deck_create(
                owner=owner,
                name=sample.name,
                description=description,
                visibility=Deck.Visibility.PUBLIC,
                content=content,
                is_sample=True,
                slug=slug,
            )
            written += 1
            continue
        version = deck_save(
            deck=deck,
            editor=owner,
            content=content,
            name=sample.name,
            description=description,
            visibility=Deck.Visibility.PUBLIC,
        )
        written += version is not None
    return written


def deck_star_set(*, user, deck: Deck, starred: bool) -> int:
    """Star or unstar a public deck (or the user's own) for the user; return its star count.

    Starring twice or unstarring an unstarred deck changes nothing.
    """
    if starred:
        if not (deck.is_public or deck.owner_id == user.id):
            raise DeckSaveError(["Only public decks can be starred."])
        DeckStar.objects.get_or_create(user=user, deck=deck)
    else:
        DeckStar.objects.filter(user=user, deck=deck).delete()
    return deck.stars.count()
