"""What a batch kind is: the questions services, API, forms and templates ask of every kind.

A kind answers them once, in its own module of this package (`pk.py`, `gauntlet.py`, ...):
what it needs (decks, rule variants), how it plans chunks, how a chunk runs, how the chunk
results are summarised, whether it keeps sample logs, and which templates show it. Chunk
running and summaries stay pure (no ORM): a chunk is a function of (sides, params, seed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from play.models import match_log_title
from play.simulations import core as simulation
from play.simulations import sides as deck_sides
from play.simulations.bots import ENGINE_RULE_VALUES


@dataclass
class Prepared:
    """What a kind made of a request: the sides snapshot, their deck versions, the params."""

    sides: list[dict]
    params: dict
    opponents: int
    versions: list = field(default_factory=list)  # deck A's version, then every opponent's
    chunk_size: int | None = None  # runs a chunk, when the kind sizes this batch's own chunks
    specs: list | None = None  # the first stage's chunks, when the kind planned them itself


class BatchKind:
    """One kind of batch. Subclasses set the class attributes and override what differs."""

    key: str = ""
    label = ""  # a lazy translation: shown in lists, titles and the kind choice
    order: int = 100  # position in the kind choice and in error messages
    chunk_setting = "SIMULATION_CHUNK_MATCHES"  # the setting that sizes a chunk
    keeps_logs = True  # whether a chunk keeps sample match logs for the replay viewer
    uses_decks = True  # False for kinds that play rule variants, not decks
    needs_opponent = False  # the request must name deck B
    # The Simulate form's empty opponent choice, in this kind's words: a default only where
    # one exists (goldfish), else a prompt to choose.
    empty_opponent_label = gettext_lazy("Choose a deck")
    heading_template = "play/kinds/_deck_heading.html"
    results_template = "play/kinds/_match_results.html"
    both_sides_played = False  # the match results show deck B's goals beside deck A's
    replay_url_name = "play:replay"  # the viewer that opens this kind's sample logs
    opponents_label = None  # how results name side B when it is many decks in turn
    # The Simulate form's Runs to start with when this kind is chosen (site.js sets it as the
    # kind changes, unless the person typed a number). A kind whose runs plan many matches
    # each (per candidate swap, per stage) starts lower, so its default is not refused by
    # SIMULATION_MAX_RUNS.
    default_runs: int = 1000

    def detail_context(self, batch, request) -> dict:
        """Return what this kind's results template needs beyond `batch.results` (the
        request's query may choose a view, e.g. a sweep's baseline cell)."""
        return {}

    def log_title(self, log: dict) -> str:
        """Return a kept sample log's title."""
        return match_log_title(log)

    def heading_labels(self, batch) -> list[str]:
        """Return what the batch page's heading and the batch list name beside the kind (the
        lab's variants or study), in the reader's words."""
        return [str(label) for label in (batch.params or {}).get("variants", [])]

    def title_text(self, title: str) -> str:
        """Return a kept sample log's stored title in the reader's words (as stored here)."""
        return title

    def side_note(self, side: dict) -> str:
        """Return what a sample match's list says of the side its chunk played (a lab cell or
        variant); empty where the title says it all."""
        return ""

    def chunk_size(self) -> int:
        """Return the runs per chunk (SIMULATION_CHUNK_SIZE may set it per kind)."""
        return settings.SIMULATION_CHUNK_SIZE.get(self.key) or getattr(settings, self.chunk_setting)

    def opponent_indexes(self, opponents: int) -> range:
        """Return the indexes into the sides snapshot that chunks play (0 is deck A)."""
        return range(1, opponents + 1)

    def plan(self, *, runs: int, chunk_size: int, opponents: int) -> list[simulation.ChunkSpec]:
        """Return the chunks: `runs` per opponent, split into chunks of `chunk_size`."""
        return simulation.plan_chunks(
            indexes=self.opponent_indexes(opponents), runs=runs, chunk_size=chunk_size
        )

    def prepare(self, *, request, errors: dict[str, list[str]]) -> Prepared:
        """Return the batch's sides and params; add every problem to `errors`."""
        raise NotImplementedError

    def run_chunk(
        self, *, sides: list[dict], params: dict, spec: simulation.ChunkSpec, seed: int, keep_logs
    ) -> tuple[dict, list[dict]]:
        """Play one chunk; return (its summed result, up to `keep_logs` match logs)."""
        raise NotImplementedError

    def summarize(self, *, sides: list[dict], params: dict, by_opponent: dict) -> dict:
        """Return the results page's figures from the finished chunk results per opponent."""
        raise NotImplementedError

    def next_stage(
        self, *, sides: list[dict], params: dict, by_opponent: dict, first_index: int
    ) -> tuple[dict, list[simulation.ChunkSpec]] | None:
        """A multi-stage batch (an adaptive design: the Touchdown recommendation's and the swap
        suggestions' successive halving): called when every chunk so far has finished; return
        (the new params, the next stage's chunks, indexed from first_index), or None when the
        batch is complete. One stage (None) unless a kind says otherwise. The services add and
        queue them under a lock on the batch row (services.batch_next_stage)."""
        return None

    def opponent_text(self, batch) -> str:
        """Return the opponent cell of the batch list."""
        return batch.deck_b_version.name if batch.deck_b_version else ""

    def against_text(self, batch) -> str:
        """Return the "against ..." note of the batch page's heading."""
        if batch.deck_b_version:
            return f"{_('against')} {batch.deck_b_version.name}"
        return ""


class DeckKind(BatchKind):
    """A kind that plays deck A's latest version against opponent decks' latest versions."""

    def opponent_decks(self, request) -> list[tuple[str, object]]:
        """Return (form field, deck) for every opponent, in sides order."""
        return [("deck_b", request.deck_b)]

    plays_matches = True  # its runs are matches: bots and rule options apply (not PK)

    def params(self, *, request, sides: list[dict]) -> dict:
        params = {"runs": request.runs, "policy_a": request.policy_a, "policy_b": request.policy_b}
        if self.plays_matches:
            params["options"] = match_options(request.options)  # R-PLAY-4, R-DRAW-2
        return params

    def prepare(self, *, request, errors: dict[str, list[str]]) -> Prepared:
        for name in ("policy_a", "policy_b"):
            if getattr(request, name) not in simulation.POLICIES:
                errors[name] = [f"Unknown policy: use {', '.join(simulation.POLICIES)}."]
        for name, value in (request.options or {}).items():
            values = ENGINE_RULE_VALUES.get(name)
            if values is None:
                errors[name] = [
                    f"Unknown rule option {name!r}: use {', '.join(ENGINE_RULE_VALUES)}."
                ]
            elif value not in values:
                errors[name] = [f"Unknown {name} {value!r}: use {' or '.join(values)}."]
        if self.needs_opponent and request.deck_b is None:
            errors["deck_b"] = ["This kind of batch needs an opponent deck."]
        versions: list = []
        sides: list[dict] = []
        for name, deck in [("deck_a", request.deck_a), *self.opponent_decks(request)]:
            if deck is None:
                errors.setdefault(name, []).append("No opponent deck is available.")
                continue
            version, snapshot = deck_sides.latest_snapshot(deck, name, errors, verb="simulated")
            versions.append(version)
            sides.append(snapshot)
        params = self.params(request=request, sides=sides) if not errors else {}
        return Prepared(sides=sides, params=params, opponents=len(sides) - 1, versions=versions)

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        return simulation.run_matches(
            side_a=simulation.side_deck(sides[0]),
            side_b=simulation.side_deck(sides[spec.opponent]),
            params=params,
            runs=spec.runs,
            seed=seed,
            keep_logs=keep_logs,
        )

    def summarize(self, *, sides, params, by_opponent):
        merged = simulation.merge_results([r for results in by_opponent.values() for r in results])
        named = self.named(sides=sides, params=params)
        if not merged:
            return {"kind": self.key, "runs": 0, **named}
        return {"kind": self.key, **self.summarize_merged(merged, params=params), **named}

    def named(self, *, sides: list[dict], params: dict) -> dict:
        """Return what the results name: each side's deck and bot, and the rule options."""
        bots = (params.get("policy_a"), params.get("policy_b")) if self.plays_matches else ()
        named = {
            "sides": {
                side: {
                    "deck": sides[index]["name"] if index < len(sides) else None,
                    "bot": bots[index] if bots else None,
                }
                for index, side in enumerate("AB")
            }
        }
        if self.plays_matches:
            named["rules"] = match_options(params.get("options"))
        return named

    def summarize_merged(self, merged: dict, *, params: dict) -> dict:
        return simulation.summarize_matches(merged)


def match_options(options: dict | None) -> dict:
    """Return a batch's rule options in full (the second edition's readings by default)."""
    options = options or {}
    return {name: options.get(name, values[0]) for name, values in ENGINE_RULE_VALUES.items()}
