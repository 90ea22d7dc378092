"""Accounts: sign-up and the profile page; login, logout and passwords are Django's own views
(templates under templates/registration/)."""

from django.contrib.auth import get_user_model, login
from django.contrib.auth.views import LoginView
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import include, path, reverse
from django.views.decorators.http import require_GET

from catalog.contribution_selectors import proposals_of
from decks.forms import SignUpForm, ThrottledAuthenticationForm
from decks.selectors import user_decks


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


@require_GET
def profile(request, username):
    owner = get_object_or_404(get_user_model(), username=username, is_active=True)
    decks = user_decks(owner=owner, viewer=request.user)
    is_me = request.user == owner
    # A user's card proposals (and the reviewers' reasons) are shown to that user alone.
    my_proposals = list(proposals_of(owner)[:50]) if is_me else []
    return render(
        request,
        "decks/profile.html",
        {"owner": owner, "decks": decks, "is_me": is_me, "my_proposals": my_proposals},
    )


class ThrottledLoginView(LoginView):
    """Django's login view with the throttled form; a refused attempt is a 429."""

    authentication_form = ThrottledAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 429 if getattr(form, "throttled", False) else 400
        return response


urlpatterns = [
    path("accounts/signup/", signup, name="signup"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("users/<str:username>/", profile, name="profile"),
]
