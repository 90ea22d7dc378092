"""The Touchdown Heroes lab form: one or two rule variants, an effect set, bots, runs, seed."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from cardsite.web.json_limits import JSONLimitError, loads_bounded
from play.studies.labels import OPTION_LABELS

ONSIDE_CHOICES = [
    (1, _("Onside on a roll of 1 (the draft)")),
    (2, _("Onside on a roll of 1–2")),
    (3, _("Onside on a roll of 1–3")),
    (0, _("No onside kick")),
]
KICK_ABILITY_CHOICES = [
    ("none", _("No: only on kick plays (the draft)")),
    ("random", _("Yes, on random kick-offs")),
    ("both", _("Yes, on normal and random kick-offs")),
]
KICK_PLAY_HAND_CHOICES = [
    ("lead_only", _("Only the lead spends a card (our reading)")),
    ("every_player", _("Every player spends a card, as in a trick")),
]
SUIT_CHANGE_CHOICES = [
    ("cards_played_after", _("Only cards played after it follow the new suit (our reading)")),
    ("every_card", _("Every card of the trick is judged again by the new suit")),
]
STUDY_CHOICES = [
    ("variants", _("Compare one or two rule variants")),
    ("table", _("Kick-off strategies head to head")),
    ("sweep", _("Sweep one or two parameters: does random kicking pay?")),
    ("recommend", _("Recommend rule changes that bring the random kick into a band (search)")),
    ("recommend_preview", _("The same recommendation as a quick preview (about a minute)")),
]
RECOMMEND_MODES = ("recommend", "recommend_preview")
STRATEGY_CHOICES = [
    ("own", _("The bot's own choice")),
    ("normal", _("Always normal")),
    ("random", _("Always random")),
    ("adaptive", _("Adaptive: a table measured for the variant")),
]
BOT_CHOICES = [
    ("search", _("Search bots (strongest, about 250 times slower)")),
    ("greedy", _("Greedy bots (stronger)")),
    ("random", _("Random bots (weaker)")),
]
# The options a sweep may vary, named as the results pages name them (play/studies/labels.py).
SWEEP_PARAM_CHOICES = [
    (name, OPTION_LABELS[name])
    for name in (
        "kick_floor",
        "random_kick_base",
        "onside_rolls",
        "onside_ball",
        "normal_kick_ball",
        "kickoff_kick_ability",
        "kick_play_hand",
        "suit_change_judges",
    )
]
KICKOFF_CHOICES = [
    ("choice", _("Normal or random, as the kicker chooses (the draft)")),
    ("normal_only", _("Normal kick-offs only")),
]
EFFECT_CHOICES = [
    ("none", _("None: the bare rules")),
    ("example", _("Our example set (not the designer's)")),
    ("file", _("My own effect-set file")),
]
POLICY_CHOICES = [
    ("greedy", _("Greedy bots")),
    ("random", _("Random bots")),
    ("search", _("Search bots (strongest, about 250 times slower)")),
]
MAX_EFFECT_FILE = 256 * 1024


class VariantFields(forms.Form):
    """The fields of one variant, with a prefix (a_ or b_)."""

    onside_rolls = forms.TypedChoiceField(
        choices=ONSIDE_CHOICES, coerce=int, initial=1, label=_("Onside kick")
    )
    kickoffs = forms.ChoiceField(choices=KICKOFF_CHOICES, initial="choice", label=_("Kick-offs"))
    # issue #14: every kick-off parameter and both readings (checked again by Options)
    random_kick_base = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=7,
        initial=3,
        label=_("Random kick base"),
        help_text=_("A random kick lands at base + a die roll (the draft: 3; 0 reads it as d6)."),
    )
    kick_floor = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=10,
        initial=0,
        label=_("Floor under a random kick"),
        help_text=_("A random kick that is not onside lands no nearer than this (0: none)."),
    )
    onside_ball = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=10,
        initial=0,
        label=_("Ball after an onside kick"),
        help_text=_("0: 11 − (base + roll), the draft's 7 on a roll of 1."),
    )
    normal_kick_ball = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=10,
        initial=8,
        label=_("Ball after a normal kick"),
        help_text=_("The draft: 8."),
    )
    kickoff_kick_ability = forms.ChoiceField(
        required=False,
        choices=KICK_ABILITY_CHOICES,
        initial="none",
        label=_("A hero's kick ability lengthens kick-offs"),
    )
    kick_play_hand = forms.ChoiceField(
        required=False,
        choices=KICK_PLAY_HAND_CHOICES,
        initial="lead_only",
        label=_("Kick play: who spends a card"),
        help_text=_("With every player, 44–55% of halves end with a started trick thrown away."),
    )
    suit_change_judges = forms.ChoiceField(
        required=False,
        choices=SUIT_CHANGE_CHOICES,
        initial="cards_played_after",
        label=_("Suit change (TD-PLAY-4)"),
    )

    OPTIONAL = (
        "random_kick_base",
        "kick_floor",
        "onside_ball",
        "normal_kick_ball",
        "kickoff_kick_ability",
        "kick_play_hand",
        "suit_change_judges",
    )

    def clean(self):
        data = super().clean()
        for name in self.OPTIONAL:  # left out (an older client): the draft's value
            if name in data and data[name] in (None, ""):
                data[name] = self.fields[name].initial
        return data


class StudyFields(forms.Form):
    """What a strategy table or a sweep plays (issue #14); variant A is its base rules."""

    strategies = forms.MultipleChoiceField(
        choices=STRATEGY_CHOICES,
        initial=["own", "normal", "random", "adaptive"],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Kick-off strategies (a table: each against each)"),
    )
    bots = forms.MultipleChoiceField(
        choices=BOT_CHOICES,
        initial=["greedy", "random"],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Bot strengths (a table for each)"),
    )
    param_1 = forms.ChoiceField(
        required=False,
        choices=SWEEP_PARAM_CHOICES,
        initial="kick_floor",
        label=_("Sweep: first parameter"),
    )
    values_1 = forms.CharField(
        max_length=200,
        initial="0,7,8",
        required=False,
        label=_("Its values"),
        help_text=_("Separated by commas, e.g. 0,7,8 (for a choice: none,random)."),
    )
    param_2 = forms.ChoiceField(
        choices=[("", _("None"))] + SWEEP_PARAM_CHOICES,
        initial="random_kick_base",
        required=False,
        label=_("Sweep: second parameter (optional)"),
    )
    values_2 = forms.CharField(max_length=200, initial="0,3", required=False, label=_("Its values"))
    a = forms.ChoiceField(
        required=False,
        choices=STRATEGY_CHOICES[1:],
        initial="random",
        label=_("Sweep: team A kicks"),
    )
    b = forms.ChoiceField(
        required=False,
        choices=STRATEGY_CHOICES[1:],
        initial="normal",
        label=_("Sweep: team B kicks"),
    )
    bot = forms.ChoiceField(
        required=False, choices=BOT_CHOICES, initial="greedy", label=_("Sweep: bots")
    )
    band_margin = forms.FloatField(
        required=False,
        min_value=0,
        max_value=10,
        initial=0.1,
        label=_("Recommendation: largest points margin a game"),
    )
    band_low = forms.FloatField(
        required=False, min_value=0, max_value=1, initial=0.48, label=_("… lowest win rate")
    )
    band_high = forms.FloatField(
        required=False, min_value=0, max_value=1, initial=0.52, label=_("… highest win rate")
    )
    stronger = forms.BooleanField(
        required=False,
        initial=True,
        label=_("… check the answer with a stronger player (search bots)"),
        help_text=_(
            "The best variants and the draft are played again with the search bot; the page "
            "says first whether the answer changes with strength."
        ),
    )

    def clean(self):
        data = super().clean()
        for name in ("param_1", "a", "b", "bot", "band_margin", "band_low", "band_high"):
            # the other study's fields: their defaults
            if name in data and not data[name]:
                data[name] = self.fields[name].initial
        return data


class LabForm(forms.Form):
    study = forms.ChoiceField(
        choices=STUDY_CHOICES,
        initial="variants",
        required=False,
        widget=forms.RadioSelect,
        label=_("What to run"),
    )
    compare = forms.BooleanField(
        required=False, initial=True, label=_("Compare with a second variant")
    )
    effects = forms.ChoiceField(choices=EFFECT_CHOICES, initial="none", label=_("Effect set"))
    effects_file = forms.FileField(
        required=False, label=_("Effect-set file (JSON)"), help_text=_("The format is below.")
    )
    policy = forms.ChoiceField(choices=POLICY_CHOICES, initial="greedy", label=_("Players"))
    runs = forms.IntegerField(
        min_value=1,
        initial=5000,
        label=_("Games per variant, or deals per cell"),
        help_text=_("A table or a sweep plays each deal twice, the teams' seats swapped."),
    )
    seed = forms.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, label=_("Seed (optional)")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit = settings.SIMULATION_MAX_RUNS
        self.fields["runs"].max_value = limit
        self.fields["runs"].widget.attrs["max"] = limit
        data = args[0] if args else None
        self.variant_a = VariantFields(data, prefix="a")
        self.variant_b = VariantFields(data, prefix="b", initial={"onside_rolls": 2})
        self.study_fields = StudyFields(data, prefix="study")

    def clean_runs(self):
        runs = self.cleaned_data["runs"]
        if runs > settings.SIMULATION_MAX_RUNS:
            raise forms.ValidationError(
                _("At most %(n)s games.") % {"n": f"{settings.SIMULATION_MAX_RUNS:,}"}
            )
        return runs

    def clean(self):
        data = super().clean()
        data["study"] = data.get("study") or "variants"
        if data.get("effects") == "file":
            upload = data.get("effects_file")
            if upload is None:
                self.add_error("effects_file", _("Choose the JSON file of your effect set."))
            elif upload.size > MAX_EFFECT_FILE:
                self.add_error("effects_file", _("The file is larger than 256 KB."))
            else:
                try:
                    data["effects_data"] = loads_bounded(
                        upload.read(MAX_EFFECT_FILE + 1), max_bytes=MAX_EFFECT_FILE
                    )
                except JSONLimitError as exc:
                    self.add_error("effects_file", _("Not a JSON file: %(e)s") % {"e": exc})
        return data

    def is_valid(self):
        valid = super().is_valid()
        valid_a = self.variant_a.is_valid()
        mode = self.cleaned_data.get("study")
        studying = mode in ("table", "sweep", *RECOMMEND_MODES)
        valid_b = studying or not self.cleaned_data.get("compare") or self.variant_b.is_valid()
        valid_study = not studying or self.study_fields.is_valid()
        return valid and valid_a and valid_b and valid_study

    def study_request(self) -> dict | None:
        """Return the study for play.studies.plans.clean_study, or None (compare variants)."""
        mode = self.cleaned_data["study"]
        if mode == "variants":
            return None
        data = self.study_fields.cleaned_data
        if mode in RECOMMEND_MODES:  # issue #28 item 1
            return {
                "kind": "recommend",
                "bot": data["bot"],
                "preview": mode == "recommend_preview",
                "stronger": "search" if data.get("stronger") and data["bot"] != "search" else "",
                "band": {
                    "margin": data["band_margin"],
                    "low": data["band_low"],
                    "high": data["band_high"],
                },
            }
        if mode == "table":
            return {"kind": "table", "strategies": data["strategies"], "bots": data["bots"]}
        grid = [[data["param_1"], data["values_1"]]]
        if data["param_2"]:
            grid.append([data["param_2"], data["values_2"]])
        return {"kind": "sweep", "grid": grid, "a": data["a"], "b": data["b"], "bot": data["bot"]}

    def add_service_error(self, field: str, error: str) -> None:
        """Show a service's error beside its field (variant_a_..., study_..., effects)."""
        for prefix, form in (
            ("variant_a_", self.variant_a),
            ("variant_b_", self.variant_b),
            ("study_", self.study_fields),
        ):
            name = field.removeprefix(prefix)
            if field.startswith(prefix) and name in form.fields:
                form.add_error(name, error)
                return
        if field == "study_grid":
            self.study_fields.add_error("values_1", error)
            return
        name = "effects_file" if field.endswith("effects") else field
        self.add_error(name if name in self.fields else None, error)

    def variants(self) -> list[dict]:
        """Return the variant dicts for play.lab.clean_variant."""
        effects = self.cleaned_data["effects"]
        if effects == "file":
            effects = self.cleaned_data["effects_data"]
        comparing = self.cleaned_data["compare"] and self.cleaned_data["study"] == "variants"
        forms_ = [self.variant_a] + ([self.variant_b] if comparing else [])
        return [
            {**f.cleaned_data, "effects": effects, "policy": self.cleaned_data["policy"]}
            for f in forms_
        ]
