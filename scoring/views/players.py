"""Organiser pages of the players (login required): the register (list, edit, import from Excel or
CSV), an evening's check-in, a player's page across evenings (places, a chart) and merging two
entries of the same person."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.domain.numbers import ascii_int
from scoring.domain.player_import import ParsedPlayer, PlayerFileError
from scoring.forms import ImportForm, PlayerForm
from scoring.models import Evening, Participant, Player
from scoring.selectors.duplicates import register_duplicates
from scoring.transfer.player_files import parse_player_file
from scoring.views import check_in as check_in_views
from scoring.views.access import helper_required, leader_required
from scoring.views.common import evening_or_404 as _evening
from scoring.views.publishing import online_name_context
from scoring.web import charts
from scoring.web.messages import translate


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
    context = {"player": player, **player_history_context(player), **online_name_context(player)}
    return render(request, "organiser/player_detail.html", context)


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
            preview = selectors.merge_preview(keep_id=keep_id, remove_id=remove_id)
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


IMPORT_SESSION_KEY = "player_import"


@helper_required
def evening_players(request: HttpRequest, pk: int) -> HttpResponse:
    """Check-in: every player of the register, with a button to check in or out."""
    evening = _evening(pk)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and (added := _add_player(form)):
        player, created = added
        services.set_checked_in(evening=evening, player=player, checked_in=True)
        if request.POST.get("stand_in") == "1":
            services.set_stand_in(evening=evening, player=player, stand_in=True)
        if created:
            messages.success(request, _("%(name)s added and checked in.") % {"name": player.name})
        else:
            messages.info(
                request,
                _("%(name)s was already in the register and is now checked in.") % {"name": player.name},
            )
        check_in_views.late_arrival_note(request, evening, player)
        return redirect("organiser:evening_players", pk=evening.pk)
    present = set(Participant.objects.filter(evening=evening, checked_in=True).values_list("player_id", flat=True))
    query = request.GET.get("q", "").strip()
    players = selectors.search_players(query)
    return render(
        request,
        "organiser/evening_players.html",
        {
            "evening": evening,
            "players": players,
            "present": present,
            "form": form,
            "count": len(present),
            "query": query,
            "wishes": selectors.draw_wishes(evening),
            **check_in_views.check_in_page_context(request, evening, present),
        },
    )


@helper_required
@require_POST
def check_in(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    evening = _evening(pk)
    player = get_object_or_404(Player, pk=player_pk)
    try:
        services.set_checked_in(evening=evening, player=player, checked_in=request.POST.get("present") == "1")
    except DomainError as error:
        messages.error(request, translate(error))
    if request.POST.get("present") == "1":
        check_in_views.late_arrival_note(request, evening, player)
    url = reverse("organiser:evening_players", kwargs={"pk": evening.pk})
    if request.POST.get("q"):
        url += "?" + urlencode({"q": request.POST["q"]})
    return redirect(f"{url}#p{player.pk}")


@helper_required
def player_import(request: HttpRequest) -> HttpResponse:
    """Upload a spreadsheet, see a preview with the bad rows, then import (or cancel)."""
    evening = None
    evening_pk = ascii_int(request.GET.get("evening") or request.POST.get("evening"))
    if evening_pk is not None:
        evening = Evening.objects.filter(pk=evening_pk).first()
    form = ImportForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.pop(IMPORT_SESSION_KEY, None)
        if not stored:
            messages.error(request, _("The preview has expired. Please upload the file again."))
            return redirect(request.get_full_path())
        rows = [ParsedPlayer(**row) for row in stored]
        outcome = services.import_players(rows, check_in_to=evening)
        messages.success(
            request,
            _("%(created)s players added, %(existing)s were already in the register.")
            % {"created": outcome.created, "existing": outcome.existing},
        )
        if evening:
            return redirect("organiser:evening_players", pk=evening.pk)
        return redirect("organiser:player_list")
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            parsed = parse_player_file(upload.read(), upload.name)
        except PlayerFileError as error:
            form.add_error("file", translate(error))
        else:
            preview = selectors.import_preview(parsed)
            request.session[IMPORT_SESSION_KEY] = [
                {"line": p.line, "name": p.name, "club": p.club} for p in parsed.players
            ]
    return render(request, "organiser/player_import.html", {"form": form, "preview": preview, "evening": evening})


def _add_player(form: PlayerForm) -> tuple[Player, bool] | None:
    """(player, created) for a valid form: added to the register, or found there with the same
    name and club. None when the form is invalid or the service refuses (the error is on the form)."""
    if not form.is_valid():
        return None
    try:
        return services.add_player(**form.cleaned_data)
    except DomainError as error:
        form.add_error(None, translate(error))
        return None


@helper_required
def player_list(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and (added := _add_player(form)):
        player, created = added
        if created:
            messages.success(request, _("%(name)s added.") % {"name": player.name})
        else:
            messages.info(request, _("%(name)s is already in the register.") % {"name": player.name})
        return redirect("organiser:player_list")
    query = request.GET.get("q", "").strip()
    players = selectors.search_players(query)
    return render(
        request,
        "organiser/player_list.html",
        {"players": players, "form": form, "query": query, "duplicates": register_duplicates()},
    )


@helper_required
def player_edit(request: HttpRequest, player_pk: int) -> HttpResponse:
    """Correct a player's name or club in the register."""
    player = get_object_or_404(Player, pk=player_pk)
    form = PlayerForm(request.POST or None, initial={"name": player.name, "club": player.club})
    if request.method == "POST" and form.is_valid():
        try:
            services.update_player(player_id=player.pk, **form.cleaned_data)
        except DomainError as error:
            form.add_error(None, translate(error))
        else:
            messages.success(request, _("%(name)s saved.") % {"name": form.cleaned_data["name"]})
            return redirect("organiser:player_list")
    return render(request, "organiser/player_edit.html", {"player": player, "form": form})
