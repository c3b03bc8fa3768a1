"""Organiser pages about the draw (login required): drawing a session and its table list, the
wishes for it (stand-ins, "not together", mix clubs), changes to a drawn session (draw again, swap,
replace a player who leaves) and the fairness report. Views are thin: services write, selectors
read."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.domain.numbers import ascii_int
from scoring.models import Evening, Player, Session
from scoring.tables import FairnessTable, fairness_rows
from scoring.transfer.exports import EXPORT_FORMATS, export_response
from scoring.transfer.filenames import download_name
from scoring.views.access import helper_required, leader_required
from scoring.views.common import evening_or_404 as _evening
from scoring.web.messages import translate


def _session(evening: Evening, number: int) -> Session:
    return get_object_or_404(Session, evening=evening, number=number)


def _to_players(evening: Evening) -> HttpResponse:
    return redirect(reverse("organiser:evening_players", kwargs={"pk": evening.pk}) + "#wishes")


def _to_session(evening: Evening, number: int) -> HttpResponse:
    return redirect(reverse("organiser:session_detail", kwargs={"pk": evening.pk, "number": number}) + "#changes")


# --- Wishes on the check-in page --------------------------------------------------------------


@leader_required
@require_POST
def stand_in(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Mark a player as stand-in (plays, not ranked) or as ranked player again."""
    evening = _evening(pk)
    player = get_object_or_404(Player, pk=player_pk)
    services.set_stand_in(evening=evening, player=player, stand_in=request.POST.get("stand_in") == "1")
    return redirect(reverse("organiser:evening_players", kwargs={"pk": evening.pk}) + f"#p{player.pk}")


@leader_required
@require_POST
def mix_clubs(request: HttpRequest, pk: int) -> HttpResponse:
    evening = _evening(pk)
    mix = request.POST.get("mix") == "1"
    services.set_mix_clubs(evening_id=evening.pk, mix=mix)
    if mix:
        messages.success(request, _("The next draws mix clubs."))
    else:
        messages.success(request, _("The next draws no longer look at clubs."))
    return _to_players(evening)


@leader_required
@require_POST
def exclusion_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a wish "not together": two players who must never be partners this evening."""
    evening = _evening(pk)
    try:
        wish, created = services.add_partner_exclusion(
            evening=evening, player_a_id=request.POST.get("player_a"), player_b_id=request.POST.get("player_b")
        )
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        names = {"first": wish.player_a.name, "second": wish.player_b.name}
        if created:
            messages.success(request, _("%(first)s and %(second)s will not be drawn as partners.") % names)
        else:
            messages.info(request, _('%(first)s and %(second)s are already marked "not together".') % names)
    return _to_players(evening)


@leader_required
@require_POST
def exclusion_remove(request: HttpRequest, pk: int, exclusion_pk: int) -> HttpResponse:
    evening = _evening(pk)
    services.remove_partner_exclusion(evening=evening, exclusion_id=exclusion_pk)
    messages.success(request, _("Wish removed."))
    return _to_players(evening)


# --- Changes to a drawn session -----------------------------------------------------------------


@leader_required
@require_POST
def session_redraw(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Draw a session again (new seed), only before any deal of it is entered; needs the
    confirmation box ticked."""
    evening = _evening(pk)
    session = _session(evening, number)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Please tick the box to confirm that the session is drawn again."))
        return _to_session(evening, number)
    try:
        session = services.redraw_session(session_id=session.pk, user=request.user)
    except DomainError as error:
        messages.error(request, translate(error))
        return _to_session(evening, number)
    messages.success(
        request,
        _("Session %(number)s drawn again (random seed %(seed)s). Print the new table list.")
        % {"number": session.number, "seed": session.seed},
    )
    return redirect("organiser:session_detail", pk=evening.pk, number=number)


@leader_required
@require_POST
def session_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Swap two players for the whole session, only before any deal of it is entered."""
    evening = _evening(pk)
    session = _session(evening, number)
    try:
        outcome = services.swap_players(
            session_id=session.pk,
            player_a_id=request.POST.get("player_a"),
            player_b_id=request.POST.get("player_b"),
            user=request.user,
        )
    except DomainError as error:
        messages.error(request, translate(error))
        return _to_session(evening, number)
    messages.success(request, _("Players swapped. Print the new table list."))
    for first, second in outcome.repeated_partners:
        messages.warning(
            request,
            _("%(first)s and %(second)s were partners in an earlier session already.")
            % {"first": first, "second": second},
        )
    return _to_session(evening, number)


@leader_required
@require_POST
def session_replace(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A player leaves during the session: another takes over for the remaining rounds."""
    evening = _evening(pk)
    session = _session(evening, number)
    try:
        change = services.replace_player(
            session_id=session.pk,
            leaving_id=request.POST.get("leaving"),
            replacement_id=request.POST.get("replacement"),
            user=request.user,
        )
    except DomainError as error:
        messages.error(request, translate(error))
        return _to_session(evening, number)
    messages.success(
        request,
        _(
            "%(replacement)s plays for %(leaving)s from round %(round)s on. The rounds before stay "
            "with %(leaving)s; %(leaving)s is checked out."
        )
        % {"replacement": change.replacement.name, "leaving": change.leaving.name, "round": change.from_round},
    )
    return _to_session(evening, number)


# --- Fairness report ------------------------------------------------------------------------------


@helper_required
def fairness(request: HttpRequest, pk: int) -> HttpResponse:
    """Partners, opponents, repeated opponents and sit-outs per player; the evening's repeats
    against the lower bound, and why (page, CSV and XLSX)."""
    evening = _evening(pk)
    report = selectors.evening_fairness(evening)
    table = FairnessTable(fairness_rows(report.rows))
    RequestConfig(request, paginate=False).configure(table)
    export_format = request.GET.get("_export")
    if export_format in EXPORT_FORMATS:
        name = download_name(_("Fairness of the draw"), evening.name, evening.date)
        return export_response(table, export_format, name, title=_("Fairness of the draw"))
    reasons = [_(reason.message) % reason.params if reason.params else _(reason.message) for reason in report.reasons]
    return render(
        request,
        "organiser/fairness.html",
        {"evening": evening, "report": report, "table": table, "reasons": reasons},
    )


@leader_required
@require_POST
def session_draw(request: HttpRequest, pk: int) -> HttpResponse:
    evening = _evening(pk)
    try:
        session = services.draw_session(
            evening=evening, user=request.user, number=ascii_int(request.POST.get("number"))
        )
    except DomainError as error:
        messages.error(request, translate(error))
        return redirect("organiser:evening_detail", pk=evening.pk)
    messages.success(
        request,
        _("Session %(number)s drawn (random seed %(seed)s).") % {"number": session.number, "seed": session.seed},
    )
    return redirect("organiser:session_detail", pk=evening.pk, number=session.number)


@helper_required
def session_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The table list of one session: every round, every table, who sits out."""
    evening = _evening(pk)
    sessions = selectors.sessions_with_rounds(evening)
    session = next((s for s in sessions if s.number == number), None)
    if session is None:
        messages.error(request, _("Session %(number)s has not been drawn yet.") % {"number": number})
        return redirect("organiser:evening_detail", pk=evening.pk)
    return render(
        request,
        "organiser/session_detail.html",
        {"evening": evening, "session": session, "changes": selectors.session_changes(session)},
    )
