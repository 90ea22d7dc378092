"""The Touchdown Heroes balance lab: games of one or two rule variants (docs/touchdown.md)."""

from django.utils.translation import gettext_lazy as _

from play.lab import core as lab
from play.simulations import core as simulation
from play.simulations.kinds import register
from play.simulations.kinds.base import BatchKind, Prepared


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
        variants = request.variants or []
        if not 1 <= len(variants) <= 2:
            errors["variants"] = ["Give one rule variant, or two to compare."]
        cleaned = []
        for number, variant in enumerate(variants[:2]):
            try:
                cleaned.append(lab.clean_variant(variant, prefix=f"variant_{'ab'[number]}_"))
            except lab.VariantError as exc:
                errors.update(exc.errors)
        params = {"runs": request.runs, "variants": [v["label"] for v in cleaned]}
        return Prepared(sides=cleaned, params=params, opponents=len(cleaned))

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        return lab.run_chunk(
            variant=sides[spec.opponent], runs=spec.runs, seed=seed, keep_logs=keep_logs
        )

    def summarize(self, *, sides, params, by_opponent):
        variants = []
        for index, variant in enumerate(sides):
            results = by_opponent.get(index)
            if results:
                variants.append(lab.summarize(variant, simulation.merge_results(results)))
        return {"kind": self.key, "variants": variants, "runs": sum(v["runs"] for v in variants)}

    def log_title(self, log: dict) -> str:
        score = log["result"]["score"]
        return f"Eagles {score['eagles']}–{score['bears']} Bears · seed {log['seed']}"[:200]

    def opponent_text(self, batch) -> str:
        return "–"

    def against_text(self, batch) -> str:
        return ""


register(TouchdownKind())
