"""The table scorer's pages: reached through the table's private link (an unguessable token),
no login, valid for that table only."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.forms import DealForm
from scoring.messages import translate
from scoring.models import Table


def _failure_key(request: HttpRequest) -> str:
    return f"table-link-failures:{request.META.get('REMOTE_ADDR', '')}"


def _table(request: HttpRequest, token: str) -> Table | HttpResponse:
    """The table of a private link, or the page to show instead.

    Wrong links are counted per address; past ``TABLE_LINK_FAILURE_LIMIT`` within
    ``TABLE_LINK_FAILURE_WINDOW`` seconds every table link from that address answers 429 until the
    window has passed, so links cannot be guessed by trying.
    """
    key = _failure_key(request)
    if cache.get(key, 0) >= settings.TABLE_LINK_FAILURE_LIMIT:
        return render(request, "scorer/too_many_attempts.html", status=429)
    table = Table.objects.select_related("evening").filter(token=token).first()
    if table is None:
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, timeout=settings.TABLE_LINK_FAILURE_WINDOW)
        return render(request, "scorer/unknown_table.html", status=404)
    return table


def _page(request: HttpRequest, table: Table, form: DealForm | None = None, edit: int | None = None,
          status: int = 200) -> HttpResponse:
    state = selectors.scorer_state(table)
    number = edit or state.next_deal
    if form is None and state.seating is not None and number is not None:
        deal = state.deals.get(number)
        initial = {"seating": state.seating.pk, "bonus_a": 0, "bonus_b": 0}
        if deal is not None:
            initial.update(winner=deal.winner, to_nil=deal.to_nil, bonus_a=deal.bonus_a, bonus_b=deal.bonus_b)
        form = DealForm(initial=initial)
    return render(
        request,
        "scorer/table.html",
        {"table": table, "evening": table.evening, "state": state, "form": form, "number": number},
        status=status,
    )


def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """The tablet page: current round, its deals, the entry form; after a round, where to sit next."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    edit = request.GET.get("deal")
    edit_number = int(edit) if edit and edit.isdigit() else None
    state_numbers = range(1, table.evening.deals_per_round + 1)
    if edit is not None and edit_number not in state_numbers:
        messages.error(
            request,
            _("There is no deal %(number)s: a round has deals 1 to %(count)s.")
            % {"number": edit, "count": table.evening.deals_per_round},
        )
        edit_number = None
    return _page(request, table, edit=edit_number)


@require_POST
def table_deal(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """Save deal ``number`` of the table's current round (new entry or correction)."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    form = DealForm(request.POST)
    if not form.is_valid():
        return _page(request, table, form=form, edit=number, status=422)
    try:
        services.enter_deal(
            seating_id=form.cleaned_data["seating"],
            number=number,
            result=form.result(),
            via=_("Table %(number)s (table link)") % {"number": table.number},
            table=table,
        )
    except DomainError as error:
        messages.error(request, translate(error))
        return redirect("scorer:table", token=token)
    messages.success(request, _("Deal %(number)s saved.") % {"number": number})
    return redirect("scorer:table", token=token)


@require_POST
def table_complete(request: HttpRequest, token: str) -> HttpResponse:
    """Finish the round at this table: no more changes from the tablet; show where to sit next."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    seating_id = request.POST.get("seating", "")
    try:
        services.complete_seating(seating_id=int(seating_id) if seating_id.isdigit() else 0, table=table)
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(request, _("Round complete. Thank you!"))
    return redirect("scorer:table", token=token)
