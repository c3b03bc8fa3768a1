"""The tablets: the tables' links, QR codes and short codes, new links, locked tablets, table cards."""

from django.urls import path

from scoring.views import tablets

urlpatterns = [
    path("abende/<int:pk>/tablets/", tablets.tablets_setup, name="tablets"),
    path("abende/<int:pk>/tablets/entsperren/", tablets.tablet_unlock, name="tablet_unlock"),
    path("abende/<int:pk>/tisch/<int:number>/neuer-link/", tablets.table_link_regenerate, name="table_link_regenerate"),
    path("abende/<int:pk>/tischkarten.pdf", tablets.table_cards_pdf, name="table_cards_pdf"),
]
