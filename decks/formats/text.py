"""The deck text format (shared/spec/deck-format.md): parse it with line numbers, write it back.

Pure Python: parsing checks the shape of every line and reports every problem at once; whether
the ids exist is the caller's question (decks/services.py asks the catalog), and it answers with
the same `LineError`s so an import reports everything together.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from decks.content import MAX_QUANTITY, DeckContent
from decks.names import deck_name_problem, normalize

MAX_LINES = 2000
# A deck text (pasted, uploaded or given to a command) is at most this long; a longer one is
# refused whole, never cut and saved.
MAX_TEXT_CHARS = 200_000
MAX_FILE_BYTES = 200_000

# Only ASCII digits are quantities: `\d` would also read "４" or "٤" as 4.
_KEY = re.compile(r"^(name|goalkeeper|pk[ _-]?goalkeeper)\s*:(.*)$", re.IGNORECASE)
_SECTION = re.compile(r"^(deck|main|bench)\s*:\s*$", re.IGNORECASE)
_CARD_LINE = re.compile(r"^([0-9]+)\s*[xX]?\s+(\S+)(?:\s+.*)?$")
_UNICODE_QUANTITY = re.compile(r"^(\d+)\s*[xX]?\s+\S")
_CARD_ID = re.compile(r"^[A-Za-z0-9]{1,4}-[0-9]{1,3}$")


@dataclass(frozen=True)
class LineError:
    line: int
    message: str

    def to_dict(self) -> dict:
        return {"line": self.line, "message": self.message}

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class CardLine:
    line: int
    card: str
    quantity: int


@dataclass
class ParsedDeck:
    name: str | None = None
    goalkeeper: CardLine | None = None
    pk_goalkeeper: CardLine | None = None
    deck: list[CardLine] = field(default_factory=list)
    bench: list[CardLine] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)

    def card_lines(self) -> list[CardLine]:
        """Return every line naming a card, goalkeepers included, in line order."""
        lines = [*self.deck, *self.bench]
        lines += [k for k in (self.goalkeeper, self.pk_goalkeeper) if k]
        return sorted(lines, key=lambda c: c.line)

    def content(self) -> DeckContent:
        """Return the deck content; repeated ids in a section add up."""
        zones: dict[str, dict[str, int]] = {"deck": {}, "bench": {}}
        for zone in zones:
            for item in getattr(self, zone):
                zones[zone][item.card] = zones[zone].get(item.card, 0) + item.quantity
        return DeckContent(
            goalkeeper=self.goalkeeper.card if self.goalkeeper else None,
            pk_goalkeeper=self.pk_goalkeeper.card if self.pk_goalkeeper else None,
            deck=zones["deck"],
            bench=zones["bench"],
        )


def _key_name(raw: str) -> str:
    raw = raw.lower()
    return "pk_goalkeeper" if raw.startswith("pk") else raw


def _card_id(text: str) -> str | None:
    """Return a card id in the catalog's spelling ("bs-12" → "BS-012"), or None."""
    if not _CARD_ID.match(text):
        return None
    set_code, number = text.upper().split("-")
    return f"{set_code}-{int(number):03d}"


def parse_deck_text(text: str, *, default_section: str | None = None) -> ParsedDeck:
    """Return the parsed deck; `errors` lists every bad line by its 1-based number.

    The good lines are parsed even when others are bad, so a caller can check their ids too
    and report everything at once. With `default_section`, card lines before any section
    header belong to it (a pasted list of "4 BS-012" lines).
    """
    parsed = ParsedDeck()
    errors = parsed.errors
    if len(text) > MAX_TEXT_CHARS:
        errors.append(LineError(1, f"a deck text has at most {MAX_TEXT_CHARS:,} characters"))
        return parsed
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        errors.append(LineError(MAX_LINES + 1, f"a deck text has at most {MAX_LINES} lines"))
        return parsed
    section: str | None = default_section
    seen: dict[str, int] = {}
    totals: dict[tuple[str, str], int] = {}
    meaningful = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        meaningful = True
        if _has_control(line):
            errors.append(LineError(number, "the line holds a control character (such as NUL)"))
            continue
        key = _KEY.match(line)
        if key:
            name, value = _key_name(key.group(1)), key.group(2).strip()
            if name in seen:
                errors.append(
                    LineError(
                        number,
                        f"{name.replace('_', ' ')}: is given twice (first on line {seen[name]})",
                    )
                )
                continue
            seen[name] = number
            if name == "name":
                problem = deck_name_problem(value)
                if problem:
                    errors.append(LineError(number, f"name: {problem}"))
                else:
                    parsed.name = value
                continue
            first = value.split()[0] if value.split() else ""
            card = _card_id(first)
            if card is None:
                label = name.replace("_", " ")
                errors.append(
                    LineError(
                        number,
                        f"{label}: expects a card id like BS-001, got {first or 'nothing'!r}",
                    )
                )
            else:
                setattr(parsed, name, CardLine(number, card, 1))
            continue
        header = _SECTION.match(line)
        if header:
            zone = "bench" if header.group(1).lower() == "bench" else "deck"
            if zone in seen:
                errors.append(
                    LineError(
                        number, f"the {zone}: section is given twice (first on line {seen[zone]})"
                    )
                )
            seen.setdefault(zone, number)
            section = zone
            continue
        card_line = _CARD_LINE.match(line)
        if not card_line and _UNICODE_QUANTITY.match(line):
            errors.append(
                LineError(number, "a quantity is written with the digits 0-9 (not full-width)")
            )
            continue
        if not card_line:
            errors.append(
                LineError(
                    number,
                    'expected a card line like "4 BS-012", a key '
                    "(name:, goalkeeper:, pk goalkeeper:) or a section "
                    "(deck:, bench:)",
                )
            )
            continue
        digits, card = card_line.group(1), _card_id(card_line.group(2))
        # Never int() a long digit string: past 4,300 digits Python refuses with a ValueError.
        quantity = int(digits) if len(digits) <= 6 else MAX_QUANTITY + 1
        problem = False
        if not 1 <= quantity <= MAX_QUANTITY:
            shown = digits if len(digits) <= 6 else f"{digits[:6]}… ({len(digits)} digits)"
            errors.append(LineError(number, f"quantity {shown} is not from 1 to {MAX_QUANTITY}"))
            problem = True
        if card is None:
            errors.append(LineError(number, f"{card_line.group(2)!r} is not a card id like BS-012"))
            problem = True
        if section is None:
            errors.append(
                LineError(number, "a card line outside a section (put deck: or bench: before it)")
            )
            problem = True
        if not problem:
            total = totals.get((section, card), 0) + quantity
            totals[section, card] = total
            if total > MAX_QUANTITY:
                errors.append(
                    LineError(
                        number,
                        f"{card} adds up to {total} copies in {section}: (at most {MAX_QUANTITY};"
                        " repeated lines add up)",
                    )
                )
                continue
            getattr(parsed, section).append(CardLine(number, card, quantity))
    if not meaningful:
        errors.append(
            LineError(1, "the deck text has only comments and blank lines; give a deck: section")
        )
    return parsed


_LIST_LINE = re.compile(r"^(?:([0-9]+)\s*[xX×]?\s+)?(.+?)$")  # ASCII digits only


def parse_name_list(text: str, names: Mapping[str, tuple[str, str]]) -> ParsedDeck:
    """Return a deck read from a plain list ("4 Kenta Arai", "2x BS-012", "Some Keeper").

    `names` maps a normalised card name (see `normalize`) to (card id, kind). A line without a
    quantity means one copy; the first goalkeeper named becomes the goalkeeper, others go to
    the bench; `bench:` starts the bench. Unknown names are errors with their line number.
    """
    parsed = ParsedDeck()
    section = "deck"
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        parsed.errors.append(LineError(MAX_LINES + 1, f"a deck text has at most {MAX_LINES} lines"))
        return parsed
    for number, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        header = _SECTION.match(line)
        if header:
            section = "bench" if header.group(1).lower() == "bench" else "deck"
            continue
        key = _KEY.match(line)
        if key and _key_name(key.group(1)) == "name":
            parsed.name = key.group(2).strip()[:100] or None
            continue
        match = _LIST_LINE.match(line)
        digits = match.group(1) or "1"
        if len(digits) > 3:  # never int() a number of thousands of digits
            parsed.errors.append(
                LineError(number, f"quantity {digits[:6]}… is not from 1 to {MAX_QUANTITY}")
            )
            continue
        quantity = int(digits)
        rest = match.group(2).strip()
        first = _card_id(rest.split()[0])
        found = (first, "") if first else names.get(normalize(rest))
        if found is None:
            parsed.errors.append(LineError(number, f"no card is named {rest!r}"))
            continue
        if not 1 <= quantity <= MAX_QUANTITY:
            parsed.errors.append(
                LineError(number, f"quantity {quantity} is not from 1 to {MAX_QUANTITY}")
            )
            continue
        card, kind = found
        if kind == "goalkeeper" and parsed.goalkeeper is None and section == "deck":
            parsed.goalkeeper = CardLine(number, card, 1)
            continue
        zone = "bench" if kind == "goalkeeper" else section
        getattr(parsed, zone).append(CardLine(number, card, quantity))
    return parsed


def _has_control(line: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Cs") and ch != "\t" for ch in line)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def deck_text(
    *,
    name: str,
    content: DeckContent,
    card_names: Mapping[str, str],
    sort_key: Callable[[str], object] | None = None,
) -> str:
    """Return the deck in the text format, each id followed by its card's name."""
    order = sort_key or (lambda card: card)

    def card(card_id: str) -> str:
        label = _one_line(card_names.get(card_id, ""))
        return f"{card_id} {label}".rstrip()

    out = ["# Eleven Stars deck", f"name: {_one_line(name)}"]
    if content.goalkeeper:
        out.append(f"goalkeeper: {card(content.goalkeeper)}")
    if content.pk_goalkeeper:
        out.append(f"pk goalkeeper: {card(content.pk_goalkeeper)}")
    for zone in ("deck", "bench"):
        entries = content.zone(zone)
        if zone == "bench" and not entries:
            continue
        out.append(f"{zone}:")
        out += [f"{entries[c]} {card(c)}" for c in sorted(entries, key=order)]
    return "\n".join(out) + "\n"
