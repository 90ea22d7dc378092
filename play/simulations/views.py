"""Simulation pages: the Simulate form, my simulations, a batch's progress and results."""

import csv
import io
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from decks.selectors import deck_for_viewer, legal_decks_to_play
from play.simulations import kinds, selectors, services
from play.simulations.forms import SimulationForm

# Shown when a batch was saved but the broker could not be reached: no error, no duplicate.
BROKER_UNAVAILABLE = gettext_lazy(
    "Queued. The broker is unavailable at the moment; the simulation will start when it is back."
)


# The service's error keys that name a form field of another name (swap suggestions' study).
SERVICE_FIELDS = {"source": "swap_source", "candidates": "swap_out", "out": "swap_out"}


@login_required
def batch_new(request):
    slug = request.GET.get("deck") or request.POST.get("deck", "")
    if not slug and request.method == "GET":  # no deck yet: pick one (own decks first)
        decks = legal_decks_to_play(request.user, others_prebuilt_only=True)
        return render(request, "play/batch_pick.html", {"decks": decks})
    deck = deck_for_viewer(slug=slug, user=request.user)
    form = SimulationForm(
        request.POST if request.method == "POST" else None,
        user=request.user,
        deck=deck,
        initial={"kind": request.GET.get("kind", "goldfish")},
    )
    if request.method == "POST" and form.is_valid():
        values = form.cleaned_data
        try:
            batch = services.batch_create(
                owner=request.user,
                request=services.BatchRequest(
                    kind=values["kind"],
                    deck_a=deck,
                    deck_b=values["deck_b"],
                    runs=values["runs"],
                    seed=values["seed"],
                    policy_a=values["policy_a"],
                    policy_b=values["policy_b"],
                    options=form.options(),
                    study=form.study(),
                ),
            )
        except services.BatchInvalid as exc:
            for field, errors in exc.errors.items():
                field = SERVICE_FIELDS.get(field, field)
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            if batch.broker_unavailable:
                messages.warning(request, BROKER_UNAVAILABLE)
            return redirect(batch)
    return render(
        request,
        "play/batch_new.html",
        {"form": form, "deck": deck},
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def batch_list(request):
    batches = selectors.batches_of(request.user)[:200]
    return render(request, "play/batch_list.html", {"batches": batches})


def _batch_context(batch, *, shared: bool, request=None) -> dict:
    results, partial = selectors.batch_shown_results(batch)
    kind = kinds.get(batch.kind)
    extra = kind.detail_context(batch, request) if request and batch.results else {}
    return {
        "batch": batch,
        "kind": kind,
        "against": kind.against_text(batch),
        "progress": selectors.batch_progress(batch),
        "sample_logs": selectors.sample_logs_noted(batch),
        "shared": shared,
        "results": results,
        "partial": partial,
        "names": selectors.batch_side_names(batch, results),
        "results_json": results,
        **extra,
    }


@login_required
@require_GET
def batch_detail(request, batch_id):
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    return render(
        request, "play/batch_detail.html", _batch_context(batch, shared=False, request=request)
    )


@require_GET
def batch_shared(request, token):
    batch = selectors.batch_by_share_token(token)
    return render(
        request, "play/batch_detail.html", _batch_context(batch, shared=True, request=request)
    )


@require_GET
def batch_progress(request, batch_id=None, token=None):
    if token:
        batch = selectors.batch_by_share_token(token)
    elif request.user.is_authenticated:
        batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    else:
        raise Http404
    context = _batch_context(batch, shared=bool(token))
    response = render(request, "play/_batch_progress.html", context)
    if not batch.is_active and request.headers.get("HX-Request"):
        response["HX-Refresh"] = "true"  # show the results section
    return response


@login_required
@require_POST
def batch_cancel(request, batch_id):
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    if services.batch_cancel(batch=batch):
        messages.info(request, _("The simulation was cancelled."))
    return redirect(batch)


@login_required
@require_POST
def batch_share_revoke(request, batch_id):
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    services.batch_share_link_revoke(batch=batch)
    messages.info(request, _("The old share link no longer works; this is the new one."))
    return redirect(batch)


@login_required
@require_GET
def batch_results_json(request, batch_id):
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    results, _partial = selectors.batch_shown_results(batch)
    body = json.dumps({"results": results, "progress": selectors.batch_progress(batch)})
    return HttpResponse(body, content_type="application/json")


@login_required
@require_GET
def batch_cards_csv(request, batch_id):
    """A card report's raw counts, one row per card of deck A (issue #29)."""
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    results, _partial = selectors.batch_shown_results(batch)
    if batch.kind != "cards" or not results or "cards" not in results:
        raise Http404
    out = io.StringIO()
    columns = [
        "card",
        "copies",
        "drawn",
        "played_in",
        "plays",
        "scored",
        "stopped",
        "wins_drawn",
        "not_drawn",
        "wins_not_drawn",
    ]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["matches", "wins", *columns])
    for row in results["cards"]:
        writer.writerow([results["runs"], results["wins"], *(row[name] for name in columns)])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="card-report-{batch.pk}.csv"'
    return response


@login_required
@require_GET
def batch_matrix_csv(request, batch_id):
    """A matchup matrix's cells, one row per ordered pair of decks: the row deck's record
    against the column deck, its 95% interval, and whether that deck is the row's best
    response (issue #29 item 3)."""
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    results, _partial = selectors.batch_shown_results(batch)
    if batch.kind != "matrix" or not results or "rows" not in results:
        raise Http404
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["deck", "opponent", "matches", "wins", "win_rate", "low", "high", "best_response"]
    )
    names = results["decks"]
    for row in results["rows"]:
        best = (row["best_response"] or {}).get("index")
        for j, cell in enumerate(row["cells"]):
            if cell is None:
                continue
            writer.writerow(
                [
                    row["deck"],
                    names[j],
                    cell["runs"],
                    cell["wins"],
                    cell["win_rate"],
                    *cell["interval"],
                    "yes" if j == best else "no",
                ]
            )
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="matrix-{batch.pk}.csv"'
    return response


@login_required
@require_POST
def batch_swap_apply(request, batch_id, number):
    """Apply a suggested swap to a copy of the deck: a new deck and version, owner only."""
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    try:
        deck = services.swap_apply_to_copy(batch=batch, number=number, user=request.user)
    except services.SwapNotApplied as exc:
        for problems in exc.errors.values():
            for problem in problems:
                messages.error(request, problem)
        return redirect(batch)
    messages.success(request, _("A new deck was made with the swap; your deck is unchanged."))
    return redirect(deck)


SWAP_COLUMNS = ["number", "out", "in", "matches", "wins", "up", "down", "difference"]
HALFTIME_COLUMNS = ["number", "out", "in", "pairs", "wins", "up", "down", "difference"]


def _paired_swaps_csv(request, batch_id, *, kind: str, columns, tail_header, tail_of):
    """A swaps or halftime batch's rows as CSV: the baseline's counts, each swap's paired
    counts, change, interval and p-value, then the kind's own columns (`tail_of(row)`)."""
    batch = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    results, _partial = selectors.batch_shown_results(batch)
    if batch.kind != kind or not results or "swaps" not in results:
        raise Http404
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["baseline_matches", "baseline_wins", *columns, "low", "high", "p_value", *tail_header]
    )
    baseline = results["baseline"]
    for row in results["swaps"]:
        writer.writerow(
            [
                baseline["runs"],
                baseline["wins"],
                *(row[name] for name in columns),
                *(row["interval"] or [None, None]),
                row["p_value"],
                *tail_of(row),
            ]
        )
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{kind}-{batch.pk}.csv"'
    return response


def _stands(row) -> str:
    return "yes" if row["stands"] else "no"


@login_required
@require_GET
def batch_swaps_csv(request, batch_id):
    """A swaps batch's rows: each swap's paired counts, change, interval, its confirmation on
    fresh seeds (one-sided p of "no better", power at +3 points) and the decision."""

    def confirmed(row):
        stage = row["confirmed"] or {}
        return [
            stage.get("pairs", ""),
            stage.get("difference", ""),
            stage.get("p_better", ""),
            stage.get("power", ""),
            _stands(row),
            row.get("decision", ""),
        ]

    return _paired_swaps_csv(
        request,
        batch_id,
        kind="swaps",
        columns=SWAP_COLUMNS,
        tail_header=[
            "confirmed_pairs",
            "confirmed_difference",
            "confirmed_p_better",
            "confirmed_power_at_worth",
            "stands",
            "decision",
        ],
        tail_of=confirmed,
    )


@login_required
@require_GET
def batch_halftime_csv(request, batch_id):
    """A halftime batch's rows: each halftime swap's paired counts, change, interval, verdict."""
    return _paired_swaps_csv(
        request,
        batch_id,
        kind="halftime",
        columns=HALFTIME_COLUMNS,
        tail_header=["stands", "verdict"],
        tail_of=lambda row: [_stands(row), row["verdict"]],
    )


@login_required
@require_POST
def batch_halftime_from_report(request, batch_id):
    """Ask for halftime and bench advice on a finished card report's own matches (#29 item 4):
    a new halftime batch replaying them; a refusal is shown on the report's page."""
    report = selectors.batch_for_owner(user=request.user, batch_id=batch_id)
    if report.kind != "cards" or report.deck_a_version is None:
        raise Http404
    params = report.params or {}
    try:
        batch = services.batch_create(
            owner=request.user,
            request=services.BatchRequest(
                kind="halftime",
                deck_a=report.deck_a_version.deck,
                runs=report.runs,
                policy_a=params.get("policy_a", "greedy"),
                policy_b=params.get("policy_b", "greedy"),
                options=params.get("options"),
                study={"report": report.pk},
            ),
        )
    except services.BatchInvalid as exc:
        for problems in exc.errors.values():
            for problem in problems:
                messages.error(request, problem)
        return redirect(report)
    if batch.broker_unavailable:
        messages.warning(request, BROKER_UNAVAILABLE)
    return redirect(batch)
