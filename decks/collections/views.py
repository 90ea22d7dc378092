"""Collection pages: my collection (bulk grid, CSV, export, sharing), set checklists,
the shared pool, trade lists, a shared read-only page and a trade match. Thin: selectors
read, services write."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from cardsite.web.numbers import whole_number_or
from cardsite.web.redirects import same_site_path
from catalog.models import CardSet, Printing
from decks.collections import selectors as sel
from decks.collections.services import (
    MAX_CSV_BYTES,
    CollectionError,
    collection_add_copies,
    collection_entries_save,
    collection_entry_set,
    collection_get_or_create,
    collection_import_csv,
    collection_set_visibility,
)
from decks.models import Collection, CollectionEntry


@login_required
@require_GET
def collection_home(request):
    collection = collection_get_or_create(owner=request.user)
    sets = CardSet.objects.order_by("display_order")
    grid_set = sets.filter(code=request.GET.get("set", "").upper()).first() or sets.first()
    counts = sel.owned_counts(request.user)
    grid = []
    if grid_set is not None:
        grid = sel.grid_printings(request.user, grid_set)
    context = {
        "collection": collection,
        "completion": sel.sets_completion(request.user),
        "sets": sets,
        "grid_set": grid_set,
        "grid": grid,
        "visibilities": Collection.Visibility.choices,
        "max_kb": MAX_CSV_BYTES // 1024,
        "owned_total": sum(counts.values()),
        "owned_kinds": len(counts),
    }
    return render(request, "decks/collection/home.html", context)


def _back(request, fallback: str = "decks:collection"):
    target = same_site_path(request.POST.get("next", ""))
    return redirect(target or fallback)


@login_required
@require_POST
def collection_grid_save(request):
    """Save the bulk grid of one set: every `qty-<printing code>` field (a first printing's
    code is its card id), each the printing's plain row, whole or not at all."""
    fields = {name[4:]: value for name, value in request.POST.items() if name.startswith("qty-")}
    printings = {
        p.code.lower(): p
        for p in Printing.objects.filter(code__in=list(fields)).only("code", "card_id")
    }
    items = []
    for code, value in fields.items():
        printing = printings.get(code.lower())
        if printing is None:  # a code that is no printing: named as the card it would be
            items.append({"card": code, "quantity": value})
        else:
            items.append({"card": printing.card_id, "printing": printing.code, "quantity": value})
    existing = {
        e.printing.code: e
        for e in CollectionEntry.objects.filter(
            owner=request.user,
            printing__in=printings.values(),
            condition="",
            language="",
        ).select_related("printing")
    }
    for item in items:
        entry = existing.get(item.get("printing", ""))
        if entry is not None:
            quantity = whole_number_or(str(item["quantity"]).strip(), 0)
            item["for_trade"] = min(entry.for_trade, quantity)
            item["wanted"] = entry.wanted
    before = {code: entry.quantity for code, entry in existing.items()}
    try:
        collection_entries_save(owner=request.user, items=items)
    except CollectionError as exc:
        for message in exc.messages:
            messages.error(request, message)
        return _back(request)
    # The grid sends every card of the set: say how many the person changed, not the set's size.
    after = sel.plain_quantities(request.user, [p.code for p in printings.values()])
    changed = sum(
        1 for code in set(before) | set(after) if before.get(code, 0) != after.get(code, 0)
    )
    if changed:
        messages.success(
            request,
            ngettext("Saved: %(n)d card changed.", "Saved: %(n)d cards changed.", changed)
            % {"n": changed},
        )
    else:
        messages.info(request, _("Nothing to save: every quantity was as before."))
    return _back(request)


@login_required
@require_POST
def collection_card_save(request, card_id):
    """Save one card's variant from the card page."""
    try:
        collection_entry_set(
            owner=request.user,
            card_id=card_id,
            quantity=request.POST.get("quantity", ""),
            condition=request.POST.get("condition", ""),
            language=request.POST.get("language", ""),
            for_trade=request.POST.get("for_trade", ""),
            wanted=request.POST.get("wanted", ""),
            printing=request.POST.get("printing", ""),
        )
        messages.success(request, _("Your collection is saved."))
    except CollectionError as exc:
        for message in exc.messages:
            messages.error(request, message)
    return _back(request)


@login_required
@require_POST
def collection_add(request):
    """Add or remove one copy (checklist buttons and keys); answer the new counts as JSON."""
    delta = whole_number_or(request.POST.get("delta", "1"), None, low=None, signed=True)
    if delta is None:
        return JsonResponse({"error": _("delta must be a whole number.")}, status=400)
    if delta not in (-1, 1):
        return JsonResponse({"error": _("delta must be 1 or -1.")}, status=400)
    card_id = request.POST.get("card", "")
    try:
        quantity = collection_add_copies(owner=request.user, card_id=card_id, delta=delta)
    except CollectionError as exc:
        return JsonResponse({"error": exc.messages[0]}, status=400)
    owned = sel.owned_counts(request.user)
    card_set = CardSet.objects.get(cards__id=card_id.upper())
    done = sel.set_completion(request.user, card_set, owned)
    return JsonResponse(
        {
            "card": card_id.upper(),
            "quantity": owned.get(card_id.upper(), 0),
            "row_quantity": quantity,
            "owned": done.owned,
            "total": done.total,
            "percent": done.percent,
            "missing": done.missing,
        }
    )


@login_required
@require_GET
def collection_set(request, code):
    """A set's checklist: click a number (or press + / - on it) to add or remove a copy."""
    card_set = get_object_or_404(CardSet, code=code.upper())
    counts = sel.owned_counts(request.user)
    cards = [(card, counts.get(card.id, 0)) for card in card_set.cards.order_by("number")]
    done = sel.set_completion(request.user, card_set, counts)
    return render(
        request,
        "decks/collection/set.html",
        {"set": card_set, "cards": cards, "done": done, "editable": True},
    )


@login_required
@require_POST
def collection_import(request):
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, _("Choose a CSV file to upload."))
        return redirect("decks:collection")
    if upload.size > MAX_CSV_BYTES:
        messages.error(
            request, _("The file is too large (at most %(n)d KB).") % {"n": MAX_CSV_BYTES // 1024}
        )
        return redirect("decks:collection")
    try:
        count = collection_import_csv(
            owner=request.user, data=upload.read(), replace=request.POST.get("replace") == "on"
        )
        messages.success(request, _("Imported %(n)d lines.") % {"n": count})
    except CollectionError as exc:
        messages.error(request, _("Nothing was imported."))
        for message in exc.messages[:50]:
            messages.error(request, message)
    return redirect("decks:collection")


@login_required
@require_GET
def collection_export(request, fmt):
    if fmt == "csv":
        response = HttpResponse(
            sel.export_csv(request.user), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = 'attachment; filename="collection.csv"'
        return response
    body = json.dumps({"entries": sel.export_rows(request.user)}, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="collection.json"'
    return response


@login_required
@require_POST
def collection_settings(request):
    try:
        collection_set_visibility(owner=request.user, visibility=request.POST.get("visibility", ""))
        messages.success(request, _("Sharing settings saved."))
    except CollectionError as exc:
        messages.error(request, exc.messages[0])
    return redirect("decks:collection")


@login_required
@require_GET
def collection_pool(request):
    return render(request, "decks/collection/pool.html", {"lines": sel.shared_pool(request.user)})


def _trade_context(owner):
    return {
        "haves": sel.cards_with_marks(sel.haves(owner), sel.marks_by_printing(owner, "for_trade")),
        "wants": sel.cards_with_marks(sel.wants(owner), sel.marks_by_printing(owner, "wanted")),
    }


@login_required
@require_GET
def collection_trade(request):
    collection = collection_get_or_create(owner=request.user)
    context = {"collection": collection, "owner": request.user, **_trade_context(request.user)}
    return render(request, "decks/collection/trade.html", context)


@require_GET
def collection_shared(request, slug):
    """The read-only page behind a share link: completion, haves, wants."""
    collection = sel.collection_for_viewer(slug=slug, user=request.user)
    owner = collection.owner
    context = {
        "collection": collection,
        "owner": owner,
        "completion": sel.sets_completion(owner),
        "is_owner": request.user.is_authenticated and request.user.pk == owner.pk,
        **_trade_context(owner),
    }
    if request.user.is_authenticated and request.user.pk != owner.pk:
        context["match"] = sel.trade_match(request.user, owner)
    return render(request, "decks/collection/shared.html", context)
