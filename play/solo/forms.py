"""The start form of solo play."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from decks.models import Deck
from decks.selectors import decks_readable_by, legal_decks_to_play
from play.models import SoloGame
from play.simulations.forms import POLICY_LABELS
from play.simulations.sides import goldfish_deck
from play.solo.selectors import goalkeeper_choices
from play.solo.services import BOT_POLICIES, DEFAULT_BOT_POLICY, bot_default_deck


def _deck_label(deck: Deck, user) -> str:
    if deck.owner_id == getattr(user, "id", None):
        return deck.name
    return f"{deck.name} ({deck.owner.username})"


class SoloStartForm(forms.Form):
    deck = forms.ChoiceField(label=_("Your deck"))
    mode = forms.ChoiceField(
        label=_("Opponent"),
        choices=SoloGame.Mode.choices,
        initial=SoloGame.Mode.GOLDFISH,
        widget=forms.RadioSelect,
    )
    goalkeeper = forms.ChoiceField(
        label=_("Goldfish goalkeeper"),
        required=False,
        help_text=_("The passive opponent's goalkeeper, whose defense your shots must beat."),
    )
    opponent = forms.ChoiceField(
        label=_("Bot's deck"),
        required=False,
        help_text=_("A prebuilt deck unless you choose another."),
    )
    policy = forms.ChoiceField(  # every rung of the bot ladder, strongest first
        label=pgettext_lazy("solo start", "Bot"),
        choices=[(name, POLICY_LABELS.get(name, name)) for name in reversed(BOT_POLICIES)],
        initial=DEFAULT_BOT_POLICY,
        required=False,
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text=_("Leave empty for a new shuffle; the same seed gives the same shuffle."),
    )
    halftime_keep_hands = forms.BooleanField(
        label=_("Keep hands through halftime (house option)"), required=False
    )
    empty_timing = forms.ChoiceField(  # R-PLAY-4
        label=_("A timing with no card used"),
        choices=[
            ("passes", _("passes to the opponent (second edition)")),
            ("ends_phase", _("ends the play phase (first edition)")),
        ],
        initial="passes",
        required=False,
    )
    deck_out = forms.ChoiceField(  # R-DRAW-2
        label=_("A half ends when a deck runs out"),
        choices=[
            ("draw_phase", _("in the draw phase (second edition)")),
            ("any_draw", _("at any draw (first edition)")),
        ],
        initial="draw_phase",
        required=False,
    )

    def __init__(self, *args, user, preselected: Deck | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        decks = legal_decks_to_play(user)
        if preselected is not None and preselected not in decks:
            decks.insert(0, preselected)
        self.decks = {deck.slug: deck for deck in decks}
        choices = [(deck.slug, _deck_label(deck, user)) for deck in decks]
        self.fields["deck"].choices = choices
        if preselected is not None:
            self.fields["deck"].initial = preselected.slug
        own = preselected or (decks[0] if decks else None)
        bot_deck = bot_default_deck(avoid=own)
        if bot_deck is not None and bot_deck.slug not in self.decks:
            self.decks[bot_deck.slug] = bot_deck
            choices.append((bot_deck.slug, _deck_label(bot_deck, user)))
        self.fields["opponent"].choices = choices
        self.fields["opponent"].initial = bot_deck.slug if bot_deck is not None else None
        fish = goldfish_deck()
        fish_keeper = fish.goalkeeper if fish else None
        keeper_default = (
            _("The goldfish deck's own: %(name)s (defense %(defense)s)")
            % {"name": fish_keeper.name, "defense": fish_keeper.defense}
            if fish_keeper
            else _("The goldfish deck's own")
        )
        self.goalkeepers = {card.id: card for card in goalkeeper_choices()}
        self.fields["goalkeeper"].choices = [("", keeper_default)] + [
            (card.id, f"{card.name} · {_('defense')} {card.defense} · {card.id}")
            for card in self.goalkeepers.values()
        ]

    def clean_deck(self):
        return self._deck(self.cleaned_data["deck"])

    def clean_opponent(self):
        slug = self.cleaned_data.get("opponent")
        return self._deck(slug) if slug else None

    def _deck(self, slug: str) -> Deck:
        deck = self.decks.get(slug) or decks_readable_by(self.user).filter(slug=slug).first()
        if deck is None:
            raise forms.ValidationError(_("Choose a deck you can see."))
        return deck

    def clean_goalkeeper(self):
        card_id = self.cleaned_data.get("goalkeeper")
        return self.goalkeepers.get(card_id) if card_id else None

    def clean(self):
        data = super().clean()
        if data.get("mode") == SoloGame.Mode.BOT and "policy" not in self.errors:
            data["policy"] = data.get("policy") or DEFAULT_BOT_POLICY
        return data

    def options(self) -> dict:
        """Return the engine options the form asks for (only the ones that differ)."""
        options = {"halftime_keep_hands": True} if self.cleaned_data["halftime_keep_hands"] else {}
        for name, default in (("empty_timing", "passes"), ("deck_out", "draw_phase")):
            value = self.cleaned_data.get(name) or default
            if value != default:
                options[name] = value
        return options
