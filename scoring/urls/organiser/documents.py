"""The printed documents (PDF) of an evening and its sessions."""

from django.urls import path

from scoring.views import documents

urlpatterns = [
    path("abende/<int:pk>/rangliste.pdf", documents.ranking_pdf, name="ranking_pdf"),
    path("abende/<int:pk>/durchgang/<int:number>/spielzettel.pdf", documents.score_sheets_pdf, name="score_sheets_pdf"),
    path("abende/<int:pk>/durchgang/<int:number>/tischliste.pdf", documents.table_list_pdf, name="table_list_pdf"),
    path("abende/<int:pk>/durchgang/<int:number>/laufzettel.pdf", documents.route_cards_pdf, name="route_cards_pdf"),
]
