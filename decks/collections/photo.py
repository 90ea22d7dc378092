"""A photo turned into collection entries (issue #25, 3.): what the page shows of a finished
"recognise" job and how its add form is read.

The job itself is the catalog's (catalog.readings: the control worker splits the photo into
its cards and matches each against the set's approved scans). Here each card found becomes a
choice: the best match as a question, the other two of the top 3 as alternatives, or, when
the matcher abstained, its reason and the three to pick from (never a silent pick). Adding
goes through decks.collections.services.collection_add_found, whole or not at all.
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from catalog.models import Card, CardScan, Printing, ReadingJob
from decks.models import CollectionEntry

# A collection has no default condition of its own yet: a photo's cards start "not recorded",
# as the grid's do.
DEFAULT_CONDITION = ""


@dataclass
class Candidate:
    card: Card
    distance: int
    thumbnail: str  # the approved scan's thumbnail, through the app's scan URL
    chosen: bool = False

    @property
    def said(self) -> str:
        return card_said(self.card)


@dataclass
class FoundCard:
    """One card found in the photo, as the page offers it."""

    place: int
    count: int  # cards found in the photo
    box: list[float]
    best: Candidate | None
    reason: str  # why it abstained, in the reader's language ("" when it did not)
    candidates: list[Candidate] = field(default_factory=list)
    printings: list[Printing] = field(default_factory=list)  # the candidates' later printings

    @property
    def alternatives(self) -> list[Candidate]:
        return [c for c in self.candidates if not c.chosen]

    @property
    def box_said(self) -> str:
        return " ".join(f"{value:.4f}" for value in self.box)


def card_said(card: Card) -> str:
    """ "BS-012 小笠原 (Ogasawara)": the id, the Japanese name, the English one in brackets."""
    names = [name for name in (card.name_ja, card.name) if name]
    if len(names) == 2 and names[0] != names[1]:
        return f"{card.id} {names[0]} ({names[1]})"
    return f"{card.id} {names[0]}" if names else card.id


def reason_said(found: dict) -> str:
    """Why the matcher abstained on a card, in the reader's language."""
    top = [entry["card"] for entry in found.get("top") or []]
    why = found.get("why") or ""
    if why == "too_close" and len(top) > 1:
        return _("Too close to call between %(first)s and %(second)s: pick the right one.") % {
            "first": top[0],
            "second": top[1],
        }
    if why == "unlike":
        return _("No approved scan of the set looks enough like it: pick it, or add it by hand.")
    if why == "no_references":
        return _("The set has no approved scans to compare with yet.")
    return _("Not sure which card it is: pick the right one.")


def _thumbnails(card_ids) -> dict[str, str]:
    scans = (
        CardScan.objects.filter(card_id__in=card_ids, side=CardScan.Side.FRONT)
        .order_by("card_id", "-created_at", "-id")
        .only("token", "card_id")
    )
    thumbnails: dict[str, str] = {}
    for scan in scans:
        thumbnails.setdefault(scan.card_id, scan.thumbnail_url)
    return thumbnails


def found_cards(job: ReadingJob) -> list[FoundCard]:
    """The cards a finished recognise job found, in the photo's reading order."""
    found = (job.result or {}).get("cards") or []
    ids = {entry["card"] for card in found for entry in card.get("top") or []}
    cards = Card.objects.in_bulk(list(ids))
    thumbnails = _thumbnails(list(ids))
    printings: dict[str, list[Printing]] = {}
    for printing in (
        Printing.objects.filter(card_id__in=list(ids))
        .exclude(kind=Printing.Kind.FIRST)
        .select_related("card_set")
    ):
        printings.setdefault(printing.card_id, []).append(printing)
    shown = []
    for raw in found:
        candidates = [
            Candidate(
                card=cards[entry["card"]],
                distance=entry["distance"],
                thumbnail=thumbnails.get(entry["card"], ""),
                chosen=entry["card"] == raw.get("best"),
            )
            for entry in raw.get("top") or []
            if entry["card"] in cards  # a card deleted since the reading is not offered
        ]
        best = next((c for c in candidates if c.chosen), None)
        shown.append(
            FoundCard(
                place=raw["place"],
                count=len(found),
                box=list(raw.get("box") or [0, 0, 1, 1]),
                best=best,
                reason="" if best else reason_said(raw),
                candidates=candidates,
                printings=[p for c in candidates for p in printings.get(c.card.id, [])],
            )
        )
    return shown


def conditions() -> list[tuple[str, str]]:
    return list(CollectionEntry.Condition.choices)


def add_items(job: ReadingJob, data, places: list[str]) -> tuple[list[dict], list[str]]:
    """Read the add form for the given places: the items for collection_add_found and the
    problems the form itself shows (a place not in the photo, a card not among its matches)."""
    found = {str(card["place"]): card for card in (job.result or {}).get("cards") or []}
    items, problems = [], []
    for place in places:
        raw = found.get(place)
        if raw is None:
            problems.append(_("There is no card %(place)s in this photo.") % {"place": place})
            continue
        card_id = (data.get(f"card-{place}") or "").strip().upper()
        offered = {entry["card"] for entry in raw.get("top") or []}
        if card_id and card_id not in offered:
            problems.append(
                _("Card %(place)s: %(card)s is not one of its matches.")
                % {"place": place, "card": card_id}
            )
            continue
        where = (
            _("Card %(place)s (%(card)s)") % {"place": place, "card": card_id}
            if card_id
            else _("Card %(place)s") % {"place": place}
        )
        items.append(
            {
                "where": where,
                "card": card_id,
                "quantity": data.get(f"quantity-{place}", ""),
                "printing": data.get(f"printing-{place}", ""),
                "condition": data.get(f"condition-{place}", DEFAULT_CONDITION),
            }
        )
    return items, problems
