from django.urls import include, path

from decks import views
from decks.collections import photo_views
from decks.collections import views as cv

app_name = "decks"
deck_patterns = [
    path("", views.deck_index, name="index"),
    path("new/", views.deck_new, name="new"),
    path("import/", views.deck_import, name="import"),
    path("starred/", views.deck_starred, name="starred"),
    path("mine/download.zip", views.my_decks_download, {"fmt": "zip"}, name="download-zip"),
    path("mine/download.json", views.my_decks_download, {"fmt": "json"}, name="download-json"),
    path("builder/preview/", views.builder_preview, name="builder-preview"),
    path("builder/description/", views.description_preview, name="description-preview"),
    path("builder/start/", views.builder_start, name="builder-start"),
    path("builder/cards/", views.builder_cards, name="builder-cards"),
    path("<slug:slug>/", views.deck_detail, name="detail"),
    path("<slug:slug>/edit/", views.deck_edit, name="edit"),
    path("<slug:slug>/copy/", views.deck_copy_view, name="copy"),
    path("<slug:slug>/star/", views.deck_star_view, name="star"),
    path("<slug:slug>/catalog-seen/", views.deck_catalog_seen, name="catalog-seen"),
    path("<slug:slug>/delete/", views.deck_delete_view, name="delete"),
    path("<slug:slug>/versions/", views.deck_versions, name="versions"),
    path("<slug:slug>/export.txt", views.deck_export_text, name="export-text"),
    path("<slug:slug>/export.json", views.deck_export_json, name="export-json"),
    path("<slug:slug>/export.md", views.deck_export_markdown, name="export-markdown"),
    path("<slug:slug>/names.txt", views.deck_export_names, name="export-names"),
    path("<slug:slug>/print/", views.deck_print, name="print"),
]
collection_patterns = [
    path("", cv.collection_home, name="collection"),
    path("grid/", cv.collection_grid_save, name="collection-grid"),
    path("add/", cv.collection_add, name="collection-add"),
    path("photo/", photo_views.collection_photo, name="collection-photo"),
    path("photo/<str:token>/", photo_views.collection_photo_job, name="collection-photo-job"),
    path("photo/<str:token>/add/", photo_views.collection_photo_add, name="collection-photo-add"),
    path("cards/<str:card_id>/", cv.collection_card_save, name="collection-card"),
    path("sets/<str:code>/", cv.collection_set, name="collection-set"),
    path("import/", cv.collection_import, name="collection-import"),
    path("export.csv", cv.collection_export, {"fmt": "csv"}, name="collection-export-csv"),
    path("export.json", cv.collection_export, {"fmt": "json"}, name="collection-export-json"),
    path("settings/", cv.collection_settings, name="collection-settings"),
    path("pool/", cv.collection_pool, name="collection-pool"),
    path("trade/", cv.collection_trade, name="collection-trade"),
    path("s/<slug:slug>/", cv.collection_shared, name="collection-shared"),
]
urlpatterns = [
    path("decks/", include(deck_patterns)),
    path("collection/", include(collection_patterns)),
]
