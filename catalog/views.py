"""Catalog pages: home (sets and products), set, search and card pages, and bulk data."""

import json

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from catalog import cache as catalog_cache
from catalog import opendata
from catalog.contributions.selectors import set_checklist_context, sets_progress
from catalog.contributions.services import is_editor
from catalog.extensions import card_sections, user_search_terms
from catalog.faces import cached_face, card_face_cached
from catalog.importer import export_rows
from catalog.models import Card, CardSet, Team
from catalog.search.query import QuerySyntaxError
from catalog.search.selectors import card_filter_form_to_query, card_search

PAGE_SIZE = 60
CARD_VIEWS = ("table", "grid")
CARD_VIEW_COOKIE = "card_view"
CARD_VIEW_MAX_AGE = 365 * 24 * 60 * 60
SORT_CHOICES = [
    ("name", _("Name")),
    ("shoot", _("Shoot")),
    ("keep", _("Keep")),
    ("defense", _("Defense")),
    ("team", _("Team")),
]


def _card_view(request) -> tuple[str, bool]:
    """Return the card list view to show (table or grid) and whether the user just chose it.

    A choice (`?view=grid`) is remembered in a cookie, so it holds for the user's next
    searches and set pages, signed in or not.
    """
    chosen = request.GET.get("view")
    if chosen in CARD_VIEWS:
        return chosen, True
    stored = request.COOKIES.get(CARD_VIEW_COOKIE)
    return (stored if stored in CARD_VIEWS else "table"), False


def _view_params(request) -> str:
    params = request.GET.copy()
    params.pop("view", None)
    params.pop("page", None)
    return params.urlencode()


def _remember_view(response, view: str, chosen: bool):
    if chosen:
        response.set_cookie(
            CARD_VIEW_COOKIE, view, max_age=CARD_VIEW_MAX_AGE, samesite="Lax", httponly=True
        )
    return response


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
    context = {"sets": sets, "stats": stats, "progress": sets_progress()}
    return render(request, "catalog/home.html", context)


@require_GET
def set_detail(request, code):
    card_set = get_object_or_404(CardSet.objects.prefetch_related("products"), code=code.upper())
    cards = card_set.cards.select_related("team").order_by("number")
    # order_by() clears the number ordering, which would otherwise join the GROUP BY and count
    # every card alone (the page showed 1 / 1 / 1).
    kinds = cards.order_by().values("kind").annotate(n=Count("id"))
    counts = {row["kind"]: row["n"] for row in kinds}
    view, chosen = _card_view(request)
    context = {
        "set": card_set,
        "cards": cards,
        "counts": counts,
        "card_view": view,
        "view_params": _view_params(request),
        **set_checklist_context(card_set),
    }
    return _remember_view(render(request, "catalog/set_detail.html", context), view, chosen)


def _filter_choices() -> dict:
    """Return the set and club options of the search filters as (code, label) pairs."""
    japanese = get_language() == "ja"
    sets = CardSet.objects.values_list("code", "name", "name_ja")
    teams = Team.objects.values_list("code", "name", "name_ja")
    return {
        "sets": [(code, f"{code} · {ja if japanese else en}") for code, en, ja in sets],
        "teams": [(code, ja if japanese else en) for code, en, ja in teams],
    }


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
    view, chosen = _card_view(request)
    context = {
        "card_view": view,
        "view_params": _view_params(request),
        "query": form_query,
        "error": error,
        "page": page,
        "params": params.urlencode(),
        **_filter_choices(),
        "form": request.GET,
        "sort_choices": SORT_CHOICES,
        # Terms other apps answer for the signed-in user (`is:owned`): in the syntax help.
        "user_terms": list(user_search_terms.values()) if request.user.is_authenticated else [],
    }
    template = (
        "catalog/_results.html" if request.headers.get("HX-Request") else "catalog/search.html"
    )
    response = render(request, template, context, status=400 if error else 200)
    return _remember_view(response, view, chosen)


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
    printings = sorted(
        card.printings.select_related("card_set"),
        key=lambda p: (p.kind != p.Kind.FIRST, p.card_set.display_order, p.number, p.code),
    )
    # Each printing's newest front scan of the card (a scan that names no printing shows the
    # first print); the row offers to add one where there is none.
    scan_of: dict = {}
    for scan in card.scans.filter(side="front").order_by("-created_at", "-id"):
        key = scan.printing_id or next((p.pk for p in printings if p.kind == p.Kind.FIRST), None)
        scan_of.setdefault(key, scan)
    for printing in printings:
        printing.front_scan = scan_of.get(printing.pk)
    context = {
        "card": card,
        "printings": printings,
        "same_person": same_person,
        "extra_sections": sections,
    }
    return render(request, "catalog/card_detail.html", context)


@require_GET
def card_face(request, card_id):
    """Return the card's generated face (SVG), cached under the catalog version.

    Pages link to it with `?v=<version>`; such a URL never changes meaning, so browsers may
    keep it for a year. Without the right version it is cached only briefly.
    """
    card_id = card_id.upper()
    version = catalog_cache.catalog_version()
    svg = cached_face(version=version, card_id=card_id)
    if svg is None:
        card = get_object_or_404(Card.objects.select_related("card_set", "team"), id=card_id)
        svg = card_face_cached(card, version=version)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    if request.GET.get("v") == version:
        response["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response["Cache-Control"] = "public, max-age=300"
    response["ETag"] = f'"{version}-{card_id}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@require_GET
def open_data(request):
    """The open-data page: what the export holds, its licence, and every file with its checksum."""
    index = json.loads(opendata.served("index.json"))
    return render(
        request,
        "catalog/open_data.html",
        {
            "index": index,
            "totals": {
                key: sum(s[key] for s in index["sets"]) for key in ("cards", "real", "sample")
            },
            "can_import": is_editor(request.user),
        },
    )


@require_GET
def open_data_file(request, name: str):
    """One file of the open-data export: index.json, sets/<code>.json or the schema."""
    if name == "open-data.schema.json":
        text = opendata.SCHEMA.read_text(encoding="utf-8")
    else:
        text = opendata.served(name)
    if text is None:
        raise Http404
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name.rpartition("/")[2]}"'
    response["Access-Control-Allow-Origin"] = "*"  # open data: any site may read it
    response["Cache-Control"] = "public, max-age=300"
    return response


@require_GET
def bulk_data(request):
    """Return every card as one JSON file (like Scryfall's bulk data); import_cards reads it."""
    body = json.dumps({"cards": export_rows()}, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="eleven-stars-cards.json"'
    return response
