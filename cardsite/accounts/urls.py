"""Account addresses: sign-up, the throttled login, and Django's own account views."""

from django.urls import include, path

from cardsite.accounts.views import ThrottledLoginView, signup

urlpatterns = [
    path("accounts/signup/", signup, name="signup"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
]
