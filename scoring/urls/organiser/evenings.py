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
]
