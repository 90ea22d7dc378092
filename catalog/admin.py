from django import forms
from django.contrib import admin
from django.utils.translation import gettext as _

from catalog.card_format import ADMIN_FIELDS
from catalog.importer import apply_rows, card_row, validate_card
from catalog.models import (
    Card,
    CardNoteProposal,
    CardProposal,
    CardRevision,
    CardScan,
    CardSet,
    Erratum,
    Printing,
    PrintingProposal,
    PrintingProposalEdit,
    Product,
    Ruling,
    ScanUpload,
    Team,
)


class ProductInline(admin.TabularInline):
    model = Product
    extra = 0


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "name_ja", "released", "kind", "kinds_count", "display_order"]
    list_filter = ["kind"]
    search_fields = ["code", "name", "name_ja"]
    inlines = [ProductInline]


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ["card_set", "kind", "cards_per_product", "price_yen", "notes"]
    list_filter = ["kind", "card_set"]
    search_fields = ["card_set__code", "card_set__name", "notes"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "name_ja", "is_national"]
    list_filter = ["is_national"]
    search_fields = ["code", "name", "name_ja"]


class CardAdminForm(forms.ModelForm):
    """Check an admin edit with the one card check (validate_card), like import and proposals."""

    class Meta:
        model = Card
        fields = list(ADMIN_FIELDS)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        row = card_row(Card(**data))
        row.pop("status")
        clean, problems = validate_card(row)
        for problem in problems:
            field = {"set": "card_set"}.get(problem.field, problem.field)
            self.add_error(field if field in self.fields else None, problem.message)
        self.card_row = clean
        return data


class PrintingFormSet(forms.BaseInlineFormSet):
    def clean(self):
        super().clean()
        for form in self.forms:
            if self._should_delete_form(form) and form.instance.kind == Printing.Kind.FIRST:
                raise forms.ValidationError(_("A card's first printing cannot be deleted."))


class PrintingInline(admin.TabularInline):
    """A card's printings, edited here by editors (or proposed on the card page)."""

    model = Printing
    formset = PrintingFormSet
    fk_name = "card"
    extra = 0
    fields = ["code", "card_set", "number", "kind", "label", "notes", "is_sample"]
    readonly_fields = ["code"]


@admin.register(Printing)
class PrintingAdmin(admin.ModelAdmin):
    list_display = ["code", "card", "card_set", "number", "kind", "label", "is_sample"]
    list_filter = ["kind", "card_set", "is_sample"]
    search_fields = ["code", "card__id", "card__name", "card__name_ja", "label"]
    readonly_fields = ["code"]
    raw_id_fields = ["card"]

    def has_delete_permission(self, request, obj=None):
        # A card keeps its first printing (it goes only with the card).
        if obj is not None and obj.kind == Printing.Kind.FIRST:
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm
    inlines = [PrintingInline]

    def save_model(self, request, obj, form, change):
        """Write through the catalog's one apply path: a revision, and decks re-validate."""
        row = dict(form.card_row)
        row["source"] = row["source"] or f"admin edit by {request.user.username}"
        apply_rows([row], source=row["source"], accepted_by=request.user)
        obj.refresh_from_db()

    list_display = [
        "id",
        "name",
        "name_ja",
        "kind",
        "position",
        "team",
        "shoot",
        "keep",
        "defense",
        "is_sample",
    ]
    list_filter = ["card_set", "kind", "position", "is_sample", "rarity", "team"]
    search_fields = ["id", "name", "name_ja", "person", "effect"]
    list_select_related = ["team"]
    ordering = ["card_set__display_order", "number"]


@admin.register(CardProposal)
class CardProposalAdmin(admin.ModelAdmin):
    list_display = ["card_id", "proposer", "status", "reviewer", "created_at"]
    list_filter = ["status", "card_set"]
    search_fields = ["card_id", "proposer__username", "source"]
    readonly_fields = ["proposer", "reviewer", "created_at", "updated_at", "reviewed_at"]


@admin.register(CardRevision)
class CardRevisionAdmin(admin.ModelAdmin):
    list_display = ["card", "number", "proposed_by", "accepted_by", "source", "created_at"]
    search_fields = ["card__id", "source"]
    readonly_fields = [f.name for f in CardRevision._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(CardNoteProposal)
class CardNoteProposalAdmin(admin.ModelAdmin):
    """Errata and rulings are reviewed on /review/ (the version check and the daily limit
    live there); the admin shows them, and may delete one."""

    list_display = ["card", "kind", "proposer", "status", "reviewer", "created_at"]
    list_filter = ["kind", "status"]
    search_fields = ["card__id", "proposer__username", "source"]
    readonly_fields = [f.name for f in CardNoteProposal._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class _AcceptedNoteAdmin(admin.ModelAdmin):
    """An accepted erratum or ruling came through review: shown, deletable, never edited here
    (a correction is a new proposal)."""

    search_fields = ["card__id", "source"]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Erratum)
class ErratumAdmin(_AcceptedNoteAdmin):
    list_display = ["card", "printed_text", "current_text", "source", "accepted_by", "created_at"]


@admin.register(Ruling)
class RulingAdmin(_AcceptedNoteAdmin):
    list_display = ["card", "ruling_date", "text", "source", "accepted_by", "created_at"]


@admin.register(CardScan)
class CardScanAdmin(admin.ModelAdmin):
    list_display = ["token", "side", "card", "proposal", "width", "height", "created_at"]
    readonly_fields = ["token", "width", "height", "thumbnail", "normal", "large"]


@admin.register(ScanUpload)
class ScanUploadAdmin(admin.ModelAdmin):
    """Uploads waiting for, or failed at, the control worker (catalog.tasks.scan_process)."""

    list_display = ["token", "side", "proposal", "status", "reason", "created_at", "updated_at"]
    list_filter = ["status"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class PrintingProposalEditInline(admin.TabularInline):
    """A printing proposal's edits, each with what it replaced (read-only: its history)."""

    model = PrintingProposalEdit
    extra = 0
    can_delete = False
    fields = readonly_fields = ["editor", "created_at", "previous"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(PrintingProposal)
class PrintingProposalAdmin(admin.ModelAdmin):
    """Read-only: proposed printings are reviewed on their own page (catalog.contributions)."""

    list_display = [
        "card",
        "card_set",
        "number",
        "kind",
        "proposer",
        "status",
        "version",
        "created_at",
    ]
    list_filter = ["status", "kind"]
    search_fields = ["card__id", "proposer__username", "source"]
    readonly_fields = [f.name for f in PrintingProposal._meta.fields]
    inlines = [PrintingProposalEditInline]

    def has_add_permission(self, request):
        return False
