"""The Eleven Stars rules engine: plain Python, seeded, no Django (see docs/engine.md)."""
# ruff: noqa: E402  (the compiled path must be chosen before any submodule is imported)

from play.engine import compiled as _compiled

# The compiled path (play/engine/compiled.py): the same modules built by Cython, used when a
# build matches the sources and ENGINE_PLAIN is not set. Results are the same on both paths.
COMPILED = _compiled.activate(__path__)

from play.engine.actions import (
    Action,
    ChooseGoalKick,
    ChooseShot,
    HalftimeSwaps,
    PlayCards,
    action_from_dict,
    action_to_dict,
)
from play.engine.cards import SIDES, Card, Side, other
from play.engine.effects import EffectError, parse_effect
from play.engine.legality import Problem, deck_problems
from play.engine.log import LOG_SCHEMA_PATH, LogInvalid, log_errors, validate_log
from play.engine.match import (
    DeckPair,
    IllegalAction,
    IllegalDeck,
    Match,
    MatchResult,
    SideDeck,
)
from play.engine.options import DEFAULT_OPTIONS, Options
from play.engine.pk import pk_shootout, pk_win_probability, pk_win_probability_counts
from play.engine.policies import POLICIES, Policy, get_policy, policy_rng
from play.engine.runner import (
    MatchOutcome,
    MatchStalled,
    ReplayMismatch,
    goldfish,
    outcome_of,
    play_match,
    replay,
)

__all__ = [
    "COMPILED",
    "DEFAULT_OPTIONS",
    "LOG_SCHEMA_PATH",
    "POLICIES",
    "LogInvalid",
    "MatchStalled",
    "Policy",
    "ReplayMismatch",
    "outcome_of",
    "pk_win_probability_counts",
    "policy_rng",
    "SIDES",
    "Action",
    "Card",
    "ChooseGoalKick",
    "DeckPair",
    "ChooseShot",
    "EffectError",
    "HalftimeSwaps",
    "IllegalAction",
    "IllegalDeck",
    "Match",
    "MatchOutcome",
    "MatchResult",
    "Options",
    "PlayCards",
    "Problem",
    "Side",
    "SideDeck",
    "action_from_dict",
    "action_to_dict",
    "deck_problems",
    "get_policy",
    "goldfish",
    "log_errors",
    "other",
    "parse_effect",
    "pk_shootout",
    "pk_win_probability",
    "play_match",
    "replay",
    "validate_log",
]
