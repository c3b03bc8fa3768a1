"""Public screens of an evening, no login, read-only: the ranking for a projector or TV, and
"Where do I sit?" for the players' phones. Both update themselves (htmx polling)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from scoring import links, selectors, tiebreak_labels
from scoring.domain.names import initial
from scoring.models import Evening, Player
from scoring.parsing import ascii_int

RANKING_POLL_SECONDS = 10
SEAT_POLL_SECONDS = 15


def _partial(request: HttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


@require_safe
def ranking_screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The evening's ranking in large type for a projector; says only "announced at the end"
    while the organiser hides it. ``?top=N`` shows the first N places only."""
    evening = get_object_or_404(Evening, pk=pk)
    top = request.GET.get("top", "")
    rows = []
    notes: dict[int, str] = {}
    names: dict[int, str] = {}
    if not evening.ranking_hidden:
        rows = selectors.evening_ranking(evening)
        names = selectors.evening_display_names(evening.pk) if rows else {}
        notes = tiebreak_labels.tie_notes(rows, selectors.tiebreak_columns(evening, rows), names)
        limit = ascii_int(top, minimum=1)
        if limit is not None:
            rows = [row for row in rows if row.place <= limit]
    context = {
        "evening": evening,
        "rows": rows,
        "names": names,
        "notes": notes,
        "provisional_credit": any(r.provisional for r in rows),
        "hidden": evening.ranking_hidden,
        "complete": selectors.evening_is_confirmed(evening),
        "playing": selectors.playing_now(evening),
        "now": timezone.now(),
        "poll_seconds": RANKING_POLL_SECONDS,
        "query": request.GET.urlencode(),
        "finder_url": links.absolute_reverse(request, "public:seat_finder", evening.pk),
    }
    template = "public/_ranking_screen.html" if _partial(request) else "public/ranking_screen.html"
    return render(request, template, context)


@require_safe
def seat_finder(request: HttpRequest, pk: int) -> HttpResponse:
    """Every player of the current session A to Z as big buttons, with a search box."""
    evening = get_object_or_404(Evening, pk=pk)
    session = selectors.latest_session(evening)
    players = selectors.session_players(session) if session is not None else []
    query = request.GET.get("q", "").strip()[:100]
    if query:
        wanted = selectors.alphabetical(query)
        players = [p for p in players if wanted in selectors.alphabetical(p.name)]
    # In list order (by surname, DIN 5007-1), under the initial of the surname.
    letters: dict[str, list[Player]] = {}
    for player in players:
        letters.setdefault(initial(player.name), []).append(player)
    return render(
        request,
        "public/seat_finder.html",
        {"evening": evening, "session": session, "letters": list(letters.items()), "query": query},
    )


@require_safe
def seat(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """One player's table, partner and opponents in the round being played and the next one."""
    evening = get_object_or_404(Evening, pk=pk)
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
