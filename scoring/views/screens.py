"""Public screens of an evening, no login, read-only: the ranking for a projector or TV, and
"Where do I sit?" for the players' phones. Both update themselves (htmx polling)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring import selectors
from scoring.domain.names import initial
from scoring.models import Evening, Player
from scoring.views.common import evening_or_404
from scoring.web import links, screen_cache, tiebreak_labels
from scoring.web.parsing import ascii_int

RANKING_POLL_SECONDS = 10
SEAT_POLL_SECONDS = 15


def _partial(request: HttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


def _evening(request: HttpRequest, pk: int) -> Evening:
    """The evening of a public page: the one the language middleware read with its version
    (:func:`scoring.web.screen_cache.room_evening`, no second query), else the friendly 404."""
    return screen_cache.room_evening(request, pk) or evening_or_404(pk)


def _screen_data(evening: Evening, hidden: bool) -> dict:
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
@screen_cache.conditional(floor=screen_cache.FLOOR_SECONDS)
def ranking_screen(request: HttpRequest, screen: screen_cache.Screen) -> HttpResponse:
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
            lambda: _screen_data(evening, hidden),
            variant=f"{hidden}:{get_language()}",
            floor=floor,
        )

    if _partial(request):  # the polls: the fragment itself is cached, rendered once per result

        def fragment() -> screen_cache.Computed:
            result = data()
            html = render_to_string("public/_ranking_screen.html", _screen_context(request, evening, result), request)
            return screen_cache.Computed(result.version, result.at, html)

        page = screen.shows(
            screen_cache.computed(
                "ranking_screen_html", evening.pk, evening.version, fragment, variant=screen.variant or "", floor=floor
            )
        )
        return HttpResponse(page.value)
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
@screen_cache.conditional(floor=screen_cache.FLOOR_SECONDS)
def seat_finder(request: HttpRequest, screen: screen_cache.Screen) -> HttpResponse:
    """Every player of the current session A to Z as big buttons, with a search box (304 while the
    evening has not changed, or while the client's copy is younger than the floor)."""
    evening = screen.evening
    session = selectors.latest_session(evening)
    players = selectors.session_players(session) if session is not None else []
    query = request.GET.get("q", "").strip()[:100]
    if query:
        wanted = selectors.alphabetical(query)
        players = [p for p in players if wanted in selectors.alphabetical(p.name)]
    # In list order (by surname, DIN 5007-1), under the initial of the surname.
    letters: dict[str, list[Player]] = {}
    for player in players:
        letters.setdefault(initial(player.name, get_language()), []).append(player)
    return render(
        request,
        "public/seat_finder.html",
        {"evening": evening, "session": session, "letters": list(letters.items()), "query": query},
    )


@require_safe
@screen_cache.conditional(floor=screen_cache.FLOOR_SECONDS)
def seat(request: HttpRequest, screen: screen_cache.Screen, player_pk: int) -> HttpResponse:
    """One player's table, partner and opponents in the round being played and the next one."""
    evening = screen.evening
    session = selectors.latest_session(evening)
    players = {p.pk: p for p in selectors.session_players(session)} if session is not None else {}
    player = players.get(player_pk)
    context = {
        "evening": evening,
        "session": session,
        "player": player,
        "seats": selectors.player_seats(session, player) if player is not None else None,
        "names": selectors.evening_display_names(evening.pk) if player is not None else {},
        "poll_seconds": SEAT_POLL_SECONDS,
    }
    if player is None:
        return render(request, "public/seat.html", context, status=404)
    template = "public/_seat.html" if _partial(request) else "public/seat.html"
    return render(request, template, context)
