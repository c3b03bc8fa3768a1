"""The round clock: the organiser's buttons and lengths (live overview) and the clock's own small
poll for pages that do not poll themselves. Every page that shows the clock first calls
``services.settle_due_clock`` (the lock at zero without a browser: ``scoring.services.clock``)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.domain.numbers import ascii_int
from scoring.models import Evening
from scoring.views.access import leader_required
from scoring.views.common import evening_or_404
from scoring.web import screen_cache
from scoring.web.messages import translate

#: The clock's own poll (seconds): a pause or an extension reaches such a screen within this.
CLOCK_POLL_SECONDS = 15
SIZES = ("large", "small")


def clock_context(evening: Evening, size: str = "small", poll: bool = False) -> dict:
    """The context of ``public/_round_clock.html`` for ``evening`` (settled first)."""
    evening = services.settle_due_clock(evening)
    return {"round_clock": selectors.round_clock(evening), "size": size, "clock_poll": poll, "evening": evening}


@require_safe
def clock_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The clock alone (``?size=large|small``), for its own poll: 304 while the clock has not
    changed (ETag on ``Evening.clock_version``, one query: the evening the language middleware
    read)."""
    evening = screen_cache.room_evening(request, pk)
    if evening is None:
        raise Http404
    evening = services.settle_due_clock(evening)
    size = request.GET["size"] if request.GET.get("size") in SIZES else "small"
    variant = screen_cache.public_variant(request)
    if unchanged := screen_cache.not_modified(request, evening.clock_version, variant):
        return unchanged
    response = render(request, "public/_round_clock.html", clock_context(evening, size, poll=True))
    return screen_cache.tagged(response, evening.clock_version, variant)


ACTIONS: dict[str, Callable[..., Evening]] = {
    "start": services.start_round_clock,
    "break": services.start_break_clock,
    "pause": services.pause_round_clock,
    "resume": services.resume_round_clock,
    "extend": services.extend_round_clock,
    "restart": services.restart_round_clock,
    "stop": services.stop_round_clock,
}


def _seen(value: str | None) -> int | None:
    """The clock's version the form showed (``Evening.clock_version``, up to 20 ASCII digits);
    None when the form sent none (then nothing is compared)."""
    text = (value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 20 else None


def _back(request: HttpRequest, evening: Evening) -> HttpResponse:
    url = reverse("organiser:live", args=[evening.pk])
    session = ascii_int(request.POST.get("durchgang"))
    return redirect(f"{url}?durchgang={session}" if session else url)


@leader_required
@require_POST
def clock_action(request: HttpRequest, pk: int) -> HttpResponse:
    """One of the clock's buttons (``action``: start, break, pause, resume, extend, restart,
    stop; ``round`` for start, ``minutes`` for extend; ``seen``: the clock's version shown)."""
    evening = evening_or_404(pk)
    action = request.POST.get("action", "")
    service = ACTIONS.get(action)
    if service is None:
        messages.error(request, _("Please press one of the clock's buttons."))
        return _back(request, evening)
    kwargs: dict = {"evening_id": evening.pk, "user": request.user, "seen": _seen(request.POST.get("seen"))}
    if action == "start":
        kwargs["round_id"] = ascii_int(request.POST.get("round"), 0)
    if action == "extend":
        kwargs["minutes"] = request.POST.get("minutes", "")
    try:
        evening = service(**kwargs)
    except DomainError as error:
        messages.error(request, translate(error))
        return _back(request, evening)
    shown = selectors.round_clock(evening)
    values: dict[str, object] = {"session": evening.clock_session, "round": evening.clock_round}
    if shown is None:
        messages.success(request, _("The clock is switched off: the screens show none."))
    elif action == "pause":
        messages.success(request, _("The clock is paused at %(time)s.") % {"time": shown.shown})
    elif shown.is_break:
        messages.success(request, _("The break runs: %(time)s.") % {"time": shown.shown})
    else:
        values["time"] = shown.shown
        messages.success(request, _("The clock of session %(session)s, round %(round)s runs: %(time)s left.") % values)
    return _back(request, evening)


@leader_required
@require_POST
def clock_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The evening's round length, break length, and the lock at zero."""
    evening = evening_or_404(pk)
    try:
        evening = services.set_clock_lengths(
            evening_id=evening.pk,
            round_minutes=request.POST.get("round_minutes", ""),
            break_minutes=request.POST.get("break_minutes", ""),
            locks_round=request.POST.get("locks_round") == "1",
            user=request.user,
        )
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(
            request,
            _("Saved: rounds of %(round)s minutes, breaks of %(break)s minutes.")
            % {"round": evening.round_minutes, "break": evening.break_minutes},
        )
    return _back(request, evening)
