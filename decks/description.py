"""Deck descriptions: Markdown written by users, rendered to HTML that is safe to show.

Markdown (already a dependency) turns the text into HTML; nh3 then keeps only a small list of
tags and attributes and only http(s)/mailto links, so a script, an event handler or a
`javascript:` link never reaches another user's browser. A link whose target nh3 removed is
left as its text, not as a link that goes nowhere.
"""

import re

import markdown
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "p", "br", "strong", "em", "b", "i", "code", "pre", "blockquote", "ul", "ol", "li",
    "h3", "h4", "h5", "h6", "a", "hr", "table", "thead", "tbody", "tr", "th", "td", "del",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}
# An <a> of nh3's output without an href (links cannot nest, so the first </a> closes it).
LINK_WITHOUT_TARGET = re.compile(r"<a(?![^>]*\shref=)[^>]*>(.*?)</a>", re.S)


def description_html(text: str) -> SafeString:
    """Return the description's Markdown as sanitised HTML (headings start at h3)."""
    if not text.strip():
        return mark_safe("")
    raw = markdown.markdown(text, extensions=["tables", "fenced_code", "sane_lists"])
    # Page headings own h1/h2; a description's "# Title" becomes an h3.
    for level in (2, 1):
        raw = raw.replace(f"<h{level}>", f"<h{level + 2}>").replace(
            f"</h{level}>", f"</h{level + 2}>"
        )
    clean = nh3.clean(
        raw,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )
    clean = LINK_WITHOUT_TARGET.sub(r"\1", clean)
    return mark_safe(clean)  # noqa: S308 - nh3 has just sanitised it
