"""Deck pages: index, deck page, builder (with its htmx fragments), versions, import, export."""

import io
import json
import zipfile
from fractions import Fraction

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardsite.web.json_limits import JSONLimitError, loads_bounded
from cardsite.web.numbers import whole_number_or
from catalog.contributions.selectors import notes_of, printings_of, proposals_of
from catalog.models import Card
from catalog.search.query import QuerySyntaxError
from catalog.search.selectors import card_search
from decks import catalog_changes, odds, summary
from decks.collections import selectors as collection_selectors
from decks.content import ContentError, DeckContent, content_diff
from decks.description import description_html
from decks.extensions import deck_sections
from decks.formats.export import deck_as_json, deck_as_markdown, deck_as_name_list, deck_as_text
from decks.formats.text import LineError, parse_deck_text, parse_name_list
from decks.formats.version_text import version_summary
from decks.forms import DeckDetailsForm, DeckImportForm, DeckSearchForm
from decks.legality import content_problems
from decks.merge import DeckState, deck_merge
from decks.models import Deck
from decks.selectors import (
    catalog_names,
    deck_columns,
    deck_content,
    deck_for_owner,
    deck_for_viewer,
    deck_is_starred,
    deck_source_shown_to,
    public_decks,
    sample_decks,
    starred_decks,
    user_decks,
)
from decks.services import (
    DeckConflict,
    DeckImportError,
    DeckSaveError,
    deck_copy,
    deck_create,
    deck_delete,
    deck_import_text,
    deck_save,
    deck_star_set,
    unknown_card_lines,
)

SEARCH_RESULTS = 40
# A legal deck's draft is about 2 kB; 100 kB leaves room for any draft a person can build.
DRAFT_MAX_BYTES = 100_000
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
        return DeckContent.from_json(loads_bounded(raw or "{}", max_bytes=DRAFT_MAX_BYTES)), []
    except JSONLimitError as exc:
        return DeckContent(), [_("The deck draft could not be read: %(reason)s.") % {"reason": exc}]
    except ContentError as exc:
        return DeckContent(), exc.messages


def _builder_page(
    request,
    *,
    deck,
    form,
    content,
    errors=(),
    dirty=False,
    status=200,
    base_version=None,
    conflict=None,
    **extra,
):
    goalkeepers = Card.objects.filter(kind=Card.Kind.GOALKEEPER).select_related("card_set")
    if base_version is None and deck is not None:
        base_version = deck.versions.order_by("-number").values_list("number", flat=True).first()
    context = {
        "deck": deck,
        "starters": sample_decks() if deck is None else [],
        "result_sorts": [(key, label) for key, (label, _o) in summary.RESULT_SORTS.items()],
        "base_version": base_version,
        "conflict": conflict,
        **extra,
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
    value = whole_number_or(request.GET.get(name), None, low=None, signed=True)
    return default if value is None else max(low, min(high, value))


# --- pages ---------------------------------------------------------------------------------


@require_GET
def deck_index(request):
    form = DeckSearchForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    team = filters.get("team")
    chosen = {
        "name": filters.get("name", ""),
        "card": filters.get("card", ""),
        "owner": filters.get("owner", ""),
        "team": team.pk if team else "",
        "legal_only": filters.get("legal", False),
        "sort": filters.get("sort") or "newest",
    }
    decks = public_decks(**chosen, sample=False)
    page = Paginator(decks, INDEX_PAGE_SIZE).get_page(request.GET.get("page"))
    samples = list(public_decks(**{**chosen, "sort": chosen["sort"]}, sample=True))
    columns = deck_columns([*page.object_list, *samples])
    params = request.GET.copy()
    params.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "rows": [(d, columns[d.pk]) for d in page.object_list],
        "sample_rows": [(d, columns[d.pk]) for d in samples],
        "params": params.urlencode(),
    }
    return render(request, "decks/index.html", context)


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
        "description_html": description_html(deck.description),
        **_star_context(request, deck),
    }
    # The owner is told every catalogue change to the deck's cards not yet dismissed.
    if context["is_owner"]:
        unseen = list(catalog_changes.unseen_changes(deck))
        context["catalog_notices"] = [
            {
                "version": version,
                "lines": catalog_changes.change_lines(version),
                "problems": catalog_changes.change_problems(version),
            }
            for version in unseen
        ]
        context["catalog_seen_through"] = unseen[-1].number if unseen else 0
    return render(request, "decks/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def deck_new(request):
    if request.method == "GET":
        start = request.GET.get("from", "")
        source = deck_for_viewer(slug=start, user=request.user) if start else None
        form = DeckDetailsForm(
            initial={
                "visibility": Deck.Visibility.PRIVATE,
                "name": source.name if source else "",
                "description": source.description if source else "",
            }
        )
        content = deck_content(source) if source else DeckContent()
        return _builder_page(request, deck=None, form=form, content=content, dirty=bool(source))
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
    return _builder_page(
        request, deck=None, form=form, content=content, errors=errors, dirty=True, status=400
    )


def _saved_message(request, deck: Deck) -> None:
    if deck.is_legal:
        messages.success(request, _("Deck saved. It is legal."))
    else:
        messages.warning(
            request, _("Deck saved as a draft. It is not legal yet: see the problems below.")
        )


def _base_version(request) -> int | None:
    """Return the version number the posted edit started from (None when the page had none)."""
    raw = request.POST.get("base_version", "")
    return whole_number_or(raw, None)


def _version_state(version, *, fallback_visibility: str) -> DeckState:
    return DeckState(
        content=DeckContent.from_json(version.content),
        name=version.name,
        description=version.description,
        visibility=fallback_visibility,
    )


def _conflict_context(deck: Deck, conflict: DeckConflict, yours: DeckState) -> dict:
    """Return what the 409 page shows: your edit and the version saved since, side by side."""
    theirs = _version_state(conflict.current, fallback_visibility=deck.visibility)
    base = (
        _version_state(conflict.base, fallback_visibility=deck.visibility)
        if conflict.base
        else theirs
    )
    return {
        "current": conflict.current,
        "base_number": conflict.base.number if conflict.base else None,
        "theirs": theirs,
        "theirs_changes": content_diff(base.content, theirs.content).summary(),
        "yours": yours,
        "yours_changes": content_diff(base.content, yours.content).summary(),
        "yours_json": json.dumps(yours.content.to_json()),
    }


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
    base_version = _base_version(request)
    if form.is_valid() and not errors:
        yours = DeckState(
            content=content,
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            visibility=form.cleaned_data["visibility"],
        )
        if request.POST.get("merge") and base_version is not None:
            return _merged_page(request, deck=deck, yours=yours, base_version=base_version)
        try:
            deck_save(
                deck=deck,
                editor=request.user,
                content=content,
                name=yours.name,
                description=yours.description,
                visibility=yours.visibility,
                base_version=base_version,
            )
        except DeckConflict as conflict:
            deck.refresh_from_db()
            return _builder_page(
                request,
                deck=deck,
                form=form,
                content=content,
                dirty=True,
                status=409,
                base_version=base_version,
                conflict=_conflict_context(deck, conflict, yours),
            )
        except DeckSaveError as exc:
            errors = exc.messages
            deck.refresh_from_db()
        else:
            _saved_message(request, deck)
            return redirect(deck)
    return _builder_page(
        request,
        deck=deck,
        form=form,
        content=content,
        errors=errors,
        dirty=True,
        status=400,
        base_version=base_version,
    )


def _merged_page(request, *, deck: Deck, yours: DeckState, base_version: int):
    """Return the builder holding your edit merged into the latest version, to review and save."""
    current = deck.versions.order_by("-number").first()
    base = deck.versions.filter(number=base_version).first() or current
    theirs = DeckState(
        content=deck_content(deck),
        name=deck.name,
        description=deck.description,
        visibility=deck.visibility,
    )
    merged = deck_merge(
        base=_version_state(base, fallback_visibility=deck.visibility), yours=yours, theirs=theirs
    )
    form = DeckDetailsForm(
        initial={
            "name": merged.state.name,
            "description": merged.state.description,
            "visibility": merged.state.visibility,
        }
    )
    messages.info(
        request,
        _("Your changes were merged into version %(number)s. Check the deck, then save.")
        % {"number": current.number},
    )
    if merged.conflicts:
        messages.warning(
            request,
            _("Both edits changed %(fields)s; your value was kept.")
            % {"fields": ", ".join(merged.conflicts)},
        )
    return _builder_page(
        request,
        deck=deck,
        form=form,
        content=merged.state.content,
        dirty=True,
        base_version=current.number,
    )


@login_required
@require_POST
def builder_start(request):
    """Open a new deck's builder on a pasted deck text or plain list (nothing is saved yet)."""
    text = request.POST.get("text", "")
    parsed = parse_deck_text(text, default_section="deck")
    if parsed.errors:
        parsed = parse_name_list(text, catalog_names())
    line_errors = parsed.errors + unknown_card_lines(parsed)
    if line_errors or not parsed.card_lines():
        form = DeckDetailsForm(initial={"visibility": Deck.Visibility.PRIVATE})
        return _builder_page(
            request,
            deck=None,
            form=form,
            content=DeckContent(),
            start_text=text,
            start_errors=sorted(line_errors, key=lambda e: e.line)
            or [LineError(1, _("The text names no cards."))],
            status=400,
        )
    form = DeckDetailsForm(
        initial={"visibility": Deck.Visibility.PRIVATE, "name": parsed.name or ""}
    )
    return _builder_page(request, deck=None, form=form, content=parsed.content(), dirty=True)


@require_POST
def description_preview(request):
    """Return a description's Markdown rendered and sanitised, as the deck page will show it."""
    html = description_html(request.POST.get("description", "")[:2000])
    if not html:
        html = format_html('<p class="muted small">{}</p>', _("Nothing to preview yet."))
    return HttpResponse(html)


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
    """Return the builder's search results for a catalog query, sorted and grouped (htmx)."""
    query = request.GET.get("q", "").strip()
    sort = request.GET.get("sort", "")
    sort = sort if sort in summary.RESULT_SORTS else ""
    error, cards, total = None, [], 0
    if query and request.GET.get("owned") == "1":
        query = f"({query}) is:owned"  # the builder limited to owned cards
    if query:
        try:
            results = summary.results_sorted(card_search(query=query, user=request.user), sort=sort)
            cards = list(results[:SEARCH_RESULTS])
            total = results.count() if len(cards) == SEARCH_RESULTS else len(cards)
        except QuerySyntaxError as exc:
            error = str(exc)
    return render(
        request,
        "decks/_builder_results.html",
        {
            "query": query,
            "sort": sort,
            "cards": cards,
            "result_groups": summary.result_groups(cards, sort=sort),
            "total": total,
            "error": error,
        },
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
@require_POST
def deck_star_view(request, slug):
    """Star or unstar a deck (`starred` = 1 or 0); htmx gets the button back, others a redirect."""
    deck = deck_for_viewer(slug=slug, user=request.user)
    starred = request.POST.get("starred") == "1"
    try:
        deck_star_set(user=request.user, deck=deck, starred=starred)
    except DeckSaveError as exc:
        return HttpResponse(" ".join(exc.messages), status=400, content_type="text/plain")
    if request.headers.get("HX-Request"):
        return render(request, "decks/_star.html", _star_context(request, deck))
    return redirect(deck)


@login_required
@require_POST
def deck_catalog_seen(request, slug):
    """Dismiss the deck's catalogue-change notice, up to the version the owner was shown."""
    deck = deck_for_owner(slug=slug, user=request.user)
    through = whole_number_or(request.POST.get("through"), None)
    latest = deck.versions.order_by("-number").values_list("number", flat=True).first() or 0
    if through is None or not 1 <= through <= latest:
        return HttpResponse(
            _("through: give the number of the last version the notice showed."),
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    catalog_changes.changes_seen(deck=deck, through=through)
    if request.headers.get("HX-Request"):
        return HttpResponse("")
    messages.success(request, _("The catalogue changes are marked as seen."))
    return redirect(deck)


def _star_context(request, deck: Deck) -> dict:
    return {
        "deck": deck,
        "starred": deck_is_starred(deck=deck, user=request.user),
        "star_count": deck.stars.count(),
        "can_star": deck.is_public or deck.owner_id == request.user.id,
    }


@login_required
@require_GET
def deck_starred(request):
    decks = list(starred_decks(user=request.user).annotate(star_count=Count("stars")))
    columns = deck_columns(decks)
    return render(request, "decks/starred.html", {"rows": [(d, columns[d.pk]) for d in decks]})


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
        # Versions the catalogue made between the two (a card the deck holds changed): the
        # same cards can then mean another deck, and another legality.
        low, high = sorted((a.number, b.number))
        changed_by_catalog = [
            v for v in reversed(versions) if v.catalog_change and low < v.number <= high
        ]
        compare = {
            "a": a,
            "b": b,
            "zones": zones,
            "keepers": keepers,
            "renamed": a.name != b.name,
            "catalog_changes": changed_by_catalog,
            "legality_changed": a.is_legal != b.is_legal,
            "empty": diff.is_empty
            and a.name == b.name
            and not changed_by_catalog
            and a.is_legal == b.is_legal,
        }
    for version in versions:
        if version.catalog_change:
            version.summary_shown = " ".join(catalog_changes.change_lines(version))
        else:
            version.summary_shown = version_summary(version.summary)
    return render(
        request,
        "decks/versions.html",
        {"deck": deck, "versions": versions, "compare": compare},
    )


def _filename(deck: Deck, ext: str) -> str:
    return f"{slugify(deck.name) or 'deck'}-{deck.slug}.{ext}"


def _export(request, deck: Deck, response, ext: str):
    """Return an export response, as an attachment named after the deck when ?download is set."""
    if "download" in request.GET:
        response["Content-Disposition"] = f'attachment; filename="{_filename(deck, ext)}"'
    return response


@require_GET
def deck_export_text(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    response = HttpResponse(deck_as_text(deck), content_type="text/plain; charset=utf-8")
    return _export(request, deck, response, "txt")


@require_GET
def deck_export_json(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    response = JsonResponse(
        deck_as_json(deck), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    return _export(request, deck, response, "json")


@require_GET
def deck_export_markdown(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    url = request.build_absolute_uri(deck.get_absolute_url())
    response = HttpResponse(
        deck_as_markdown(deck, url=url), content_type="text/plain; charset=utf-8"
    )
    return _export(request, deck, response, "md")


@require_GET
def deck_export_names(request, slug):
    deck = deck_for_viewer(slug=slug, user=request.user)
    response = HttpResponse(deck_as_name_list(deck), content_type="text/plain; charset=utf-8")
    return _export(request, deck, response, "names.txt")


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
        "deck_url": request.build_absolute_uri(deck.get_absolute_url()),
        "has_sample_cards": any(card.is_sample for card in cards.values()),
        "version": deck.versions.order_by("-number").first(),
    }
    return render(request, "decks/print.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def deck_import(request):
    posted = request.method == "POST"  # bound even when the body parsed to nothing
    form = DeckImportForm(request.POST if posted else None, request.FILES if posted else None)
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


@require_GET
def profile(request, username):
    """A user's page: their decks, and to themselves their card proposals."""
    owner = get_object_or_404(get_user_model(), username=username, is_active=True)
    decks = user_decks(owner=owner, viewer=request.user)
    is_me = request.user == owner
    # A user's card proposals (and the reviewers' reasons) are shown to that user alone.
    my_proposals = list(proposals_of(owner)[:50]) if is_me else []
    my_notes = list(notes_of(owner)[:50]) if is_me else []
    my_printings = list(printings_of(owner)[:50]) if is_me else []
    changed = list(catalog_changes.decks_with_unseen_changes(owner)) if is_me else []
    return render(
        request,
        "decks/profile.html",
        {
            "owner": owner,
            "decks": decks,
            "is_me": is_me,
            "my_proposals": my_proposals,
            "my_notes": my_notes,
            "my_printings": my_printings,
            "changed_decks": changed,
        },
    )
