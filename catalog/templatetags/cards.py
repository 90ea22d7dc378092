"""Template tags for showing cards: `{% card_image card "thumb" %}` and `|effect_words`.

`card_image` is the one place a page asks for a card's picture. Today every card gets its
generated face (catalog/faces.py); where a scan exists, this is the place to prefer it.
"""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from catalog import cache as catalog_cache
from catalog.effects import effect_text
from catalog.faces import SIZES

register = template.Library()


def _version(context) -> str:
    """Return the catalog version once per render (the faces' URLs carry it)."""
    version = context.get("catalog_version")
    if version is None:
        request = context.get("request")
        version = getattr(request, "_catalog_version", None)
        if version is None:
            version = catalog_cache.catalog_version()
            if request is not None:
                request._catalog_version = version
    return version


@register.simple_tag(takes_context=True)
def card_image(context, card, size: str = "normal") -> str:
    """Return an <img> of the card in one of SIZES: its generated face (no scans yet)."""
    width, height = SIZES.get(size, SIZES["normal"])
    url = reverse("catalog:card-face", args=[card.id])
    return format_html(
        '<img class="card-face card-face-{}" src="{}?v={}" width="{}" height="{}" alt="{}" '
        'loading="lazy" decoding="async">',
        size if size in SIZES else "normal",
        url,
        _version(context),
        width,
        height,
        f"{card.id} {card.name} {card.name_ja}".strip(),
    )


@register.filter
def effect_words(effect: str, language: str | None = None) -> str:
    """Return an effect in words in the active language (or `language`)."""
    return effect_text(effect, language)
