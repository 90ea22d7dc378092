"""Board and narration presentation shared by solo play and the replay viewer.

Turns engine data (CARD dicts, events, side names) into what the board templates show, in the
request's language; no request, no writes.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from catalog.effects import effect_text
from catalog.models import Card as CatalogCard
from play.narrate import narrate, zone_name

ZONE_OWNERS = ("A", "A", None, "B", "B")


def card_table(card_data: Mapping[str, Mapping]) -> dict[str, dict]:
    """Return {id: card} for display: the engine's numbers plus the catalog's name and position."""
    catalog = CatalogCard.objects.filter(id__in=list(card_data)).only(
        "id", "name", "name_ja", "position", "kind"
    )
    japanese = (get_language() or "").startswith("ja")
    found = {card.id: card for card in catalog}
    table = {}
    for card_id, data in card_data.items():
        card = found.get(card_id)
        if card is not None:
            name = (card.name_ja if japanese and card.name_ja else card.name) or card_id
            position = card.position
        else:
            name = data.get("person") or card_id
            position = ""
        if not position:
            position = {"goalkeeper": "GK", "event": _("EV")}.get(data.get("kind"), "")
        table[card_id] = {
            "id": card_id,
            "kind": data.get("kind"),
            "name": name,
            "position": position,
            "shoot": data.get("shoot", 0),
            "keep": data.get("keep", 0),
            "defense": data.get("defense", 0),
            # Words for people ("Draw 1 card."), the clause kept for titles and tools.
            "effect": effect_text(data.get("effect") or "") or data.get("effect") or "",
            "effect_clause": data.get("effect") or "",
        }
    return table


def side_labels(name_a: str, name_b: str) -> dict[str, str]:
    """Return short side labels, told apart when both decks have the same name."""
    if name_a == name_b:
        return {"A": f"{name_a} (A)", "B": f"{name_b} (B)"}
    return {"A": name_a, "B": name_b}


def zones(labels: Mapping[str, str]) -> list[dict]:
    """Return the five zones of R-FIELD-1 with their names."""
    names = [capfirst(zone_name(i, labels, _)) for i in range(5)]
    short = [_("PZ"), _("MZ"), _("C"), _("MZ"), _("PZ")]
    return [
        {"index": i, "name": names[i], "short": short[i], "owner": ZONE_OWNERS[i] or ""}
        for i in range(5)
    ]


def narrate_for_page(events, *, cards, labels, viewer=None, rules=None) -> list:
    """Return the narrated lines with this request's language."""
    names = {card_id: card["name"] for card_id, card in cards.items()}
    return narrate(
        events, cards=cards, labels=labels, names=names, viewer=viewer, rules=rules, gettext=_
    )
