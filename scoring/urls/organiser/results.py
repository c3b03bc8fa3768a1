"""The results: the ranking and the deal list (page, CSV, XLSX), one table's round with its deals
and corrections."""

from django.urls import path

from scoring.views import results

urlpatterns = [
    path("abende/<int:pk>/rangliste/", results.ranking, name="ranking"),
    path("abende/<int:pk>/spiele/", results.deal_results, name="deal_results"),
    path("tischrunde/<int:pk>/", results.seating_detail, name="seating_detail"),
]
