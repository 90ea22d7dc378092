"""Account forms: sign-up (a user name that cannot pass for another) and the throttled logins."""

import unicodedata

from confusable_homoglyphs import categories, confusables
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

# Japanese writes one name in several scripts; every other mix is refused.
_JAPANESE = {"HAN", "HIRAGANA", "KATAKANA"}


def username_problem(username: str) -> str | None:
    """Return why a user name could pass for another one (a homoglyph), or None.

    Refused: letters of two scripts in one name ("аlice" with a Cyrillic а beside Latin
    letters), and a name in another script made only of letters that look Latin ("асе" in
    Cyrillic looks like "ace"). Names in one script (or Japanese kana and kanji) are fine.
    """
    name = unicodedata.normalize("NFKC", username)
    scripts = categories.unique_aliases(name) - {"COMMON"}
    if len(scripts) > 1 and not scripts <= _JAPANESE:
        return _(
            "A user name cannot mix letters of different scripts (%(scripts)s): it could "
            "pass for another user's name."
        ) % {"scripts": ", ".join(sorted(s.title() for s in scripts))}
    if scripts and not scripts & ({"LATIN"} | _JAPANESE):
        letters = [ch for ch in name if categories.alias(ch) != "COMMON"]
        lookalikes = {
            c["character"]
            for c in confusables.is_confusable(name, preferred_aliases=["latin"], greedy=True) or []
        }
        if letters and all(ch in lookalikes for ch in letters):
            return _(
                "This user name is made only of letters that look like Latin letters: it "
                "could pass for another user's name."
            )
    return None


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail (optional, for password reset)"), required=False, max_length=254
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()
        problem = username_problem(username) if username else None
        if problem:
            raise forms.ValidationError(problem, code="confusable")
        return username


THROTTLED_MESSAGE = _(
    "Too many failed logins for this account or from this address. Wait 15 minutes "
    "and try again, or reset your password."
)


class ThrottledLoginMixin:
    """Say why a login the throttle refused (cardsite/accounts/backends.py) was refused.

    The backend counts and refuses; the form only turns its mark on the request into a message
    (and `throttled`, which the site's login view answers with a 429).
    """

    throttled = False

    def clean(self):
        try:
            return super().clean()
        except forms.ValidationError:
            if getattr(self.request, "login_throttled", False):
                self.throttled = True
                raise forms.ValidationError(THROTTLED_MESSAGE, code="throttled") from None
            raise


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    """Django's login form, saying when the login throttle refused the attempt."""


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's login form, under the same throttle as the site's."""
