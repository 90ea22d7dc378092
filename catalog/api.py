"""Catalog API: sets and cards, with the same search syntax as the pages."""

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from catalog import cache as search_cache
from catalog.contribution_selectors import card_history
from catalog.models import Card, CardRevision, CardSet, Product
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
            "status",
            "source",
        ]

    status = serializers.SerializerMethodField()

    def get_status(self, obj) -> str:
        return "sample" if obj.is_sample else "real"

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

    def get_queryset(self):
        query = self.request.query_params.get("q", "")
        try:
            return card_search(query=query)
        except QuerySyntaxError as exc:
            raise ValidationError({"q": [str(exc)]}) from None

    def get_object(self):
        self.kwargs["pk"] = self.kwargs["pk"].upper()
        return super().get_object()

    @extend_schema(
        responses=CardRevisionSerializer(many=True),
        description="The card's revisions, newest first: who proposed and accepted each "
        "change, when, the source given, and the whole card as it became.",
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def history(self, request, pk=None):
        card = self.get_object()
        return Response(CardRevisionSerializer(card_history(card), many=True).data)

    def list(self, request, *args, **kwargs):
        """Answer from the cache while the catalog is unchanged (catalog/cache.py)."""
        key = search_cache.search_key(
            version=search_cache.catalog_version(), parts=["api", request.build_absolute_uri()]
        )
        data = search_cache.get(key)
        if data is None:
            data = super().list(request, *args, **kwargs).data
            search_cache.put(key, data)
        return Response(data)
