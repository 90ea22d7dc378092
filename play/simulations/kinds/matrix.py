"""The matchup matrix: deck A and a set of decks, each pair played (a round robin).

The set (`study["set"]`, issue #29 item 3) is every public prebuilt deck (the default), the
user's own legal decks, or a shared list (`study["decks"]`: deck links or share slugs, one a
line, each a deck the user may see). At most SIMULATION_MATRIX_MAX_DECKS decks in all.

Matchups need not be transitive (A beats B, B beats C, C beats A), so the results are the
matrix itself, a cell for every ordered pair with its interval, rather than one rating a deck.
Each deck's line also names its best response: the deck of the set that beats it most.
Every deck is played by the same bot (the request's policy A). A chunk plays one pair; the
chunk's `opponent` is the pair's number in `params["pairs"]` (1-based).
"""

import re
from itertools import combinations

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from play.simulations import core as simulation
from play.simulations import sides as deck_sides
from play.simulations.kinds import register
from play.simulations.kinds.base import DeckKind, Prepared

MIN_DECKS = 3  # below this a matrix says nothing a head-to-head batch does not
SETS = ("prebuilt", "mine", "list")
DECK_LINK = re.compile(r"/decks/([-\w]+)/?\s*$")
SLUG = re.compile(r"^[-\w]{1,80}$")


class MatrixKind(DeckKind):
    key = "matrix"
    label = gettext_lazy("Matchup matrix")
    order = 45
    results_template = "play/kinds/_matrix_results.html"
    keeps_logs = False  # the sample-match list names one opponent a chunk, not a pair
    opponents_label = gettext_lazy("each deck of the set")
    empty_opponent_label = gettext_lazy("(not used) the decks are chosen below")

    def opponent_decks(self, request):
        """The set's other decks (deck A itself never twice), in the set's order."""
        return [("matrix_decks", deck) for deck in self.deck_set(request, {})]

    def deck_set(self, request, errors: dict) -> list:
        """Return the set's decks other than deck A, or add what is wrong to `errors`: an
        unknown set, a list line naming no deck the user may see or an illegal deck, too many
        decks."""
        from decks.models import Deck

        study = request.study or {}
        choice = study.get("set") or "prebuilt"
        own = getattr(request.deck_a, "pk", None)
        if choice not in SETS:
            errors["matrix_set"] = [
                _("Unknown set of decks “%(set)s”: use %(known)s.")
                % {"set": str(choice)[:40], "known": " / ".join(SETS)}
            ]
            return []
        if choice == "prebuilt":
            decks = list(deck_sides.prebuilt_decks())
        elif choice == "mine":
            decks = list(
                Deck.objects.filter(owner=request.owner, is_legal=True).order_by("name", "pk")
            )
        else:
            decks = self._listed(request, study.get("decks"), errors)
        decks = [deck for deck in decks if deck.pk != own]
        limit = settings.SIMULATION_MATRIX_MAX_DECKS
        if len(decks) + 1 > limit:
            errors["matrix_set"] = [
                _(
                    "The set has %(n)s decks with this one; a matchup matrix plays at most "
                    "%(limit)s (each pair is played, so the matches grow with the square)."
                )
                % {"n": f"{len(decks) + 1:,}", "limit": limit}
            ]
        return decks

    def _listed(self, request, lines, errors: dict) -> list:
        """Return the decks of a shared list, each line a deck link or share slug."""
        from decks.selectors import decks_readable_by

        if isinstance(lines, str):
            lines = lines.splitlines()
        if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
            errors["matrix_decks"] = [_("Give the decks as a list of links or slugs.")]
            return []
        lines = [line.strip() for line in lines]
        limit = settings.SIMULATION_MATRIX_MAX_DECKS
        if sum(1 for line in lines if line) > 4 * limit:  # refused before any lookup
            errors["matrix_decks"] = [
                _("The list has %(n)s lines; a matchup matrix plays at most %(limit)s decks.")
                % {"n": f"{len(lines):,}", "limit": limit}
            ]
            return []
        readable = decks_readable_by(request.owner)
        decks, seen, problems = [], set(), []
        for number, line in enumerate(lines, start=1):
            if not line:
                continue
            found = DECK_LINK.search(line)
            slug = found.group(1) if found else line
            deck = readable.filter(slug=slug).first() if SLUG.match(slug) else None
            if deck is None:
                problems.append(
                    _("Line %(n)s: no deck you can see at “%(text)s”.")
                    % {
                        "n": number,
                        "text": "".join(c if c.isprintable() else "?" for c in line[:80]),
                    }
                )
            elif not deck.is_legal:
                problems.append(
                    _("Line %(n)s: “%(name)s” is not a legal deck.")
                    % {"n": number, "name": deck.name}
                )
            elif deck.pk not in seen:
                seen.add(deck.pk)
                decks.append(deck)
        if not any(lines):
            problems.append(_("The list is empty: give one deck link or slug a line."))
        if problems:
            errors["matrix_decks"] = problems
        return decks

    def params(self, *, request, sides):
        params = super().params(request=request, sides=sides)
        params["policy_b"] = params["policy_a"]  # one bot plays every deck
        params["pairs"] = [list(pair) for pair in combinations(range(len(sides)), 2)]
        params["set"] = (request.study or {}).get("set") or "prebuilt"
        return params

    def prepare(self, *, request, errors):
        self.deck_set(request, errors)  # the set's refusals, before any snapshot is made
        if errors:
            return Prepared(sides=[], params={}, opponents=0)
        prepared = super().prepare(request=request, errors=errors)
        if not errors and len(prepared.sides) < MIN_DECKS:
            errors["matrix_set"] = [
                _(
                    "A matchup matrix needs at least %(min)s decks; this set has %(n)s with "
                    "this one."
                )
                % {"min": MIN_DECKS, "n": len(prepared.sides)}
            ]
        if errors:
            return prepared
        return Prepared(
            sides=prepared.sides,
            params=prepared.params,
            opponents=len(prepared.params["pairs"]),
            versions=prepared.versions,
        )

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        first, second = params["pairs"][spec.opponent - 1]
        return simulation.run_matches(
            side_a=simulation.side_deck(sides[first]),
            side_b=simulation.side_deck(sides[second]),
            params=params,
            runs=spec.runs,
            seed=seed,
            keep_logs=0,
        )

    def summarize(self, *, sides, params, by_opponent):
        return {
            "kind": self.key,
            **matrix_summary(
                names=[side["name"] for side in sides],
                pairs=params["pairs"],
                by_pair={number - 1: results for number, results in by_opponent.items()},
            ),
            **self.named(sides=sides[:1], params=params),
        }

    def opponent_text(self, batch) -> str:
        chosen = (batch.params or {}).get("set", "prebuilt")
        if chosen == "mine":
            return _("my decks, each pair")
        if chosen == "list":
            return _("a list of %(n)s decks, each pair") % {"n": len(batch.sides or []) - 1}
        return _("every prebuilt deck, each pair")

    def against_text(self, batch) -> str:
        return _("and %(decks)s") % {"decks": self.opponent_text(batch)}


def matrix_summary(*, names: list[str], pairs: list[list[int]], by_pair: dict) -> dict:
    """Return the matrix from the finished chunk results of each pair (0-based pair numbers).

    `cells[i][j]` is deck i's record against deck j (None on the diagonal, and for a pair with
    no finished chunk yet); a pair's second deck reads the first's figures mirrored. Each row
    gives the deck's mean win rate over the decks it met and its best response.
    """
    size = len(names)
    cells: list[list[dict | None]] = [[None] * size for _ in range(size)]
    runs = 0
    for number, (first, second) in enumerate(pairs):
        merged = simulation.merge_results(by_pair.get(number, []))
        if not merged or not merged.get("runs"):
            continue
        summary = simulation.summarize_matches(merged)
        runs += summary["runs"]
        low, high = summary["interval"]
        cells[first][second] = {
            "runs": summary["runs"],
            "wins": merged["wins"].get("A", 0),
            "win_rate": summary["win_rate"],
            "interval": [low, high],
        }
        cells[second][first] = {
            "runs": summary["runs"],
            "wins": merged["wins"].get("B", 0),
            "win_rate": 1 - summary["win_rate"],
            "interval": [1 - high, 1 - low],
        }
    rows = []
    for i, name in enumerate(names):
        met = [(j, cell) for j, cell in enumerate(cells[i]) if cell is not None]
        best = min(met, key=lambda pair: (pair[1]["win_rate"], pair[0])) if met else None
        rows.append(
            {
                "deck": name,
                "cells": cells[i],
                "mean_win_rate": sum(c["win_rate"] for _, c in met) / len(met) if met else None,
                "best_response": None
                if best is None
                else {"deck": names[best[0]], "index": best[0], **best[1]},
            }
        )
    return {"decks": names, "rows": rows, "runs": runs}


register(MatrixKind())
