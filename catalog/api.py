"""Catalog API: sets and cards, with the same search syntax as the pages."""

from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from cardsite.web.numbers import whole_number_or
from catalog import cache as search_cache
from catalog.contributions.selectors import card_history, card_notes_rows
from catalog.effects import effect_texts
from catalog.extensions import mentions_user_terms
from catalog.models import Card, CardRevision, CardSet, Printing, Product
from catalog.search.query import QuerySyntaxError
from catalog.search.selectors import card_search_rows


class ProductSerializer(serializers.ModelSerializer):
    class Meta:
        model = Product
        fields = ["kind", "cards_per_product", "price_yen", "notes"]


class TeamSerializer(serializers.Serializer):
    code = serializers.CharField(read_only=True)
    name = serializers.CharField(read_only=True)
    name_ja = serializers.CharField(read_only=True)


class CardSetSerializer(serializers.ModelSerializer):
    released = serializers.SerializerMethodField()
    card_count = serializers.IntegerField(read_only=True)
    products = ProductSerializer(many=True, read_only=True)

    class Meta:
        model = CardSet
        fields = [
            "code",
            "name",
            "name_ja",
            "released",
            "kind",
            "kinds_count",
            "card_count",
            "products",
        ]

    def get_released(self, obj) -> str:
        return obj.released.strftime("%Y-%m")


# The columns a card's API object is made from: CardSerializer reads rows of
# `.values(*CARD_COLUMNS)`, the team joined, never model instances.
CARD_COLUMNS = (
    "id",
    "name",
    "name_ja",
    "name_kana",
    "card_set_id",
    "number",
    "kind",
    "position",
    "person",
    "team_id",
    "team__name",
    "team__name_ja",
    "shoot",
    "keep",
    "defense",
    "effect",
    "rarity",
    "is_sample",
    "source",
)


class PrintingSerializer(serializers.Serializer):
    code = serializers.CharField(
        read_only=True, help_text="The printing's code: <set>-<number>, -foil or -parallel."
    )
    set = serializers.CharField(read_only=True)
    number = serializers.IntegerField(read_only=True)
    kind = serializers.ChoiceField(choices=Printing.Kind.choices, read_only=True)
    label = serializers.CharField(read_only=True)
    notes = serializers.CharField(read_only=True)
    is_sample = serializers.BooleanField(read_only=True)


PRINTING_COLUMNS = ("card_id", "code", "card_set_id", "number", "kind", "label", "notes")


def with_printings(rows: list[dict]) -> list[dict]:
    """Give each card row its printings (one query), first print first, then in set order."""
    by_card: dict[str, list[dict]] = {row["id"]: [] for row in rows}
    printings = (
        Printing.objects.filter(card_id__in=list(by_card))
        .order_by("card_id", "card_set__display_order", "number", "code")
        .values(*PRINTING_COLUMNS, "is_sample")
    )
    for p in printings:
        shown = {
            "code": p["code"],
            "set": p["card_set_id"],
            "number": p["number"],
            "kind": p["kind"],
            "label": p["label"],
            "notes": p["notes"],
            "is_sample": p["is_sample"],
        }
        by_card[p["card_id"]].append(shown)
    for printings_of_card in by_card.values():
        printings_of_card.sort(key=lambda p: p["kind"] != Printing.Kind.FIRST)
    return [{**row, "printings": by_card[row["id"]]} for row in rows]


class CardSerializer(serializers.Serializer):
    """A card as the API shows it, made from a row of `Card.objects.values(*CARD_COLUMNS)`.

    `to_representation` is the one definition of the shape; the declared fields document it
    for the OpenAPI schema (a test checks that the two name the same keys in the same order,
    and the schema tests check every response against the schema). The object is written
    out, not built field by field: DRF's per-field machinery cost about 5 ms CPU for a page
    of 50 cards, and model instances another 5, against about 1 ms for rows and this method
    (bench/search.py --profile, 2026-12-05).
    """

    id = serializers.CharField(read_only=True)
    name = serializers.CharField(read_only=True)
    name_ja = serializers.CharField(read_only=True)
    name_kana = serializers.CharField(read_only=True)
    set = serializers.CharField(read_only=True)
    number = serializers.IntegerField(read_only=True)
    kind = serializers.ChoiceField(choices=Card.Kind.choices, read_only=True)
    position = serializers.ChoiceField(
        choices=Card.Position.choices, allow_null=True, read_only=True
    )
    person = serializers.CharField(allow_null=True, read_only=True)
    team = TeamSerializer(allow_null=True, read_only=True)
    shoot = serializers.IntegerField(read_only=True)
    keep = serializers.IntegerField(read_only=True)
    defense = serializers.IntegerField(read_only=True)
    effect = serializers.CharField(allow_null=True, read_only=True)
    effect_text = serializers.DictField(
        child=serializers.CharField(),
        allow_null=True,
        read_only=True,
        help_text='The effect in words, {"en": …, "ja": …}; `effect` keeps the clause form.',
    )
    rarity = serializers.CharField(read_only=True)
    is_sample = serializers.BooleanField(read_only=True)
    status = serializers.ChoiceField(choices=["sample", "real"], read_only=True)
    source = serializers.CharField(read_only=True)

    def to_representation(self, row: dict) -> dict:
        team = row["team_id"]
        effect = row["effect"]
        return {
            "id": row["id"],
            "name": row["name"],
            "name_ja": row["name_ja"],
            "name_kana": row["name_kana"],
            "set": row["card_set_id"],
            "number": row["number"],
            "kind": row["kind"],
            "position": row["position"] or None,
            "person": row["person"] or None,
            "team": None
            if team is None
            else {"code": team, "name": row["team__name"], "name_ja": row["team__name_ja"]},
            "shoot": row["shoot"],
            "keep": row["keep"],
            "defense": row["defense"],
            "effect": effect or None,
            "effect_text": effect_texts(effect) if effect else None,
            "rarity": row["rarity"],
            "is_sample": row["is_sample"],
            "status": "sample" if row["is_sample"] else "real",
            "source": row["source"],
        }


class ErratumSerializer(serializers.Serializer):
    printed_text = serializers.CharField(read_only=True, help_text="The text as printed.")
    current_text = serializers.CharField(read_only=True, help_text="The text as it reads now.")
    source = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True, help_text="When it was accepted.")


class RulingSerializer(serializers.Serializer):
    text = serializers.CharField(read_only=True)
    date = serializers.DateField(read_only=True, help_text="The day the ruling was given.")
    source = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True, help_text="When it was accepted.")


class CardDetailSerializer(CardSerializer):
    """One card (`GET /api/cards/<id>/`): the list's object, then its printings (its first
    print first), its accepted errata (oldest first) and rulings (by date). The list leaves
    them out, so a page stays three queries (docs/performance.md); `printing:`, `is:promo`,
    `has:errata` and `has:ruling` search by them. The row carries them in this shape
    (catalog.api.with_printings, catalog.contributions.selectors.card_notes_rows)."""

    printings = PrintingSerializer(
        many=True,
        read_only=True,
        help_text="The card's printings, its first print first: each has its own set number; "
        "decks count the card whatever its printing.",
    )
    errata = ErratumSerializer(many=True, read_only=True)
    rulings = RulingSerializer(many=True, read_only=True)

    def to_representation(self, row: dict) -> dict:
        return {
            **super().to_representation(row),
            "printings": row["printings"],
            "errata": row["errata"],
            "rulings": row["rulings"],
        }


MAX_PAGE = 10_000  # beyond every catalog; keeps OFFSET bounded


class CardPagination(PageNumberPagination):
    """DRF's page-number pages, reading the page through the one integer parser for user input
    (cardsite/web/numbers.py): a `page` that is not a page of the results is a 404."""

    def get_page_number(self, request, paginator):
        raw = request.query_params.get(self.page_query_param) or "1"
        if raw in self.last_page_strings:
            return paginator.num_pages
        number = whole_number_or(raw, None, low=1, high=MAX_PAGE)
        if number is None:
            raise NotFound(self.invalid_page_message)
        return number


class CardRevisionSerializer(serializers.ModelSerializer):
    proposed_by = serializers.SerializerMethodField()
    accepted_by = serializers.SerializerMethodField()
    card = serializers.JSONField(source="data", help_text="The whole card as it became.")

    class Meta:
        model = CardRevision
        fields = ["number", "created_at", "proposed_by", "accepted_by", "source", "card"]

    def get_proposed_by(self, obj) -> str | None:
        return obj.proposed_by.username if obj.proposed_by else None

    def get_accepted_by(self, obj) -> str | None:
        return obj.accepted_by.username if obj.accepted_by else None


class CardSetViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = CardSetSerializer
    lookup_field = "code"
    pagination_class = None
    queryset = (
        CardSet.objects.prefetch_related("products")
        .annotate(card_count=Count("cards"))
        .order_by("display_order")
    )

    def get_object(self):
        self.kwargs["code"] = self.kwargs["code"].upper()
        return super().get_object()


@extend_schema(
    parameters=[
        OpenApiParameter(
            "q", str, description="Search query (see docs/search.md), e.g. shoot>=5 pos:FW"
        )
    ]
)
class CardViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = CardSerializer
    pagination_class = CardPagination

    def get_queryset(self):
        query = self.request.query_params.get("q", "")
        try:
            return card_search_rows(query=query, columns=CARD_COLUMNS, user=self.request.user)
        except QuerySyntaxError as exc:
            raise ValidationError({"q": [str(exc)]}) from None

    def get_serializer_class(self):
        return CardDetailSerializer if self.action == "retrieve" else CardSerializer

    def get_object(self):
        self.kwargs["pk"] = self.kwargs["pk"].upper()
        row = with_printings([super().get_object()])[0]
        return {**row, **card_notes_rows(row["id"])}

    @extend_schema(
        responses=CardRevisionSerializer(many=True),
        description="The card's revisions, newest first: who proposed and accepted each "
        "change, when, the source given, and the whole card as it became.",
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def history(self, request, pk=None):
        card = get_object_or_404(Card, pk=pk.upper())
        return Response(CardRevisionSerializer(card_history(card), many=True).data)

    def list(self, request, *args, **kwargs):
        """One page of a search; for JSON, from the response cache while the catalog is
        unchanged.

        The key is the catalog's version and the whole address, so a change to any card makes
        every cached page stale at once. The cache holds the page as JSON bytes, so a hit
        costs the version's query and no rendering. Queries with user-dependent terms
        (`is:owned`, catalog/extensions.py) and the browsable API are answered fresh.
        """
        renderer = request.accepted_renderer
        if (
            not isinstance(renderer, JSONRenderer)
            or not search_cache.enabled()
            or mentions_user_terms(request.query_params.get("q", ""))
        ):
            return Response(self._page())
        key = search_cache.search_key(
            version=search_cache.catalog_version(), parts=["api", request.build_absolute_uri()]
        )
        body = search_cache.get(key)
        if body is None:
            body = renderer.render(self._page(), renderer_context=self.get_renderer_context())
            search_cache.put(key, body)
        return HttpResponse(body, content_type=renderer.media_type)

    def _page(self) -> dict:
        cards = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(self.get_serializer(cards, many=True).data).data
