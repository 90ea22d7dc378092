"""Swap suggestions (issue #29 item 2): one card out, one card in, ranked by paired win rate.

The field is the card report's: every public prebuilt deck. The candidates are every legal
swap of one copy of a card of deck A for a card of the catalogue, or of the user's collection
(a card owned in more copies than the deck holds). The batch runs in stages (successive
halving, play/simulations/swaps.py): each stage's chunks play deck A and a group of surviving
candidates on the same seeds of one opponent; when a stage is complete, `next_stage` plans the
next from the results (the kind registry's stages, `BatchKind.next_stage`).

A chunk row's `opponent` is the field deck it plays; `params["plan"][index]` says its stage,
its group of candidates and its block of seeds. Seeds come from the kind's own `crn_seed`, the
stage, the opponent and the block, never from the chunk index, so every group of a stage plays
the very seeds deck A plays (common random numbers).
"""

from __future__ import annotations

import random

from django.conf import settings
from django.db.models import Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from play.seeds import chunk_seed
from play.simulations import core as simulation
from play.simulations import sides as deck_sides
from play.simulations import swaps
from play.simulations.kinds import register
from play.simulations.kinds.base import Prepared
from play.simulations.kinds.gauntlet import GauntletKind

SOURCES = ("catalogue", "collection")
BLOCK_SHARE = 10  # a block of seeds is at most a tenth of a chunk's matches


class SwapsKind(GauntletKind):
    key = "swaps"
    label = gettext_lazy("Swap suggestions")
    order = 43
    results_template = "play/kinds/_swaps_results.html"
    keeps_logs = False

    # --- the request -------------------------------------------------------------------------

    def prepare(self, *, request, errors):
        study = request.study or {}
        source = study.get("source", "catalogue")
        if source not in SOURCES:
            errors["source"] = [
                _("Unknown candidate source “%(source)s”: use %(known)s.")
                % {"source": str(source)[:40], "known": " / ".join(SOURCES)}
            ]
        field_size = deck_sides.prebuilt_decks().count()
        limit = settings.SIMULATION_SWAPS_MAX_FIELD
        if field_size == 0:
            errors["field"] = [_("The field is empty: no public prebuilt deck is available.")]
        elif field_size > limit:
            errors["field"] = [
                _("The field has %(n)s decks; swap suggestions play at most %(limit)s.")
                % {"n": f"{field_size:,}", "limit": f"{limit:,}"}
            ]
        if errors:
            return Prepared(sides=[], params={}, opponents=0)
        prepared = super().prepare(request=request, errors=errors)
        if errors:
            return prepared
        in_cards = self._in_cards(request, source, prepared.sides[0], study, errors)
        if errors:
            return prepared
        candidates = swaps.candidate_swaps(prepared.sides[0], in_cards)
        out_only = study.get("out") or None
        if out_only is not None:
            candidates = [swap for swap in candidates if swap[0] in set(out_only)]
        if not candidates:
            errors["candidates"] = [
                _("No legal swap is left to try: every replacement would make the deck illegal.")
            ]
            return prepared
        opponents = prepared.opponents
        total = swaps.planned_runs(
            candidates=len(candidates), first=request.runs, opponents=opponents
        )
        cap = settings.SIMULATION_MAX_RUNS
        if total > cap:
            errors["candidates"] = [
                _(
                    "%(n)s candidate swaps at %(runs)s runs against each of %(decks)s decks "
                    "could need %(total)s matches; a batch may plan at most %(cap)s. Choose "
                    "fewer cards to take out or bring in (out, in), or fewer runs."
                )
                % {
                    "n": f"{len(candidates):,}",
                    "runs": f"{request.runs:,}",
                    "decks": opponents,
                    "total": f"{total:,}",
                    "cap": f"{cap:,}",
                }
            ]
            return prepared
        used = {card_in for _, card_in in candidates}
        params = {
            **prepared.params,
            "source": source,
            "swaps": candidates,
            "in_cards": {card_id: in_cards[card_id] for card_id in sorted(used)},
            "crn_seed": request.seed
            if request.seed is not None
            else random.SystemRandom().getrandbits(62),
            "first_runs": request.runs,
            "stages": [],
            "plan": [],
        }
        specs = self._add_stage(params, alive=list(range(len(candidates))), opponents=opponents)
        return Prepared(
            sides=prepared.sides,
            params=params,
            opponents=opponents,
            versions=prepared.versions,
            chunk_size=self.chunk_size(),
            specs=specs,
        )

    def _in_cards(self, request, source, snapshot, study, errors) -> dict[str, dict]:
        from catalog.models import Card
        from decks.legality import engine_card
        from decks.models import CollectionEntry

        cards = Card.objects.exclude(kind=Card.Kind.GOALKEEPER)
        if source == "collection":
            held = dict(
                CollectionEntry.objects.filter(owner=request.owner, quantity__gt=0)
                .values_list("card_id")
                .annotate(total=Sum("quantity"))
            )
            in_deck = {card_id: snapshot["cards"].count(card_id) for card_id in held}
            owned = [card_id for card_id, n in held.items() if n > in_deck[card_id]]
            cards = cards.filter(pk__in=owned)
        only_in = study.get("in")
        if only_in:
            cards = cards.filter(pk__in=list(only_in))
        found = {card.id: engine_card(card).to_log() for card in cards.order_by("id")}
        if not found:
            errors["source"] = [
                _("Your collection holds no card to bring in.")
                if source == "collection"
                else _("The catalogue holds no card to bring in.")
            ]
        return found

    # --- stages ------------------------------------------------------------------------------

    def _add_stage(self, params: dict, *, alive: list[int], opponents: int, confirm=False):
        """Append a stage to params: its candidates, runs per opponent and chunk plan rows."""
        stage = len(params["stages"])
        runs = swaps.stage_runs(params["first_runs"], stage)
        target = self.chunk_size()
        block = max(1, min(runs, target // BLOCK_SHARE))
        group = max(1, target // block - 1)
        params["stages"].append({"alive": alive, "runs": runs, "confirmation": confirm})
        specs = []
        first = len(params["plan"])
        for opponent in range(1, opponents + 1):
            for number, start in enumerate(range(0, runs, block)):
                for g in range(0, len(alive), group):
                    params["plan"].append([stage, g, min(g + group, len(alive)), number])
                    specs.append(
                        simulation.ChunkSpec(first + len(specs), opponent, min(block, runs - start))
                    )
        return specs

    def plan(self, *, runs, chunk_size, opponents):
        raise NotImplementedError("a swaps batch is planned by prepare, then by next_stage")

    def next_stage(self, *, sides, params, by_opponent, first_index):
        """Return (params, chunk specs) of the next stage, or None when the batch is done.

        The chunk plan holds a row for every chunk so far, so the new chunks' indexes start at
        its length, which is the batch's chunk count (`first_index`)."""
        stages = params.get("stages") or []
        if len(params.get("plan") or []) != first_index:
            raise ValueError("the swaps plan and the batch's chunks disagree")
        if not stages or stages[-1]["confirmation"]:
            return None
        summary = self._merged(sides=sides, params=params, by_opponent=by_opponent)
        stats = {row["number"]: row for row in summary["swaps"]}
        alive = stages[-1]["alive"]
        opponents = len(sides) - 1
        params = {**params, "stages": list(stages), "plan": list(params["plan"])}
        if len(alive) <= swaps.FINAL_KEEP:
            kept = [
                i for i in alive if stats[i]["interval"] is None or stats[i]["interval"][1] >= 0
            ]
            if not kept:
                return None
            specs = self._add_stage(params, alive=kept, opponents=opponents, confirm=True)
        else:
            specs = self._add_stage(
                params, alive=swaps.next_alive(alive, stats), opponents=opponents
            )
        return params, specs

    # --- chunks and results ------------------------------------------------------------------

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        stage, g0, g1, number = params["plan"][spec.index]
        alive = params["stages"][stage]["alive"][g0:g1]
        crn = chunk_seed(params["crn_seed"], stage * 10**9 + spec.opponent * 10**6 + number)
        result = swaps.run_chunk(
            base=sides[0],
            opponent=sides[spec.opponent],
            swaps=params["swaps"],
            alive=alive,
            in_cards=params["in_cards"],
            params=params,
            runs=spec.runs,
            seed=crn,
        )
        result["stage"] = stage
        result["counts_baseline"] = g0 == 0  # every group plays deck A; one counts it
        return result, []

    def _merged(self, *, sides, params, by_opponent):
        by_stage: dict[int, list] = {}
        for results in by_opponent.values():
            for result in results:
                by_stage.setdefault(result["stage"], []).append(result)
        return swaps.summarize(swaps=params["swaps"], stages=params["stages"], by_stage=by_stage)

    def summarize(self, *, sides, params, by_opponent):
        return {
            "kind": self.key,
            "source": params.get("source"),
            "field": [side["name"] for side in sides[1:]],
            **self._merged(sides=sides, params=params, by_opponent=by_opponent),
            **self.named(sides=sides[:1], params=params),
        }

    def detail_context(self, batch, request) -> dict:
        from catalog.models import Card

        rows = (batch.results or {}).get("swaps", [])
        ids = {row["out"] for row in rows} | {row["in"] for row in rows}
        cards = Card.objects.in_bulk(list(ids))

        def name(card_id):
            return cards[card_id].display_name if card_id in cards else card_id

        return {
            "swap_rows": [
                {**row, "out_name": name(row["out"]), "in_name": name(row["in"])} for row in rows
            ]
        }

    def opponent_text(self, batch) -> str:
        return _("every prebuilt deck")

    def against_text(self, batch) -> str:
        return _("against every prebuilt deck")


register(SwapsKind())
