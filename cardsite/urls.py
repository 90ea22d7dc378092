"""Root URLconf: wiring only."""

from django.conf import settings
from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from cardsite.accounts.forms import ThrottledAdminAuthenticationForm
from cardsite.health import health
from catalog.api import CardSetViewSet, CardViewSet
from catalog.contributions.views import scan_file
from decks import views as deck_views
from decks.api import DeckViewSet
from decks.collections.api import CollectionCardView, CollectionView, SharedCollectionView
from play.simulations.api import SimulationViewSet

# The admin's login under the site's login throttle (the backend counts; the form says why).
admin.site.login_form = ThrottledAdminAuthenticationForm

router = DefaultRouter()
router.register("sets", CardSetViewSet, basename="set")
router.register("cards", CardViewSet, basename="card")
router.register("decks", DeckViewSet, basename="deck")
router.register("simulations", SimulationViewSet, basename="simulation")

# A 500 page that needs neither the request nor the database, or the 503 of a database outage
# (403 and 404 are Django's own, rendering 403.html and 404.html in the site's layout; so is
# 400, but for a session the outage kept from being saved).
handler400 = "cardsite.web.database_outage.bad_request"
handler500 = "cardsite.web.database_outage.server_error"

urlpatterns = [
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's).
    path("favicon.ico", lambda request: HttpResponsePermanentRedirect(static("img/favicon.svg"))),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/ping/", include("cardsite.health")),
    path("api/health/", health, name="health"),
    path("api/collection/", CollectionView.as_view(), name="api-collection"),
    path(
        "api/collection/cards/<str:card_id>/",
        CollectionCardView.as_view(),
        name="api-collection-card",
    ),
    path(
        "api/collections/<str:share_id>/",
        SharedCollectionView.as_view(),
        name="api-collection-shared",
    ),
    path("api/", include(router.urls)),
    path("", include("decks.urls")),
    path("", include("play.urls")),
    path("", include("cardsite.accounts.urls")),
    path("users/<str:username>/", deck_views.profile, name="profile"),
    path("", include("catalog.urls")),
]

# Uploaded scans are served by the app in development (SERVE_MEDIA, on with DEBUG); in
# production by the web server or the S3-compatible store, whose URLs point there directly.
if settings.MEDIA_URL.startswith("/"):
    urlpatterns.insert(
        0, path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", scan_file, name="media")
    )
