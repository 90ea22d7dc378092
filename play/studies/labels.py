"""What the lab's pages call its rule options, their values, the bots and the kick-off
strategies (issue #27 item 12), in the reader's language.

The raw names (`kick_floor`, `greedy+random`) stay in the engine, the stored results and the
CSV, JSON and Markdown downloads; the form, the sweep's table headers, its chart and the batch
headings say these labels, with the raw name beside them in a <code> or a title where a
designer needs it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from play.studies.variants import KICK_OPTIONS, describe

OPTION_LABELS = {
    "onside_rolls": gettext_lazy("Onside range (1 to N)"),
    "minimum_kick": gettext_lazy("Minimum kick distance"),
    "kickoffs": gettext_lazy("Kick-offs"),
    "random_kick_base": gettext_lazy("Random kick base"),
    "kick_floor": gettext_lazy("Floor under a random kick"),
    "onside_ball": gettext_lazy("Ball after an onside kick"),
    "normal_kick_ball": gettext_lazy("Ball after a normal kick"),
    "kickoff_kick_ability": gettext_lazy("Hero's kick ability on kick-offs"),
    "kick_play_hand": gettext_lazy("Kick play: who spends a card"),
    "suit_change_judges": gettext_lazy("Suit change (TD-PLAY-4): which cards it judges"),
    "guarantee_heroes": gettext_lazy("Minimum-kick guarantee as a skill: heroes (of 10)"),
    "guarantee_ball": gettext_lazy("Ball the guarantee skill gives"),
    "effects": gettext_lazy("Effect set"),
}
# The short words for an option's named values (numbers are shown as they are).
VALUE_LABELS = {
    "kickoffs": {
        "choice": gettext_lazy("by the kicker's choice"),
        "normal_only": gettext_lazy("normal kick-offs only"),
    },
    "kickoff_kick_ability": {
        "none": gettext_lazy("none"),
        "random": gettext_lazy("on random kick-offs"),
        "both": gettext_lazy("on every kick-off"),
    },
    "kick_play_hand": {
        "lead_only": gettext_lazy("the lead only"),
        "every_player": gettext_lazy("every player"),
    },
    "suit_change_judges": {
        "cards_played_after": gettext_lazy("cards played after it"),
        "every_card": gettext_lazy("every card of the trick"),
    },
    "effects": {
        "none": gettext_lazy("none"),
        "example": gettext_lazy("our example set"),
        "custom": gettext_lazy("the designer's own file"),
    },
    "minimum_kick": {True: gettext_lazy("yes"), False: gettext_lazy("no")},
}
STRATEGY_LABELS = {
    "own": gettext_lazy("the bot's own choice"),
    "normal": gettext_lazy("always normal"),
    "random": gettext_lazy("always random"),
    "adaptive": gettext_lazy("adaptive (measured table)"),
}
BOT_LABELS = {
    "greedy": gettext_lazy("Greedy bots"),
    "random": gettext_lazy("Random bots"),
    "search": gettext_lazy("Search bots"),
}


def option_label(name: str) -> str:
    """Return an option's label ("Floor under a random kick" for kick_floor); the raw name
    for one this module does not know."""
    return str(OPTION_LABELS.get(name, name))


def value_text(name: str, value) -> str:
    """Return an option value in words where it is a named one ("the lead only"), else as is."""
    label = VALUE_LABELS.get(name, {}).get(value) if isinstance(value, str | bool) else None
    return str(label) if label is not None else str(value)


def setting_text(name: str, value) -> str:
    """Return "Floor under a random kick: 7" for one option and its value."""
    return _("%(option)s: %(value)s") % {
        "option": option_label(name),
        "value": value_text(name, value),
    }


def cell_text(values: dict) -> str:
    """Return a sweep cell's settings in words, one after another."""
    return " · ".join(setting_text(name, value) for name, value in values.items())


def team_label(name: str) -> str:
    """Return "Greedy bots · always random" for a team policy name such as greedy+random."""
    bot, _sep, strategy = name.partition("+")
    return f"{BOT_LABELS.get(bot, bot)} · {STRATEGY_LABELS.get(strategy or 'own', strategy)}"


def describe_variant(variant: dict) -> str:
    """Return play.studies.variants.describe's summary of a variant in the reader's words."""
    rolls = variant["onside_rolls"]
    if variant["kickoffs"] == "normal_only":
        parts = [str(VALUE_LABELS["kickoffs"]["normal_only"])]
    elif rolls == 0:
        parts = [_("no onside kick")]
    elif rolls == 1:
        parts = [_("onside on a roll of 1")]
    else:
        parts = [_("onside on a roll of 1–%(n)s") % {"n": rolls}]
    for name, default in KICK_OPTIONS.items():  # the floor says it (minimum_kick: a floor of 7)
        if variant.get(name, default) != default:
            parts.append(setting_text(name, variant[name]))
    effects = variant["effects"]
    parts.append(setting_text("effects", effects if isinstance(effects, str) else "custom"))
    parts.append(str(BOT_LABELS.get(variant["policy"], variant["policy"])))
    return list_separator().join(parts)


def list_separator() -> str:
    """Return the separator of a list of settings in a sentence (", " or "、")."""
    return pgettext("list separator", ", ")


def variant_label(variant: dict) -> str:
    """Return a variant's label: the one its owner gave, or its summary in words."""
    label = variant.get("label", "")
    if label and label != describe(variant):
        return label
    return describe_variant(variant)


def study_label(study: dict, cells: list[dict]) -> str:
    """Return play.studies.plans.study_label's short description in the reader's words."""
    if not cells:
        return ""
    if study["kind"] == "table":
        variant = cells[0]["variant"]
        policy = list_separator() + str(BOT_LABELS.get(variant["policy"], variant["policy"]))
        return variant_label(variant).removesuffix(policy)
    a, b = cells[0]["a"], cells[0]["b"]
    names = " × ".join(option_label(name) for name, _values in study["grid"])
    return _("%(a)s against %(b)s: %(names)s") % {
        "a": team_label(a),
        "b": team_label(b),
        "names": names,
    }
