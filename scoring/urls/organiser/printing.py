"""Organiser URLs of printing in bulk and of the results for the club's website (included by
``scoring.urls.organiser``, so the names are ``organiser:…``)."""

from django.urls import path

from scoring.views import printing, website

urlpatterns = [
    path(
        "abende/<int:pk>/durchgang/<int:number>/alles-drucken.pdf",
        printing.session_print_pdf,
        name="session_print_pdf",
    ),
    path("abende/<int:pk>/urkunden.pdf", printing.certificates_pdf, name="certificates_pdf"),
    path("abende/<int:pk>/preisliste.pdf", printing.prize_list_pdf, name="prize_list_pdf"),
    path("abende/<int:pk>/ergebnisse.html", website.results_html, name="results_html"),
]
