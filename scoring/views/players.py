"""Organiser pages of the register across evenings: a player's page (every evening, places, a
chart) and merging two entries of the same person (issue 13 items 3 and 4)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring import charts, selectors, services
from scoring.domain.errors import DomainError
from scoring.messages import translate
from scoring.models import Player
from scoring.parsing import ascii_int
from scoring.views.access import helper_required, leader_required


def player_history_context(player: Player, evenings=None) -> dict:
    """What ``templates/includes/player_history.html`` shows: the history and its chart. A public
    variant (a season's page) passes the season's ``evenings``."""
    history = selectors.player_history(player, evenings)
    chart = charts.place_chart(
        [
            (
                date_format(e.evening.date, "SHORT_DATE_FORMAT"),
                e.place,
                e.ranked,
                _("%(evening)s: place %(place)s of %(count)s")
                % {"evening": e.evening.name, "place": e.place, "count": e.ranked},
            )
            for e in history.evenings
            if e.place is not None
        ]
    )
    return {"history": history, "chart": chart}


@helper_required
def player_detail(request: HttpRequest, player_pk: int) -> HttpResponse:
    """A register player's evenings: place and total per evening, average per session, partners,
    daring and striking, best evening, places as a chart."""
    player = get_object_or_404(Player, pk=player_pk)
    return render(request, "organiser/player_detail.html", {"player": player, **player_history_context(player)})


@leader_required
def player_merge(request: HttpRequest) -> HttpResponse:
    """Merge two register entries of the same person: choose them, see what moves, merge.

    GET ``?keep=<id>&remove=<id>`` shows the preview; POST merges (one transaction) and goes to
    the kept player's page. A refusal (the same entry twice, both in one evening) is shown on this
    page and nothing changes.
    """
    data = request.POST if request.method == "POST" else request.GET
    keep_id, remove_id = ascii_int(data.get("keep")), ascii_int(data.get("remove"))
    preview = None
    if request.method == "POST":
        try:
            moved = services.merge_players(keep_id=keep_id, remove_id=remove_id)
        except DomainError as error:
            messages.error(request, translate(error))
        else:
            messages.success(
                request,
                _("%(remove)s was merged into %(keep)s: %(evenings)s evenings and %(deals)s deals moved.")
                % {
                    "remove": moved.remove.name,
                    "keep": moved.keep.name,
                    "evenings": len(moved.evenings),
                    "deals": moved.deals,
                },
            )
            return redirect("organiser:player_detail", player_pk=moved.keep.pk)
    if keep_id is not None or remove_id is not None:
        try:
            preview = services.merge_preview(keep_id=keep_id, remove_id=remove_id)
        except DomainError as error:
            if request.method == "GET":
                messages.error(request, translate(error))
    return render(
        request,
        "organiser/player_merge.html",
        {
            "players": selectors.search_players(),
            "keep_id": keep_id,
            "remove_id": remove_id,
            "preview": preview,
        },
    )
