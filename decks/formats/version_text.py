"""A version's stored summary ("created; deck +4 BS-012 −2 BS-013; …") in the reader's language.

decks/services.py writes the summary once, in English, so it reads the same in downloads and
the API; pages say each known part again through gettext and keep unknown parts as written.
"""

import re

from django.utils.translation import gettext as _

ZONE_CHANGE = re.compile(r"^(deck|bench) (.+)$")
CHANGE = re.compile(r"^([+−])(\d+) (\S+)$")


def _zone_changes(zone: str, text: str) -> str | None:
    items = text.split(" ")
    pairs = [" ".join(items[i : i + 2]) for i in range(0, len(items), 2)]
    if not all(CHANGE.match(pair) for pair in pairs):
        return None
    label = _("deck") if zone == "deck" else _("bench")
    return f"{label} {' '.join(pairs)}"


def _part(part: str) -> str:
    if part == "created":
        return _("created")
    if part == "description edited":
        return _("description edited")
    match = re.fullmatch(r"copied from “(.*)”", part)
    if match:
        return _("copied from “%(name)s”") % {"name": match[1]}
    match = re.fullmatch(r"renamed to “(.*)”", part)
    if match:
        return _("renamed to “%(name)s”") % {"name": match[1]}
    match = re.fullmatch(r"visibility (\w+) → (\w+)", part)
    if match:
        names = {"private": _("Private"), "unlisted": _("Unlisted"), "public": _("Public")}
        return _("visibility %(before)s → %(after)s") % {
            "before": names.get(match[1], match[1]),
            "after": names.get(match[2], match[2]),
        }
    match = re.fullmatch(r"(PK goalkeeper|goalkeeper) (\S+) → (\S+)", part)
    if match:
        label = _("PK goalkeeper") if match[1] == "PK goalkeeper" else _("goalkeeper")
        return f"{label} {match[2]} → {match[3]}"
    match = ZONE_CHANGE.match(part)
    if match:
        said = _zone_changes(match[1], match[2])
        if said:
            return said
    return part


def version_summary(summary: str) -> str:
    """Return the summary with every part it knows in the active language."""
    return _("; ").join(_part(part) for part in summary.split("; ")) if summary else ""
