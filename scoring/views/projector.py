"""The evening's projector page: fills any beamer from 1024x768 to 1920x1080 and
portrait TVs, pages a long list by itself (``static/js/projector.js``) and shows what the
organiser chose on the live overview (``Evening.projector_mode``): the ranking, the seating of
the next round, the round clock, or a rotation of the three; on every view a QR code to
"Where do I sit?". Public, read-only, polled like the ranking screen (ETag / 304, shared cache:
:mod:`scoring.web.screen_cache`)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.domain.numbers import ascii_int
from scoring.models import Evening, ProjectorMode
from scoring.views.access import leader_required
from scoring.views.common import evening_or_404
from scoring.views.screens import screen_data as ranking_screen_data
from scoring.web import links, screen_cache
from scoring.web.htmx import HtmxHttpRequest
from scoring.web.messages import translate
from scoring.web.qr import qr_svg

#: Seconds between two polls of the projector page (below them: screen_cache.FLOOR_SECONDS).
POLL_SECONDS = 10
#: The sections each mode shows, in the order of the rotation.
SECTIONS = {
    ProjectorMode.RANKING: ("ranking",),
    ProjectorMode.SEATING: ("seating",),
    ProjectorMode.CLOCK: ("clock",),
    ProjectorMode.ROTATION: ("ranking", "seating", "clock"),
}


def round_clock_for(evening: Evening) -> selectors.RoundClock | None:
    """The evening's round clock for the projector (:func:`scoring.selectors.round_clock`, no
    query), or None when no clock runs; the templates include ``public/_round_clock.html`` only
    when it is not None."""
    return selectors.round_clock(evening)


def _mode(value: str) -> ProjectorMode:
    return ProjectorMode(value) if value in ProjectorMode.values else ProjectorMode.RANKING


def _data(evening: Evening, version: int, hidden: bool, mode: ProjectorMode, floor: float) -> dict:
    """What the page shows: the ranking's data (shared with the ranking screen's cache), the
    seating of the next round, the round clock; only the parts ``mode`` shows. Once the evening
    is over (``selectors.evening_is_confirmed``) every mode shows the final ranking alone: there
    is no next seating and no clock any more."""
    clock = round_clock_for(evening)
    over = selectors.evening_is_confirmed(evening)
    # The rotation leaves out the clock while none runs; chosen alone, its view says so.
    sections = tuple(s for s in SECTIONS[mode] if s != "clock" or clock is not None or mode == ProjectorMode.CLOCK)
    if over:
        sections, clock = ("ranking",), None
    data: dict = {"sections": sections, "mode": mode.value, "round_clock": clock, "over": over}
    if "ranking" in sections:
        ranking = screen_cache.computed(
            "ranking_screen",
            evening.pk,
            version,
            lambda: ranking_screen_data(evening, hidden),
            variant=f"{hidden}:{get_language()}",
            floor=floor,
        )
        data.update(ranking.value)
    if "seating" in sections:
        data["seating"] = selectors.projector_seating(evening)
    return data


@require_safe
@screen_cache.conditional(
    floor=screen_cache.screen_floor, settle=services.settle_due_clock, parts=lambda evening: (evening.projector_mode,)
)
def projector(request: HtmxHttpRequest, screen: screen_cache.Screen) -> HttpResponse:
    """The projector page of the evening (404 for none). A poll (htmx) gets the fragment; both
    are computed at most every ``screen_cache.FLOOR_SECONDS`` for all projectors together and a
    poll that finds nothing newer answers 304 (the mode is part of the ETag). While a round clock
    runs, the fragment is rendered for each poll: the clock carries the server's time of the
    answer, so every projector shows the same seconds."""
    evening, floor = screen.evening, screen.floor
    version, hidden, mode = evening.version, evening.ranking_hidden, _mode(evening.projector_mode)

    def data() -> screen_cache.Computed:
        return screen_cache.computed(
            "projector",
            evening.pk,
            version,
            lambda: _data(evening, version, hidden, mode, floor),
            variant=f"{hidden}:{mode.value}:{get_language()}",
            floor=floor,
        )

    if request.htmx and not request.htmx.history_restore_request:
        result = data()
        if result.value["round_clock"] is not None:
            screen.shows(result)
            return render(request, "public/_projector.html", _context(request, evening, result))

        return screen.fragment(
            "projector_html",
            version,
            data,
            lambda result: render_to_string("public/_projector.html", _context(request, evening, result), request),
        )
    page = screen.shows(data())
    return render(request, "public/projector.html", _context(request, evening, page))


def _context(request: HttpRequest, evening: Evening, data: screen_cache.Computed) -> dict:
    finder_url = links.absolute_reverse(request, "public:seat_finder", evening.pk)
    rows = data.value.get("rows", [])
    return {
        **data.value,
        # The clock read now (no query), not with the cached data: it carries the server's time.
        "round_clock": round_clock_for(evening) if data.value["round_clock"] is not None else None,
        "evening": evening,
        "provisional_credit": any(r.provisional for r in rows),
        "now": datetime.fromtimestamp(data.at, tz=UTC),
        "poll_seconds": POLL_SECONDS,
        "finder_url": finder_url,
        "finder_qr": qr_svg(finder_url, label=_("QR code of “Where do I sit?”")),
    }


@leader_required
@require_POST
def projector_mode(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser chooses on the live overview what the projector page shows
    (``mode``: a :class:`~scoring.models.ProjectorMode` value); back to the live overview with a
    message saying what it shows now, or why nothing changed."""
    evening = evening_or_404(pk)
    try:
        saved = services.set_projector_mode(evening_id=evening.pk, mode=request.POST.get("mode", ""), user=request.user)
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(
            request, _("The projector now shows: %(mode)s.") % {"mode": ProjectorMode(saved.projector_mode).label}
        )
    url = reverse("organiser:live", args=[evening.pk])
    session = ascii_int(request.POST.get("durchgang"))
    return redirect(f"{url}?durchgang={session}" if session else url)
