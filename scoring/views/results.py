"""Organiser pages of the results (login required): the ranking and the deal list (page, CSV, XLSX), and
one table's round with its deals, corrections and history."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from scoring import selectors, services
from scoring.documents.ranking import ranking_name
from scoring.domain.errors import DomainError
from scoring.domain.rulesets import DRAW
from scoring.domain.tiebreaks import Criterion
from scoring.forms import DealNumberForm, OrganiserDealForm
from scoring.hall.client_address import client_address
from scoring.hall.origin import Origin
from scoring.hall.roles import RUN_PERM
from scoring.models import Evening, Seating
from scoring.tables import DealResultTable, RankingTable, ranking_rows
from scoring.transfer.exports import EXPORT_FORMATS, export_response
from scoring.transfer.filenames import download_name
from scoring.views.access import helper_required
from scoring.views.common import evening_or_404 as _evening
from scoring.web import screen_cache, tiebreak_labels
from scoring.web.messages import translate


def ranking_records(evening: Evening, rows: list) -> tuple[list[dict], bool, tuple[Criterion, ...]]:
    """The ranking's records (:func:`scoring.tables.ranking_rows`, with their sort keys, in the
    words of the evening's rule set) for ``rows`` (:func:`scoring.selectors.evening_ranking`),
    whether a sit-out credit is provisional, and the tie-break columns shown. The ranking page
    computes them once per evening version and language (scoring.web.screen_cache); the results
    file for the website uses them too."""
    criteria = selectors.tiebreak_columns(evening, rows)
    names = selectors.evening_display_names(evening.pk) if criteria else None
    records = ranking_rows(
        rows,
        evening.sessions_count,
        sessions_drawn=evening.sessions.count(),
        criteria=criteria,
        names=names,
        rules=evening.rules,
    )
    return records, any(r.provisional for r in rows), tuple(criteria)


@helper_required
@require_safe
@screen_cache.conditional(private=True)
def ranking(request: HttpRequest, screen: screen_cache.Screen) -> HttpResponse:
    evening = screen.evening
    session_count = evening.sessions_count
    records, provisional_credit, criteria = screen_cache.computed(
        "ranking",
        evening.pk,
        evening.version,
        lambda: ranking_records(evening, selectors.evening_ranking(evening)),
        variant=get_language(),
    ).value
    table = RankingTable(records, session_count, criteria=criteria, rules=evening.rules)
    RequestConfig(request, paginate=False).configure(table)
    export_format = request.GET.get("_export")
    if export_format in EXPORT_FORMATS:
        # The PDF's name (scoring.transfer.filenames.download_name), another extension.
        name = ranking_name(evening, complete=selectors.evening_is_confirmed(evening))
        return export_response(table, export_format, name, title=_("Ranking"))
    return render(
        request,
        "organiser/ranking.html",
        {
            "evening": evening,
            "table": table,
            "complete": selectors.evening_is_confirmed(evening),
            "provisional_credit": provisional_credit,
            "chain": [tiebreak_labels.label(c, evening.rules) for c in selectors.evening_chain(evening)],
        },
    )


@helper_required
def deal_results(request: HttpRequest, pk: int) -> HttpResponse:
    """Every entered deal of the evening, one row each (page, CSV and XLSX)."""
    evening = _evening(pk)
    table = DealResultTable(
        selectors.evening_deals(evening), names=selectors.evening_display_names(evening.pk), rules=evening.rules
    )
    export_format = request.GET.get("_export")
    if export_format in EXPORT_FORMATS:
        RequestConfig(request, paginate=False).configure(table)
        name = download_name(_("Deals"), evening.name, evening.date)
        return export_response(table, export_format, name, title=_("Deals"))
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    return render(request, "organiser/deal_results.html", {"evening": evening, "table": table})


def _record_draw(request: HttpRequest, seating: Seating, number: int, form) -> HttpResponse:
    """The correction form's "draw" (Bräus): recorded as on the tablet, the deal is dealt again."""
    try:
        services.record_draw(
            seating_id=seating.pk,
            number=number,
            origin=Origin.organiser(request.user),
            user=request.user,
            key=form.cleaned_data["key"],
            client=client_address(request),
        )
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(request, _("Draw of deal %(number)s recorded: the table deals it again.") % {"number": number})
    return redirect("organiser:seating_detail", pk=seating.pk)


def _saved(request: HttpRequest, seating: Seating, number: int, form: OrganiserDealForm) -> bool:
    """Whether the organiser's deal ``number`` of ``form`` was saved; the service's refusal added
    to the form's errors when not."""
    try:
        services.enter_deal(
            seating_id=seating.pk,
            number=number,
            result=form.result(),
            origin=Origin.organiser(request.user),
            user=request.user,
            reason=form.cleaned_data["reason"],
            accept_impossible=form.cleaned_data["accept_impossible"],
            key=form.cleaned_data["key"],
            based_on_version=form.cleaned_data["version"],
            client=client_address(request),
        )
    except DomainError as error:
        form.add_error(None, translate(error))
        return False
    return True


@helper_required
def seating_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's view of one table in one round: deals, corrections, history."""
    seating = get_object_or_404(
        Seating.objects.select_related("round__session__evening", "table", *selectors.PARTNERSHIP_PLAYERS),
        pk=pk,
    )
    evening = seating.round.session.evening
    sheet = selectors.seating_sheet(seating, evening.deals_per_round)
    choice = DealNumberForm(request, deals_per_round=evening.deals_per_round)
    if not choice.is_valid():
        # ErrorList[i] is the message (a str); django-stubs say ValidationError | str
        messages.error(request, choice.errors["number"][0])  # type: ignore[arg-type]
    number_int = choice.deal
    form = None
    # A confirmed round: the Turnierleitung's correction needs a reason. A Helfer never changes a
    # confirmed round nor accepts an "impossible" result: the service refuses that (it checks with
    # the round locked; a round read here may be confirmed before the service runs).
    reason_required = seating.confirmed_at is not None and request.user.has_perm(RUN_PERM)
    if request.method == "POST":
        form = OrganiserDealForm(request.POST, reason_required=reason_required, rules=evening.rules)
        if form.is_valid() and form.result().winner == DRAW:
            return _record_draw(request, seating, number_int, form)
        if form.is_valid() and _saved(request, seating, number_int, form):
            messages.success(request, _("Deal %(number)s saved.") % {"number": number_int})
            return redirect("organiser:seating_detail", pk=seating.pk)
    if form is None and number_int:
        form = OrganiserDealForm.for_deal(seating, sheet.deals.get(number_int), reason_required=reason_required)
    return render(
        request,
        "organiser/seating_detail.html",
        {
            "evening": evening,
            "seating": seating,
            "rows": sheet.rows,
            "history": sheet.timeline,
            "form": form,
            "edit_number": number_int or "",
            "edit_entered": bool(number_int) and number_int in sheet.deals,
            "total_a": sheet.total_a,
            "total_b": sheet.total_b,
            "state": sheet.state,
            "all_entered": sheet.all_entered,
            "names": selectors.evening_display_names(evening.pk),
        },
    )
