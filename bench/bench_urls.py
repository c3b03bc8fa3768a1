"""The project's URLs plus ``/bench/bare/``: a bare Django view, the floor the pages are compared to."""

from django.http import HttpResponse
from django.urls import include, path


def bare(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare), path("", include("bruus_tournament.urls"))]
