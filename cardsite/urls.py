"""Root URLconf: wiring only."""

from django.conf import settings
from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.i18n import set_language
from django.views.static import serve as serve_file
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from cardsite.health import health
from catalog.api import CardSetViewSet, CardViewSet
from decks.api import DeckViewSet
from play.api import SimulationViewSet

router = DefaultRouter()
router.register("sets", CardSetViewSet, basename="set")
router.register("cards", CardViewSet, basename="card")
router.register("decks", DeckViewSet, basename="deck")
router.register("simulations", SimulationViewSet, basename="simulation")

urlpatterns = [
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's).
    path("favicon.ico", lambda request: HttpResponsePermanentRedirect(static("img/favicon.svg"))),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/ping/", include("cardsite.health")),
    path("api/health/", health, name="health"),
    path("api/", include(router.urls)),
    path("", include("decks.urls")),
    path("", include("play.urls")),
    path("", include("decks.accounts")),
    path("", include("catalog.urls")),
]

if settings.SERVE_MEDIA:
    # Uploaded card scans, served by the app's own stack (docs/deploy.md); `serve` refuses paths
    # outside MEDIA_ROOT. A deployment with a web server in front can serve MEDIA_ROOT there.
    urlpatterns.insert(
        0,
        re_path(
            rf"^{settings.MEDIA_URL.lstrip('/')}(?P<path>.+)$",
            serve_file,
            {"document_root": settings.MEDIA_ROOT},
        ),
    )
