"""Deck pages: index, deck page, builder (with its htmx fragments), versions, import, export."""

import io
import json
import zipfile
from fractions import Fraction

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalog.models import Card
from catalog.search import QuerySyntaxError
from catalog.selectors import card_search
from decks import collection_selectors, odds, summary
from decks.content import ContentError, DeckContent, content_diff
from decks.export import deck_as_json, deck_as_text
from decks.extensions import deck_sections
from decks.forms import DeckDetailsForm, DeckImportForm, DeckSearchForm
from decks.legality import content_problems
from decks.models import Deck
from decks.selectors import (
    deck_content,
    deck_for_owner,
    deck_for_viewer,
    deck_source_shown_to,
    public_decks,
    user_decks,
)
from decks.services import (
    DeckImportError,
    DeckSaveError,
    deck_copy,
    deck_create,
    deck_delete,
    deck_import_text,
    deck_save,
)

SEARCH_RESULTS = 40
INDEX_PAGE_SIZE = 30


# --- helpers -------------------------------------------------------------------------------


def _cards_known(content: DeckContent) -> tuple[dict[str, Card], list[str]]:
    """Return the content's cards that exist, and the ids that do not (sorted)."""
    ids = content.card_ids()
    cards = Card.objects.select_related("team", "card_set").in_bulk(list(ids))
    return cards, sorted(ids - set(cards))


def _without(content: DeckContent, missing: list[str]) -> DeckContent:
    gone = set(missing)
    return DeckContent(
        None if content.goalkeeper in gone else content.goalkeeper,
        None if content.pk_goalkeeper in gone else content.pk_goalkeeper,
        {c: n for c, n in content.deck.items() if c not in gone},
        {c: n for c, n in content.bench.items() if c not in gone},
    )


def builder_state(content: DeckContent) -> dict:
    """Return the builder fragment's context: columns, counters, problems, unknown cards."""
    cards, missing = _cards_known(content)
    known = _without(content, missing)
    problems = content_problems(known, cards)
    return {
        "deck_groups": summary.zone_groups(known.deck, cards),
        "bench_groups": summary.zone_groups(known.bench, cards),
        "counters": summary.counters(known, cards),
        "problems": [p.to_dict() for p in problems],
        "missing": missing,
        "problem_count": len(problems) + len(missing),
        "legal": not problems and not missing,
    }


def _draft_from(request) -> tuple[DeckContent, list[str]]:
    """Return the draft posted by the builder, or an empty one and the reason it is unreadable."""
    raw = request.POST.get("draft", "")
    try:
        return DeckContent.from_json(json.loads(raw or "{}")), []
    except json.JSONDecodeError:
        return DeckContent(), [_("The deck draft could not be read.")]
    except ContentError as exc:
        return DeckContent(), exc.messages


def _builder_page(request, *, deck, form, content, errors=(), dirty=False, status=200):
    goalkeepers = Card.objects.filter(kind=Card.Kind.GOALKEEPER).select_related("card_set")
    context = {
        "deck": deck,
        "form": form,
        "draft_json": json.dumps(content.to_json()),
        "errors": list(errors),
        "dirty": dirty,
        "goalkeepers": goalkeepers,
        "content": content,
        **builder_state(content),
    }
    return render(request, "decks/builder.html", context, status=status)


def _fraction_percent(value: Fraction | None) -> str:
    if value is None:
        return "—"
    return f"{float(value) * 100:.1f}%"


def _int_param(request, name: str, default: int, low: int, high: int) -> int:
    try:
        value = int(request.GET.get(name, default))
    except (TypeError, ValueError):
        return default
    return max(low, min(high, value))


# --- pages ---------------------------------------------------------------------------------


@require_GET
def deck_index(request):
    form = DeckSearchForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    decks = public_decks(
        name=filters.get("name", ""),
        card=filters.get("card", ""),
        owner=filters.get("owner", ""),
        legal_only=filters.get("legal", False),
    )
    page = Paginator(decks, INDEX_PAGE_SIZE).get_page(request.GET.get("page"))
    params = request.GET.copy()
    params.pop("page", None)
    return render(
        request, "decks/index.html", {"form": form, "page": page, "params": params.urlencode()}
    )


@require_GET
def deck_detail(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    content = deck_content(deck)
    cards, _missing = _cards_known(content)
    problems = content_problems(content, cards)
    stats = summary.deck_stats(content, cards)
    categories = summary.odds_categories(content, cards)
    chosen = request.GET.get("odds", "event")
    category = next((c for c in categories if c["key"] == chosen), categories[0])
    hits = _int_param(request, "k", 1, 1, 60)
    draws = _int_param(request, "n", 4, 0, 56)
    size = stats["size"]
    calc = summary.odds_row(population=size, successes=category["count"], hits=hits, draws=draws)
    odds_table = []
    for cat in categories[:9]:
        row = summary.odds_row(population=size, successes=cat["count"], hits=1, draws=draws)
        odds_table.append(
            {
                **cat,
                "opening": _fraction_percent(row["opening"]),
                "after": _fraction_percent(row["after"]),
            }
        )
    context = {
        "deck": deck,
        "is_owner": request.user.is_authenticated and deck.owner_id == request.user.id,
        "source": deck_source_shown_to(deck, request.user),
        "problems": [p.to_dict() for p in problems],
        "extra_sections": deck_sections(request, deck, is_legal=not problems),
        "deck_groups": summary.zone_groups(content.deck, cards),
        "bench_groups": summary.zone_groups(content.bench, cards),
        "stats": stats,
        "chart_data": {
            "labels": stats["histogram"]["values"],
            "series": stats["histogram"]["series"],
            "names": {"shoot": _("Shoot"), "keep": _("Keep"), "defense": _("Defense")},
        },
        "odds_categories": categories,
        "odds_choice": {
            "key": category["key"],
            "hits": hits,
            "draws": draws,
            "opening": _fraction_percent(calc["opening"]),
            "after": _fraction_percent(calc["after"]),
            "seen": odds.seen_after(draws),
        },
        "odds_table": odds_table,
        "opening_hand": odds.OPENING_HAND,
        "version": deck.versions.order_by("-number").first(),
    }
    # The owner is told when the newest version was made by a catalog change (sample → real).
    latest = context["version"]
    context["catalog_notice"] = latest if latest is not None and latest.catalog_change else None
    return render(request, "decks/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def deck_new(request):
    if request.method == "GET":
        form = DeckDetailsForm(initial={"visibility": Deck.Visibility.PRIVATE})
        return _builder_page(request, deck=None, form=form, content=DeckContent())
    form = DeckDetailsForm(request.POST)
    content, errors = _draft_from(request)
    if form.is_valid() and not errors:
        try:
            deck = deck_create(
                owner=request.user,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                visibility=form.cleaned_data["visibility"],
                content=content,
            )
        except DeckSaveError as exc:
            errors = exc.messages
        else:
            _saved_message(request, deck)
            return redirect(deck)
    return _builder_page(request, deck=None, form=form, content=content, errors=errors, dirty=True)


def _saved_message(request, deck: Deck) -> None:
    if deck.is_legal:
        messages.success(request, _("Deck saved. It is legal."))
    else:
        messages.warning(
            request, _("Deck saved as a draft. It is not legal yet: see the problems below.")
        )


@login_required
@require_http_methods(["GET", "POST"])
def deck_edit(request, slug):
    deck = deck_for_owner(slug=slug, user=request.user)
    if request.method == "GET":
        form = DeckDetailsForm(
            initial={
                "name": deck.name,
                "description": deck.description,
                "visibility": deck.visibility,
            }
        )
        return _builder_page(request, deck=deck, form=form, content=deck_content(deck))
    form = DeckDetailsForm(request.POST)
    content, errors = _draft_from(request)
    if form.is_valid() and not errors:
        try:
            deck_save(
                deck=deck,
                editor=request.user,
                content=content,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                visibility=form.cleaned_data["visibility"],
            )
        except DeckSaveError as exc:
            errors = exc.messages
            deck.refresh_from_db()
        else:
            _saved_message(request, deck)
            return redirect(deck)
    return _builder_page(request, deck=deck, form=form, content=content, errors=errors, dirty=True)


@require_POST
def builder_preview(request):
    """Return the builder's columns, counters and problems for the posted draft (htmx)."""
    content, errors = _draft_from(request)
    context = {**builder_state(content), "errors": errors, "oob": True}
    if request.user.is_authenticated:
        context["needs"] = collection_selectors.deck_needs(content, request.user)
    return render(request, "decks/_builder_state.html", context)


@require_GET
def builder_cards(request):
    """Return the builder's search results for a catalog query (htmx)."""
    query = request.GET.get("q", "").strip()
    error, cards, total = None, [], 0
    if query and request.GET.get("owned") == "1":
        query = f"({query}) is:owned"  # the builder limited to owned cards
    if query:
        try:
            results = card_search(query=query, user=request.user)
            cards = list(results[:SEARCH_RESULTS])
            total = results.count() if len(cards) == SEARCH_RESULTS else len(cards)
        except QuerySyntaxError as exc:
            error = str(exc)
    return render(
        request,
        "decks/_builder_results.html",
        {"query": query, "cards": cards, "total": total, "error": error},
    )


@login_required
@require_POST
def deck_copy_view(request, slug):
    source = deck_for_viewer(slug=slug, user=request.user)
    content = None
    if request.POST.get("owned_only") == "1":
        content = collection_selectors.content_owned_only(deck_content(source), request.user)
    deck = deck_copy(deck=source, owner=request.user, content=content)
    messages.success(request, _("Copied into your decks. The copy is private."))
    return redirect(deck)


@login_required
@require_http_methods(["GET", "POST"])
def deck_delete_view(request, slug):
    deck = deck_for_owner(slug=slug, user=request.user)
    if request.method == "POST":
        deck_delete(deck=deck)
        messages.success(request, _("Deck deleted."))
        return redirect("profile", username=request.user.username)
    return render(request, "decks/delete.html", {"deck": deck})


@require_GET
def deck_versions(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    versions = list(deck.versions.select_related("editor").order_by("-number"))
    by_number = {v.number: v for v in versions}
    compare = None
    if len(versions) >= 2:
        newest, previous = versions[0].number, versions[1].number
        a = by_number.get(_int_param(request, "a", previous, 1, 10**9)) or by_number[previous]
        b = by_number.get(_int_param(request, "b", newest, 1, 10**9)) or by_number[newest]
        before, after = DeckContent.from_json(a.content), DeckContent.from_json(b.content)
        diff = content_diff(before, after)
        names = dict(
            Card.objects.filter(id__in=before.card_ids() | after.card_ids()).values_list(
                "id", "name"
            )
        )
        zones = []
        for zone, label in (("deck", _("Deck")), ("bench", _("Bench"))):
            changes = [
                {
                    "card": c.card,
                    "name": names.get(c.card, "?"),
                    "delta": c.delta,
                    "amount": abs(c.delta),
                    "before": c.before,
                    "after": c.after,
                }
                for c in diff.added[zone] + diff.removed[zone]
            ]
            zones.append({"label": label, "changes": changes})
        keepers = []
        for label, change in (
            (_("Goalkeeper"), diff.goalkeeper),
            (_("PK goalkeeper"), diff.pk_goalkeeper),
        ):
            if change:
                keepers.append(
                    {
                        "label": label,
                        "before": change[0],
                        "before_name": names.get(change[0], ""),
                        "after": change[1],
                        "after_name": names.get(change[1], ""),
                    }
                )
        compare = {
            "a": a,
            "b": b,
            "zones": zones,
            "keepers": keepers,
            "renamed": a.name != b.name,
            "empty": diff.is_empty and a.name == b.name,
        }
    return render(
        request,
        "decks/versions.html",
        {"deck": deck, "versions": versions, "compare": compare},
    )


def _filename(deck: Deck, ext: str) -> str:
    return f"{slugify(deck.name) or 'deck'}-{deck.slug}.{ext}"


@require_GET
def deck_export_text(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    response = HttpResponse(deck_as_text(deck), content_type="text/plain; charset=utf-8")
    if "download" in request.GET:
        response["Content-Disposition"] = f'attachment; filename="{_filename(deck, "txt")}"'
    return response


@require_GET
def deck_export_json(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    response = JsonResponse(
        deck_as_json(deck), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    if "download" in request.GET:
        response["Content-Disposition"] = f'attachment; filename="{_filename(deck, "json")}"'
    return response


@require_GET
def deck_print(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    content = deck_content(deck)
    cards, _missing = _cards_known(content)
    context = {
        "deck": deck,
        "deck_groups": summary.zone_groups(content.deck, cards),
        "bench_groups": summary.zone_groups(content.bench, cards),
        "stats": summary.deck_stats(content, cards),
        "bench_count": sum(content.bench.values()),
        "printed": timezone.localdate(),
        "version": deck.versions.order_by("-number").first(),
    }
    return render(request, "decks/print.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def deck_import(request):
    form = DeckImportForm(request.POST or None, request.FILES or None)
    line_errors = []
    if request.method == "POST" and form.is_valid():
        try:
            deck = deck_import_text(
                owner=request.user,
                text=form.cleaned_data["text"],
                name=form.cleaned_data["name"],
                visibility=form.cleaned_data["visibility"],
            )
        except DeckImportError as exc:
            line_errors = exc.errors
        else:
            _saved_message(request, deck)
            return redirect(deck)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "decks/import.html", {"form": form, "line_errors": line_errors}, status=status
    )


@login_required
@require_GET
def my_decks_download(request, fmt):
    """Return all the user's decks: a zip of text files, or one JSON file."""
    decks = list(user_decks(owner=request.user, viewer=request.user))
    stamp = timezone.localdate().isoformat()
    if fmt == "json":
        body = json.dumps({"decks": [deck_as_json(d) for d in decks]}, ensure_ascii=False, indent=1)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="decks-{stamp}.json"'
        return response
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for deck in decks:
            archive.writestr(_filename(deck, "txt"), deck_as_text(deck))
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="decks-{stamp}.zip"'
    return response
