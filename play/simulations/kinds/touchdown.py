"""The Touchdown Heroes balance lab: games of one or two rule variants (docs/touchdown.md), or
a study (issue #14): every kick-off strategy against every other, or a sweep over one or two
parameters; a study's sides are its cells (play/studies/plans.py), a chunk plays seeds of one."""

import math
import random
import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cardsite.web.numbers import whole_number_or
from play.simulations import core as simulation
from play.simulations.kinds import register
from play.simulations.kinds.base import BatchKind, Prepared
from play.studies import labels, plans
from play.studies import presenters as study_presenters
from play.studies import variants as variant_rules

# The titles log_title stores (in English, at chunk time), read back to say them in words.
STORED_TITLE = re.compile(
    r"^Eagles(?: \((?P<eagles>[^)]*)\))? (?P<e>\d+)–(?P<b>\d+) Bears(?: \((?P<bears>[^)]*)\))?"
    r" · seed (?P<seed>\d+)$"
)


class TouchdownKind(BatchKind):
    key = "touchdown"
    label = _("Touchdown Heroes balance lab")
    order = 50
    chunk_setting = "SIMULATION_CHUNK_GAMES"
    keeps_logs = True  # sample games, opened in the Touchdown replay viewer
    replay_url_name = "play:td-log-replay"
    uses_decks = False
    heading_template = "play/kinds/_touchdown_heading.html"
    results_template = "play/kinds/_touchdown_results.html"

    def opponent_indexes(self, opponents: int) -> range:
        return range(opponents)  # every side is a rule variant, numbered from 0

    def prepare(self, *, request, errors):
        if getattr(request, "study", None) is not None:
            return self._prepare_study(request=request, errors=errors)
        variants = request.variants or []
        if not 1 <= len(variants) <= 2:
            errors["variants"] = ["Give one rule variant, or two to compare."]
        cleaned = []
        for number, variant in enumerate(variants[:2]):
            try:
                cleaned.append(
                    variant_rules.clean_variant(variant, prefix=f"variant_{'ab'[number]}_")
                )
            except variant_rules.VariantError as exc:
                errors.update(exc.errors)
        params = {"runs": request.runs, "variants": [v["label"] for v in cleaned]}
        return Prepared(sides=cleaned, params=params, opponents=len(cleaned))

    def _prepare_study(self, *, request, errors):
        variants = request.variants or [{}]
        if len(variants) != 1:
            errors["variants"] = ["A study plays one base variant."]
        cells: list[dict] = []
        clean: dict = {}
        try:
            variant = variant_rules.clean_variant(variants[0], prefix="variant_a_")
        except variant_rules.VariantError as exc:
            errors.update(exc.errors)
        else:
            try:
                clean, cells = plans.clean_study(request.study, variant)
            except plans.StudyError as exc:
                errors.update(exc.errors)
        problem = plans.deals_error(request.runs)
        if problem:
            errors.setdefault("runs", []).append(problem)
        if request.seed is None:  # fixed here: every cell's chunk k plays the same seeds
            request.seed = random.SystemRandom().getrandbits(62)
        chunk = max(1, self.chunk_size() // 2)  # seeds a chunk: two games each
        params = {
            "runs": request.runs,
            "study": clean,
            "seed": request.seed,
            "chunk_size": chunk,
            "variants": [plans.study_label(clean, cells)] if cells else [],
            "cells": len(cells),
        }
        return Prepared(sides=cells, params=params, opponents=len(cells), chunk_size=chunk)

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        if params.get("study"):
            per_cell = math.ceil(params["runs"] / params["chunk_size"])
            seeds = plans.cell_seeds(
                study_seed=params["seed"],
                position=spec.index - spec.opponent * per_cell,
                runs=spec.runs,
            )
            return plans.run_cell_chunk(cell=sides[spec.opponent], seeds=seeds, keep_logs=keep_logs)
        return variant_rules.run_chunk(
            variant=sides[spec.opponent], runs=spec.runs, seed=seed, keep_logs=keep_logs
        )

    def summarize(self, *, sides, params, by_opponent):
        study = params.get("study")
        if study:
            summary = plans.summarize_table if study["kind"] == "table" else plans.summarize_sweep
            return {"kind": self.key, **summary(study=study, cells=sides, by_cell=by_opponent)}
        variants = []
        for index, variant in enumerate(sides):
            results = by_opponent.get(index)
            if results:
                variants.append(variant_rules.summarize(variant, simulation.merge_results(results)))
        return {"kind": self.key, "variants": variants, "runs": sum(v["runs"] for v in variants)}

    def detail_context(self, batch, request) -> dict:
        study = (batch.results or {}).get("study")
        if study == "table":
            return {
                "td_tables": study_presenters.table_view(batch.results),
                "td_headers": study_presenters.figure_headers(),
            }
        if study == "sweep":
            raw = request.GET.get("vs", "")
            against = whole_number_or(raw, None, max_digits=3)
            view = study_presenters.sweep_view(batch.results, against)
            if raw and against is None:
                view["error"] = study_presenters.bad_cell_message(raw)
            band, band_error = study_presenters.band_from(request.GET)
            return {
                "td_sweep": view,
                "td_band": {
                    **study_presenters.band_view(batch.results, band),
                    "error": band_error,
                },
            }
        return {}

    def side_note(self, side: dict) -> str:
        if "values" in side:  # a sweep's cell: the rules it varies
            return labels.cell_text(side["values"])
        if "onside_rolls" in side:  # a variant of a plain lab batch
            return labels.variant_label(side)
        return ""  # a table's cell: the title names both teams

    def heading_labels(self, batch) -> list[str]:
        params = batch.params or {}
        sides = batch.sides or []
        if params.get("study"):
            return [labels.study_label(params["study"], sides)] if sides else []
        return [labels.variant_label(side) for side in sides]

    def log_title(self, log: dict) -> str:
        score = log["result"]["score"]
        seats = log.get("seats") or []
        policies = {seat["team"]: seat["policy"] for seat in seats}
        if len(set(policies.values())) > 1:  # a study's match-up: say who played whom
            return (
                f"Eagles ({policies['eagles']}) {score['eagles']}–{score['bears']} Bears "
                f"({policies['bears']}) · seed {log['seed']}"
            )[:200]
        return f"Eagles {score['eagles']}–{score['bears']} Bears · seed {log['seed']}"[:200]

    def title_text(self, title: str) -> str:
        found = STORED_TITLE.match(title)
        if found is None:  # cut at 200 characters, or not ours: as stored
            return title
        words = {"e": found["e"], "b": found["b"], "seed": found["seed"]}
        if found["eagles"] is None or found["bears"] is None:
            return gettext("Eagles %(e)s–%(b)s Bears · seed %(seed)s") % words
        return gettext("Eagles (%(eagles)s) %(e)s–%(b)s Bears (%(bears)s) · seed %(seed)s") % {
            **words,
            "eagles": labels.team_label(found["eagles"]),
            "bears": labels.team_label(found["bears"]),
        }

    def opponent_text(self, batch) -> str:
        return "–"

    def against_text(self, batch) -> str:
        return ""


register(TouchdownKind())
