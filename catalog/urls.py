from django.urls import path, re_path

from catalog import layout_views, reading_views, views
from catalog.contributions import printing_views
from catalog.contributions import views as contrib_views

app_name = "catalog"
urlpatterns = [
    path("", views.home, name="home"),
    path("sets/<str:code>/", views.set_detail, name="set-detail"),
    path("cards/", views.search, name="search"),
    path("cards/bulk.json", views.bulk_data, name="bulk-data"),
    path("data/", views.open_data, name="open-data"),
    path("data/import/", contrib_views.open_data_import, name="open-data-import"),
    path("data/<path:name>", views.open_data_file, name="open-data-file"),
    path("cards/<str:card_id>/face.svg", views.card_face, name="card-face"),
    path("cards/propose/", contrib_views.propose, name="propose"),
    path("cards/<str:card_id>/history/", contrib_views.card_history, name="card-history"),
    path("proposals/<int:pk>/", contrib_views.proposal_detail, name="proposal-detail"),
    path("proposals/<int:pk>/scans/", contrib_views.proposal_scans, name="proposal-scans"),
    path("proposals/<int:pk>/edit/", contrib_views.proposal_edit, name="proposal-edit"),
    path("proposals/<int:pk>/review/", contrib_views.proposal_review, name="proposal-review"),
    path("review/", contrib_views.review_queue, name="review-queue"),
    path("cards/<str:card_id>/notes/propose/", contrib_views.note_propose, name="note-propose"),
    path("notes/<int:pk>/", contrib_views.note_detail, name="note-detail"),
    path("notes/<int:pk>/edit/", contrib_views.note_edit, name="note-edit"),
    path("notes/<int:pk>/review/", contrib_views.note_review, name="note-review"),
    path(
        "cards/<str:card_id>/printings/propose/",
        printing_views.printing_propose,
        name="printing-propose",
    ),
    path(
        "printing-proposals/<int:pk>/",
        printing_views.printing_proposal_detail,
        name="printing-proposal-detail",
    ),
    path(
        "printing-proposals/<int:pk>/edit/",
        printing_views.printing_proposal_edit,
        name="printing-proposal-edit",
    ),
    path(
        "printing-proposals/<int:pk>/review/",
        printing_views.printing_proposal_review,
        name="printing-proposal-review",
    ),
    path("reading/jobs/", reading_views.job_create, name="reading-jobs"),
    path("reading/jobs/<str:token>/", reading_views.job_detail, name="reading-job"),
    path("reading/jobs/<str:token>/card.png", reading_views.job_card, name="reading-job-card"),
    path("changesets/new/", contrib_views.changeset_new, name="changeset-new"),
    path("sets/<str:code>/layout/", layout_views.set_layout, name="set-layout"),
    path("sets/<str:code>/layout/mark/", layout_views.layout_mark, name="layout-mark"),
    path(
        "sets/<str:code>/layout/template.png",
        layout_views.set_layout_template,
        name="set-layout-template",
    ),
    path("layouts/<int:pk>/", layout_views.layout_proposal_detail, name="layout-proposal"),
    path(
        "layouts/<int:pk>/review/",
        layout_views.layout_proposal_review,
        name="layout-proposal-review",
    ),
    path("layouts/<int:pk>/edit/", layout_views.layout_proposal_edit, name="layout-proposal-edit"),
    path("layouts/<int:pk>/template.png", layout_views.layout_template, name="layout-template"),
    path("sets/<str:code>/grid/", contrib_views.set_grid, name="set-grid"),
    path("changesets/<int:pk>/", contrib_views.changeset_detail, name="changeset-detail"),
    path(
        "changesets/<int:pk>/review/",
        contrib_views.changeset_review_view,
        name="changeset-review",
    ),
    re_path(
        r"^scans/(?P<token>[0-9a-f]{32})/(?P<size>thumbnail|normal|large)\.jpg$",
        contrib_views.scan_image,
        name="scan-image",
    ),
    path("cards/<str:card_id>/", views.card_detail, name="card-detail"),
]
