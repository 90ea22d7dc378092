"""The Touchdown Heroes balance lab: the rules page with the start form."""

from functools import lru_cache

import markdown
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from cardsite.web.numbers import whole_number_or
from play.lab.forms import LabForm
from play.simulations import selectors, services
from play.studies import plans, reports

# The rules page's three sections, each with its heading in each language's document: the
# Japanese file translates those sections of docs/touchdown.md (issue #27 item 12).
DOCS = {
    "en": settings.BASE_DIR / "docs" / "touchdown.md",
    "ja": settings.BASE_DIR / "docs" / "touchdown.ja.md",
}
SECTIONS = {
    "rules": {"en": "The rules, in English with the draft's terms", "ja": "ルール（草案の用語で）"},
    "house": {"en": "House rules (HOUSE)", "ja": "ハウスルール（HOUSE）"},
    "effects": {"en": "Effect sets", "ja": "効果セット"},
}


def doc_sections(language: str) -> dict[str, str]:
    """Return the Markdown of each page section found in a language's document, by key."""
    text = DOCS[language].read_text(encoding="utf-8")
    found = {}
    for chunk in ("\n" + text).split("\n## ")[1:]:
        title, _sep, body = chunk.partition("\n")
        for key, titles in SECTIONS.items():
            if title.strip() == titles.get(language):
                found[key] = body
    return found


def rules_html(language: str | None = None) -> dict[str, str]:
    """Return the rules, house rules and effect-set format as HTML, by section key, in the
    active language (or `language`): docs/touchdown.ja.md for Japanese, docs/touchdown.md for
    English and for any section the Japanese file lacks.

    One text serves the repository and the page, so they never disagree.
    """
    code = (language or get_language() or "en").split("-")[0]
    return _rules_html(code if code in DOCS else "en")


@lru_cache(maxsize=len(DOCS))
def _rules_html(language: str) -> dict[str, str]:
    sections = doc_sections("en") | (doc_sections(language) if language != "en" else {})
    return {
        key: mark_safe(  # noqa: S308 - our own committed documents
            markdown.markdown(body, extensions=["tables", "fenced_code"])
        )
        for key, body in sections.items()
    }


@require_http_methods(["GET", "POST"])
def lab(request):
    """Explain the rules and the effect-set format; start a batch (signed-in users)."""
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    # Bound on every POST, even one without form fields (a JSON body): it then gets its errors.
    form = LabForm(request.POST if request.method == "POST" else None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            batch = services.lab_batch_create(
                owner=request.user,
                variants=form.variants(),
                runs=form.cleaned_data["runs"],
                seed=form.cleaned_data["seed"],
                study=form.study_request(),
            )
        except services.BatchInvalid as exc:
            for field, errors in exc.errors.items():
                for error in errors:
                    form.add_service_error(field, error)
        else:
            return redirect(batch)
    status = 400 if request.method == "POST" else 200
    sections = rules_html()
    context = {
        "form": form,
        "variant_forms": [
            (form.variant_a, _("Variant A (a table's or a sweep's base rules)")),
            (form.variant_b, _("Variant B (compared)")),
        ],
        "study_form": form.study_fields,
        "rules": sections.get("rules", ""),
        "house": sections.get("house", ""),
        "effects": sections.get("effects", ""),
    }
    return render(request, "play/lab.html", context, status=status)


def _against(request) -> int | None:
    """Return the sweep cell the difference column compares with (?vs=N), or None."""
    raw = request.GET.get("vs")
    if raw in (None, ""):
        return None
    against = whole_number_or(raw, None, max_digits=3)
    if against is None:
        raise ValueError("vs: give the number of a cell of this sweep.")
    return against


def _report_response(request, batch, fmt: str):
    results = batch.results or {}
    if batch.kind != "touchdown" or results.get("study") not in (*plans.STUDIES, "recommend"):
        raise Http404("This simulation has no strategy table or sweep to download.")
    by_cell = selectors.chunk_results_by_opponent(batch) if fmt == "deals.csv" else None
    try:
        text = reports.report_text(
            results, fmt, against=_against(request), cells=batch.sides, by_cell=by_cell
        )
    except ValueError as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    response = HttpResponse(text, content_type=f"{reports.FORMATS[fmt]}; charset=utf-8")
    name = f"touchdown-{batch.pk}-{results['study']}.{fmt}"  # .csv, .md or .deals.csv
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def lab_report(request, batch_id: int, fmt: str):
    """Download a finished study's report (CSV or Markdown); the owner's own batches only."""
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    return _report_response(request, batch, fmt)


@require_GET
def lab_report_shared(request, token: str, fmt: str):
    """The same download from a batch's read-only share link."""
    return _report_response(request, selectors.batch_by_share_token(token), fmt)
