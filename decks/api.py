"""Deck API: list/create/read/update/delete, export, import, validate and versions.

A deck's API `id` is its share slug: sequential database ids could be guessed, which would
open unlisted decks to anyone. The owner is always the caller, never taken from the request.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import permissions, renderers, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response

from cardsite.api import AtomicUserRateThrottle
from decks.content import DeckContent
from decks.export import deck_as_json, deck_as_text
from decks.models import Deck
from decks.selectors import (
    UnknownCards,
    content_check,
    deck_content,
    deck_source_shown_to,
    decks_listed_for,
    decks_readable_by,
)
from decks.services import (
    DeckImportError,
    DeckSaveError,
    deck_create,
    deck_delete,
    deck_import_text,
    deck_save,
    unknown_card_lines,
)
from decks.text_format import parse_deck_text

MAX_TEXT = 100_000


class WriteRateThrottle(AtomicUserRateThrottle):
    """Throttle writes (the `writes` rate in settings); reads are not throttled."""

    scope = "writes"

    def allow_request(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class IsOwnerOrReadOnly(permissions.BasePermission):
    def has_object_permission(self, request, view, obj):
        return request.method in permissions.SAFE_METHODS or obj.owner_id == request.user.id


class PlainTextRenderer(renderers.BaseRenderer):
    media_type = "text/plain"
    format = "text"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode(self.charset)
        return renderers.JSONRenderer().render(data)


class EntrySerializer(serializers.Serializer):
    card = serializers.CharField(max_length=10)
    quantity = serializers.IntegerField(min_value=1, max_value=60)


class ProblemSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="Rule id, e.g. R-DECK-3")
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())


class LineErrorSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    message = serializers.CharField()


class DeckSummarySerializer(serializers.Serializer):
    id = serializers.CharField(source="slug", read_only=True, help_text="The share slug.")
    url = serializers.SerializerMethodField()
    name = serializers.CharField(read_only=True)
    owner = serializers.CharField(source="owner.username", read_only=True)
    visibility = serializers.CharField(read_only=True)
    is_sample = serializers.BooleanField(read_only=True)
    legal = serializers.BooleanField(source="is_legal", read_only=True)
    updated_at = serializers.DateTimeField(read_only=True)

    def get_url(self, deck) -> str:
        request = self.context.get("request")
        url = deck.get_absolute_url()
        return request.build_absolute_uri(url) if request else url


class DeckSerializer(DeckSummarySerializer):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Deck.Visibility.choices, required=False)
    goalkeeper = serializers.CharField(
        max_length=10, required=False, allow_null=True, help_text="Goalkeeper card id."
    )
    pk_goalkeeper = serializers.CharField(
        max_length=10, required=False, allow_null=True, help_text="PK goalkeeper card id (R-PK-1)."
    )
    deck = EntrySerializer(many=True, required=False)
    bench = EntrySerializer(many=True, required=False)
    problems = ProblemSerializer(many=True, read_only=True)
    copied_from = serializers.CharField(read_only=True, allow_null=True)
    version = serializers.IntegerField(read_only=True, allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)

    def to_representation(self, deck):
        data = super().to_representation(deck)
        content = deck_content(deck)
        problems, _cards = content_check(content)
        source = deck_source_shown_to(deck, self.context["request"].user)
        version = deck.versions.order_by("-number").values_list("number", flat=True).first()
        data.update(
            description=deck.description,
            goalkeeper=content.goalkeeper,
            pk_goalkeeper=content.pk_goalkeeper,
            deck=[{"card": c, "quantity": n} for c, n in sorted(content.deck.items())],
            bench=[{"card": c, "quantity": n} for c, n in sorted(content.bench.items())],
            problems=[p.to_dict() for p in problems],
            copied_from=source.slug if source else None,
            version=version,
            created_at=serializers.DateTimeField().to_representation(deck.created_at),
        )
        return data

    def content_from(self, data: dict, base: DeckContent) -> DeckContent:
        """Return the content the request describes, keeping what a PATCH leaves out."""
        raw = base.to_json()
        for key in ("goalkeeper", "pk_goalkeeper", "deck", "bench"):
            if key in data:
                raw[key] = data[key]
        return DeckContent.from_json(raw)

    def _save(self, deck, data, user):
        try:
            if deck is None:
                return deck_create(
                    owner=user,
                    name=data["name"],
                    description=data.get("description", ""),
                    visibility=data.get("visibility", Deck.Visibility.PRIVATE),
                    content=self.content_from(data, DeckContent()),
                )
            deck_save(
                deck=deck,
                editor=user,
                content=self.content_from(data, deck_content(deck)),
                name=data.get("name"),
                description=data.get("description"),
                visibility=data.get("visibility"),
            )
            return deck
        except DeckSaveError as exc:
            raise ValidationError({"cards": exc.messages}) from None

    def create(self, validated_data):
        return self._save(None, validated_data, self.context["request"].user)

    def update(self, instance, validated_data):
        return self._save(instance, validated_data, self.context["request"].user)


class DeckVersionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    editor = serializers.CharField(source="editor.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    name = serializers.CharField()
    summary = serializers.CharField()
    legal = serializers.BooleanField(source="is_legal")
    content = inline_serializer(
        "DeckVersionContent",
        {
            "goalkeeper": serializers.CharField(allow_null=True),
            "pk_goalkeeper": serializers.CharField(allow_null=True),
            "deck": serializers.DictField(child=serializers.IntegerField()),
            "bench": serializers.DictField(child=serializers.IntegerField()),
        },
    )


class ImportRequestSerializer(serializers.Serializer):
    text = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_TEXT, trim_whitespace=False
    )
    file = serializers.FileField(required=False, help_text="A UTF-8 text file instead of text.")
    name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    visibility = serializers.ChoiceField(
        choices=Deck.Visibility.choices, default=Deck.Visibility.PRIVATE
    )

    def validate(self, data):
        upload = data.pop("file", None)
        if upload is not None:
            try:
                data["text"] = upload.read(MAX_TEXT + 1).decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ValidationError({"file": ["The file is not UTF-8 text."]}) from None
        if not (data.get("text") or "").strip():
            raise ValidationError({"text": ["Give the deck text (or a file)."]})
        return data


class ValidateRequestSerializer(serializers.Serializer):
    text = serializers.CharField(
        required=False, max_length=MAX_TEXT, trim_whitespace=False, help_text="A deck text."
    )
    goalkeeper = serializers.CharField(required=False, allow_null=True, max_length=10)
    pk_goalkeeper = serializers.CharField(required=False, allow_null=True, max_length=10)
    deck = EntrySerializer(many=True, required=False)
    bench = EntrySerializer(many=True, required=False)


VALIDATE_RESPONSE = inline_serializer(
    "DeckValidation",
    {"legal": serializers.BooleanField(), "problems": ProblemSerializer(many=True)},
)
LINE_ERRORS = inline_serializer(
    "DeckLineErrors",
    {"message": serializers.CharField(), "errors": LineErrorSerializer(many=True)},
)


def _line_errors(errors) -> Response:
    return Response(
        {
            "message": "The deck text has errors; nothing was saved.",
            "errors": [e.to_dict() for e in errors],
        },
        status=status.HTTP_400_BAD_REQUEST,
    )


@extend_schema_view(
    list=extend_schema(
        summary="List decks",
        description="The caller's own decks and every public deck (unlisted decks are not listed).",
        responses=DeckSummarySerializer(many=True),
    ),
    retrieve=extend_schema(summary="Read a deck (owner, or anyone for unlisted/public decks)"),
    create=extend_schema(summary="Create a deck (the caller owns it; illegal drafts are allowed)"),
    update=extend_schema(summary="Replace a deck (owner only; makes a version)"),
    partial_update=extend_schema(summary="Change part of a deck (owner only; makes a version)"),
    destroy=extend_schema(summary="Delete a deck (owner only)"),
)
class DeckViewSet(viewsets.ModelViewSet):
    serializer_class = DeckSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]
    throttle_classes = [WriteRateThrottle]
    lookup_field = "slug"
    lookup_url_kwarg = "id"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    parser_classes = [JSONParser, FormParser, MultiPartParser]

    def get_queryset(self):
        if self.action == "list":
            return decks_listed_for(self.request.user).order_by("-updated_at", "id")
        return decks_readable_by(self.request.user)

    def get_serializer_class(self):
        if self.action == "list":
            return DeckSummarySerializer
        return DeckSerializer

    def perform_destroy(self, instance):
        deck_delete(deck=instance)

    @extend_schema(
        summary="Export a deck",
        parameters=[
            OpenApiParameter(
                "format", str, enum=["text", "json"], description="text (default) or json"
            )
        ],
        responses={
            (200, "text/plain"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
        },
    )
    @action(
        detail=True,
        methods=["get"],
        renderer_classes=[PlainTextRenderer, renderers.JSONRenderer],
    )
    def export(self, request, id=None):
        deck = self.get_object()
        if request.accepted_renderer.format == "json":
            return Response(deck_as_json(deck))
        return Response(deck_as_text(deck))

    @extend_schema(
        summary="Import a deck from the text format",
        description="Creates a deck (a draft if it breaks construction rules). Any bad line: "
        "400 with every error and its line number, and nothing is saved.",
        request={
            "application/json": ImportRequestSerializer,
            "multipart/form-data": ImportRequestSerializer,
        },
        responses={201: DeckSerializer, 400: LINE_ERRORS},
    )
    @action(detail=False, methods=["post"], url_path="import")
    def import_text(self, request):
        form = ImportRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            deck = deck_import_text(
                owner=request.user,
                text=form.validated_data["text"],
                name=form.validated_data.get("name", ""),
                visibility=form.validated_data["visibility"],
            )
        except DeckImportError as exc:
            return _line_errors(exc.errors)
        body = DeckSerializer(deck, context=self.get_serializer_context()).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Check a deck without saving it",
        description="Give either `text` (the deck text format) or the entries. Returns every "
        "construction problem (R-DECK-1..5, R-PK-1) with its rule id.",
        request=ValidateRequestSerializer,
        responses={200: VALIDATE_RESPONSE, 400: LINE_ERRORS},
    )
    @action(detail=False, methods=["post"], permission_classes=[permissions.AllowAny])
    def validate(self, request):
        form = ValidateRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        if "text" in data:
            parsed = parse_deck_text(data["text"])
            errors = parsed.errors + unknown_card_lines(parsed)
            if errors:
                return _line_errors(sorted(errors, key=lambda e: e.line))
            content = parsed.content()
        else:
            content = DeckContent.from_json(
                {k: data.get(k) for k in ("goalkeeper", "pk_goalkeeper", "deck", "bench")}
            )
        try:
            problems, _cards = content_check(content)
        except UnknownCards as exc:
            raise ValidationError({"cards": [f"Unknown card id {c}." for c in exc.ids]}) from None
        return Response({"legal": not problems, "problems": [p.to_dict() for p in problems]})

    @extend_schema(
        summary="List a deck's versions (newest first)", responses=DeckVersionSerializer(many=True)
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def versions(self, request, id=None):
        deck = self.get_object()
        versions = deck.versions.select_related("editor").order_by("-number")
        return Response(DeckVersionSerializer(versions, many=True).data)
