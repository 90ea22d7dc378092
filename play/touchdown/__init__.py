"""Touchdown Heroes (タッチダウンヒーローズ, draft 5): a seeded rules engine, no Django.

See docs/touchdown.md. The names below are the API the web app and the balance lab use.
"""

from play.touchdown.actions import (
    Action,
    ChooseCard,
    ChooseHero,
    ChooseSuit,
    Follow,
    KickOff,
    Lead,
    ShowCards,
    UseSkill,
    action_from_dict,
    action_to_dict,
)
from play.touchdown.cards import BEARS, CARDS, DECK, EAGLES, SEATS, TEAM_OF, TEAMS, Card
from play.touchdown.effects import (
    EffectSet,
    EffectSetError,
    effect_set_problems,
    load_effect_set,
)
from play.touchdown.game import Game, GameStats, IllegalAction
from play.touchdown.options import DEFAULT_OPTIONS, FIXED_HOUSE_RULES, Options
from play.touchdown.outcome import GameOutcome, GameStalled, outcome_of
from play.touchdown.policies import POLICIES, Policy, policy_rng
from play.touchdown.runner import ReplayMismatch, play_game, replay
from play.touchdown.strategies import get_policy

__all__ = [
    "BEARS",
    "CARDS",
    "DECK",
    "DEFAULT_OPTIONS",
    "EAGLES",
    "FIXED_HOUSE_RULES",
    "POLICIES",
    "SEATS",
    "TEAMS",
    "TEAM_OF",
    "Action",
    "Card",
    "ChooseCard",
    "ChooseHero",
    "ChooseSuit",
    "EffectSet",
    "EffectSetError",
    "Follow",
    "Game",
    "GameOutcome",
    "GameStalled",
    "GameStats",
    "IllegalAction",
    "KickOff",
    "Lead",
    "Options",
    "Policy",
    "ReplayMismatch",
    "ShowCards",
    "UseSkill",
    "action_from_dict",
    "action_to_dict",
    "effect_set_problems",
    "get_policy",
    "load_effect_set",
    "outcome_of",
    "play_game",
    "policy_rng",
    "replay",
]
