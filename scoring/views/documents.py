"""Printed documents (organiser, login required): ranking, score sheets, table list and route
cards as PDF, each one click away on the organiser pages.

A document of a session that has not been drawn, or a ranking without players, sends the
organiser back to the page they came from with a message: never an error page, never an empty
PDF. An evening that does not exist gets the friendly 404 page.
"""

from __future__ import annotations

import io

from django.contrib import messages
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from scoring import selectors
from scoring.documents.data import SessionPlan, load_session_plan
from scoring.documents.ranking import build_ranking, ranking_name
from scoring.documents.route_cards import build_route_cards, route_cards_name
from scoring.documents.score_sheets import build_score_sheets, score_sheets_name
from scoring.documents.table_lists import build_table_list, table_list_name
from scoring.models import Evening
from scoring.transfer.filenames import content_disposition
from scoring.views.access import helper_required
from scoring.views.common import evening_or_404 as _evening
from scoring.web import links


def pdf_response(data: bytes, name: str) -> FileResponse:
    """The PDF, shown in the browser (to print) and saved as ``<name>.pdf``."""
    response = FileResponse(io.BytesIO(data), content_type="application/pdf")
    response["Content-Disposition"] = content_disposition(f"{name}.pdf", as_attachment=False, default="dokument")
    response["Content-Length"] = str(len(data))
    response["Cache-Control"] = "no-store"
    return response


def plan_or_redirect(
    request: HttpRequest, evening: Evening, number: int, *, with_deals: bool = False
) -> SessionPlan | HttpResponse:
    plan = load_session_plan(
        evening,
        number,
        with_deals=with_deals,
        scorer_url=links.absolute_reverser(request, "scorer:table"),
    )
    if plan is None:
        messages.error(request, _("Session %(number)s has not been drawn yet.") % {"number": number})
        return redirect("organiser:evening_detail", pk=evening.pk)
    if not any(r.tables for r in plan.rounds):
        messages.error(request, _("Session %(number)s has no tables to print.") % {"number": number})
        return redirect("organiser:session_detail", pk=evening.pk, number=number)
    return plan


def ranking_or_redirect(request: HttpRequest, evening: Evening) -> list[selectors.RankingRow] | HttpResponse:
    """The evening's ranking rows for a printed document (ranking, certificates, prize list), or
    back to the ranking page with a message when there is none (no player checked in)."""
    rows = selectors.evening_ranking(evening)
    if not rows:
        messages.error(request, _("There is no ranking to print yet: no player is checked in."))
        return redirect("organiser:ranking", pk=evening.pk)
    return rows


@helper_required
def ranking_pdf(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The ranking, provisional ("vorläufig") while any deal is missing."""
    evening = _evening(pk)
    rows = ranking_or_redirect(request, evening)
    if isinstance(rows, HttpResponse):
        return rows
    complete = selectors.evening_is_confirmed(evening)
    criteria = selectors.tiebreak_columns(evening, rows)
    data = build_ranking(
        evening,
        rows,
        complete=complete,
        sessions_drawn=evening.sessions.count(),
        criteria=criteria,
        chain=selectors.evening_chain(evening),
        names=selectors.evening_display_names(evening.pk) if criteria else None,
    )
    return pdf_response(data, ranking_name(evening, complete=complete))


@helper_required
def score_sheets_pdf(request: HttpRequest, pk: int, number: int) -> HttpResponseBase:
    """All score sheets of a session: filled with what was entered, or blank with ``?leer=1``."""
    evening = _evening(pk)
    filled = request.GET.get("leer") not in ("1", "true", "ja", "yes")
    plan = plan_or_redirect(request, evening, number, with_deals=filled)
    if isinstance(plan, HttpResponse):
        return plan
    data = build_score_sheets(evening, plan, filled=filled)
    return pdf_response(data, score_sheets_name(evening, number, filled=filled))


@helper_required
def table_list_pdf(request: HttpRequest, pk: int, number: int) -> HttpResponseBase:
    evening = _evening(pk)
    plan = plan_or_redirect(request, evening, number)
    if isinstance(plan, HttpResponse):
        return plan
    return pdf_response(build_table_list(evening, plan), table_list_name(evening, number))


@helper_required
def route_cards_pdf(request: HttpRequest, pk: int, number: int) -> HttpResponseBase:
    evening = _evening(pk)
    plan = plan_or_redirect(request, evening, number)
    if isinstance(plan, HttpResponse):
        return plan
    return pdf_response(build_route_cards(evening, plan), route_cards_name(evening, number))
