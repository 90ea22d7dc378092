"""Accounts: sign-up and the throttled login; logout and passwords are Django's own views
(templates under templates/registration/). A user's page (their decks and proposals) is decks'
(`decks.views.profile`)."""

from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.shortcuts import redirect, render
from django.urls import reverse

from cardsite.accounts.forms import SignUpForm, ThrottledAuthenticationForm


def signup(request):
    if request.user.is_authenticated:
        return redirect("profile", username=request.user.username)
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(reverse("profile", args=[user.username]))
    return render(
        request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200
    )


class ThrottledLoginView(LoginView):
    """Django's login view with the throttled form; a refused attempt is a 429."""

    authentication_form = ThrottledAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 429 if getattr(form, "throttled", False) else 400
        return response
