"""Check-in in a minute (issue 28, point 3): "alle anwesend" and "wie beim letzten Abend" with an
undo, the draw on the check-in page, and a word for a player who arrives after the draw."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring import services
from scoring.domain.errors import DomainError
from scoring.models import Evening, Player
from scoring.selectors import by_name
from scoring.selectors.check_in import drawn_player_ids, last_evening, late_arrivals, undoable_check_ins
from scoring.services.check_in import check_in_everyone, check_in_like_last_evening, undo_check_in
from scoring.views.access import helper_required
from scoring.views.common import evening_or_404
from scoring.web.messages import translate

#: The session key of the last bulk check-in: {"evening": pk, "ids": [player ids]}.
UNDO_KEY = "check_in_undo"


def _back(evening: Evening) -> HttpResponse:
    return redirect("organiser:evening_players", pk=evening.pk)


def _remember(request: HttpRequest, evening: Evening, ids: list[int]) -> None:
    if ids:
        request.session[UNDO_KEY] = {"evening": evening.pk, "ids": ids}
    else:
        request.session.pop(UNDO_KEY, None)


def _checked_in_message(count: int) -> str:
    return ngettext("%(n)s player checked in now.", "%(n)s players checked in now.", count) % {"n": count}


@helper_required
@require_POST
def check_in_all(request: HttpRequest, pk: int) -> HttpResponse:
    """Every player of the register present ("alle anwesend")."""
    evening = evening_or_404(pk)
    ids = check_in_everyone(evening_id=evening.pk)
    _remember(request, evening, ids)
    if ids:
        messages.success(request, _checked_in_message(len(ids)))
    else:
        messages.info(request, _("Every player of the register was checked in already."))
    return _back(evening)


@helper_required
@require_POST
def check_in_last(request: HttpRequest, pk: int) -> HttpResponse:
    """Everyone present at the last evening present now ("wie beim letzten Abend")."""
    evening = evening_or_404(pk)
    try:
        previous, ids = check_in_like_last_evening(evening_id=evening.pk)
    except DomainError as error:
        messages.error(request, translate(error))
        return _back(evening)
    _remember(request, evening, ids)
    source = _("as at %(evening)s (%(date)s)") % {
        "evening": previous.name,
        "date": date_format(previous.date, "SHORT_DATE_FORMAT"),
    }
    if ids:
        messages.success(request, f"{_checked_in_message(len(ids))} ({source})")
    else:
        messages.info(request, _("Everyone of that evening is checked in already (%(source)s).") % {"source": source})
    return _back(evening)


@helper_required
@require_POST
def check_in_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Check out again the players the last bulk check-in checked in."""
    evening = evening_or_404(pk)
    saved = request.session.pop(UNDO_KEY, None)
    if not saved or saved.get("evening") != evening.pk:
        messages.error(request, _("There is nothing to undo."))
        return _back(evening)
    going = undo_check_in(evening_id=evening.pk, player_ids=saved["ids"])
    kept = len(drawn_player_ids(evening) & set(saved["ids"]))
    text = ngettext("Undone: %(n)s player checked out.", "Undone: %(n)s players checked out.", len(going)) % {
        "n": len(going)
    }
    if kept:
        text += " " + ngettext(
            "%(n)s player stays checked in: already drawn into a session.",
            "%(n)s players stay checked in: already drawn into a session.",
            kept,
        ) % {"n": kept}
    messages.success(request, text)
    return _back(evening)


def late_arrival_note(request: HttpRequest, evening: Evening, player: Player) -> None:
    """After ``player`` is checked in: if a drawn session is under way without him, say so and how to
    seat him (swap or replace on the session page, linked), or that he plays from the next session."""
    late = late_arrivals(evening)
    if late is None or player.pk not in late.unseated:
        return
    url = reverse("organiser:session_detail", args=[evening.pk, late.session.number]) + "#changes"
    number = late.session.number
    if late.started:
        how = _(
            "Session %(number)s is under way without %(name)s. He or she can take over the seat of a player "
            "who has to leave:"
        ) % {"number": number, "name": player.name}
        link = _("Replace a player in session %(number)s") % {"number": number}
    else:
        how = _(
            "Session %(number)s is drawn without %(name)s. To seat him or her now, swap with a player "
            "(or draw the session again):"
        ) % {"number": number, "name": player.name}
        link = _("Swap in session %(number)s") % {"number": number}
    if late.next_session:
        after = _("Otherwise the draw of session %(number)s includes him or her.") % {"number": late.next_session}
    else:
        after = _("Session %(number)s is the evening's last.") % {"number": number}
    messages.warning(request, format_html('{} <a href="{}">{}</a>. {}', how, url, link, after))


def check_in_page_context(request: HttpRequest, evening: Evening, present: set[int]) -> dict:
    """What the check-in page adds for the bulk buttons, the undo and the draw (a few queries)."""
    saved = request.session.get(UNDO_KEY)
    undoable = bool(saved) and saved.get("evening") == evening.pk
    drawn = list(evening.sessions.order_by("number"))
    try:
        services.check_next_session_drawable(evening, drawn, present=len(present))
        can_draw = True
    except DomainError:
        can_draw = False
    late = late_arrivals(evening) if drawn else None
    unseated = by_name(Player.objects.filter(pk__in=late.unseated)) if late else []
    return {
        "last_evening": last_evening(evening),
        # Who the undo would really check out: not those checked out by hand since, nor the drawn.
        "undo_count": len(undoable_check_ins(evening, saved["ids"])) if undoable else 0,
        "can_draw": can_draw,
        "next_number": len(drawn) + 1,
        "late": late,
        "unseated": unseated,
    }
