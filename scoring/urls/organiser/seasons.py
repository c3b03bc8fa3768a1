"""Seasons (Jahreswertung): settings, evenings, the season ranking (page, CSV/XLSX, PDF)."""

from django.urls import path

from scoring.views import seasons

urlpatterns = [
    path("saisons/", seasons.season_list, name="season_list"),
    path("saisons/neu/", seasons.season_create, name="season_create"),
    path("saisons/<int:season_pk>/", seasons.season_detail, name="season_detail"),
    path("saisons/<int:season_pk>/bearbeiten/", seasons.season_edit, name="season_edit"),
    path("saisons/<int:season_pk>/rangliste.pdf", seasons.season_pdf, name="season_pdf"),
]
