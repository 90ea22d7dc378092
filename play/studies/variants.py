"""The Touchdown Heroes balance lab as pure functions: variants, one chunk of games, summaries.

No Django here, like play/simulation.py: a chunk is a pure function of (variant, runs, seed),
and chunk results are sums, merged by play.simulation.merge_results.
"""

from __future__ import annotations

import random

from play.errors import FieldErrors
from play.stats import wilson_interval
from play.touchdown import Options, load_effect_set, play_game
from play.touchdown.options import MINIMUM_KICK_BALL

TD_POLICIES = ("greedy", "random", "search")
KICKOFF_MODES = ("choice", "normal_only")
SHIPPED_EFFECTS = ("none", "example")
TEAMS = ("eagles", "bears")


# The kick-off and reading options of play.touchdown.Options a variant may set (defaults: the
# draft); checked by Options itself, so the lab and the engine never disagree.
KICK_OPTIONS = {
    name: value
    for name, value in Options().variant().items()
    if name not in ("onside_rolls", "kickoffs")
}


class VariantError(FieldErrors):
    """A variant that cannot be played; `errors` maps each field to its messages."""


def clean_variant(data: dict, *, prefix: str = "") -> dict:
    """Return a checked variant dict (JSON-ready); raise VariantError naming each bad field."""
    errors: dict[str, list[str]] = {}
    label = str(data.get("label") or "").strip()[:60]
    rolls = data.get("onside_rolls", 1)
    if isinstance(rolls, bool) or not isinstance(rolls, int) or not 0 <= rolls <= 5:
        errors[prefix + "onside_rolls"] = ["Onside on a roll of 1 to N: N must be 0 to 5."]
    minimum_kick = data.get("minimum_kick", False)
    if not isinstance(minimum_kick, bool):
        errors[prefix + "minimum_kick"] = ["Use true or false."]
    kickoffs = data.get("kickoffs", "choice")
    if kickoffs not in KICKOFF_MODES:
        errors[prefix + "kickoffs"] = [f"Use one of {', '.join(KICKOFF_MODES)}."]
    policy = data.get("policy", "greedy")
    if policy not in TD_POLICIES:
        errors[prefix + "policy"] = [f"Use one of {', '.join(TD_POLICIES)}."]
    effects = data.get("effects", "none")
    if isinstance(effects, str) and effects not in SHIPPED_EFFECTS:
        errors[prefix + "effects"] = ["Use none, example, or an effect-set JSON object."]
    elif not isinstance(effects, str | dict):
        errors[prefix + "effects"] = ["Use none, example, or an effect-set JSON object."]
    else:
        try:
            load_effect_set(effects)
        except ValueError as exc:
            problems = getattr(exc, "problems", None) or [str(exc)]
            errors[prefix + "effects"] = [str(p) for p in problems]
    kick_options = {}
    for name, default in KICK_OPTIONS.items():  # issue #14: every kick-off parameter
        value = data.get(name, default)
        try:
            Options(**{name: value})
        except ValueError as exc:
            errors[prefix + name] = [str(exc)]
        else:
            kick_options[name] = value
    if errors:
        raise VariantError(errors)
    # `minimum_kick` is shorthand for a floor of 7, read as Options reads it: the floor decides
    # and the flag says whether it is 7, so no label can name one and play another.
    if minimum_kick and not kick_options.get("kick_floor"):
        kick_options["kick_floor"] = MINIMUM_KICK_BALL
    minimum_kick = kick_options.get("kick_floor") == MINIMUM_KICK_BALL
    variant = {
        "onside_rolls": rolls,
        "minimum_kick": minimum_kick,
        "kickoffs": kickoffs,
        "policy": policy,
        "effects": effects,
        **kick_options,
    }
    variant["label"] = label or describe(variant)
    return variant


def describe(variant: dict) -> str:
    """Return a short plain description of a variant."""
    rolls = variant["onside_rolls"]
    onside = "no onside" if rolls == 0 else f"onside on 1–{rolls}" if rolls > 1 else "onside on 1"
    parts = ["normal kick-offs only" if variant["kickoffs"] == "normal_only" else onside]
    for name, default in KICK_OPTIONS.items():
        if variant.get(name, default) != default:
            parts.append(f"{name}={variant[name]}")
    effects = variant["effects"]
    parts.append(f"effects: {effects if isinstance(effects, str) else 'custom'}")
    parts.append(variant["policy"])
    return ", ".join(parts)


def variant_options(variant: dict) -> Options:
    return Options(
        onside_rolls=variant["onside_rolls"],
        minimum_kick=variant["minimum_kick"],
        kickoffs=variant["kickoffs"],
        effects=variant["effects"],
        **{name: variant.get(name, default) for name, default in KICK_OPTIONS.items()},
    )


def run_chunk(*, variant: dict, runs: int, seed: int, keep_logs: int = 0):
    """Play `runs` games of a variant; return (summed counts, up to keep_logs game logs)."""
    rng = random.Random(seed)
    options = variant_options(variant)
    totals = {
        "runs": runs,
        "wins": {t: 0 for t in TEAMS},
        "draws": 0,
        "kickoffs": {"normal": 0, "random": 0},
        "onside_attempts": 0,
        "onside_successes": 0,
        # kick-offs by what happened, and how often the kicking team then won the game
        "kicker": {k: {"kickoffs": 0, "wins": 0} for k in ("onside", "random", "normal")},
        "games_with_onside": {"games": 0, "wins": 0},
        "drives": 0,
        "drive_points": 0,
        "points": 0,
        "touchdowns": {"2": 0, "3": 0},
        "kick_points": 0,
        "tricks": 0,
        "total_score": {},
    }
    logs = []
    for number in range(runs):
        outcome = play_game(
            options, variant["policy"], seed=rng.getrandbits(63), log=number < keep_logs
        )
        if outcome.log is not None:
            logs.append(outcome.log)
        _add(totals, outcome)
    return totals, logs


def _add(totals: dict, o) -> None:
    if o.winner is None:
        totals["draws"] += 1
    else:
        totals["wins"][o.winner] += 1
    for counts in o.kickoffs.values():
        for choice, n in counts.items():
            totals["kickoffs"][choice] = totals["kickoffs"].get(choice, 0) + n
    totals["onside_attempts"] += sum(o.onside_attempts.values())
    totals["onside_successes"] += sum(o.onside_successes.values())
    for team, choice, onside in o.kickoff_sequence:
        kind = "onside" if onside else choice
        totals["kicker"][kind]["kickoffs"] += 1
        totals["kicker"][kind]["wins"] += o.winner == team
    for team in set(o.onside_kicking_teams):
        totals["games_with_onside"]["games"] += 1
        totals["games_with_onside"]["wins"] += o.winner == team
    totals["drives"] += len(o.drives)
    totals["drive_points"] += sum(points for _, _, points, _ in o.drives)
    score = sum(o.score.values())
    totals["points"] += score
    totals["total_score"][str(score)] = totals["total_score"].get(str(score), 0) + 1
    for team_tds in o.touchdowns.values():
        for points, n in team_tds.items():
            totals["touchdowns"][points] = totals["touchdowns"].get(points, 0) + n
    totals["kick_points"] += sum(o.kick_points.values())
    totals["tricks"] += o.tricks


def _rate(successes: int, n: int) -> dict:
    low, high = wilson_interval(successes, n)
    return {"n": n, "k": successes, "rate": successes / n if n else None, "interval": [low, high]}


def summarize(variant: dict, merged: dict) -> dict:
    """Return the figures the lab's results page shows for one variant."""
    runs = merged["runs"]
    kickoffs = merged["kickoffs"]
    chosen = sum(kickoffs.values())
    return {
        "label": variant["label"],
        "variant": {k: v for k, v in variant.items() if k != "effects"}
        | {"effects": variant["effects"] if isinstance(variant["effects"], str) else "custom"},
        "runs": runs,
        "kickoff_choice": {
            choice: (kickoffs.get(choice, 0) / chosen if chosen else None)
            for choice in ("normal", "random")
        },
        "kickoffs": kickoffs,
        "onside": _rate(merged["onside_successes"], merged["onside_attempts"]),
        "kicker_wins": {
            kind: _rate(row["wins"], row["kickoffs"]) for kind, row in merged["kicker"].items()
        },
        "games_with_onside": _rate(
            merged["games_with_onside"]["wins"], merged["games_with_onside"]["games"]
        ),
        "points_per_drive": merged["drive_points"] / merged["drives"] if merged["drives"] else 0,
        "average_score": merged["points"] / runs if runs else 0,
        "tricks_per_game": merged["tricks"] / runs if runs else 0,
        "touchdowns_per_game": {k: v / runs for k, v in merged["touchdowns"].items()},
        "kick_points_per_game": merged["kick_points"] / runs if runs else 0,
        "draws": merged["draws"],
        "wins": merged["wins"],
        "total_score": merged["total_score"],
    }
