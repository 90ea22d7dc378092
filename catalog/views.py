"""Catalog pages: home (sets and products), set, search and card pages, and bulk data."""

import json

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from catalog.extensions import card_sections
from catalog.importer import export_rows
from catalog.models import Card, CardSet, Team
from catalog.search import QuerySyntaxError
from catalog.selectors import card_filter_form_to_query, card_search

PAGE_SIZE = 60
SORT_CHOICES = [
    ("name", _("Name")),
    ("shoot", _("Shoot")),
    ("keep", _("Keep")),
    ("defense", _("Defense")),
    ("team", _("Team")),
]


@require_GET
def home(request):
    sets = (
        CardSet.objects.prefetch_related("products")
        .annotate(card_count=Count("cards"))
        .order_by("display_order")
    )
    stats = {
        "cards": Card.objects.count(),
        "sample": Card.objects.filter(is_sample=True).count(),
        "teams": Team.objects.count(),
    }
    return render(request, "catalog/home.html", {"sets": sets, "stats": stats})


@require_GET
def set_detail(request, code):
    card_set = get_object_or_404(CardSet.objects.prefetch_related("products"), code=code.upper())
    cards = card_set.cards.select_related("team").order_by("number")
    counts = {row["kind"]: row["n"] for row in cards.values("kind").annotate(n=Count("id"))}
    return render(
        request, "catalog/set_detail.html", {"set": card_set, "cards": cards, "counts": counts}
    )


@require_GET
def search(request):
    form_query = card_filter_form_to_query(request.GET)
    error = None
    page = None
    if form_query or "q" in request.GET:
        try:
            results = card_search(query=form_query, user=request.user)
            page = Paginator(results, PAGE_SIZE).get_page(request.GET.get("page"))
        except QuerySyntaxError as exc:
            error = str(exc)
    params = request.GET.copy()
    params.pop("page", None)
    context = {
        "query": form_query,
        "error": error,
        "page": page,
        "params": params.urlencode(),
        "sets": CardSet.objects.all(),
        "teams": Team.objects.all(),
        "form": request.GET,
        "sort_choices": SORT_CHOICES,
    }
    template = (
        "catalog/_results.html" if request.headers.get("HX-Request") else "catalog/search.html"
    )
    return render(request, template, context, status=400 if error else 200)


@require_GET
def card_detail(request, card_id):
    card = get_object_or_404(Card.objects.select_related("card_set", "team"), id=card_id.upper())
    same_person = (
        Card.objects.filter(person=card.person)
        .exclude(id=card.id)
        .select_related("card_set", "team")
        if card.person
        else Card.objects.none()
    )
    sections = card_sections(request, card)
    context = {"card": card, "same_person": same_person, "extra_sections": sections}
    return render(request, "catalog/card_detail.html", context)


@require_GET
def bulk_data(request):
    """Return every card as one JSON file (like Scryfall's bulk data); import_cards reads it."""
    body = json.dumps({"cards": export_rows()}, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="eleven-stars-cards.json"'
    return response
