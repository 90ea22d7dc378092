"""The Django side of playing: simulation batches and their chunks, saved match logs.

Celery only moves work; the state lives here. A batch is split into chunks planned up front
(one row each, unique per (batch, index)); a chunk's result is written once by a conditional
update, and a batch's progress and results are always computed from its chunk rows.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    return secrets.token_urlsafe(16)


class SimulationBatch(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulations"
    )
    # A key of the batch-kind registry (play/simulations/kinds/): no choices here, so a new
    # kind needs no migration.
    kind = models.CharField(max_length=10)
    # Null only for the Touchdown Heroes lab, which plays rule variants, not decks.
    deck_a_version = models.ForeignKey(
        "decks.DeckVersion", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    deck_b_version = models.ForeignKey(
        "decks.DeckVersion", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    # Every opponent's exact deck version (gauntlet: one per public prebuilt deck).
    opponent_versions = models.ManyToManyField("decks.DeckVersion", related_name="+", blank=True)
    params = models.JSONField(default=dict)  # runs, policies, options as the user gave them
    # Engine-ready snapshot: [deck A, opponent 1, ...]; for the lab, the rule variants.
    sides = models.JSONField(default=list)
    seed = models.BigIntegerField()
    runs = models.PositiveIntegerField()
    chunk_size = models.PositiveIntegerField()
    chunk_count = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    failure_reason = models.TextField(blank=True)
    results = models.JSONField(null=True, blank=True)  # merged from chunk rows when done
    share_token = models.CharField(max_length=32, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(runs__gte=1), name="batch_runs_min"),
            models.CheckConstraint(condition=Q(chunk_size__gte=1), name="batch_chunk_size_min"),
            models.CheckConstraint(
                condition=Q(kind="touchdown") | Q(deck_a_version__isnull=False),
                name="batch_deck_unless_touchdown",
            ),
        ]
        indexes = [models.Index(fields=["owner", "status"], name="batch_owner_status")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("play:batch-detail", args=[self.pk])

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class SimulationChunk(models.Model):
    batch = models.ForeignKey(SimulationBatch, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    opponent = models.PositiveSmallIntegerField(default=1)  # index into batch.sides
    runs = models.PositiveIntegerField()
    attempts = models.PositiveIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When its message was last published, with which priority (None: not published yet; a
    # batch keeps at most SIMULATION_QUEUE_WINDOW unfinished chunks published at a time).
    queued_at = models.DateTimeField(null=True, blank=True)
    priority = models.PositiveSmallIntegerField(null=True, blank=True)
    # The token its one live message carries: a copy with another token (one the reconciler
    # replaced by publishing anew) is a no-op when delivered and uses no attempt.
    message_token = models.CharField(max_length=32, blank=True, default="")
    # Set by a cancel on the chunks not finished then: the batch's partial results are those
    # of the chunks finished before it, and a result computed later is kept apart.
    cancelled = models.BooleanField(default=False)
    late_result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["batch", "index"]
        constraints = [
            models.UniqueConstraint(fields=["batch", "index"], name="chunk_unique_index"),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True) | Q(result__isnull=False),
                name="chunk_finished_has_result",
            ),
        ]
        indexes = [models.Index(fields=["batch", "finished_at"], name="chunk_batch_finished")]

    def __str__(self) -> str:
        return f"batch {self.batch_id} chunk {self.index}"


def match_log_title(log: dict) -> str:
    """Return a match log's title: "A 2–1 B", with the shootout score when there was one."""
    goals = log["result"]["goals"]
    pk = log["result"]["pk"]
    score = f"{goals['A']}–{goals['B']}" + (f" (PK {pk['A']}–{pk['B']})" if pk else "")
    return f"{log['sides']['A']['name']} {score} {log['sides']['B']['name']}"[:200]


class MatchLog(models.Model):
    """A saved match log (match-log.md), replayable in the viewer."""

    class Source(models.TextChoices):
        SOLO = "solo", _("Solo game")
        BATCH = "batch", _("Simulation sample")
        UPLOAD = "upload", _("Uploaded file")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_logs"
    )
    source = models.CharField(max_length=10, choices=Source.choices)
    title = models.CharField(max_length=200)
    batch = models.ForeignKey(
        SimulationBatch, on_delete=models.CASCADE, related_name="sample_logs", null=True, blank=True
    )
    chunk_index = models.PositiveIntegerField(null=True, blank=True)
    sample_number = models.PositiveSmallIntegerField(null=True, blank=True)
    deck_version = models.ForeignKey(
        "decks.DeckVersion", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    log = models.JSONField()
    share_token = models.CharField(max_length=32, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["batch", "chunk_index", "sample_number"],
                condition=Q(batch__isnull=False),
                name="matchlog_unique_batch_sample",
            )
        ]

    def __str__(self) -> str:
        return self.title


class SoloGame(models.Model):
    """A game played by hand in the browser: side A is the owner, side B a bot (issue #6).

    The state is the seed, the two sides' engine snapshots and the actions applied so far (both
    sides', in order); `play.solo.solo_match` rebuilds the match from them. `revision` grows
    with every write, so a page (or a second tab) acting on an older position is refused.
    """

    class Mode(models.TextChoices):
        GOLDFISH = "goldfish", _("Goldfish")
        BOT = "bot", _("Against a bot")

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="solo_games"
    )
    mode = models.CharField(max_length=10, choices=Mode.choices)
    # The versions played, for links; the game itself is rebuilt from `sides`, so it survives
    # a deleted deck or a changed catalog.
    deck_version = models.ForeignKey(
        "decks.DeckVersion", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    opponent_version = models.ForeignKey(
        "decks.DeckVersion", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    # A rung of the engine's bot ladder (play.engine.policies.LADDER), checked by the solo
    # service: no choices or constraint here, so a new rung needs no migration.
    opponent_policy = models.CharField(max_length=20, default="passive")
    goalkeeper = models.ForeignKey(
        "catalog.Card", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    seed = models.BigIntegerField()
    options = models.JSONField(default=dict, blank=True)
    sides = models.JSONField(default=list)  # [side A snapshot, side B snapshot] (simulation.py)
    actions = models.JSONField(default=list, blank=True)  # action_to_dict of each, in order
    revision = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    log = models.ForeignKey(
        MatchLog, on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(mode__in=["goldfish", "bot"]), name="solo_known_mode"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["playing", "finished"]), name="solo_known_status"
            ),
            models.CheckConstraint(
                condition=~Q(mode="goldfish") | Q(opponent_policy="passive"),
                name="solo_goldfish_is_passive",
            ),
        ]
        indexes = [models.Index(fields=["owner", "-updated_at"], name="solo_owner_updated")]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("play:solo-game", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED
