"""Simulation API: create, read (status, progress, results) and cancel batches."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.response import Response

from cardsite.web.throttles import AtomicScopedRateThrottle
from decks.selectors import decks_readable_by
from play.engine.options import DECK_OUTS, EMPTY_TIMINGS
from play.models import SimulationBatch
from play.simulations import core as simulation
from play.simulations import kinds, services
from play.simulations.selectors import batch_progress, batch_shown_results, batches_of


@extend_schema_field(OpenApiTypes.STR)
class DeckRefField(serializers.Field):
    """A deck named by its id in the deck API (its share slug), among the decks one may read.

    Never a sequential database id: that could be guessed and would open unlisted decks.
    """

    def to_internal_value(self, data):
        if not isinstance(data, str) or not data:
            raise serializers.ValidationError("Give the deck's id (its share slug).")
        deck = decks_readable_by(self.context["request"].user).filter(slug=data).first()
        if deck is None:
            raise serializers.ValidationError(f"No deck {data!r} that you can see.")
        return deck

    def to_representation(self, value):
        return value.slug


BOTS_HELP = (
    "The bot, strongest first: "
    + ", ".join(simulation.POLICIES)
    + " (docs/engine.md, Ladder). Goldfish runs always give side B the passive bot."
)


class SimulationCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=kinds.keys())
    deck_a = DeckRefField(required=False)
    deck_b = DeckRefField(required=False, allow_null=True)
    runs = serializers.IntegerField(min_value=1)
    seed = serializers.IntegerField(min_value=0, max_value=2**63 - 1, required=False)
    policy_a = serializers.ChoiceField(
        choices=simulation.POLICIES, default="greedy", help_text=BOTS_HELP
    )
    policy_b = serializers.ChoiceField(
        choices=simulation.POLICIES, default="greedy", help_text=BOTS_HELP
    )
    empty_timing = serializers.ChoiceField(
        choices=EMPTY_TIMINGS,
        default=EMPTY_TIMINGS[0],
        help_text="R-PLAY-4: `passes` (second edition) or `ends_phase` (first edition).",
    )
    deck_out = serializers.ChoiceField(
        choices=DECK_OUTS,
        default=DECK_OUTS[0],
        help_text="R-DRAW-2: `draw_phase` (second edition) or `any_draw` (first edition).",
    )
    variants = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Touchdown Heroes lab only: one or two rule variants (docs/touchdown.md).",
    )
    study = serializers.DictField(
        required=False,
        help_text="The Touchdown Heroes lab: a strategy table or a sweep over the one variant "
        "given (docs/touchdown.md); swaps: {source, out, in}; halftime: {report (a finished "
        "card report's id, whose matches are replayed), out, in} (docs/simulations.md).",
    )

    def validate(self, data):
        if not kinds.get(data["kind"]).uses_decks:
            if not data.get("variants"):
                raise serializers.ValidationError({"variants": ["Give one or two variants."]})
        elif "deck_a" not in data:
            raise serializers.ValidationError({"deck_a": ["This field is required."]})
        return data


class SimulationSerializer(serializers.ModelSerializer):
    progress = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField(
        help_text=(
            "The merged results once done. A cancelled batch gives the results of the chunks "
            "that finished, with `partial`: {runs, planned, chunks, chunk_count}. Results name "
            "each side's deck and bot (`sides`) and the rule options (`rules`)."
        )
    )
    deck_a = serializers.SerializerMethodField()
    deck_b = serializers.SerializerMethodField()

    class Meta:
        model = SimulationBatch
        fields = [
            "id",
            "kind",
            "status",
            "deck_a",
            "deck_b",
            "runs",
            "seed",
            "params",
            "chunk_size",
            "chunk_count",
            "progress",
            "results",
            "failure_reason",
            "created_at",
            "started_at",
            "finished_at",
        ]

    def get_progress(self, obj) -> dict:
        return batch_progress(obj)

    def get_results(self, obj) -> dict | None:
        return batch_shown_results(obj)[0]

    def _deck(self, version):
        if version is None:
            return None
        return {"deck": version.deck.slug, "version": version.number, "name": version.name}

    def get_deck_a(self, obj) -> dict | None:
        return self._deck(obj.deck_a_version)

    def get_deck_b(self, obj) -> dict | None:
        return self._deck(obj.deck_b_version)


class SimulationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    # Batch ids are numbers: anything else matches no route (404), never a query (500).
    lookup_value_regex = "[0-9]+"
    serializer_class = SimulationSerializer
    permission_classes = [permissions.IsAuthenticated]
    throttle_scope = "simulations"

    def get_queryset(self):
        return batches_of(self.request.user)

    def get_throttles(self):
        return [AtomicScopedRateThrottle()] if self.action == "create" else []

    @extend_schema(request=SimulationCreateSerializer, responses={201: SimulationSerializer})
    def create(self, request):
        data = SimulationCreateSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            batch = services.batch_create(
                owner=request.user,
                request=services.BatchRequest(
                    kind=values["kind"],
                    deck_a=values.get("deck_a"),
                    deck_b=values.get("deck_b"),
                    runs=values["runs"],
                    seed=values.get("seed"),
                    policy_a=values["policy_a"],
                    policy_b=values["policy_b"],
                    variants=values.get("variants"),
                    options={name: values[name] for name in ("empty_timing", "deck_out")},
                    study=values.get("study"),
                ),
            )
        except services.BatchInvalid as exc:
            raise serializers.ValidationError(exc.errors) from None
        return self._created(batch)

    def _created(self, batch):
        data = SimulationSerializer(batch).data
        if getattr(batch, "broker_unavailable", False):
            # Saved and queued for the reconciler: a retry of this request would be a duplicate.
            data["message"] = (
                "Queued. The broker is unavailable at the moment; the simulation will start "
                "when it is back."
            )
        return Response(data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: SimulationSerializer})
    def destroy(self, request, pk=None):
        batch = get_object_or_404(self.get_queryset(), pk=pk)
        services.batch_cancel(batch=batch)
        batch.refresh_from_db()
        return Response(SimulationSerializer(batch).data)
