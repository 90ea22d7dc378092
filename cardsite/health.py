"""A trivial JSON endpoint: the baseline the search benchmark compares against."""

from django.http import JsonResponse
from django.urls import path


def ping(request):
    return JsonResponse({"ok": True})


urlpatterns = [path("", ping, name="ping")]
