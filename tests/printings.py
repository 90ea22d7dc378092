"""Printings the printings tests share: BS-001 printed four ways, BS-002 with a promo, BS-003
with a parallel version (issue #24 item 4)."""

from datetime import date

from catalog.models import CardSet, Printing


def make_printings() -> dict[str, Printing]:
    """Add two sets (ZR reprints, ZP promos) and the printings; return them by code."""
    zr = CardSet.objects.create(
        code="ZR",
        name="Test Reprints",
        name_ja="テスト再録",
        released=date(2003, 1, 1),
        kind="expansion",
        kinds_count=5,
        display_order=951,
    )
    zp = CardSet.objects.create(
        code="ZP",
        name="Test Promos",
        name_ja="テストプロモ",
        released=date(2003, 6, 1),
        kind="expansion",
        kinds_count=5,
        display_order=952,
    )
    made = [
        Printing(card_id="BS-001", card_set=zr, number=1, kind="reprint", is_sample=True),
        Printing(
            card_id="BS-001",
            card_set=zp,
            number=7,
            kind="promo",
            label="Magazine promo",
            notes="Given with a magazine",
            is_sample=True,
        ),
        Printing(card_id="BS-001", card_set_id="BS", number=1, kind="foil", is_sample=True),
        Printing(card_id="BS-002", card_set=zp, number=8, kind="promo", is_sample=True),
        Printing(card_id="BS-003", card_set_id="BS", number=3, kind="parallel", is_sample=True),
    ]
    for printing in made:
        printing.full_clean()
        printing.save()
    return {p.code: p for p in made}
