"""The organiser's view of the room during the evening (login required): every table's state in
every round, updating itself (htmx polling); locking a round, closing a session, hiding the public
ranking, and confirming a round on a team's behalf."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.domain.numbers import ascii_int
from scoring.hall.origin import Origin
from scoring.models import Evening, ProjectorMode, Round, Seating, Session
from scoring.templatetags import grids
from scoring.views.access import helper_required, leader_required
from scoring.views.common import evening_or_404 as _evening
from scoring.web import links, screen_cache
from scoring.web.htmx import HtmxHttpRequest
from scoring.web.messages import translate

POLL_SECONDS = 5
#: The grid of a poll may be this old while deals arrive (seconds, below POLL_SECONDS); the
#: organiser's own actions (lock, close) answer with a fresh grid.
POLL_FLOOR_SECONDS = 2.0


def _sessions(evening: Evening) -> list[Session]:
    """The evening's sessions drawn, in order (one query; an evening has a handful)."""
    return list(evening.sessions.order_by("number"))


def _chosen_session(request: HttpRequest, sessions: list[Session]) -> Session | None:
    """The session asked for (?durchgang=N), else the latest one drawn."""
    number = ascii_int(request.GET.get("durchgang") or request.POST.get("durchgang"))
    chosen = next((s for s in sessions if s.number == number), None)
    return chosen or (sessions[-1] if sessions else None)


def _dashboard(
    request: HtmxHttpRequest, evening: Evening, sessions: list[Session], session: Session | None, floor: float = 0
) -> tuple[HttpResponse, int, float]:
    """The page (or its grid for htmx), the evening version and time of the grid shown
    (``sessions``: :func:`_sessions`, ``session``: the one shown)."""
    entry = None
    if session is not None:  # shared by every organiser's screen until the evening changes
        entry = screen_cache.computed(
            "live_grid",
            evening.pk,
            evening.version,
            lambda: selectors.live_grid(session),
            variant=str(session.number),
            floor=floor,
        )
    version, at = (entry.version, entry.at) if entry else (evening.version, time.time())
    rows = None
    # the rows as HTML, once per grid and language (exactly this grid's version)
    if entry is not None and session is not None:
        rows = screen_cache.computed(
            "live_rows",
            evening.pk,
            entry.version,
            lambda: screen_cache.Computed(entry.version, entry.at, grids.live_rows(entry.value)),
            variant=f"{session.number}:{entry.at}:{get_language()}",
        ).value
    context = {
        "evening": evening,
        "sessions": [s.number for s in sessions],
        "session": session,
        "grid": entry.value if entry else None,
        "grid_rows": rows,
        "now": datetime.fromtimestamp(at, tz=UTC),
        "poll_seconds": POLL_SECONDS,
    }
    if request.htmx and not request.htmx.history_restore_request:
        return render(request, "organiser/_live_grid.html", context), version, at
    context["clock_panel"] = selectors.clock_panel(evening)
    context["screen_url"] = links.absolute_reverse(request, "public:ranking_screen", evening.pk)
    context["finder_url"] = links.absolute_reverse(request, "public:seat_finder", evening.pk)
    context["projector_url"] = links.absolute_reverse(request, "public:projector", evening.pk)
    context["projector_modes"] = ProjectorMode.choices
    return render(request, "organiser/live.html", context), version, at


def _poll_floor(request: HtmxHttpRequest) -> float:
    """The grid of an htmx poll may lag :data:`POLL_FLOOR_SECONDS`; the page itself never."""
    return POLL_FLOOR_SECONDS if request.htmx and not request.htmx.history_restore_request else 0


@helper_required
@require_safe
@screen_cache.conditional(private=True, floor=_poll_floor, settle=services.settle_due_clock)
def live_dashboard(request: HtmxHttpRequest, screen: screen_cache.Screen) -> HttpResponse:
    """Tables x rounds with each one's state; the grid reloads itself every few seconds (a poll
    that finds the evening unchanged gets 304, scoring.web.screen_cache). While deals arrive, the
    grid of the polls is recomputed at most every :data:`POLL_FLOOR_SECONDS` for all screens."""
    evening = screen.evening
    sessions = _sessions(evening)
    response, version, at = _dashboard(request, evening, sessions, _chosen_session(request, sessions), screen.floor)
    screen.version, screen.at = version, at if screen.floor else 0
    return response


def _back(request: HtmxHttpRequest, evening: Evening, session: Session | None) -> HttpResponse:
    if request.htmx:
        evening.refresh_from_db(fields=["version"])  # the write just made: never the grid from before
        return _dashboard(request, evening, _sessions(evening), session)[0]
    url = reverse("organiser:live", args=[evening.pk])
    if session is not None:
        url += f"?durchgang={session.number}"
    return redirect(url)


@leader_required
@require_http_methods(["GET", "HEAD", "POST"])
def round_lock(request: HtmxHttpRequest, pk: int, round_pk: int) -> HttpResponse:
    """Lock a round for every table (no more deal entries from the tablets), or unlock it.

    Locking a round with tables that have not started it yet asks first: the POST without
    ``confirmed`` goes to this page (GET), which names those tables; its button sends them back
    as ``seen`` and the service locks only if no other table is waiting (checked again inside)."""
    evening = _evening(pk)
    round_ = get_object_or_404(Round.objects.select_related("session"), pk=round_pk, session__evening=evening)
    values = {"session": round_.session.number, "round": round_.number}
    url = reverse("organiser:round_lock", args=[evening.pk, round_.pk])
    if request.method != "POST":
        waiting = selectors.tables_not_started(round_.pk)
        if round_.locked or not waiting:  # nothing to ask (any more)
            return redirect(reverse("organiser:live", args=[evening.pk]) + f"?durchgang={round_.session.number}")
        return render(
            request,
            "organiser/round_lock_confirm.html",
            {"evening": evening, "round": round_, "tables": waiting},
        )
    locked = request.POST.get("locked") == "1"
    confirmed = request.POST.get("confirmed") == "1"
    if locked and not confirmed and selectors.tables_not_started(round_.pk):
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = url
            return response
        return redirect(url)
    seen = [n for n in (ascii_int(v) for v in request.POST.getlist("seen")) if n is not None] if confirmed else []
    try:
        services.set_round_locked(
            round_id=round_.pk,
            locked=locked,
            origin=Origin.organiser(request.user),
            user=request.user,
            not_started_seen=seen,
        )
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        if locked:
            messages.success(
                request,
                _("Session %(session)s, round %(round)s is locked: the tables can enter no more deals for it.")
                % values,
            )
        else:
            messages.success(request, _("Session %(session)s, round %(round)s is open again for the tables.") % values)
    if confirmed and not request.htmx:
        return redirect(reverse("organiser:live", args=[evening.pk]) + f"?durchgang={round_.session.number}")
    return _back(request, evening, round_.session)


@leader_required
@require_POST
def session_close(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Close a session for the tables (they can change nothing in it any more), or reopen it."""
    evening = _evening(pk)
    session = get_object_or_404(Session, evening=evening, number=number)
    closed = request.POST.get("closed") == "1"
    services.set_session_closed(session_id=session.pk, closed=closed)
    if closed:
        messages.success(
            request,
            _("Session %(number)s is closed: the tables can change nothing in it any more.") % {"number": number},
        )
    else:
        messages.success(request, _("Session %(number)s is open again for the tables.") % {"number": number})
    return _back(request, evening, session)


@leader_required
@require_POST
def ranking_visibility(request: HttpRequest, pk: int) -> HttpResponse:
    """Hide the public ranking screen for the last rounds, or reveal it."""
    evening = _evening(pk)
    hidden = request.POST.get("hidden") == "1"
    services.set_ranking_hidden(evening_id=evening.pk, hidden=hidden)
    if hidden:
        messages.success(request, _("The public ranking is hidden: the screen says it will be announced at the end."))
    else:
        messages.success(request, _("The public ranking is shown again."))
    return redirect(
        request.POST["next"]
        if request.POST.get("next", "").startswith("/organiser/")
        else reverse("organiser:live", args=[evening.pk])
    )


@helper_required
@require_POST
def seating_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser confirms a table's round on a team's behalf (e.g. the team has left)."""
    seating = get_object_or_404(Seating.objects.select_related("round__session__evening"), pk=pk)
    team = request.POST.get("team", "")
    try:
        services.confirm_seating(
            seating_id=seating.pk,
            team=team,
            user=request.user,
            origin=Origin.organiser(request.user, team),
        )
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(request, _("Round confirmed for team %(team)s.") % {"team": team})
    return redirect("organiser:seating_detail", pk=seating.pk)
