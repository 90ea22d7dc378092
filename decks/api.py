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
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from cardsite.web.json_limits import BoundedJSONParser
from cardsite.web.numbers import whole_number_or
from cardsite.web.throttles import WriteRateThrottle
from decks.content import MAX_QUANTITY, ContentError, DeckContent
from decks.formats.export import deck_as_json, deck_as_text
from decks.formats.text import MAX_FILE_BYTES, MAX_TEXT_CHARS, parse_deck_text
from decks.models import Deck
from decks.names import deck_name_problem
from decks.selectors import (
    UnknownCards,
    content_check,
    deck_content,
    deck_source_shown_to,
    decks_listed_for,
    decks_readable_by,
)
from decks.services import (
    DeckConflict,
    DeckImportError,
    DeckSaveError,
    deck_create,
    deck_delete,
    deck_import_text,
    deck_save,
    unknown_card_lines,
)

MAX_TEXT = MAX_TEXT_CHARS


class StaleVersion(APIException):
    """An update sent with an If-Match naming an older version than the deck's latest."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "stale_version"

    def __init__(self, current: int):
        self.current = current
        super().__init__(
            f"The deck was saved as version {current} since the version your If-Match names; "
            "nothing was saved. Read the deck again (its ETag), merge, and send If-Match "
            f'"v{current}" to overwrite.'
        )


def version_etag(number: int | None) -> str:
    return f'"v{number or 0}"'


def if_match_version(request) -> int | None:
    """Return the version number an If-Match header names; None without one (or with `*`).

    A header that names no version of ours is a 400: a client sending one expects a check.
    """
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    tag = raw.strip().removeprefix("W/").strip('"')
    digits = tag[1:] if tag.startswith("v") else ""
    number = whole_number_or(digits, None)
    if number is None:
        raise ValidationError({"If-Match": ['Give the ETag of a deck version, e.g. "v3".']})
    return number


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
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)


class ProblemSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="Rule id, e.g. R-DECK-3")
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())


class LineErrorSerializer(serializers.Serializer):
    field = serializers.CharField(allow_null=True)
    line = serializers.IntegerField(required=False)
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

    def validate_name(self, value):
        problem = deck_name_problem(value)
        if problem:
            raise ValidationError(f"The name {problem}.")
        return value

    def validate(self, data):
        base = self.instance and deck_content(self.instance) or DeckContent()
        try:
            content = self.content_from(data, base)
        except ContentError as exc:
            raise ValidationError(exc.messages) from None
        problems = content.quantity_problems()
        if problems:
            raise ValidationError(problems)
        return data

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
                base_version=self.context.get("base_version"),
            )
            return deck
        except DeckConflict as exc:
            raise StaleVersion(exc.current.number) from None
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
            if upload.size > MAX_FILE_BYTES:
                # Refused whole: a cut file would be read and saved as a different deck.
                raise ValidationError(
                    {"file": [f"The file is larger than {MAX_FILE_BYTES:,} bytes."]}
                )
            try:
                data["text"] = upload.read().decode("utf-8-sig")
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
            "errors": [{"field": "text", **e.to_dict()} for e in errors],
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

    def get_queryset(self):
        if self.action == "list":
            return decks_listed_for(self.request.user).order_by("-updated_at", "id")
        return decks_readable_by(self.request.user)

    def get_serializer_class(self):
        if self.action == "list":
            return DeckSummarySerializer
        return DeckSerializer

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if self.action in ("update", "partial_update"):
            context["base_version"] = if_match_version(self.request)
        return context

    def finalize_response(self, request, response, *args, **kwargs):
        """Give a deck's current version as its ETag (send it back in If-Match to update)."""
        response = super().finalize_response(request, response, *args, **kwargs)
        if (
            self.action in ("retrieve", "update", "partial_update", "create")
            and response.status_code < 300
            and isinstance(response.data, dict)
            and "version" in response.data
        ):
            response["ETag"] = version_etag(response.data["version"])
        return response

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
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[BoundedJSONParser, MultiPartParser],
    )
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
            try:
                content = DeckContent.from_json(
                    {k: data.get(k) for k in ("goalkeeper", "pk_goalkeeper", "deck", "bench")}
                )
            except ContentError as exc:
                raise ValidationError(exc.messages) from None
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
