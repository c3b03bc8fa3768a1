"""Organiser URLs (login required), under /organiser/: one module per feature, each included here
(the names stay in the namespace ``organiser``)."""

from django.urls import include, path

app_name = "organiser"

urlpatterns = [
    path("", include("scoring.urls.organiser.evenings")),
    path("", include("scoring.urls.organiser.players")),
    path("", include("scoring.urls.organiser.draw")),
    path("", include("scoring.urls.organiser.results")),
    path("", include("scoring.urls.organiser.live")),
    path("", include("scoring.urls.organiser.tablets")),
    path("", include("scoring.urls.organiser.documents")),
    path("", include("scoring.urls.organiser.printing")),
    path("", include("scoring.urls.organiser.backups")),
    path("", include("scoring.urls.organiser.seasons")),
    path("", include("scoring.urls.organiser.logins")),
    path("", include("scoring.urls.organiser.publishing")),
]
