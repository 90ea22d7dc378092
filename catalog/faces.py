"""Generated card faces: an SVG for every card that has no scan, made on the server and cached.

A face shows what a printed card shows: the name in both languages, position (or "event"),
club colours, shoot/keep/defense or the effect in words (English and Japanese), set and
number, rarity, and a "SAMPLE 見本" stamp on sample cards. It is the same in both UI languages,
so a face depends only on the card: it is cached under the catalog's version (catalog/cache.py)
and a new version (any catalog change) retires every cached face at once.

`templatetags/cards.py: card_image(card, size)` decides what image a page shows; it uses these
faces where no scan exists.
"""

import unicodedata
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from django.core.cache import cache

from catalog.effects import effect_text

WIDTH, HEIGHT = 250, 350  # viewBox, the 5:7 of a trading card
SIZES = {"thumb": (125, 175), "normal": (250, 350), "large": (500, 700)}
FONT = "'Noto Sans CJK JP','Hiragino Sans','Yu Gothic',system-ui,sans-serif"
CACHE_TIMEOUT = 60 * 60 * 24


@dataclass(frozen=True)
class Colours:
    primary: str
    secondary: str


# Home-kit colours of the clubs of 2001–2002 (and the national team), primary then secondary.
CLUB_COLOURS = {
    "kashima": Colours("#b3122e", "#1b2a4a"),
    "iwata": Colours("#5ba3d9", "#1e3a8a"),
    "shimizu": Colours("#f08300", "#1b3f8b"),
    "yokohama-fm": Colours("#1d3c8f", "#d7000f"),
    "urawa": Colours("#d7000f", "#1a1a1a"),
    "kashiwa": Colours("#f5c800", "#1a1a1a"),
    "nagoya": Colours("#d7000f", "#f08300"),
    "g-osaka": Colours("#1e3c96", "#1a1a1a"),
    "c-osaka": Colours("#e4007f", "#1b2a4a"),
    "hiroshima": Colours("#5b2c83", "#e5e7eb"),
    "kobe": Colours("#9b1b30", "#1a1a1a"),
    "ichihara": Colours("#f5d000", "#00843d"),
    "verdy": Colours("#00843d", "#f3f4f6"),
    "fc-tokyo": Colours("#1e3c96", "#d7000f"),
    "sapporo": Colours("#c8102e", "#1a1a1a"),
    "fukuoka": Colours("#1b2a6b", "#9ca3af"),
    "kyoto": Colours("#5b2c83", "#f3f4f6"),
    "sendai": Colours("#f2b705", "#1b2a4a"),
    "japan": Colours("#1b3f8b", "#f3f4f6"),
}
EVENT_COLOURS = Colours("#6d28d9", "#ede9fe")
NO_CLUB_COLOURS = Colours("#4b5563", "#e5e7eb")
KIND_WORDS = {"event": "EVENT イベント", "goalkeeper": "GK"}


def _ink(background: str) -> str:
    """Return black or white, whichever reads better on a #rrggbb background."""
    r, g, b = (int(background[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return "#111827" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#ffffff"


def _width(text: str) -> float:
    """Return a text's width in ems, roughly: wide (CJK) characters 1, others 0.56."""
    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.56 for ch in text)


def _wrap(text: str, ems: float, max_lines: int) -> list[str]:
    """Break text into lines of at most `ems` wide: at spaces, or anywhere in CJK text."""
    lines, line = [], ""
    tokens: list[tuple[str, str]] = []  # (text, what joins it to the text before)
    for word in text.split(" "):
        if _width(word) > ems:
            # CJK (or a very long word): break between characters, joined without spaces.
            tokens += [(ch, " " if i == 0 else "") for i, ch in enumerate(word)]
        else:
            tokens.append((word, " "))
    for token, glue in tokens:
        candidate = f"{line}{glue}{token}" if line else token
        if line and _width(candidate) > ems:
            lines.append(line)
            line = token
        else:
            line = candidate
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][:-1] + "…"
    return lines


def _fit(text: str, size: float, ems_at_one: float) -> float:
    """Return a font size at most `size` at which text fits `ems_at_one` px."""
    width = _width(text) or 1
    return round(min(size, ems_at_one / width), 1)


def _text(x, y, text, size, *, fill, weight=400, anchor="start", extra="") -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
        f'text-anchor="{anchor}"{extra}>{escape(text)}</text>'
    )


def card_face_svg(card) -> str:
    """Return the card's generated face as a standalone SVG document (UTF-8 text)."""
    if card.kind == "event":
        colours = EVENT_COLOURS
    else:
        colours = CLUB_COLOURS.get(card.team_id or "", NO_CLUB_COLOURS)
    ink, paper = _ink(colours.primary), "#fffdf7"
    name_ja = card.name_ja or card.name
    name_en = card.name if card.name_ja else ""
    label = f"{card.name} {card.name_ja}".strip()
    kind_word = KIND_WORDS.get(card.kind, card.position)
    badge = max(34, 14 + 13 * _width(kind_word))
    set_name = card.card_set.name if card.card_set_id else ""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-label={quoteattr(label)} font-family="{FONT}">',
        f"<title>{escape(f'{card.id} {label}')}</title>",
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="12" '
        f'fill="{colours.secondary}" stroke="#111827" stroke-width="2"/>',
        f'<rect x="10" y="10" width="{WIDTH - 20}" height="{HEIGHT - 20}" rx="8" fill="{paper}"/>',
        # Header band in the club's colour: position and card id.
        f'<path d="M10 18a8 8 0 0 1 8-8h{WIDTH - 36}a8 8 0 0 1 8 8v62H10z" '
        f'fill="{colours.primary}"/>',
        f'<rect x="18" y="18" width="{badge:.0f}" height="20" rx="4" fill="{paper}" '
        'opacity="0.92"/>',
        _text(23, 33, kind_word, 12, fill="#111827", weight=700),
        _text(WIDTH - 18, 33, card.id, 12, fill=ink, weight=700, anchor="end"),
        _text(18, 62, name_ja, _fit(name_ja, 22, WIDTH - 36), fill=ink, weight=700),
    ]
    if name_en:
        parts.append(_text(18, 76, name_en, _fit(name_en, 11, WIDTH - 36), fill=ink))
    # The picture area: a pitch with a big star, in the club's colours.
    parts += [
        f'<rect x="18" y="88" width="{WIDTH - 36}" height="128" rx="6" fill="{colours.primary}" '
        'opacity="0.18"/>',
        f'<circle cx="{WIDTH / 2}" cy="152" r="40" fill="none" stroke="{colours.primary}" '
        'stroke-width="3" opacity="0.55"/>',
        f'<line x1="18" y1="152" x2="{WIDTH - 18}" y2="152" stroke="{colours.primary}" '
        'stroke-width="2" opacity="0.4"/>',
        _text(WIDTH / 2, 172, "★", 56, fill=colours.primary, anchor="middle"),
    ]
    if card.team_id and card.team is not None:
        parts.append(_text(WIDTH / 2, 208, card.team.name_ja, 11, fill="#374151", anchor="middle"))
    if card.kind == "event":
        parts += _effect_box(card.effect)
    else:
        parts += _stat_boxes(card, colours)
    footer = f"{card.card_set_id} {card.number:03d}"
    if card.rarity:
        footer += f" · {card.rarity}"
    parts += [
        f'<line x1="18" y1="{HEIGHT - 36}" x2="{WIDTH - 18}" y2="{HEIGHT - 36}" stroke="#d1d5db"/>',
        _text(18, HEIGHT - 20, footer, 11, fill="#111827", weight=700),
        _text(
            WIDTH - 18, HEIGHT - 20, set_name, _fit(set_name, 10, 130), fill="#4b5563", anchor="end"
        ),
    ]
    if card.is_sample:
        parts.append(_sample_stamp())
    parts.append("</svg>")
    return "".join(parts)


def _stat_boxes(card, colours: Colours) -> list[str]:
    parts = []
    box = (WIDTH - 36 - 16) / 3
    stats = (
        ("SHOOT", "シュート", card.shoot),
        ("KEEP", "キープ", card.keep),
        ("DEF", "ディフェンス", card.defense),
    )
    for index, (word, word_ja, value) in enumerate(stats):
        x = 18 + index * (box + 8)
        parts += [
            f'<rect x="{x:.1f}" y="228" width="{box:.1f}" height="70" rx="6" fill="#ffffff" '
            f'stroke="{colours.primary}" stroke-width="2"/>',
            _text(x + box / 2, 244, word, 10, fill="#374151", weight=700, anchor="middle"),
            _text(x + box / 2, 256, word_ja, 8, fill="#6b7280", anchor="middle"),
            _text(x + box / 2, 288, str(value), 28, fill="#111827", weight=700, anchor="middle"),
        ]
    return parts


def _effect_box(effect: str) -> list[str]:
    parts = [
        f'<rect x="18" y="224" width="{WIDTH - 36}" height="86" rx="6" fill="#ffffff" '
        f'stroke="{EVENT_COLOURS.primary}" stroke-width="2"/>'
    ]
    y = 238
    for language, size, max_lines in (("en", 10, 3), ("ja", 10, 3)):
        words = effect_text(effect, language) or effect
        for line in _wrap(words, (WIDTH - 52) / size, max_lines):
            parts.append(_text(26, y, line, size, fill="#111827"))
            y += size + 3
        y += 3
    return parts


def _sample_stamp() -> str:
    return (
        f'<g class="sample-stamp" transform="rotate(-18 {WIDTH / 2} 150)" opacity="0.85">'
        f'<rect x="{WIDTH / 2 - 78}" y="124" width="156" height="48" rx="6" fill="#fff7ed" '
        'fill-opacity="0.75" stroke="#c2410c" stroke-width="3"/>'
        + _text(WIDTH / 2, 147, "SAMPLE", 20, fill="#c2410c", weight=800, anchor="middle")
        + _text(WIDTH / 2, 165, "見本 · not an official card", 10, fill="#c2410c", anchor="middle")
        + "</g>"
    )


def face_cache_key(*, version: str, card_id: str) -> str:
    return f"face:{version}:{card_id}"


def cached_face(*, version: str, card_id: str) -> str | None:
    """Return a card's face from the cache, or None (then load the card and make it)."""
    return cache.get(face_cache_key(version=version, card_id=card_id))


def card_face_cached(card, *, version: str) -> str:
    """Return the card's face SVG from the cache, making and storing it on a miss."""
    key = face_cache_key(version=version, card_id=card.id)
    svg = cache.get(key)
    if svg is None:
        svg = card_face_svg(card)
        cache.set(key, svg, CACHE_TIMEOUT)
    return svg
