"""Template tags for showing cards: `{% card_image card "thumb" %}`, `{% card_url card %}`
and `|effect_words`.

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


_ID = "__card_id__"


def _face_url_template(context) -> str:
    """Return the face URL with a placeholder id and the catalog version, once per render.

    A grid shows dozens of faces: one version query and one reverse() serve them all.
    """
    found = context.render_context.get("card_face_url")
    if found is None:
        version = context.get("catalog_version") or catalog_cache.catalog_version()
        found = f"{reverse('catalog:card-face', args=[_ID])}?v={version}"
        context.render_context["card_face_url"] = found
    return found


@register.simple_tag(takes_context=True)
def card_url(context, card) -> str:
    """Return the card page's URL, reversing once per render (a page lists dozens of cards)."""
    found = context.render_context.get("card_page_url")
    if found is None:
        found = reverse("catalog:card-detail", args=[_ID])
        context.render_context["card_page_url"] = found
    return found.replace(_ID, card.id)


@register.simple_tag(takes_context=True)
def card_image(context, card, size: str = "normal") -> str:
    """Return an <img> of the card in one of SIZES: its generated face (no scans yet)."""
    width, height = SIZES.get(size, SIZES["normal"])
    url = _face_url_template(context).replace(_ID, card.id)
    return format_html(
        '<img class="card-face card-face-{}" src="{}" width="{}" height="{}" alt="{}" '
        'loading="lazy" decoding="async">',
        size if size in SIZES else "normal",
        url,
        width,
        height,
        f"{card.id} {card.name} {card.name_ja}".strip(),
    )


@register.filter
def effect_words(effect: str, language: str | None = None) -> str:
    """Return an effect in words in the active language (or `language`)."""
    return effect_text(effect, language)
