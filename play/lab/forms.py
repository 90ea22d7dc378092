"""The Touchdown Heroes lab form: one or two rule variants, an effect set, bots, runs, seed."""

import json

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

ONSIDE_CHOICES = [
    (1, _("Onside on a roll of 1 (the draft)")),
    (2, _("Onside on a roll of 1–2")),
    (0, _("No onside kick")),
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
POLICY_CHOICES = [("greedy", _("Greedy bots")), ("random", _("Random bots"))]
MAX_EFFECT_FILE = 256 * 1024


class VariantFields(forms.Form):
    """The fields of one variant, with a prefix (a_ or b_)."""

    onside_rolls = forms.TypedChoiceField(
        choices=ONSIDE_CHOICES, coerce=int, initial=1, label=_("Onside kick")
    )
    minimum_kick = forms.BooleanField(
        required=False, label=_("Minimum kick distance (random kick-offs land no nearer than 7)")
    )
    kickoffs = forms.ChoiceField(choices=KICKOFF_CHOICES, initial="choice", label=_("Kick-offs"))


class LabForm(forms.Form):
    compare = forms.BooleanField(
        required=False, initial=True, label=_("Compare with a second variant")
    )
    effects = forms.ChoiceField(choices=EFFECT_CHOICES, initial="none", label=_("Effect set"))
    effects_file = forms.FileField(
        required=False, label=_("Effect-set file (JSON)"), help_text=_("The format is below.")
    )
    policy = forms.ChoiceField(choices=POLICY_CHOICES, initial="greedy", label=_("Players"))
    runs = forms.IntegerField(min_value=1, initial=5000, label=_("Games per variant"))
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

    def clean_runs(self):
        runs = self.cleaned_data["runs"]
        if runs > settings.SIMULATION_MAX_RUNS:
            raise forms.ValidationError(
                _("At most %(n)s games.") % {"n": f"{settings.SIMULATION_MAX_RUNS:,}"}
            )
        return runs

    def clean(self):
        data = super().clean()
        if data.get("effects") == "file":
            upload = data.get("effects_file")
            if upload is None:
                self.add_error("effects_file", _("Choose the JSON file of your effect set."))
            elif upload.size > MAX_EFFECT_FILE:
                self.add_error("effects_file", _("The file is larger than 256 KB."))
            else:
                try:
                    data["effects_data"] = json.loads(upload.read().decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                    self.add_error("effects_file", _("Not a JSON file: %(e)s") % {"e": exc})
        return data

    def is_valid(self):
        valid = super().is_valid()
        valid_a = self.variant_a.is_valid()
        valid_b = not self.cleaned_data.get("compare") or self.variant_b.is_valid()
        return valid and valid_a and valid_b

    def variants(self) -> list[dict]:
        """Return the variant dicts for play.lab.clean_variant."""
        effects = self.cleaned_data["effects"]
        if effects == "file":
            effects = self.cleaned_data["effects_data"]
        forms_ = [self.variant_a] + ([self.variant_b] if self.cleaned_data["compare"] else [])
        return [
            {**f.cleaned_data, "effects": effects, "policy": self.cleaned_data["policy"]}
            for f in forms_
        ]
