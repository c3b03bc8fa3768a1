"""Public screens of an evening, no login, read-only: the ranking for a projector or TV, and
"Where do I sit?" for the players' phones. Both update themselves (htmx polling)."""

from __future__ import annotations

import hashlib
import time
from datetime import UTC, datetime

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.http import parse_etags
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring import selectors, services
from scoring.domain.names import initial
from scoring.domain.numbers import ascii_int
from scoring.models import Evening, Player
from scoring.selectors.evenings import evening_over
from scoring.views import clock as clock_views
from scoring.views.common import evening_or_404
from scoring.web import links, screen_cache, tiebreak_labels
from scoring.web.htmx import HtmxHttpRequest

RANKING_POLL_SECONDS = 10
SEAT_POLL_SECONDS = 15
#: The seat pages' results (the list of names, every player's seats) are computed at most this
#: often for all phones together (one computation at a time, the lock of
#: :func:`scoring.web.screen_cache.computed`; the others serve the previous result meanwhile). At a
#: round change the tables confirm one after another, each a new seating version: at 1,000
#: players a computation takes 0.1-0.3 s, so without a floor the server would do little else.
#: A player whose table has just confirmed sees the next round within this time (their tablet
#: shows it at once), and the page's next poll after it brings the new page.
SEAT_FLOOR_SECONDS = 2.0


def _partial(request: HtmxHttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


def _evening(request: HttpRequest, pk: int) -> Evening:
    """The evening of a public page: the one the language middleware read with its version
    (:func:`scoring.web.screen_cache.room_evening`, no second query), else the friendly 404."""
    return screen_cache.room_evening(request, pk) or evening_or_404(pk)


def screen_data(evening: Evening, hidden: bool) -> dict:
    """What the ranking screen shows, for the shared cache (scoring.web.screen_cache)."""
    rows = [] if hidden else selectors.evening_ranking(evening)
    names = selectors.evening_display_names(evening.pk) if rows else {}
    return {
        "rows": rows,
        "names": names,
        # "vor X durch ..." under a name the chain separated (in the language of the variant)
        "notes": (
            tiebreak_labels.tie_notes(rows, selectors.tiebreak_columns(evening, rows), names, evening.rules)
            if rows
            else {}
        ),
        "hidden": hidden,
        "complete": selectors.evening_is_confirmed(evening),
        "playing": selectors.playing_now(evening),
    }


@require_safe
@screen_cache.conditional(floor=screen_cache.screen_floor)
def ranking_screen(request: HtmxHttpRequest, screen: screen_cache.Screen) -> HttpResponse:
    """The evening's ranking in large type for a projector; says only "announced at the end"
    while the organiser hides it. ``?top=N`` shows the first N places only.

    Computed at most every ``screen_cache.FLOOR_SECONDS`` for all screens together; a poll that
    finds nothing newer answers 304 (scoring.web.screen_cache)."""
    evening, floor = screen.evening, screen.floor
    hidden = evening.ranking_hidden

    def data() -> screen_cache.Computed:
        return screen_cache.computed(
            "ranking_screen",
            evening.pk,
            evening.version,
            lambda: screen_data(evening, hidden),
            variant=f"{hidden}:{get_language()}",
            floor=floor,
        )

    if _partial(request):  # the polls: the fragment itself is cached, rendered once per result
        return screen.fragment(
            "ranking_screen_html",
            evening.version,
            data,
            lambda result: render_to_string(
                "public/_ranking_screen.html", _screen_context(request, evening, result), request
            ),
        )
    page = screen.shows(data())
    return render(request, "public/ranking_screen.html", _screen_context(request, evening, page))


def _screen_context(request: HttpRequest, evening: Evening, data: screen_cache.Computed) -> dict:
    rows = data.value["rows"]
    limit = ascii_int(request.GET.get("top", ""), minimum=1)
    if limit is not None:
        rows = [row for row in rows if row.place <= limit]
    return {
        **data.value,
        "evening": evening,
        "rows": rows,
        "provisional_credit": any(r.provisional for r in rows),
        "now": datetime.fromtimestamp(data.at, tz=UTC),
        "poll_seconds": RANKING_POLL_SECONDS,
        "query": request.GET.urlencode(),
        "finder_url": links.absolute_reverse(request, "public:seat_finder", evening.pk),
    }


@require_safe
@screen_cache.conditional(
    floor=screen_cache.screen_floor, version=lambda evening: evening.seating_version, settle=services.settle_due_clock
)
def seat_finder(request: HttpRequest, screen: screen_cache.Screen) -> HttpResponse:
    """Every player of the current session A to Z as big buttons, with a search box: 304 while the
    seatings and the clock have not changed (``Evening.seating_version``: deals arriving leave it
    alone), or while the client's copy is younger than the floor; a clock whose time is up is
    settled first (:func:`scoring.services.settle_due_clock`)."""
    evening = screen.evening
    query = request.GET.get("q", "").strip()[:100]

    def names() -> dict:
        """The list of names as HTML (no clock in it: the clock is rendered for each answer)."""
        session = selectors.latest_session(evening)
        players = selectors.session_players(session) if session is not None else []
        if query:
            wanted = selectors.alphabetical(query)
            players = [p for p in players if wanted in selectors.alphabetical(p.name)]
        # In list order (by surname, DIN 5007-1), under the initial of the surname.
        letters: dict[str, list[Player]] = {}
        for player in players:
            letters.setdefault(initial(player.name, get_language()), []).append(player)
        html = render_to_string(
            "public/_seat_finder_names.html", {"evening": evening, "letters": list(letters.items())}, request
        )
        over = session is not None and evening_over(evening, session.number)
        return {"session": session is not None, "html": html, "over": over}

    # One computation per seating version for every phone (a 1,000-name list takes a while).
    shown = screen.shows(
        screen_cache.computed(
            "seat_finder",
            evening.pk,
            evening.seating_version,
            names,
            variant=f"{get_language()}:{query}",
            floor=SEAT_FLOOR_SECONDS,
        )
    )
    context = {
        **clock_views.clock_context(evening, "small", poll=True),
        "session": shown.value["session"],
        "over": shown.value.get("over", False),
        "names_html": shown.value["html"],
        "query": query,
    }
    return render(request, "public/seat_finder.html", context)


@require_safe
def seat(request: HtmxHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """One player's table, partner and opponents in the round being played and the next one.

    Its ETag also names what this player's page shows (:func:`_seat_digest`): at a round change
    every confirmation is a new seating version, but a poll whose page has not changed for this
    player still answers 304, without rendering (the seats come from the worker's memory)."""
    evening = screen_cache.room_evening(request, pk) or Evening.objects.filter(pk=pk).first()
    if evening is None:
        raise Http404
    evening = services.settle_due_clock(evening)
    variant = screen_cache.public_variant(request)
    if unchanged := _seat_unchanged(request, evening, variant, player_pk):
        return unchanged
    response, shown = _seat(request, evening, player_pk)
    digest = _seat_digest(evening, shown, player_pk)
    return screen_cache.tagged(response, shown.version, f"{variant}-{digest}", at=shown.at)


def _seat_digest(evening: Evening, shown: screen_cache.Computed, player_pk: int) -> str:
    """A hash of everything a player's seat page shows (their seats now and next with the names,
    the session, the clock, the evening's name)."""
    seats = shown.value["seats"].get(player_pk)
    names = shown.value["names"]
    session = shown.value["session"]
    people = [] if seats is None else [seats.player]
    for seat in (seats.current, seats.next) if seats is not None else ():
        if seat is not None:
            people += [*seat.partners, *seat.opponents]
    parts = (
        repr(seats),
        [names.get(p.pk) for p in people],
        session.number if session is not None else None,
        evening.clock_version,
        evening.clock_status,
        evening.name,
        shown.value.get("over", False),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:12]


def _seat_unchanged(request: HttpRequest, evening: Evening, variant: str, player_pk: int) -> HttpResponse | None:
    """304 for a seat page whose ``If-None-Match`` names the current seating version (or a copy
    younger than the floor), or a page that shows this player the same as now (then with the
    current ETag); else None."""
    if request.method not in ("GET", "HEAD"):
        return None
    now = time.time()
    for tag in parse_etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
        version, _, rest = tag.strip('"').partition(".")
        at, _, tail = rest.partition(".")
        base, _, seen = tail.partition("-")
        if base != variant or not (version.isascii() and version.isdigit()):
            continue
        young = at.isascii() and at.isdigit() and now - int(at) / 1000 < screen_cache.FLOOR_SECONDS
        if int(version) == evening.seating_version or young:
            return _not_modified(tag)
        shown = _seats_entry(evening)
        if seen and seen == _seat_digest(evening, shown, player_pk):
            return _not_modified(screen_cache.etag(shown.version, shown.at, f"{variant}-{seen}"))
    return None


def _not_modified(tag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = tag
    return screen_cache.tagged(response, 0, None)


def _seats(evening: Evening) -> dict:
    """Every player's seats now and next (``selectors.session_seats``) and whether the evening is
    over (:func:`scoring.selectors.evenings.evening_over`), for the shared cache."""
    session = selectors.latest_session(evening)
    if session is None:
        return {"session": None, "seats": {}, "names": {}}
    seats = selectors.session_seats(session, selectors.session_players(session))
    return {
        "session": session,
        "seats": seats,
        "names": selectors.evening_display_names(evening.pk),
        "over": evening_over(evening, session.number),
    }


#: The last seats each worker process read from the shared cache, per evening (its id and
#: creation time): a phone's page then takes no unpickling of the whole field's seats.
_LOCAL_SEATS: dict[tuple[int, object], screen_cache.Computed] = {}


def _seats_entry(evening: Evening) -> screen_cache.Computed:
    """Every player's seats (:func:`_seats`): computed once per seating version for every phone
    in the hall (the round-change storm) and kept in the shared cache; each worker keeps the last
    one it read and reads the shared cache again only for a new seating version once that one
    is older than :data:`SEAT_FLOOR_SECONDS`."""
    key = (evening.pk, evening.created_at)
    local = _LOCAL_SEATS.get(key)
    if local is not None and (local.version == evening.seating_version or time.time() - local.at < SEAT_FLOOR_SECONDS):
        return local
    entry = screen_cache.computed(
        "seats", evening.pk, evening.seating_version, lambda: _seats(evening), floor=SEAT_FLOOR_SECONDS
    )
    _LOCAL_SEATS[key] = entry
    return entry


def _seat(request: HtmxHttpRequest, evening: Evening, player_pk: int) -> tuple[HttpResponse, screen_cache.Computed]:
    shown = _seats_entry(evening)
    seats = shown.value["seats"].get(player_pk)
    context = {
        **clock_views.clock_context(evening, "small"),
        "session": shown.value["session"],
        "player": seats.player if seats is not None else None,
        "seats": seats,
        "names": shown.value["names"],
        "over": shown.value.get("over", False),
        "poll_seconds": SEAT_POLL_SECONDS,
    }
    if seats is None:
        return render(request, "public/seat.html", context, status=404), shown
    template = "public/_seat.html" if _partial(request) else "public/seat.html"
    return render(request, template, context), shown
