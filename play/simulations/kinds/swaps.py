"""Swap suggestions (issue #29 item 2): one card out, one card in, ranked by paired win rate.

The field is the card report's: every public prebuilt deck. The candidates are every legal
swap of one copy of a card of deck A for a card of the catalogue, or of the user's collection
(a card owned in more copies than the deck holds). The batch runs in stages
(play/simulations/swaps.py): screening stages that drop the swaps that cannot be worth +3 points
and send on those that clearly are, then one confirmation on fresh seeds sized for each
candidate. Each stage's chunks play deck A and a group of candidates on the same seeds of one
opponent; when a stage is complete, `next_stage` plans the next from the results (the kind
registry's stages, `BatchKind.next_stage`).

A chunk row's `opponent` is the field deck it plays; `params["plan"][index]` says its stage,
its group of candidates and its block of seeds. Seeds come from the kind's own `crn_seed`, the
stage, the opponent and the block, never from the chunk index, so every group of a stage plays
the very seeds deck A plays (common random numbers).
"""

from __future__ import annotations

import math
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
    default_runs = 8  # the first screening stage's seeds a field deck; later stages double

    # --- the request -------------------------------------------------------------------------

    def prepare(self, *, request, errors):
        study = request.study or {}
        for key in ("out", "in"):  # narrow the swaps tried: lists of card ids
            only = study.get(key)
            if only is not None and (
                not isinstance(only, list) or not all(isinstance(c, str) for c in only)
            ):
                errors[key] = [_("Give a list of card ids.")]
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
        total = self._screening_matches(len(candidates), request.runs, opponents)
        cap = settings.SIMULATION_MAX_RUNS
        if total > cap // 2:
            errors["candidates"] = [
                _(
                    "%(n)s candidate swaps at %(runs)s runs against each of %(decks)s decks "
                    "could need %(total)s matches to screen; a batch may play at most %(cap)s "
                    "and keeps half of them to confirm the swaps it finds. Choose fewer cards "
                    "to take out or bring in (out, in), or fewer runs."
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
            "budget": cap,
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

    def _add_stage(self, params: dict, *, alive: list[int], opponents: int, runs_each=None) -> list:
        """Append a stage to params: its candidates, seeds a field deck and chunk plan rows.

        A screening stage plays every candidate on the same seeds; a confirmation gives each
        candidate its own count (`runs_each`, alive sorted by it, most first), and a block of
        seeds is played by the candidates that still need it: a prefix of alive."""
        stage = len(params["stages"])
        confirm = runs_each is not None
        runs = max(runs_each.values()) if confirm else swaps.stage_runs(params["first_runs"], stage)
        if confirm:
            alive = sorted(alive, key=lambda i: (-runs_each[i], i))
        block, group = self._block_and_group(runs)
        record = {"alive": alive, "runs": runs, "confirmation": confirm}
        if confirm:
            record["runs_each"] = {str(i): runs_each[i] for i in alive}
        params["stages"].append(record)
        specs = []
        first = len(params["plan"])
        for opponent in range(1, opponents + 1):
            for number, start in enumerate(range(0, runs, block)):
                playing = sum(1 for i in alive if runs_each[i] > start) if confirm else len(alive)
                for g in range(0, playing, group):
                    params["plan"].append([stage, g, min(g + group, playing), number])
                    specs.append(
                        simulation.ChunkSpec(first + len(specs), opponent, min(block, runs - start))
                    )
        return specs

    def _block_and_group(self, runs: int) -> tuple[int, int]:
        """Return a stage's seeds a block and candidates a group (a chunk plays one group on
        one block: about a chunk's matches)."""
        target = self.chunk_size()
        block = max(1, min(runs, target // BLOCK_SHARE))
        return block, max(1, target // block - 1)

    def _screening_matches(self, candidates: int, first: int, opponents: int) -> int:
        """Return the most matches the screening can play: every candidate unclear until the
        last screening stage, deck A once a group."""
        total = 0
        for stage in range(swaps.SCREEN_STAGES):
            runs = swaps.stage_runs(first, stage)
            group = self._block_and_group(runs)[1]
            total += runs * (candidates + math.ceil(candidates / group))
        return total * opponents

    def _confirmation_matches(self, runs_each: dict[int, int], opponents: int) -> int:
        """Return the matches a confirmation plays: each block's seeds by the candidates that
        need them, and by deck A once a group."""
        runs = max(runs_each.values())
        block, group = self._block_and_group(runs)
        total = 0
        for start in range(0, runs, block):
            playing = sum(1 for n in runs_each.values() if n > start)
            total += min(block, runs - start) * (playing + math.ceil(playing / group))
        return total * opponents

    def plan(self, *, runs, chunk_size, opponents):
        raise NotImplementedError("a swaps batch is planned by prepare, then by next_stage")

    def next_stage(self, *, sides, params, by_opponent, first_index):
        """Return (params, chunk specs) of the next stage, or None when the batch is done.

        After a screening stage its candidates are decided (swaps.screen); the unclear play the
        next screening stage, and once none is left unclear, or the last screening stage is
        played, every candidate not dropped is confirmed. The chunk plan holds a row for every
        chunk so far, so the new chunks' indexes start at its length, which is the batch's
        chunk count (`first_index`)."""
        stages = params.get("stages") or []
        if len(params.get("plan") or []) != first_index:
            raise ValueError("the swaps plan and the batch's chunks disagree")
        if not stages or stages[-1]["confirmation"]:
            return None
        summary = self._merged(sides=sides, params=params, by_opponent=by_opponent)
        totals = {
            row["number"]: [row["matches"], row["up"], row["down"]] for row in summary["swaps"]
        }
        last = dict(stages[-1])
        decided = swaps.screen(last["alive"], totals)
        last.update(below=decided["below"], above=decided["above"])
        params = {**params, "stages": [*stages[:-1], last], "plan": list(params["plan"])}
        opponents = len(sides) - 1
        if decided["unclear"] and len(stages) < swaps.SCREEN_STAGES:
            return params, self._add_stage(params, alive=decided["unclear"], opponents=opponents)
        confirm = sorted(
            {i for stage in params["stages"] for i in stage.get("above", ())}
            | set(decided["unclear"])
        )
        if not confirm:
            return None
        runs_each, power, sized_for = self._confirmation_runs(
            params, totals, confirm, opponents, by_opponent
        )
        specs = self._add_stage(params, alive=confirm, opponents=opponents, runs_each=runs_each)
        params["stages"][-1].update(power=power, sized_for=sized_for)
        return params, specs

    def _confirmation_runs(self, params, totals, confirm, opponents, by_opponent):
        """Return each confirmed candidate's seeds a field deck, its power, and the gain that
        power is at (+3 points, or the screening's lower bound when higher).

        Each gets what its test needs (swaps.confirmation_pairs), at least the first stage's
        seeds; if all of them would play more matches than the budget has left, every count is
        scaled down alike and the rows show the power they kept."""
        family = len(confirm)
        wanted, variance, effect = {}, {}, {}
        for i in confirm:
            pairs, variance[i], effect[i] = swaps.confirmation_pairs(*totals[i], family=family)
            wanted[i] = max(params["first_runs"], math.ceil(pairs / opponents))
        played = sum(
            result["runs"] * (1 + len(result["candidates"]))
            for results in by_opponent.values()
            for result in results
        )
        left = params.get("budget", settings.SIMULATION_MAX_RUNS) - played
        asked = dict(wanted)
        scale = 1.0
        while self._confirmation_matches(wanted, opponents) > left and max(wanted.values()) > 1:
            scale *= 0.95
            wanted = {i: max(1, math.floor(n * scale)) for i, n in asked.items()}
        power = {
            str(i): swaps.power_at(wanted[i] * opponents, variance[i], family, effect[i])
            for i in confirm
        }
        return wanted, power, {str(i): effect[i] for i in confirm}

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
            "worth_points": round((batch.results or {}).get("worth", swaps.WORTH) * 100),
            "margin_points": round((batch.results or {}).get("margin", 0.0) * 100),
            "standing_count": sum(1 for row in rows if row.get("stands")),
            "swap_rows": [
                {**row, "out_name": name(row["out"]), "in_name": name(row["in"])} for row in rows
            ],
        }

    def opponent_text(self, batch) -> str:
        return _("every prebuilt deck")

    def against_text(self, batch) -> str:
        return _("against every prebuilt deck")


register(SwapsKind())
