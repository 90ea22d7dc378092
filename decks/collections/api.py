"""Collection API: the signed-in user's whole collection, one card's entries, and a collection
shared by its link.

`GET/PUT /api/collection/` reads or replaces the caller's whole collection (all or nothing:
every bad entry is named by its index and field, and nothing is saved); `GET/PUT/DELETE
/api/collection/cards/<card id>/` does the same for one card's rows (every variant);
`GET /api/collections/<share id>/` reads a collection read-only as its share link does:
the owner always, anyone else when it is public or shared by link (a private collection
answers 404, like a missing one). Reads never create the collection's settings row. Thin:
selectors read, services write (decks/collections/selectors.py, decks/collections/services.py).
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.web.throttles import WriteRateThrottle
from catalog.models import Card
from decks.collections import selectors as sel
from decks.collections.services import (
    MAX_CSV_ROWS,
    MAX_QUANTITY,
    CollectionError,
    EntryData,
    card_problems,
    collection_card_delete,
    collection_card_replace,
    collection_replace,
    printing_unknown_message,
)
from decks.content import CARD_ID
from decks.models import Collection, CollectionEntry

# As many entries as a CSV import may hold (decks/collections/services.py).
MAX_ENTRIES = MAX_CSV_ROWS
CARD_ID_MAX = Card._meta.get_field("id").max_length
CARD_ID_PATTERN = rf"^[A-Za-z0-9][A-Za-z0-9_-]{{0,{CARD_ID_MAX - 1}}}$"
SHARE_ID_MAX = Collection._meta.get_field("slug").max_length
SHARE_ID_PATTERN = rf"^[-a-zA-Z0-9_]{{1,{SHARE_ID_MAX}}}$"


def card_id_from_path(raw: str) -> str:
    """Return the canonical card id a path names, or 404 before any query if it cannot be one."""
    card_id = raw.upper()
    if len(card_id) > CARD_ID_MAX or "\x00" in card_id or not CARD_ID.fullmatch(card_id):
        raise NotFound(
            _("Not a card id: at most %(n)d letters, digits and hyphens, e.g. BS-012.")
            % {"n": CARD_ID_MAX}
        )
    if not Card.objects.filter(id=card_id).exists():
        raise NotFound(_("No card “%(id)s”.") % {"id": card_id})
    return card_id


class WholeNumberField(serializers.IntegerField):
    """An integer sent as a JSON number: "3", 3.5 and true are refused, never read as 3."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class CardIdField(serializers.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", CARD_ID_MAX)
        kwargs.setdefault("help_text", "Card id, e.g. BS-012 (case does not matter).")
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data).upper()
        if not CARD_ID.fullmatch(value):
            raise ValidationError(_("“%(id)s” is not a card id.") % {"id": value})
        return value


class EntryListSerializer(serializers.ListSerializer):
    """Check every entry, then the cards of the well-formed ones, so one answer names every bad
    entry by its index and field. Per-card writes take the card from the context."""

    def to_internal_value(self, data):
        if not isinstance(data, list):
            raise ValidationError(
                _("Expected a list of entries, got %(type)s.") % {"type": type(data).__name__}
            )
        if len(data) > MAX_ENTRIES:
            raise ValidationError(_("At most %(n)d entries.") % {"n": MAX_ENTRIES})
        errors: list[dict] = []
        values: list[dict | None] = []
        for item in data:
            try:
                values.append(self.child.run_validation(item))
                errors.append({})
            except ValidationError as exc:
                values.append(None)
                errors.append(exc.detail)
        card_id = self.context.get("card_id")
        good = [(i, v) for i, v in enumerate(values) if v is not None]
        entries = [
            EntryData(
                card_id=card_id or v["card"],
                quantity=v["quantity"],
                condition=v["condition"],
                language=v["language"],
                for_trade=v["for_trade"],
                wanted=v["wanted"],
                printing=v["printing"],
            )
            for _i, v in good
        ]
        for problem in card_problems(entries):
            index = good[problem.position][0]
            if problem.repeats is not None:
                message = _("The same printing and variant as entry %(n)d.") % {
                    "n": good[problem.repeats][0]
                }
                key = "non_field_errors"
            elif problem.field == "printing":
                message = printing_unknown_message(entries[problem.position])
                key = "printing"
            else:
                message = _("Unknown card “%(id)s”.") % {"id": entries[problem.position].card_id}
                key = "card"
            errors[index] = {**errors[index], key: [message]}
        if any(errors):
            raise ValidationError(errors)
        return values


class CollectionVariantSerializer(serializers.Serializer):
    """One row of a card: a printing and variant, copies owned and the hand-made trade marks."""

    printing = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        default="",
        help_text="Code of the card's printing (e.g. BS-001, ES2-101, BS-001-foil; case does "
        "not matter); blank or left out: the card's first printing.",
    )

    quantity = WholeNumberField(
        min_value=0, max_value=MAX_QUANTITY, help_text="Copies owned of this variant."
    )
    condition = serializers.ChoiceField(
        choices=CollectionEntry.Condition.choices,
        required=False,
        default="",
        help_text="Condition of the copies; blank: not recorded.",
    )
    language = serializers.ChoiceField(
        choices=CollectionEntry.Language.choices,
        required=False,
        default="",
        help_text="Language of print; blank: not recorded.",
    )
    for_trade = WholeNumberField(
        min_value=0,
        max_value=MAX_QUANTITY,
        required=False,
        default=0,
        help_text="Copies marked by hand as haves (for trade); at most the quantity.",
    )
    wanted = WholeNumberField(
        min_value=0,
        max_value=MAX_QUANTITY,
        required=False,
        default=0,
        help_text="Copies marked by hand as wants.",
    )

    class Meta:
        list_serializer_class = EntryListSerializer

    def validate(self, data):
        if data.get("for_trade", 0) > data["quantity"]:
            raise ValidationError(
                {
                    "for_trade": [
                        _("for_trade (%(t)d) cannot exceed the quantity owned (%(q)d).")
                        % {"t": data["for_trade"], "q": data["quantity"]}
                    ]
                }
            )
        return data


class CollectionEntrySerializer(CollectionVariantSerializer):
    """One row of a collection: a card, one variant of it, copies owned and trade marks."""

    card = CardIdField()

    class Meta:
        list_serializer_class = EntryListSerializer


class CollectionPutSerializer(serializers.Serializer):
    entries = CollectionEntrySerializer(
        many=True,
        help_text="The whole collection: one entry per card, printing and variant (condition, "
        "language). "
        "A row with quantity 0 and no want is dropped.",
    )
    visibility = serializers.ChoiceField(
        choices=Collection.Visibility.choices,
        required=False,
        help_text="Who may see the collection; left out: unchanged.",
    )


class CollectionCardPutSerializer(serializers.Serializer):
    entries = CollectionVariantSerializer(
        many=True, help_text="Every variant of the card you own; an empty list removes the card."
    )


class CollectionSerializer(serializers.Serializer):
    owner = serializers.CharField()
    visibility = serializers.ChoiceField(choices=Collection.Visibility.choices)
    share_id = serializers.CharField(
        allow_null=True, help_text="Id of the share link (null until the collection is saved)."
    )
    share_url = serializers.URLField(allow_null=True)
    copies = serializers.IntegerField(help_text="Copies owned in all.")
    entries = CollectionEntrySerializer(many=True)


class CollectionCardSerializer(serializers.Serializer):
    card = serializers.CharField()
    copies = serializers.IntegerField(help_text="Copies owned over every variant.")
    entries = CollectionVariantSerializer(many=True)


def collection_body(request, owner) -> dict:
    """Return a collection as the API shows it (without creating its settings row)."""
    collection = sel.collection_for_owner(owner)
    rows = sel.export_rows(owner)
    url = None
    if collection is not None:
        url = request.build_absolute_uri(collection.get_absolute_url())
    return {
        "owner": owner.get_username(),
        "visibility": collection.visibility if collection else Collection.Visibility.PRIVATE,
        "share_id": collection.slug if collection else None,
        "share_url": url,
        "copies": sum(row["quantity"] for row in rows),
        "entries": rows,
    }


def card_body(owner, card_id: str) -> dict:
    rows = [
        {key: value for key, value in row.items() if key != "card"}
        for row in sel.export_rows(owner, card_id=card_id)
    ]
    return {"card": card_id, "copies": sum(r["quantity"] for r in rows), "entries": rows}


def _refused(exc: CollectionError) -> ValidationError:
    """A service refusal the checks above did not foresee (a card deleted meanwhile)."""
    return ValidationError({"entries": exc.messages})


class CollectionView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteRateThrottle]

    @extend_schema(
        summary="Read your collection",
        description="Every entry of the caller's collection (card, variant, copies, trade "
        "marks) and who may see it. A collection never saved reads as empty and private.",
        responses=CollectionSerializer,
    )
    def get(self, request):
        return Response(collection_body(request, request.user))

    @extend_schema(
        summary="Replace your collection",
        description="The collection becomes exactly `entries` (and `visibility`, if given), "
        "all or nothing: any bad entry is a 400 naming each one by index and field "
        "(`entries[3].quantity`), and nothing is saved.",
        request=CollectionPutSerializer,
        responses=CollectionSerializer,
    )
    def put(self, request):
        form = CollectionPutSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            collection_replace(
                owner=request.user,
                items=form.validated_data["entries"],
                visibility=form.validated_data.get("visibility"),
            )
        except CollectionError as exc:
            raise _refused(exc) from None
        return Response(collection_body(request, request.user))


CARD_PARAMETER = OpenApiParameter(
    "card_id",
    str,
    OpenApiParameter.PATH,
    pattern=CARD_ID_PATTERN,
    description="Card id, e.g. BS-012.",
)


class CollectionCardView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteRateThrottle]

    @extend_schema(
        summary="Read one card's entries in your collection",
        parameters=[CARD_PARAMETER],
        responses=CollectionCardSerializer,
    )
    def get(self, request, card_id):
        card_id = card_id_from_path(card_id)
        return Response(card_body(request.user, card_id))

    @extend_schema(
        summary="Replace one card's entries in your collection",
        description="The card's rows become exactly `entries` (one per variant), all or "
        "nothing; each bad entry is named by index and field.",
        parameters=[CARD_PARAMETER],
        request=CollectionCardPutSerializer,
        responses=CollectionCardSerializer,
    )
    def put(self, request, card_id):
        card_id = card_id_from_path(card_id)
        form = CollectionCardPutSerializer(data=request.data, context={"card_id": card_id})
        form.is_valid(raise_exception=True)
        try:
            collection_card_replace(
                owner=request.user, card_id=card_id, items=form.validated_data["entries"]
            )
        except CollectionError as exc:
            raise _refused(exc) from None
        return Response(card_body(request.user, card_id))

    @extend_schema(
        summary="Remove a card (every variant) from your collection",
        parameters=[CARD_PARAMETER],
        responses={204: None},
    )
    def delete(self, request, card_id):
        card_id = card_id_from_path(card_id)
        collection_card_delete(owner=request.user, card_id=card_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SharedCollectionView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Read a collection by its share id (read-only)",
        tags=["collection"],
        description="The owner always; anyone else when the collection is public or shared "
        "by link. A private collection answers 404, as a missing one does.",
        parameters=[
            OpenApiParameter(
                "share_id",
                str,
                OpenApiParameter.PATH,
                pattern=SHARE_ID_PATTERN,
                description="The `share_id` of a collection (the end of its share link).",
            )
        ],
        responses=CollectionSerializer,
    )
    def get(self, request, share_id):
        if len(share_id) > SHARE_ID_MAX:
            raise NotFound()
        collection = sel.collection_for_viewer(slug=share_id, user=request.user)
        return Response(collection_body(request, collection.owner))
