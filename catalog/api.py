"""Catalog API: sets and cards, with the same search syntax as the pages."""

import json
import re
from functools import lru_cache

from django.db.models import Count
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.urls import remove_query_param, replace_query_param

from cardsite.web.api_errors import error_body
from cardsite.web.numbers import whole_number_or
from catalog import cache as search_cache
from catalog.contributions.selectors import card_history
from catalog.effects import effect_texts
from catalog.extensions import mentions_user_terms
from catalog.models import Card, CardRevision, CardSet, Product
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

    def get_effect_text(self, obj) -> dict[str, str] | None:
        """The effect in words, {"en": …, "ja": …}; `effect` keeps the clause form."""
        return effect_texts(obj.effect) if obj.effect else None


MAX_PAGE = 10_000  # beyond every catalog; keeps OFFSET (and the statement cache) bounded


# The clause stored in `effect_text` (Card.api_tail, migration 0008: compact `"key":"value"`
# on both databases). Inside a JSON string every quote is escaped, so a card's text can never
# look like this.
_EFFECT_CLAUSE = re.compile(rb'"effect_text" ?: ?"([^"\\]*)"')


@lru_cache(maxsize=2048)
def _effect_text_json(clause: bytes) -> bytes:
    return b'"effect_text":' + _json(effect_texts(clause.decode()))


def _with_effect_words(cards: bytes) -> bytes:
    if b'"effect_text":"' not in cards:  # no event on the page: nothing to replace
        return cards
    return _EFFECT_CLAUSE.sub(lambda match: _effect_text_json(match[1]), cards)


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
            return card_search(query=query, user=self.request.user)
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
        """The card list for the browsable API (`card_list` answers JSON clients directly)."""
        try:
            body = card_list_body(
                url=request.build_absolute_uri(), params=request.query_params, user=request.user
            )
        except QuerySyntaxError as exc:
            raise ValidationError({"q": [str(exc)]}) from None
        except InvalidPage:
            raise NotFound("Invalid page.") from None
        return Response(json.loads(body))


class InvalidPage(Exception):
    """A page number that is not a page of the results."""


def card_list_json(*, url: str, params, user=None) -> bytes:
    """Return the JSON of one page of a card search, shaped as DRF's page-number pagination
    shapes it, each card exactly as CardSerializer shows it (a test compares the two).

    The database writes the cards' JSON (catalog.selectors.card_search_page), so no card
    becomes a Python object: several times cheaper than rows or model instances through a
    serializer (docs/performance.md). Raise QuerySyntaxError or InvalidPage.
    """
    query = params.get("q", "")
    limit = api_settings.PAGE_SIZE
    raw_page = params.get("page", "1")
    if raw_page == "last":
        total = card_search_page(query=query, offset=0, limit=0, user=user)[1]
        number = max(1, -(-total // limit))
    elif whole_number_or(raw_page, None, low=1, high=MAX_PAGE) is not None:
        number = int(raw_page)
    else:
        raise InvalidPage
    cards, total = card_search_page(
        query=query, offset=(number - 1) * limit, limit=limit, user=user
    )
    if not cards and number > 1:
        raise InvalidPage
    links = _page_links(url, number, number * limit < total)
    return b'{"count":%d,%s,"results":[%s]}' % (total, links, _with_effect_words(cards))


@lru_cache(maxsize=512)
def _page_links(url: str, number: int, has_next: bool) -> bytes:
    """Return the `"next":…,"previous":…` of a page as DRF's pagination writes them.

    A pure function of the address, so kept per process like the compiled statements
    (catalog.selectors): rebuilding the two URLs was a tenth of an uncached search's Python.
    """
    previous = None
    if number > 1:
        previous = (
            remove_query_param(url, "page")
            if number == 2
            else replace_query_param(url, "page", number - 1)
        )
    following = replace_query_param(url, "page", number + 1) if has_next else None
    return _json({"next": following, "previous": previous})[1:-1]


def card_list_body(*, url: str, params, user=None) -> bytes:
    """Return the JSON of a card-list page, from the cache while the catalog is unchanged.

    Queries with user-dependent terms (`is:owned`, catalog/extensions.py) are not cached.
    """
    if not search_cache.enabled() or mentions_user_terms(params.get("q", "")):
        return card_list_json(url=url, params=params, user=user)
    key = search_cache.search_key(version=search_cache.catalog_version(), parts=["api", url])
    body = search_cache.get(key)
    if body is None:
        body = card_list_json(url=url, params=params)
        search_cache.put(key, body)
    return body


def _json(data) -> bytes:
    # As DRF's JSONRenderer writes it: compact, UTF-8, no NaN.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


_browsable_list = CardViewSet.as_view({"get": "list"})


@csrf_exempt
def card_list(request):
    """GET /api/cards/ for JSON clients, without DRF's per-request machinery.

    The list is public and read-only, so authentication, permissions and content
    negotiation have nothing to decide; skipping them is most of what is left of an
    uncached search's cost after the SQL (docs/performance.md). Browsers (Accept: text/html),
    `?format=` and other methods get the DRF view, so the browsable API stays.
    """
    if (
        request.method not in ("GET", "HEAD")
        or "format" in request.GET
        or "text/html" in request.META.get("HTTP_ACCEPT", "")
        or mentions_user_terms(request.GET.get("q", ""))  # needs DRF's auth (token or session)
    ):
        return _browsable_list(request)
    try:
        body = card_list_body(url=request.build_absolute_uri(), params=request.GET)
    except QuerySyntaxError as exc:
        # The one API error shape (cardsite/web/api_errors.py), as the DRF view's handler writes it.
        error = error_body(f"q: {exc}", [{"field": "q", "message": str(exc)}])
        return HttpResponse(_json(error), status=400, content_type="application/json")
    except InvalidPage:
        return HttpResponse(
            _json(error_body("Invalid page.")), status=404, content_type="application/json"
        )
    response = HttpResponse(body, content_type="application/json")
    response["Vary"] = "Accept"
    response["Allow"] = "GET, HEAD, OPTIONS"
    return response
