"""A saved deck as text (the deck format) and as JSON: for downloads, the API and the zip."""

from django.utils.translation import gettext as _

from catalog.models import Card
from decks import summary
from decks.formats.text import deck_text
from decks.models import Deck
from decks.selectors import deck_content

JSON_FORMAT = "eleven-stars-deck/1"


def deck_as_text(deck: Deck) -> str:
    """Return the deck in the text format, cards in deck-list order with their names."""
    content = deck_content(deck)
    cards = Card.objects.select_related("card_set").in_bulk(list(content.card_ids()))
    return deck_text(
        name=deck.name,
        content=content,
        card_names={c: card.name for c, card in cards.items()},
        sort_key=lambda c: summary.card_order(cards[c]),
    )


def deck_as_json(deck: Deck) -> dict:
    """Return the deck as JSON data (its text export included)."""
    content = deck_content(deck)
    version = deck.versions.order_by("-number").values_list("number", flat=True).first()
    return {
        "format": JSON_FORMAT,
        "name": deck.name,
        "description": deck.description,
        "owner": deck.owner.username,
        "version": version,
        "legal": deck.is_legal,
        "goalkeeper": content.goalkeeper,
        "pk_goalkeeper": content.pk_goalkeeper,
        "deck": [{"card": c, "quantity": n} for c, n in sorted(content.deck.items())],
        "bench": [{"card": c, "quantity": n} for c, n in sorted(content.bench.items())],
        "text": deck_as_text(deck),
    }


def _rows(deck: Deck):
    content = deck_content(deck)
    cards = Card.objects.select_related("card_set").in_bulk(list(content.card_ids()))
    return content, cards


def deck_as_markdown(deck: Deck, *, url: str) -> str:
    """Return the deck as Markdown for a forum post: headings, grouped lists, a link back."""
    content, cards = _rows(deck)
    out = [f"## {_one_line(deck.name)}", ""]
    for label, card_id in (
        ("Goalkeeper", content.goalkeeper),
        ("PK goalkeeper", content.pk_goalkeeper),
    ):
        if card_id and card_id in cards:
            out.append(f"**{label}:** {_card_md(cards[card_id])}  ")
    for zone, title in (("deck", _("Deck")), ("bench", _("Bench"))):
        entries = {c: n for c, n in content.zone(zone).items() if c in cards}
        if not entries:
            continue
        out += ["", f"### {title} ({sum(entries.values())})"]
        for group in summary.zone_groups(entries, cards):
            out += ["", f"**{group.label}** ({group.count})", ""]
            out += [f"- {row.quantity}× {_card_md(row.card)}" for row in group.rows]
    if any(card.is_sample for card in cards.values()):
        out += ["", "_" + _("(sample) marks generated sample cards, not official cards.") + "_"]
    link = _("%(deck)s on the Eleven Stars card lab") % {"deck": _one_line(deck.name)}
    out += ["", f"[{_md_escape(link)}]({url})", ""]
    return "\n".join(out)


def _card_md(card: Card) -> str:
    sample = " (" + _("sample") + ")" if card.is_sample else ""
    return f"{_md_escape(card.display_name)} `{card.id}`{sample}"


def _md_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_[]<>#|" else ch for ch in _one_line(text))


def deck_as_name_list(deck: Deck) -> str:
    """Return the deck as a plain list: "4 Name" per line, goalkeepers first, then the bench.

    Pasting it into the builder's "start from a list" gives the same deck back when every
    name is printed only once; ids are not part of it, so names printed in several sets
    read back as their first printing.
    """
    content, cards = _rows(deck)
    out = []
    if content.goalkeeper in cards:
        out.append(f"1 {_one_line(cards[content.goalkeeper].name)}")
    for zone in ("deck", "bench"):
        entries = {c: n for c, n in content.zone(zone).items() if c in cards}
        if zone == "bench" and entries:
            out.append("bench:")
        for card_id in sorted(entries, key=lambda c: summary.card_order(cards[c])):
            out.append(f"{entries[card_id]} {_one_line(cards[card_id].name)}")
    return "\n".join(out) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())
