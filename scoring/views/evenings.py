"""Organiser pages of the evenings (login required): the list, a new evening, an evening's page and
its settings (language, tie-break chain, rule set). Views are thin: forms validate, services write,
selectors read."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.domain.tiebreaks import Criterion
from scoring.forms import EveningForm
from scoring.models import Evening, RuleSetChoice
from scoring.publishing.models import PublishMode
from scoring.publishing.status import evening_status, status_part
from scoring.views.access import helper_required, leader_required
from scoring.views.common import evening_or_404 as _evening
from scoring.views.tablets import table_links
from scoring.web import screen_cache, tiebreak_labels
from scoring.web.messages import translate


@helper_required
@require_safe
def evening_list(request: HttpRequest) -> HttpResponse:
    """The evenings, newest first; the archived ones only with ``?archiv=1`` (and then only they)."""
    archived = request.GET.get("archiv") == "1"
    evenings = (
        Evening.objects.filter(archived_at__isnull=not archived)
        .annotate(
            player_count=Count("participants", filter=Q(participants__checked_in=True), distinct=True),
            session_count=Count("sessions", distinct=True),
        )
        .order_by("-date", "-pk")  # newest first (a query with Count ignores Meta.ordering)
    )
    archived_count = None if archived else Evening.objects.filter(archived_at__isnull=False).count()
    return render(
        request,
        "organiser/evening_list.html",
        {"evenings": evenings, "archived": archived, "archived_count": archived_count},
    )


@leader_required
def evening_create(request: HttpRequest) -> HttpResponse:
    form = EveningForm(request.POST or None, initial={"date": timezone.localdate()})  # most are made that day
    if request.method == "POST" and form.is_valid():
        evening = services.create_evening(**form.cleaned_data)
        messages.success(request, _("Evening created. Now check in the players."))
        return redirect("organiser:evening_players", pk=evening.pk)
    return render(request, "organiser/evening_form.html", {"form": form})


@helper_required
@require_safe
@screen_cache.conditional(private=True, parts=status_part)  # the sender changes the "Online" line
def evening_detail(request: HttpRequest, screen: screen_cache.Screen) -> HttpResponse:
    evening = screen.evening
    sessions = screen_cache.computed(
        "progress", evening.pk, evening.version, lambda: selectors.evening_progress(evening)
    ).value
    drawn = list(evening.sessions.order_by("number"))
    return render(
        request,
        "organiser/evening_detail.html",
        {
            "evening": evening,
            "sessions": sessions,
            "can_draw": selectors.next_session_blocker(evening, drawn) is None,
            "next_number": len(sessions) + 1,
            "checked_in": selectors.checked_in_count(evening),
            "table_links": table_links(request, evening),
            "complete": selectors.evening_is_confirmed(evening),
            "tiebreaks": _tiebreak_slots(evening),
            "has_deals": selectors.evening_has_deals(evening),
            "rule_set_choices": RuleSetChoice.choices,
            "online": evening_status(evening),
            "publish_modes": PublishMode.choices,
        },
    )


def _tiebreak_slots(evening: Evening) -> dict:
    """The evening's chain for its settings card: one choice per position (the chosen value or "")
    and the criteria offered."""
    chain = [criterion.value for criterion in selectors.evening_chain(evening)]
    slots = [(n, chain[n - 1] if n <= len(chain) else "") for n in range(1, len(Criterion) + 1)]
    return {
        "slots": slots,
        "choices": tiebreak_labels.choices(evening.rules),
        "chain": [tiebreak_labels.label(c, evening.rules) for c in selectors.evening_chain(evening)],
    }


@leader_required
@require_POST
def evening_language(request: HttpRequest, pk: int) -> HttpResponse:
    """Change the language of the evening's printouts, public screens and tablets."""
    evening = _evening(pk)
    try:
        evening = services.set_evening_language(evening_id=evening.pk, language=request.POST.get("language", ""))
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(
            request,
            _("Printouts, public screens and tablets of this evening are now in %(language)s.")
            % {"language": evening.get_language_display()},
        )
    return redirect("organiser:evening_detail", pk=evening.pk)


@leader_required
@require_POST
def evening_tiebreaks(request: HttpRequest, pk: int) -> HttpResponse:
    """Set the evening's tie-break chain (first, second ... tie-break; "none" skipped)."""
    evening = _evening(pk)
    try:
        evening = services.set_evening_tiebreaks(evening_id=evening.pk, criteria=request.POST.getlist("tiebreak"))
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        chain = selectors.evening_chain(evening)
        if chain:
            messages.success(
                request,
                _("Equal totals are now separated by: %(chain)s.")
                % {"chain": ", ".join(tiebreak_labels.label(c, evening.rules) for c in chain)},
            )
        else:
            messages.success(request, _("Equal totals now share a place (no tie-breaks)."))
    return redirect(reverse("organiser:evening_detail", kwargs={"pk": evening.pk}) + "#tiebreaks")


@leader_required
@require_POST
def evening_rule_set(request: HttpRequest, pk: int) -> HttpResponse:
    """Change the evening's rule set (only while no deal is entered)."""
    evening = _evening(pk)
    try:
        evening = services.set_evening_rule_set(evening_id=evening.pk, rule_set=request.POST.get("rule_set", ""))
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(
            request, _("This evening is played by the rules of %(name)s.") % {"name": evening.get_rule_set_display()}
        )
    return redirect("organiser:evening_detail", pk=evening.pk)


@leader_required
@require_POST
def evening_rename(request: HttpRequest, pk: int) -> HttpResponse:
    """Give the evening a new name (Turnierleitung)."""
    evening = _evening(pk)
    try:
        evening = services.rename_evening(evening_id=evening.pk, name=request.POST.get("name", ""), user=request.user)
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(request, _("The evening is now called “%(name)s”.") % {"name": evening.name})
    return redirect(reverse("organiser:evening_detail", kwargs={"pk": evening.pk}) + "#housekeeping")


@leader_required
@require_POST
def evening_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """Archive the evening (``archived=1``) or bring it back from the archive (``archived=0``)."""
    evening = _evening(pk)
    archived = request.POST.get("archived") == "1"
    try:
        services.set_evening_archived(evening_id=evening.pk, archived=archived, user=request.user)
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        if archived:
            messages.success(
                request,
                _(
                    "“%(name)s” is archived: it is no longer in the list of evenings nor offered for a season. "
                    "Its results stay on the players' pages and in its season."
                )
                % {"name": evening.name},
            )
        else:
            messages.success(request, _("“%(name)s” is back in the list of evenings.") % {"name": evening.name})
    return redirect(reverse("organiser:evening_detail", kwargs={"pk": evening.pk}) + "#housekeeping")


def _version(value: str | None) -> int | None:
    """An evening's version sent back by a form (ASCII digits, up to 20), else None."""
    value = value or ""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 20 else None


@leader_required
def evening_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what deleting the evening takes away, and the button. POST: a backup is written to
    ``DATA_DIR/backups/``, then the evening is deleted (the form carries the version shown)."""
    evening = _evening(pk)
    if request.method == "POST":
        try:
            path = services.delete_evening(
                evening_id=evening.pk, user=request.user, seen_version=_version(request.POST.get("version"))
            )
        except DomainError as error:
            messages.error(request, translate(error))
        else:
            messages.success(
                request,
                _(
                    "“%(name)s” is deleted. A backup of it was written first: %(file)s (in the backups folder; "
                    "the backup page restores it)."
                )
                % {"name": evening.name, "file": path.name},
            )
            return redirect("organiser:evening_list")
    return render(
        request,
        "organiser/evening_delete.html",
        {"evening": evening, "contents": selectors.evening_contents(evening)},
    )
