"""Root URLconf: wiring only."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from catalog.api import CardSetViewSet, CardViewSet
from decks.api import DeckViewSet
from play.simulations.api import SimulationViewSet

router = DefaultRouter()
router.register("sets", CardSetViewSet, basename="set")
router.register("cards", CardViewSet, basename="card")
router.register("decks", DeckViewSet, basename="deck")
router.register("simulations", SimulationViewSet, basename="simulation")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/ping/", include("cardsite.health")),
    path("api/", include(router.urls)),
    path("", include("decks.urls")),
    path("", include("play.urls")),
    path("", include("decks.accounts")),
    path("", include("catalog.urls")),
]
