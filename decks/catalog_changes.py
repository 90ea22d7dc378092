"""Decks follow the catalog: when cards change, every deck holding one is re-validated at once.

The catalog announces changed cards (`catalog.extensions.cards_changed`, inside its write
transaction); here each deck holding one gets its legality flag recomputed and a new version
saying what changed ("BS-012 is now the real card …"), so its owner sees it on the deck page.
"""

from django.db.models import Q

from catalog.models import Team
from decks.legality import content_problems
from decks.models import Deck, DeckEntry, DeckVersion
from decks.selectors import cards_of, deck_content

STAT_NAMES = ("shoot", "keep", "defense")


def change_sentence(change) -> str:
    """Return one sentence saying how a card changed, in the card's own words."""
    before, after = change.before, change.after
    name = after["name"] + (f" / {after['name_ja']}" if after["name_ja"] else "")
    if change.became_real:
        stats = ""
        if after["kind"] != "event":
            stats = " (" + ", ".join(f"{s} {after[s]}" for s in STAT_NAMES) + ")"
        else:
            stats = f" (effect {after['effect']})"
        return (
            f"{change.card_id} is now the real card “{name}”, {after['kind']}{stats}, "
            f"replacing the sample “{before['name']}”."
        )
    parts = []
    for field in change.fields_changed():
        old, new = _said(field, before.get(field)), _said(field, after.get(field))
        parts.append(f"{field} {old} → {new}")
    return f"{change.card_id} changed in the catalog: " + "; ".join(parts) + "."


def _said(field: str, value) -> str:
    """Return a field's value as a reader knows it: a club by its name, nothing as "—"."""
    if value in (None, ""):
        return "—"
    if field == "team":
        team = Team.objects.filter(code=value).first()
        return team.name if team else str(value)
    return str(value)


def decks_holding(card_ids: set[str]):
    """Return the decks that hold any of the cards (in deck, bench or as a goalkeeper)."""
    return Deck.objects.filter(
        Q(entries__card_id__in=card_ids)
        | Q(goalkeeper_id__in=card_ids)
        | Q(pk_goalkeeper_id__in=card_ids)
    ).distinct()


def cards_in_decks(card_ids: set[str]) -> set[str]:
    """Return the ids among `card_ids` that some deck holds (catalog.extensions hook)."""
    held = set(DeckEntry.objects.filter(card_id__in=card_ids).values_list("card_id", flat=True))
    for field in ("goalkeeper_id", "pk_goalkeeper_id"):
        held |= set(Deck.objects.filter(**{f"{field}__in": card_ids}).values_list(field, flat=True))
    return held


def decks_revalidate(*, changes) -> int:
    """Re-validate every deck holding a changed card; return how many decks got a version."""
    by_id = {change.card_id: change for change in changes if change.before is not None}
    if not by_id:
        return 0
    written = 0
    ids = list(decks_holding(set(by_id)).values_list("pk", flat=True))
    for deck in Deck.objects.filter(pk__in=ids).select_for_update().order_by("pk"):
        content = deck_content(deck)
        held = sorted(set(content.card_ids()) & set(by_id))
        problems = content_problems(content, cards_of(content))
        summary = " ".join(change_sentence(by_id[card_id]) for card_id in held)
        last = deck.versions.order_by("-number").first()
        deck.is_legal = not problems
        deck.save(update_fields=["is_legal", "updated_at"])
        DeckVersion.objects.create(
            deck=deck,
            number=(last.number + 1) if last else 1,
            editor=None,
            name=deck.name,
            summary=summary[:500],
            content=content.to_json(),
            is_legal=deck.is_legal,
            catalog_change=True,
        )
        written += 1
    return written


def on_cards_changed(sender, *, changes, **kwargs) -> None:
    decks_revalidate(changes=changes)
