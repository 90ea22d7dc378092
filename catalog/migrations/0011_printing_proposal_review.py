"""Printing proposals join the reviewed proposals (issue #24): a note, a version a review must
name, "changes requested", and edits kept with what they replaced (PrintingProposalEdit).

Existing rows stay valid: each is version 1, its `updated_at` is when it was last touched
(reviewed, else sent), and a reviewed row without a review time (none is made so, but the old
schema allowed it) takes its sending time, so the new review-time constraint holds."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Coalesce


def times_of_existing_rows(apps, schema_editor):
    PrintingProposal = apps.get_model("catalog", "PrintingProposal")
    PrintingProposal.objects.exclude(status="pending").filter(reviewed_at__isnull=True).update(
        reviewed_at=F("created_at")
    )
    PrintingProposal.objects.update(updated_at=Coalesce("reviewed_at", "created_at"))
    if schema_editor.connection.vendor == "postgresql":
        # Check the updated rows' deferred foreign keys now: PostgreSQL refuses to alter a
        # table (the index and constraints below) with trigger events still pending.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0010_reading"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PrintingProposalEdit",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("previous", models.JSONField(blank=True, default=dict)),
            ],
            options={
                "ordering": ["created_at", "id"],
            },
        ),
        migrations.RemoveConstraint(
            model_name="printingproposal",
            name="printingproposal_known_status",
        ),
        migrations.RemoveConstraint(
            model_name="printingproposal",
            name="printingproposal_rejected_has_reason",
        ),
        migrations.AddField(
            model_name="printingproposal",
            name="note",
            field=models.TextField(blank=True, max_length=2000, verbose_name="note"),
        ),
        migrations.AddField(
            model_name="printingproposal",
            name="updated_at",
            field=models.DateTimeField(auto_now=True),
        ),
        migrations.AddField(
            model_name="printingproposal",
            name="version",
            field=models.PositiveIntegerField(default=1, editable=False),
        ),
        migrations.AlterField(
            model_name="printingproposal",
            name="reason",
            field=models.TextField(blank=True, max_length=2000, verbose_name="reason"),
        ),
        migrations.AlterField(
            model_name="printingproposal",
            name="source",
            field=models.CharField(max_length=200, verbose_name="source"),
        ),
        migrations.AlterField(
            model_name="printingproposal",
            name="status",
            field=models.CharField(
                choices=[
                    ("pending", "Pending review"),
                    ("accepted", "Accepted"),
                    ("rejected", "Rejected"),
                    ("changes", "Changes requested"),
                ],
                default="pending",
                max_length=10,
            ),
        ),
        migrations.RunPython(times_of_existing_rows, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="printingproposal",
            index=models.Index(fields=["status", "card"], name="printingproposal_status_card"),
        ),
        migrations.AddConstraint(
            model_name="printingproposal",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["pending", "accepted", "rejected", "changes"])),
                name="printingproposal_known_status",
            ),
        ),
        migrations.AddConstraint(
            model_name="printingproposal",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status__in", ["rejected", "changes"]), _negated=True),
                    models.Q(("reason", ""), _negated=True),
                    _connector="OR",
                ),
                name="printingproposal_refusal_has_reason",
            ),
        ),
        migrations.AddConstraint(
            model_name="printingproposal",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("status", "pending"), ("reviewed_at__isnull", False), _connector="OR"
                ),
                name="printingproposal_review_has_time",
            ),
        ),
        migrations.AddField(
            model_name="printingproposaledit",
            name="editor",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="printingproposaledit",
            name="proposal",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="edits",
                to="catalog.printingproposal",
            ),
        ),
        migrations.AddIndex(
            model_name="printingproposaledit",
            index=models.Index(fields=["editor", "created_at"], name="printing_edit_editor_time"),
        ),
    ]
