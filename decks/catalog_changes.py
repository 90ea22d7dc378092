"""Decks follow the catalog: when cards change, every deck holding one is re-validated at once.

The catalog announces changed cards (`catalog.extensions.cards_changed`, inside its write
transaction); here each deck holding one gets its legality flag recomputed and a new version
saying what changed ("BS-012 is now the real card …"), so its owner sees it on the deck page.
"""

from django.db.models import Count, F, Q
from django.utils import translation
from django.utils.translation import gettext as _

from catalog.card_words import field_label, teams_for, value_said
from decks.legality import content_problems, problem_message
from decks.models import Deck, DeckEntry, DeckVersion
from decks.selectors import cards_of, deck_content
from play.engine.legality import Problem

STAT_NAMES = ("shoot", "keep", "defense")


def change_record(change) -> dict:
    """Return what a version keeps of one card's change (catalog.importer.CardChange): enough
    to say it again in any language, and nothing that needs the catalogue as it is later."""
    before, after = change.before, change.after
    return {
        "card": change.card_id,
        "real": change.became_real,
        "name": after["name"],
        "name_ja": after["name_ja"],
        "kind": after["kind"],
        "stats": {stat: after[stat] for stat in STAT_NAMES},
        "effect": after["effect"],
        "sample": before["name"],
        "fields": [[name, before.get(name), after.get(name)] for name in change.fields_changed()],
    }


def record_sentence(record: dict, *, teams=None) -> str:
    """Return one sentence saying how a card changed, in the active language."""
    if record["real"]:
        name = record["name"] + (f" / {record['name_ja']}" if record["name_ja"] else "")
        if record["kind"] == "event":
            what = _("effect %(effect)s") % {"effect": record["effect"] or "—"}
        else:
            what = _(", ").join(
                f"{field_label(stat)} {record['stats'][stat]}" for stat in STAT_NAMES
            )
        return _(
            "%(card)s is now the real card “%(name)s”, %(kind)s (%(what)s), replacing the "
            "sample “%(sample)s”."
        ) % {
            "card": record["card"],
            "name": name,
            "kind": value_said("kind", record["kind"]),
            "what": what,
            "sample": record["sample"],
        }
    parts = [
        f"{field_label(name)} {value_said(name, old, teams=teams)} → "
        f"{value_said(name, new, teams=teams)}"
        for name, old, new in record["fields"]
    ]
    return _("%(card)s changed in the catalog: %(changes)s.") % {
        "card": record["card"],
        "changes": _("; ").join(parts),
    }


def _teams_named(records: list[dict]) -> dict:
    return teams_for(
        value
        for record in records
        for name, old, new in record["fields"]
        if name == "team"
        for value in (old, new)
    )


def change_lines(version: DeckVersion) -> list[str]:
    """Return a catalogue-change version's sentences in the active language (the stored English
    summary for a version made before the records were kept)."""
    records = (version.catalog_changes or {}).get("cards") or []
    if not records:
        return [version.summary] if version.summary else []
    teams = _teams_named(records)
    return [record_sentence(record, teams=teams) for record in records]


def change_problems(version: DeckVersion) -> list[dict]:
    """Return the rules that failed right after a catalogue change: rule id and sentence."""
    said = []
    for item in (version.catalog_changes or {}).get("problems") or []:
        problem = Problem(
            rule=item["rule"],
            message=item.get("message", ""),
            cards=tuple(item.get("cards", ())),
            key=item.get("key", ""),
            params=tuple((item.get("params") or {}).items()),
        )
        said.append({"rule": problem.rule, "message": problem_message(problem)})
    return said


def _problem_record(problem: Problem) -> dict:
    return {
        "rule": problem.rule,
        "message": problem.message,
        "cards": list(problem.cards),
        "key": problem.key,
        "params": {name: value for name, value in problem.params},
    }


def unseen_changes(deck: Deck):
    """Return the catalogue-change versions of a deck its owner has not dismissed, oldest first."""
    return deck.versions.filter(catalog_change=True, number__gt=deck.catalog_seen).order_by(
        "number"
    )


def changes_seen(*, deck: Deck, through: int) -> None:
    """Mark the deck's catalogue changes up to version `through` as seen by its owner.

    A change that arrived after the page the owner dismissed was shown keeps its notice: the
    mark moves only forward, and only to the version the owner saw.
    """
    Deck.objects.filter(pk=deck.pk, catalog_seen__lt=through).update(catalog_seen=through)


def decks_with_unseen_changes(owner):
    """Return the owner's decks with catalogue changes not yet seen, each with `unseen`."""
    unseen = Count(
        "versions",
        filter=Q(versions__catalog_change=True, versions__number__gt=F("catalog_seen")),
    )
    return (
        Deck.objects.filter(owner=owner)
        .annotate(unseen=unseen)
        .filter(unseen__gt=0)
        .order_by("-updated_at", "pk")
    )


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
        records = [change_record(by_id[card_id]) for card_id in held]
        with translation.override("en"):  # the summary (API, exports) is English
            summary = " ".join(record_sentence(record) for record in records)
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
            catalog_changes={
                "cards": records,
                "problems": [_problem_record(problem) for problem in problems],
            },
        )
        written += 1
    return written


def on_cards_changed(sender, *, changes, **kwargs) -> None:
    decks_revalidate(changes=changes)
