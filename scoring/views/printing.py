"""Printing in bulk (organiser, Helfer and Turnierleitung): everything for a session in one PDF,
the certificates (Urkunden) of the first places and the prize list.

Bad input never gives an error page or an empty PDF: a session not drawn yet, a ranking without
players, a number of places that is not a number, smaller than 1 or larger than the field send
the organiser back to the page they came from with a message that says what to do.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from scoring import selectors
from scoring.documents.certificates import (
    build_certificates,
    build_prize_list,
    certificate_rows,
    certificates_name,
    prize_list_name,
)
from scoring.documents.session_print import build_session_print, session_print_name
from scoring.domain.numbers import ascii_int
from scoring.models import Evening
from scoring.views.access import helper_required
from scoring.views.common import evening_or_404
from scoring.views.documents import pdf_response, plan_or_redirect, ranking_or_redirect
from scoring.web import links

#: The query parameter of the number of places that get a certificate (``?plaetze=3``).
PLACES = "plaetze"
#: Places when the organiser gives none.
DEFAULT_PLACES = 3


@helper_required
def session_print_pdf(request: HttpRequest, pk: int, number: int) -> HttpResponseBase:
    """Table list, blank score sheets, route cards and (session 1) the table cards: one PDF."""
    evening = evening_or_404(pk)
    plan = plan_or_redirect(request, evening, number)
    if isinstance(plan, HttpResponse):
        return plan
    tables = list(evening.tables.all()) if number == 1 else []
    table_link = links.absolute_reverser(request, "scorer:table")
    data = build_session_print(
        evening,
        plan,
        tables=tables,
        table_url=lambda table: table_link(table.token),
        join_url=links.absolute_reverse(request, "public:tablet_join"),
        wifi_name=settings.WIFI_NAME,
    )
    return pdf_response(data, session_print_name(evening, number))


def _places_or_redirect(request: HttpRequest, evening, rows) -> int | HttpResponse:
    """The number of places asked for (``?plaetze=``), checked against the field."""
    back = redirect("organiser:ranking", pk=evening.pk)
    raw = request.GET.get(PLACES, "").strip()
    places = ascii_int(raw) if raw else DEFAULT_PLACES
    if places is None or not 1 <= places <= len(rows):
        messages.error(
            request,
            _("Certificates: please give a number of places from 1 to %(count)s (the players of the evening).")
            % {"count": len(rows)},
        )
        return back
    return places


def _ranked(request: HttpRequest, pk: int) -> tuple[Evening, list[selectors.RankingRow], int, bool] | HttpResponse:
    """What the certificates and the prize list print: the evening, its ranking rows, the places
    asked for and whether the ranking is final; or back to the ranking page with a message when
    there is no ranking or the number of places is wrong."""
    evening = evening_or_404(pk)
    rows = ranking_or_redirect(request, evening)
    if isinstance(rows, HttpResponse):
        return rows
    places = _places_or_redirect(request, evening, rows)
    if isinstance(places, HttpResponse):
        return places
    return evening, rows, places, selectors.evening_is_confirmed(evening)


@helper_required
def certificates_pdf(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A certificate for every player placed ``?plaetze=N`` or better (shared places: each)."""
    ranked = _ranked(request, pk)
    if isinstance(ranked, HttpResponse):
        return ranked
    evening, rows, places, complete = ranked
    data = build_certificates(evening, certificate_rows(rows, places), places=places, complete=complete)
    return pdf_response(data, certificates_name(evening))


@helper_required
def prize_list_pdf(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The players placed ``?plaetze=N`` or better, with an empty column for the prizes."""
    ranked = _ranked(request, pk)
    if isinstance(ranked, HttpResponse):
        return ranked
    evening, rows, places, complete = ranked
    data = build_prize_list(evening, rows, places=places, complete=complete)
    return pdf_response(data, prize_list_name(evening))
