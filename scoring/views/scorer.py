"""The table scorer's pages: reached through the table's private link (an unguessable token),
no login, valid for that table only.

With JavaScript the page updates in place (htmx: the forms post in the background and the answer
replaces ``#scorer-state``); without it every form is a plain POST answered by a redirect. Entries
made while the connection is down are kept on the tablet and sent later by ``static/js/scorer.js``;
each form carries an idempotency key, so a form sent twice is saved once.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.domain.numbers import ascii_int
from scoring.domain.rules import other_team
from scoring.domain.rulesets import DRAW
from scoring.forms import DealForm
from scoring.hall import throttle
from scoring.hall.client_address import client_address
from scoring.models import Table
from scoring.views import clock as clock_views
from scoring.web.htmx import HtmxHttpRequest
from scoring.web.messages import translate

# Answers the page's own script swaps in (htmx): saved (200), conflict (409), form errors (422).
CONFLICT, UNPROCESSABLE = 409, 422


_UNREAD: Any = object()


def _failure_key(request: HttpRequest) -> str:
    return f"table-link:{client_address(request)}"


def _table(request: HttpRequest, token: str) -> Table | HttpResponse:
    """The table of a private link, or the page to show instead.

    A valid link always opens its table, whatever came from the device before; only wrong links
    are counted and only wrong links are refused. They are counted per device
    (``scoring.hall.client_address``) in the database, shared by every worker process
    (``scoring.hall.throttle``: ``TABLE_LINK_FAILURE_LIMIT`` at once, then one more every
    ``TABLE_LINK_FAILURE_WINDOW / TABLE_LINK_FAILURE_LIMIT`` seconds). A counted wrong link answers
    404, one beyond the limit 429 ("please wait"), so links cannot be guessed by trying. The count
    decides atomically: of wrong links sent at the same moment from several workers, exactly the
    free ones get the 404.
    """
    table = getattr(request, "scorer_table", _UNREAD)  # read by EveningLanguageMiddleware
    if table is _UNREAD:
        table = Table.objects.select_related("evening").filter(token=token).first()
    if table is not None:
        services.settle_due_clock(table.evening)  # the round clock's lock at zero, when due
        return table
    limit, window = settings.TABLE_LINK_FAILURE_LIMIT, settings.TABLE_LINK_FAILURE_WINDOW
    if throttle.attempt(_failure_key(request), limit, window) is not None:
        return render(request, "scorer/unknown_table.html", status=404)
    return render(request, "scorer/too_many_attempts.html", status=429)


@functools.lru_cache(maxsize=64)
def _points_json(rules, max_carried: int) -> str:
    """The rule set's points table for the page's offline preview, as JSON (the same for every
    tablet of a rule set and round length: built once per worker)."""
    return json.dumps(rules.points_table(max_carried=max_carried))


def _page(
    request: HtmxHttpRequest,
    table: Table,
    form: DealForm | None = None,
    edit: int | None = None,
    status: int = 200,
    signature: str | None = None,
) -> HttpResponse:
    """The tablet page, or for the page's own script (htmx) just its changing part."""
    # The fingerprint before the state: a write in between makes the next poll redraw.
    signature = signature or selectors.table_signature(table)
    state = selectors.scorer_state(table)
    number = None
    if state.can_enter:
        number = edit or state.next_deal
    if form is None and number is not None:
        form = DealForm.for_deal(state.seating, state.deals.get(number), rules=state.rules)
    template = "scorer/table.html"
    if request.htmx and not request.htmx.history_restore_request:
        template = "scorer/_state.html"
    return render(
        request,
        template,
        {
            "table": table,
            "evening": table.evening,
            "state": state,
            "form": form if number else None,
            "number": number,
            "editing": number in state.deals,
            "carried": state.carried_into(number),
            "carries_on": state.carries_on(number),
            # JSON in a data attribute (the CSP allows no inline script, not even a JSON one)
            "points_table": _points_json(state.rules, len(state.deal_numbers)),
            "signature": signature,
            "names": selectors.evening_display_names(table.evening_id),
            **clock_views.clock_context(table.evening, "small"),
        },
        status=status,
    )


def _answer(request: HtmxHttpRequest, table: Table, status: int = 200) -> HttpResponse:
    """After a POST: the page's changing part for htmx, else a redirect to the page (the
    message waits there)."""
    if request.htmx:
        return _page(request, table, status=status)
    return redirect("scorer:table", token=table.token)


@require_safe
def table_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The tablet page: current round, its deals, the entry form; after a round, where to sit next."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    edit = request.GET.get("deal")
    edit_number = ascii_int(edit)
    state_numbers = range(1, table.evening.deals_per_round + 1)
    if edit is not None and edit_number not in state_numbers:
        messages.error(
            request,
            _("There is no deal %(number)s: a round has deals 1 to %(count)s.")
            % {"number": edit, "count": table.evening.deals_per_round},
        )
        edit_number = None
    return _page(request, table, edit=edit_number)


@require_safe
def table_poll(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """For the page's polling: 204 while nothing has changed since ``?s=<signature>``
    (:func:`scoring.selectors.table_signature`, one small query), else the page's changing part."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    signature = selectors.table_signature(table)
    if request.GET.get("s") == signature:
        return HttpResponse(status=204)
    return _page(request, table, signature=signature)


@require_POST
def table_deal(request: HtmxHttpRequest, token: str, number: int) -> HttpResponse:
    """Save deal ``number`` of the table's current round (new entry or correction)."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    form = DealForm(request.POST, rules=table.evening.rules)
    if not form.is_valid():
        return _page(request, table, form=form, edit=number, status=UNPROCESSABLE)
    if form.result().winner == DRAW:
        return _draw(request, table, form, number)
    try:
        services.enter_deal(
            seating_id=form.cleaned_data["seating"],
            number=number,
            result=form.result(),
            origin=services.Origin.table_link(table.number),
            table=table,
            key=form.cleaned_data["key"],
            based_on_version=form.cleaned_data["version"],
            client=client_address(request),
        )
    except services.ConflictError as error:
        messages.error(request, translate(error))
        return _answer(request, table, status=CONFLICT)
    except DomainError as error:
        messages.error(request, translate(error))
        return _answer(request, table)
    messages.success(request, _("Deal %(number)s saved.") % {"number": number})
    return _answer(request, table)


def _draw(request: HtmxHttpRequest, table: Table, form: DealForm, number: int) -> HttpResponse:
    """Record a drawn Bräus deal; the form stays at the same deal (it is dealt again)."""
    try:
        services.record_draw(
            seating_id=form.cleaned_data["seating"],
            number=number,
            origin=services.Origin.table_link(table.number),
            table=table,
            key=form.cleaned_data["key"],
            client=client_address(request),
        )
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(
            request,
            _("Deal %(number)s is a draw: the same dealer deals again, then enter deal %(number)s.")
            % {"number": number},
        )
    return _answer(request, table)


def _seating_id(request: HttpRequest) -> int:
    """The round (seating) a finish/confirm/reopen form names; 0 (no such round) when it is not
    a number."""
    return ascii_int(request.POST.get("seating"), 0)


@require_POST
def table_finish(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The scorer finishes the round (all deals entered); the other team confirms next."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    team = request.POST.get("team", "")
    try:
        seating = services.mark_seating_entered(seating_id=_seating_id(request), table=table, team=team)
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        other = other_team(seating.entered_by)
        messages.success(
            request, _("Round finished. Team %(team)s: please check the deals and confirm.") % {"team": other}
        )
    return _answer(request, table)


@require_POST
def table_confirm(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The other team confirms the finished round: it is final; the table moves on."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    team = request.POST.get("team", "")
    try:
        services.confirm_seating(
            seating_id=_seating_id(request),
            team=team,
            table=table,
            origin=services.Origin.table_link(table.number, team),
        )
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(request, _("Round confirmed. Thank you!"))
    return _answer(request, table)


@require_POST
def table_reopen(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The other team does not agree: back to the scorer for corrections."""
    table = _table(request, token)
    if isinstance(table, HttpResponse):
        return table
    try:
        services.reopen_seating(seating_id=_seating_id(request), table=table)
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.info(request, _("The round is open again: correct the deal, then finish the round again."))
    return _answer(request, table)
