"""The evenings: list, a new evening, an evening's page and its settings."""

from django.urls import path

from scoring.views import evenings

urlpatterns = [
    path("", evenings.evening_list, name="evening_list"),
    path("abende/neu/", evenings.evening_create, name="evening_create"),
    path("abende/<int:pk>/", evenings.evening_detail, name="evening_detail"),
    path("abende/<int:pk>/sprache/", evenings.evening_language, name="evening_language"),
    path("abende/<int:pk>/gleichstand/", evenings.evening_tiebreaks, name="evening_tiebreaks"),
    path("abende/<int:pk>/regeln/", evenings.evening_rule_set, name="evening_rule_set"),
    path("abende/<int:pk>/name/", evenings.evening_rename, name="evening_rename"),
    path("abende/<int:pk>/archiv/", evenings.evening_archive, name="evening_archive"),
    path("abende/<int:pk>/loeschen/", evenings.evening_delete, name="evening_delete"),
]
