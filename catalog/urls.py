from django.urls import path

from catalog import views

app_name = "catalog"
urlpatterns = [
    path("", views.home, name="home"),
    path("sets/<str:code>/", views.set_detail, name="set-detail"),
    path("cards/", views.search, name="search"),
    path("cards/bulk.json", views.bulk_data, name="bulk-data"),
    path("cards/<str:card_id>/face.svg", views.card_face, name="card-face"),
    path("cards/<str:card_id>/", views.card_detail, name="card-detail"),
]
