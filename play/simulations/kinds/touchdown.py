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
from play.studies import recommend as recommendation
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
        if isinstance(request.study, dict) and request.study.get("kind") == "recommend":
            return self._prepare_recommend(request=request, errors=errors)
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

    # ----- the recommendation (issue #28 item 1): an adaptive, multi-stage study ---------------

    def _prepare_recommend(self, *, request, errors):
        """A recommendation batch: every variant of the space is a side; stage 1's chunks play
        them all on the first deals; next_stage plans each later stage (request.runs is set to
        stage 1's deals a variant, whatever was asked)."""
        study = request.study
        bot = study.get("bot", "greedy")
        if bot not in plans.BOTS:
            errors["study_bot"] = [f"Use one of {', '.join(plans.BOTS)}."]
        preview = study.get("preview", False)
        if not isinstance(preview, bool):
            errors["study_preview"] = ["Use true or false."]
            preview = False
        band = dict(recommendation.BAND)
        given = study.get("band") or {}
        if not isinstance(given, dict):
            errors["study_band"] = ["Give the band as {margin, low, high}."]
            given = {}
        for name, high in (("margin", 10), ("low", 1), ("high", 1)):
            value = given.get(name, band[name])
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0 <= value <= high
            ):
                errors[f"study_band_{name}"] = [f"{name} must be a number 0..{high}."]
            else:
                band[name] = float(value)
        if band["low"] > band["high"]:
            errors["study_band_low"] = ["The win-rate band's low end is above its high end."]
        if request.seed is None:
            request.seed = random.SystemRandom().getrandbits(62)
        plan = recommendation.settings_of(preview=preview)
        pool = recommendation.variants(plan["space"])
        request.runs = plan["first"]
        sides = [
            {"key": recommendation.key_of(v), "values": v, "label": recommendation.key_of(v)}
            for v in pool
        ]
        stronger = study.get("stronger", recommendation.STRONGER)
        if stronger not in ("", None, *plans.BOTS) or stronger == bot:
            errors["study_stronger"] = [
                f"Use one of {', '.join(b for b in plans.BOTS if b != bot)}, or none."
            ]
        clean = {
            "kind": "recommend",
            "bot": bot,
            "band": band,
            "preview": preview,
            "stronger": stronger or "",
        }
        params = {
            "runs": plan["first"],
            "study": clean,
            "seed": request.seed,
            "chunk_size": recommendation.PIECE,
            "plan": {"first": plan["first"], "stages": plan["stages"]},
            "stages": [
                {
                    "first_index": 0,
                    "start": 0,
                    "stop": plan["first"],
                    "cells": list(range(len(pool))),
                }
            ],
            "log": [],
            "variants": [f"recommendation · {bot}"],
            "cells": len(pool),
        }
        return Prepared(
            sides=sides, params=params, opponents=len(pool), chunk_size=recommendation.PIECE
        )

    @staticmethod
    def _stage_of(params: dict, index: int) -> dict:
        return [s for s in params["stages"] if s["first_index"] <= index][-1]

    def _recommend_chunk(self, *, sides, params, spec):
        stage = self._stage_of(params, spec.index)
        per_cell = math.ceil((stage["stop"] - stage["start"]) / recommendation.PIECE)
        start = (
            stage["start"] + ((spec.index - stage["first_index"]) % per_cell) * recommendation.PIECE
        )
        seeds = recommendation.deal_seeds(params["seed"], start, start + spec.runs)
        # The strength check's stage plays the stronger bot on deals greedy played already:
        # its units are kept apart ("strength_units") from the search's own.
        bot = stage.get("bot") or params["study"]["bot"]
        units = recommendation.play_task(sides[spec.opponent]["values"], bot, seeds)
        name = "strength_units" if stage.get("strength") else "units"
        return {name: {str(s): list(u) for s, u in zip(seeds, units, strict=True)}}, []

    def _recommend_units(self, *, sides, params, by_opponent, strength=False) -> dict[str, list]:
        """Return the units of the cells still in play, in deal order (as in-process): the
        search's last stage's, or with `strength` the stronger player's check."""
        stage = self._halving_stages(params)[-1]
        name = "units"
        if strength:
            stage, name = params["stages"][-1], "strength_units"
        order = {
            str(s): n
            for n, s in enumerate(recommendation.deal_seeds(params["seed"], 0, stage["stop"]))
        }
        out = {}
        for cell in stage["cells"]:
            merged: dict[str, list] = {}
            for result in by_opponent.get(cell, []):
                merged.update(result.get(name, {}))
            out[sides[cell]["key"]] = [
                tuple(merged[s]) for s in sorted(merged, key=order.__getitem__)
            ]
        return out

    @staticmethod
    def _halving_stages(params: dict) -> list[dict]:
        return [stage for stage in params["stages"] if not stage.get("strength")]

    def next_stage(self, *, sides, params, by_opponent, first_index):
        study = params.get("study") or {}
        if study.get("kind") != "recommend":
            return None
        done = len(params["stages"])
        if done >= params["plan"]["stages"]:
            return self._strength_stage(sides, params, by_opponent, first_index)
        units = self._recommend_units(sides=sides, params=params, by_opponent=by_opponent)
        draft_key = recommendation.key_of(recommendation.DRAFT)
        kept, out, halved = recommendation.decide(units, draft_key, study["band"])
        current = params["stages"][-1]
        entry = recommendation.stage_entry(done - 1, current["stop"], list(units), params["log"])
        entry.update(kept=kept, dropped_out_of_band=out, dropped_halving=halved)
        cell_of = {side["key"]: n for n, side in enumerate(sides)}
        cells = [cell_of[draft_key], *(cell_of[key] for key in kept)]
        start, stop = recommendation.stage_deals(params["plan"]["first"], done)
        specs = []
        for cell in cells:
            for piece in range(start, stop, recommendation.PIECE):
                runs = min(recommendation.PIECE, stop - piece)
                specs.append(simulation.ChunkSpec(first_index + len(specs), cell, runs))
        stage = {"first_index": first_index, "start": start, "stop": stop, "cells": cells}
        new = {**params, "stages": [*params["stages"], stage], "log": [*params["log"], entry]}
        return new, specs

    def _strength_stage(self, sides, params, by_opponent, first_index):
        """After the search's last stage: the stronger player plays the shortlist's best and
        the draft on the first deals (issue #28 item 4), once; then the batch is complete."""
        study = params["study"]
        if not study.get("stronger") or any(s.get("strength") for s in params["stages"]):
            return None
        result = self._search_result(sides, params, by_opponent)
        keys, deals = recommendation.check_plan(result)
        cell_of = {side["key"]: n for n, side in enumerate(sides)}
        specs = []
        for key in keys:
            for piece in range(0, deals, recommendation.PIECE):
                runs = min(recommendation.PIECE, deals - piece)
                specs.append(simulation.ChunkSpec(first_index + len(specs), cell_of[key], runs))
        stage = {
            "first_index": first_index,
            "start": 0,
            "stop": deals,
            "cells": [cell_of[key] for key in keys],
            "strength": True,
            "bot": study["stronger"],
        }
        return {**params, "stages": [*params["stages"], stage]}, specs

    def _recommend_summary(self, *, sides, params, by_opponent):
        result = self._search_result(sides, params, by_opponent)
        stage = params["stages"][-1]
        if stage.get("strength"):
            units = self._recommend_units(
                sides=sides, params=params, by_opponent=by_opponent, strength=True
            )
            result["strength"] = recommendation.strength_check(result, units, bot=stage["bot"])
        return {"kind": self.key, "study": "recommend", "recommendation": result}

    def _search_result(self, sides, params, by_opponent) -> dict:
        """The search's result from its last halving stage (as recommendation.search's)."""
        study = params["study"]
        units = self._recommend_units(sides=sides, params=params, by_opponent=by_opponent)
        halving = self._halving_stages(params)
        stage = halving[-1]
        entry = recommendation.stage_entry(
            len(halving) - 1, stage["stop"], list(units), params["log"]
        )
        plan = recommendation.settings_of(preview=study["preview"])
        result = recommendation.finish(
            by_key={side["key"]: side["values"] for side in sides},
            units=units,
            band=study["band"],
            bot=study["bot"],
            seed=params["seed"],
            preview=study["preview"],
            plan=plan,
            log=[*params["log"], entry],
            resamples=recommendation.matchups.BOOTSTRAP,
        )
        return result

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        if (params.get("study") or {}).get("kind") == "recommend":
            return self._recommend_chunk(sides=sides, params=params, spec=spec)
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
        if study and study.get("kind") == "recommend":
            return self._recommend_summary(sides=sides, params=params, by_opponent=by_opponent)
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
        if study == "recommend":
            return {"td_recommend": study_presenters.recommend_view(batch.results)}
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
        if (params.get("study") or {}).get("kind") == "recommend":
            return [
                gettext("Recommendation for the draft's question · %(bot)s")
                % {"bot": labels.BOT_LABELS.get(params["study"]["bot"], params["study"]["bot"])}
            ]
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
