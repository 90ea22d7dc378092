"""The card report's arithmetic (issue #29): what each card of deck A did, read from match logs.

A chunk plays its matches with the log on (the same seeds `run_matches` draws, so a report and
a plain batch of one seed play the same matches) and keeps, per card id of side A, only counts:
in how many matches it was drawn and played, how often it was played, how many goals it was
part of (played by A in the play phase of a turn A scored in) and how many shots it helped stop
(played by A, defending, in a turn whose shot missed), and the wins of the matches it was drawn
in. Pure: no Django. The summary adds each card's win rate when drawn and when not drawn, with
Wilson intervals and sample sizes, and a caution where either sample is small.
"""

from __future__ import annotations

from collections import Counter

from play.engine.match import SideDeck
from play.simulations.core import play_matches
from play.stats import wilson_interval

COUNTS = ("drawn", "played_in", "plays", "scored", "stopped", "wins_drawn")
SMALL_SAMPLE = 30  # below this many matches on either side, a difference is not read


def match_counts(log: dict) -> tuple[dict[str, Counter], bool]:
    """Return side A's per-card counts of one logged match and whether A won it."""
    counts = {name: Counter() for name in COUNTS}
    drawn: set[str] = set()
    played: set[str] = set()
    offense, a_cards = None, []
    for event in log["events"]:
        kind = event["type"]
        if kind == "turn_start":
            offense, a_cards = event["offense"], []
            drawn.update(event["hands"]["A"])
        elif kind == "draw" and event["side"] == "A":
            drawn.update(event["cards"])
        elif kind == "play" and event["side"] == "A":
            a_cards += event["cards"]
            counts["plays"].update(event["cards"])
            played.update(event["cards"])
        elif kind == "judge" and event.get("kind") == "shot":
            if offense == "A" and event["outcome"] == "goal":
                counts["scored"].update(a_cards)
            elif offense == "B" and event["outcome"] != "goal":
                counts["stopped"].update(a_cards)
    won = log["events"][-1].get("winner") == "A"
    counts["drawn"].update(drawn)
    counts["played_in"].update(played)
    if won:
        counts["wins_drawn"].update(drawn)
    return counts, won


def run_chunk(*, side_a: SideDeck, side_b: SideDeck, params: dict, runs: int, seed: int) -> dict:
    """Play `runs` logged matches (the seeds `run_matches` would play) and return the counts."""
    totals = {name: Counter() for name in COUNTS}
    wins = 0
    for outcome in play_matches(
        side_a=side_a, side_b=side_b, params=params, runs=runs, seed=seed, log=lambda n: True
    ):
        counts, won = match_counts(outcome.log)
        wins += won
        for name in COUNTS:
            totals[name].update(counts[name])
    return {"runs": runs, "wins": wins, **{name: dict(totals[name]) for name in COUNTS}}


def merge(results: list[dict]) -> dict:
    """Return the sum of chunk results."""
    merged = {"runs": 0, "wins": 0, **{name: Counter() for name in COUNTS}}
    for result in results:
        merged["runs"] += result["runs"]
        merged["wins"] += result["wins"]
        for name in COUNTS:
            merged[name].update(result.get(name, {}))
    return merged


def summarize(merged: dict, deck_ids: list[str]) -> dict:
    """Return each card's row of the report (deck order, copies counted) and the totals."""
    runs, wins = merged["runs"], merged["wins"]
    copies = Counter(deck_ids)
    rows = []
    for card_id in sorted(copies):
        drawn = merged["drawn"].get(card_id, 0)
        wins_drawn = merged["wins_drawn"].get(card_id, 0)
        not_drawn = runs - drawn
        wins_not = wins - wins_drawn
        rate_drawn = wins_drawn / drawn if drawn else None
        rate_not = wins_not / not_drawn if not_drawn else None
        rows.append(
            {
                "card": card_id,
                "copies": copies[card_id],
                "drawn": drawn,
                "drawn_share": drawn / runs if runs else None,
                "played_in": merged["played_in"].get(card_id, 0),
                "plays": merged["plays"].get(card_id, 0),
                "scored": merged["scored"].get(card_id, 0),
                "stopped": merged["stopped"].get(card_id, 0),
                "wins_drawn": wins_drawn,
                "win_drawn": rate_drawn,
                "win_drawn_interval": list(wilson_interval(wins_drawn, drawn)) if drawn else None,
                "not_drawn": not_drawn,
                "wins_not_drawn": wins_not,
                "win_not_drawn": rate_not,
                "win_not_drawn_interval": (
                    list(wilson_interval(wins_not, not_drawn)) if not_drawn else None
                ),
                "difference": (
                    rate_drawn - rate_not
                    if rate_drawn is not None and rate_not is not None
                    else None
                ),
                "small_sample": min(drawn, not_drawn) < SMALL_SAMPLE,
            }
        )
    return {"runs": runs, "wins": wins, "win_rate": wins / runs if runs else None, "cards": rows}
