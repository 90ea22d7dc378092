"""Catalog API: sets and cards, with the same search syntax as the pages."""

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.urls import remove_query_param, replace_query_param

from catalog import cache as search_cache
from catalog.effects import effect_texts
from catalog.models import Card, CardSet, Product
from catalog.search import QuerySyntaxError
from catalog.selectors import card_search, card_search_page


class ProductSerializer(serializers.ModelSerializer):
    class Meta:
        model = Product
        fields = ["kind", "cards_per_product", "price_yen", "notes"]


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


class CardSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set_id")
    team = serializers.SerializerMethodField()
    position = serializers.SerializerMethodField()
    person = serializers.SerializerMethodField()
    effect = serializers.SerializerMethodField()
    effect_text = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            "id",
            "name",
            "name_ja",
            "name_kana",
            "set",
            "number",
            "kind",
            "position",
            "person",
            "team",
            "shoot",
            "keep",
            "defense",
            "effect",
            "effect_text",
            "rarity",
            "is_sample",
        ]

    def get_team(self, obj) -> dict | None:
        if obj.team is None:
            return None
        return {"code": obj.team.code, "name": obj.team.name, "name_ja": obj.team.name_ja}

    def get_position(self, obj) -> str | None:
        return obj.position or None

    def get_person(self, obj) -> str | None:
        return obj.person or None

    def get_effect(self, obj) -> str | None:
        return obj.effect or None

    def get_effect_text(self, obj) -> dict[str, str] | None:
        """The effect in words, {"en": …, "ja": …}; `effect` keeps the clause form."""
        return effect_texts(obj.effect) if obj.effect else None


MAX_PAGE = 10_000  # beyond every catalog; keeps OFFSET (and the statement cache) bounded


def card_row_json(row: tuple) -> dict:
    """Return a CARD_LIST_COLUMNS row as CardSerializer would show the card."""
    (
        card_id,
        name,
        name_ja,
        name_kana,
        set_code,
        number,
        kind,
        position,
        person,
        team_code,
        team_name,
        team_name_ja,
        shoot,
        keep,
        defense,
        effect,
        rarity,
        is_sample,
    ) = row
    return {
        "id": card_id,
        "name": name,
        "name_ja": name_ja,
        "name_kana": name_kana,
        "set": set_code,
        "number": number,
        "kind": kind,
        "position": position or None,
        "person": person or None,
        "team": (
            {"code": team_code, "name": team_name, "name_ja": team_name_ja} if team_code else None
        ),
        "shoot": shoot,
        "keep": keep,
        "defense": defense,
        "effect": effect or None,
        "effect_text": effect_texts(effect) if effect else None,
        "rarity": rarity,
        "is_sample": bool(is_sample),  # SQLite returns 0/1
    }


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

    def get_queryset(self):
        query = self.request.query_params.get("q", "")
        try:
            return card_search(query=query)
        except QuerySyntaxError as exc:
            raise ValidationError({"q": [str(exc)]}) from None

    def get_object(self):
        self.kwargs["pk"] = self.kwargs["pk"].upper()
        return super().get_object()

    def list(self, request, *args, **kwargs):
        """Answer from the cache while the catalog is unchanged (catalog/cache.py)."""
        if not search_cache.enabled():
            return Response(self.page_data(request))
        key = search_cache.search_key(
            version=search_cache.catalog_version(), parts=["api", request.build_absolute_uri()]
        )
        data = search_cache.get(key)
        if data is None:
            data = self.page_data(request)
            search_cache.put(key, data)
        return Response(data)

    def page_data(self, request) -> dict:
        """Return one page of the search, shaped as DRF's page-number pagination shapes it.

        Rows are read as tuples and turned into the serializer's JSON directly (the same
        output as CardSerializer, which a test checks): 4–5x cheaper than model instances
        through the serializer (docs/performance.md).
        """
        query = request.query_params.get("q", "")
        limit = api_settings.PAGE_SIZE
        raw_page = request.query_params.get("page", "1")
        try:
            if raw_page == "last":
                total = card_search_page(query=query, offset=0, limit=0)[1]
                number = max(1, -(-total // limit))
            elif raw_page.isdigit() and 1 <= int(raw_page) <= MAX_PAGE:
                number = int(raw_page)
            else:
                raise NotFound("Invalid page.")
            rows, total = card_search_page(query=query, offset=(number - 1) * limit, limit=limit)
        except QuerySyntaxError as exc:
            raise ValidationError({"q": [str(exc)]}) from None
        if not rows and number > 1:
            raise NotFound("Invalid page.")
        url = request.build_absolute_uri()
        previous = None
        if number > 1:
            previous = (
                remove_query_param(url, "page")
                if number == 2
                else replace_query_param(url, "page", number - 1)
            )
        return {
            "count": total,
            "next": replace_query_param(url, "page", number + 1)
            if number * limit < total
            else None,
            "previous": previous,
            "results": [card_row_json(row) for row in rows],
        }
