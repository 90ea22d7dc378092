"""Halftime and bench advice (issue #29 item 4): which bench cards were worth bringing.

The batch replays the card report's matches (deck A against every prebuilt deck, the report's
bots, rule options and seeds) with every legal halftime swap of deck A (R-MATCH-5: one card of
the deck out, one bench card in, the deck legal after it, R-DECK-1..3), each paired with the
no-swap baseline on the very same match seeds (play/simulations/halftime.py).

`study["out"]` and `study["in"]` (lists of card ids) narrow the swaps tried.

Which matches: `study["report"]` names a finished card report of the user's (kind "cards");
its sides, bots, rule options, seed and chunks are replayed, match for match. Without one, the
batch plays what a card report of the same seed and runs would play (its chunk plan, its
seed), so a report asked for with that seed holds the same matches. A chunk row's `opponent`
is the field deck it plays; `params["plan"][index]` is [the report chunk's index, the first of
its matches this chunk plays, how many]; the report chunk's seed is
`chunk_seed(params["report_seed"], that index)`, never this batch's own chunk seed.
"""

from __future__ import annotations

import random

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from play.seeds import chunk_seed
from play.simulations import core as simulation
from play.simulations import halftime
from play.simulations.kinds import get, register
from play.simulations.kinds.base import Prepared
from play.simulations.kinds.gauntlet import GauntletKind

LANGUAGES = ("en", "ja")


def points(value: float) -> str:
    """Return a change in win rate as signed points (0.041 -> "+4.1")."""
    return f"{value * 100:+.1f}"


def advice_text(entry: dict, names: dict, *, subject: str) -> str:
    """Return one sentence of advice, in the active language, for a bench card ("in") or a
    card of the deck ("out") and its best swap."""
    row = entry["best"]
    name = names.get(entry["card"], entry["card"])
    if row is None:
        if subject == "in":
            return _(
                "%(card)s could never come on at halftime: no swap with it keeps the deck legal "
                "(a goalkeeper, or a card the deck may not hold more of)."
            ) % {"card": name}
        return _("%(card)s could not be swapped for any bench card at halftime.") % {"card": name}
    values = {
        "card": name,
        "out": names.get(row["out"], row["out"]),
        "in": names.get(row["in"], row["in"]),
        "change": points(row["difference"]) if row["difference"] is not None else "–",
        "low": points(row["interval"][0]) if row["interval"] else "–",
        "high": points(row["interval"][1]) if row["interval"] else "–",
        "n": f"{row['pairs']:,}",
    }
    verdict = entry["verdict"]
    if verdict == "too_few":
        return (
            _(
                "Too few matches to say (%(n)s paired matches): play more runs before reading "
                "anything into %(card)s."
            )
            % values
        )
    if subject == "in":
        if verdict == "worth":
            text = _(
                "Worth bringing: bringing on %(in)s for %(out)s at halftime changed the win rate "
                "by %(change)s points (95%% interval %(low)s to %(high)s, %(n)s paired matches), "
                "and the gain stands after the correction for every swap tried."
            )
        elif verdict == "costs":
            text = _(
                "Not worth bringing: even its best swap, %(in)s for %(out)s, changed the win rate "
                "by %(change)s points (95%% interval %(low)s to %(high)s, %(n)s paired matches)."
            )
        else:
            text = _(
                "No clear gain: its best swap, %(in)s for %(out)s, changed the win rate by "
                "%(change)s points (95%% interval %(low)s to %(high)s, %(n)s paired matches); "
                "these matches do not show it earning its bench place."
            )
    elif verdict == "worth":
        text = _(
            "Worth taking off at halftime: bringing on %(in)s for %(card)s changed the win rate "
            "by %(change)s points (95%% interval %(low)s to %(high)s, %(n)s paired matches), and "
            "the gain stands after the correction."
        )
    elif verdict == "costs":
        text = _(
            "Keep it: every bench card tried for %(card)s lost matches; the best, %(in)s, "
            "changed the win rate by %(change)s points (95%% interval %(low)s to %(high)s, "
            "%(n)s paired matches)."
        )
    else:
        text = _(
            "No clear reason to take it off: the best bench card for %(card)s, %(in)s, changed "
            "the win rate by %(change)s points (95%% interval %(low)s to %(high)s, %(n)s paired "
            "matches)."
        )
    return text % values


class HalftimeKind(GauntletKind):
    key = "halftime"
    label = gettext_lazy("Halftime and bench advice")
    order = 44
    results_template = "play/kinds/_halftime_results.html"
    keeps_logs = False
    # Runs are match seeds per field deck, each played by every legal swap and the baseline:
    # runs x decks x (swaps + 1) matches. A prebuilt deck's 16 distinct cards and a full bench
    # (20 cards, 19 not goalkeepers) give ~300 swaps: at 1000 runs against the 6 prebuilt decks
    # ~1,800,000 matches, refused by SIMULATION_MAX_RUNS (1,000,000); at 200, ~360,000 (up to
    # 832 swaps fit). The sample benched decks (80 swaps) make 97,200.
    default_runs = 200

    # --- the request -------------------------------------------------------------------------

    def prepare(self, *, request, errors):
        study = request.study or {}
        report = None
        if study.get("report") is not None:
            report = self._report(request, study["report"], errors)
            if errors:
                return Prepared(sides=[], params={}, opponents=0)
            prepared = Prepared(
                sides=report.sides,
                params={
                    key: report.params[key]
                    for key in ("runs", "policy_a", "policy_b", "options")
                    if key in report.params
                },
                opponents=len(report.sides) - 1,
                versions=[report.deck_a_version, *report.opponent_versions.all()],
            )
        else:
            prepared = super().prepare(request=request, errors=errors)
            if errors:
                return prepared
        limit = settings.SIMULATION_SWAPS_MAX_FIELD
        if prepared.opponents == 0:
            errors["field"] = [_("The field is empty: no public prebuilt deck is available.")]
            return prepared
        if prepared.opponents > limit:
            errors["field"] = [
                _("The field has %(n)s decks; halftime advice plays at most %(limit)s.")
                % {"n": f"{prepared.opponents:,}", "limit": f"{limit:,}"}
            ]
            return prepared
        base = prepared.sides[0]
        if not base.get("bench"):
            errors["deck_a"] = [
                _(
                    "%(deck)s has no bench, so there is no card to bring on at halftime. Add "
                    "bench cards to the deck (up to 20) and ask again."
                )
                % {"deck": base["name"]}
            ]
            return prepared
        candidates = halftime.candidate_swaps(base)
        for key, at in (("out", 0), ("in", 1)):  # narrow the swaps tried: cards out, cards in
            only = study.get(key)
            if only is not None:
                if not isinstance(only, list) or not all(isinstance(c, str) for c in only):
                    errors[key] = [_("Give a list of card ids.")]
                    return prepared
                candidates = [swap for swap in candidates if swap[at] in set(only)]
        if not candidates:
            errors["bench"] = [
                _(
                    "No bench card of %(deck)s can come on at halftime: every swap would make the "
                    "deck illegal (R-DECK-1..3), or the bench holds only goalkeepers."
                )
                % {"deck": base["name"]}
            ]
            return prepared
        if report is not None:
            blocks = list(report.chunks.order_by("index").values_list("index", "opponent", "runs"))
            seed = report.seed
        else:
            size = get("cards").chunk_size()
            blocks = [
                (spec.index, spec.opponent, spec.runs)
                for spec in simulation.plan_chunks(
                    indexes=range(1, prepared.opponents + 1), runs=request.runs, chunk_size=size
                )
            ]
            seed = (
                request.seed if request.seed is not None else random.SystemRandom().getrandbits(62)
            )
        seeds = sum(block[2] for block in blocks)
        total = seeds * (len(candidates) + 1)
        cap = settings.SIMULATION_MAX_RUNS
        if total > cap:
            errors["runs"] = [
                _(
                    "%(swaps)s halftime swaps and the no-swap baseline, each on %(seeds)s match "
                    "seeds, make %(total)s matches; a batch may play at most %(cap)s. Choose fewer "
                    "runs or a smaller bench."
                )
                % {
                    "swaps": f"{len(candidates):,}",
                    "seeds": f"{seeds:,}",
                    "total": f"{total:,}",
                    "cap": f"{cap:,}",
                }
            ]
            return prepared
        per_chunk = max(1, self.chunk_size() // (len(candidates) + 1))
        plan, specs = [], []
        for index, opponent, runs in blocks:
            for start in range(0, runs, per_chunk):
                count = min(per_chunk, runs - start)
                plan.append([index, start, count])
                specs.append(simulation.ChunkSpec(len(specs), opponent, count))
        params = {
            **prepared.params,
            "report": report.pk if report is not None else None,
            "report_seed": seed,
            "swaps": candidates,
            "plan": plan,
            "names": self._names(base),
        }
        return Prepared(
            sides=prepared.sides,
            params=params,
            opponents=prepared.opponents,
            versions=prepared.versions,
            chunk_size=per_chunk,
            specs=specs,
        )

    def _report(self, request, report_id, errors):
        from play.models import SimulationBatch

        report = None
        if isinstance(report_id, int) and not isinstance(report_id, bool):
            report = SimulationBatch.objects.filter(
                pk=report_id, owner=request.owner, kind="cards"
            ).first()
        if report is None:
            errors["report"] = [_("No card report of yours has this number.")]
        elif report.status != SimulationBatch.Status.DONE:
            errors["report"] = [_("The card report is not finished; replay it once it is done.")]
        elif report.deck_a_version is None or (
            request.deck_a is not None and report.deck_a_version.deck_id != request.deck_a.pk
        ):
            errors["report"] = [_("The card report played another deck.")]
        return report

    def _names(self, snapshot: dict) -> dict:
        """Return every card's name in each language, for the advice's sentences."""
        from catalog.models import Card

        ids = set(snapshot["cards"]) | set(snapshot["bench"])
        names = {lang: {} for lang in LANGUAGES}
        for card in Card.objects.filter(pk__in=ids):
            names["en"][card.id] = card.name
            names["ja"][card.id] = card.name_ja or card.name
        return names

    def plan(self, *, runs, chunk_size, opponents):
        raise NotImplementedError("a halftime batch is planned by prepare")

    # --- chunks and results ------------------------------------------------------------------

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        index, start, count = params["plan"][spec.index]
        seeds = halftime.match_seeds(chunk_seed(params["report_seed"], index), start, count)
        result = halftime.run_chunk(
            base=sides[0],
            opponent=sides[spec.opponent],
            swaps=params["swaps"],
            params=params,
            seeds=seeds,
        )
        return result, []

    def summarize(self, *, sides, params, by_opponent):
        merged = halftime.merge([r for results in by_opponent.values() for r in results])
        summary = halftime.summarize(snapshot=sides[0], swaps=params["swaps"], merged=merged)
        names = params.get("names") or {}
        for lang in LANGUAGES:
            with translation.override(lang):
                for subject, key in (("in", "bench"), ("out", "out_cards")):
                    for entry in summary[key]:
                        entry.setdefault("advice", {})[lang] = advice_text(
                            entry, names.get(lang, {}), subject=subject
                        )
        return {
            "kind": self.key,
            "report": params.get("report"),
            "field": [side["name"] for side in sides[1:]],
            **summary,
            **self.named(sides=sides[:1], params=params),
        }

    def detail_context(self, batch, request) -> dict:
        from catalog.models import Card

        results = batch.results or {}
        rows = results.get("swaps", [])
        ids = {row["out"] for row in rows} | {row["in"] for row in rows}
        ids |= {entry["card"] for entry in results.get("bench", [])}
        ids |= {entry["card"] for entry in results.get("out_cards", [])}
        cards = Card.objects.in_bulk(list(ids))
        lang = "ja" if translation.get_language() == "ja" else "en"

        def name(card_id):
            return cards[card_id].display_name if card_id in cards else card_id

        def entries(key, other):
            """Each card's advice, with the name of the card its best swap pairs it with."""
            return [
                {
                    **entry,
                    "name": name(entry["card"]),
                    "best_name": name(entry["best"][other]) if entry["best"] else "",
                    "text": (entry.get("advice") or {}).get(lang, ""),
                }
                for entry in results.get(key, [])
            ]

        return {
            "bench_rows": entries("bench", "out"),
            "out_rows": [e for e in entries("out_cards", "in") if e["best"] is not None],
            "halftime_rows": [
                {**row, "out_name": name(row["out"]), "in_name": name(row["in"])} for row in rows
            ],
        }

    def opponent_text(self, batch) -> str:
        return _("every prebuilt deck")

    def against_text(self, batch) -> str:
        return _("against every prebuilt deck")


register(HalftimeKind())
