"""Catalog API: sets and cards, with the same search syntax as the pages."""

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from catalog import cache as search_cache
from catalog.extensions import mentions_user_terms
from catalog.models import Card, CardSet, Product
from catalog.search import QuerySyntaxError
from catalog.selectors import card_search


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

    class Meta:
        model = Card
        fields = [
            "id",
            "name",
            "name_ja",
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
            return card_search(query=query, user=self.request.user)
        except QuerySyntaxError as exc:
            raise ValidationError({"q": [str(exc)]}) from None

    def get_object(self):
        self.kwargs["pk"] = self.kwargs["pk"].upper()
        return super().get_object()

    def list(self, request, *args, **kwargs):
        """Answer from the cache while the catalog is unchanged (catalog/cache.py)."""
        key = search_cache.search_key(
            version=search_cache.catalog_version(), parts=["api", request.build_absolute_uri()]
        )
        if mentions_user_terms(request.query_params.get("q", "")):
            key = None  # results vary by user (catalog/extensions.py): not cached
        data = search_cache.get(key) if key else None
        if data is None:
            data = super().list(request, *args, **kwargs).data
            if key:
                search_cache.put(key, data)
        return Response(data)
