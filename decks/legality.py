"""The adapter from decks to the one legality function (play/engine/legality.py).

Catalog cards become engine `Card` values here; the builder, the API, import and the sample
decks all ask `content_problems`, so every page shows the same problems with the same words.
"""

from collections.abc import Mapping
from dataclasses import replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog.card_words import kind_said
from catalog.models import Card as CatalogCard
from decks.content import DeckContent
from play.engine.cards import Card
from play.engine.legality import Problem, deck_problems


def engine_card(card: CatalogCard) -> Card:
    """Return the engine's view of a catalog card (empty person/effect become None)."""
    return Card(
        id=card.id,
        kind=card.kind,
        person=card.person or None,
        shoot=card.shoot,
        keep=card.keep,
        defense=card.defense,
        effect=card.effect or None,
    )


def content_problems(content: DeckContent, cards: Mapping[str, CatalogCard]) -> list[Problem]:
    """Return the problems of a content whose card ids are all keys of `cards`."""
    engine = {card_id: engine_card(cards[card_id]) for card_id in content.card_ids()}
    problems = deck_problems(
        deck=[(engine[c], n) for c, n in content.deck.items()],
        bench=[(engine[c], n) for c, n in content.bench.items()],
        goalkeeper=engine.get(content.goalkeeper) if content.goalkeeper else None,
        pk_goalkeeper=engine.get(content.pk_goalkeeper) if content.pk_goalkeeper else None,
    )
    return [replace(p, message=problem_message(p)) for p in problems]


def problem_message(problem: Problem) -> str:
    """Return the problem's sentence in the active language (English when it is unknown)."""
    p = dict(problem.params)
    if problem.key == "deck_size":
        return (
            ngettext(
                "The deck has %(size)d card; it must have exactly %(required)d.",
                "The deck has %(size)d cards; it must have exactly %(required)d.",
                p["size"],
            )
            % p
        )
    if problem.key == "deck_kinds":
        return (
            _(
                "The deck may hold only field player and event cards; these must stay out of it: "
                "%(cards)s."
            )
            % p
        )
    if problem.key == "deck_persons":
        named = (
            ngettext(
                "The deck's player cards name %(count)d person",
                "The deck's player cards name %(count)d persons",
                p["count"],
            )
            % p
        )
        if p["persons"]:
            named += f" ({p['persons']})"
        return _("%(named)s; they must name exactly %(required)d.") % {**p, "named": named}
    if problem.key == "goalkeeper_missing":
        return _("No goalkeeper is given; each side brings exactly 1.")
    if problem.key == "goalkeeper_kind":
        return _("%(card)s is a %(kind)s card, not a goalkeeper.") % {
            **p,
            "kind": kind_said(p["kind"]),
        }
    if problem.key == "bench_size":
        return (
            ngettext(
                "The bench has %(size)d card; it may have at most %(limit)d.",
                "The bench has %(size)d cards; it may have at most %(limit)d.",
                p["size"],
            )
            % p
        )
    if problem.key == "pk_goalkeeper_kind":
        return _("The PK goalkeeper %(card)s is a %(kind)s card, not a goalkeeper.") % {
            **p,
            "kind": kind_said(p["kind"]),
        }
    if problem.key == "pk_goalkeeper_bench":
        return _("The PK goalkeeper %(card)s is not among the bench cards.") % p
    return problem.message
