"""The organiser's side of publishing (docs/publishing.md): the evening's mode and "Erneut senden"
(the card "Online" of the evening's page), a player's online name (the player's page), and the
Turnierleitung's page "Online" (the address, the key, the club default, every evening's status)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.domain.errors import DomainError
from scoring.models import Player
from scoring.publishing import privacy, queue
from scoring.publishing import services as publishing
from scoring.publishing.models import EveningPublishing, OnlineName, PlayerPublishing, PublishMode
from scoring.publishing.status import evening_status
from scoring.publishing.transport import address_problem
from scoring.views.access import leader_required
from scoring.views.common import evening_or_404
from scoring.web.messages import translate


def _to_card(pk: int) -> HttpResponse:
    return redirect(reverse("organiser:evening_detail", kwargs={"pk": pk}) + "#online")


@leader_required
@require_POST
def evening_publish_mode(request: HttpRequest, pk: int) -> HttpResponse:
    """Set when the evening goes online (live, at the end, not online)."""
    evening = evening_or_404(pk)
    try:
        row = publishing.set_publish_mode(evening_id=evening.pk, mode=request.POST.get("mode", ""))
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(request, _("Online: %(mode)s.") % {"mode": row.get_mode_display()})
    return _to_card(evening.pk)


@leader_required
@require_POST
def evening_send_again(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Erneut senden": the evening's newest state goes to the results site on the next attempt."""
    evening = evening_or_404(pk)
    try:
        publishing.send_again(evening_id=evening.pk)
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(request, _("The evening will be sent to the results site again in a few seconds."))
    return _to_card(evening.pk)


def name_choices(player: Player, own: str, club_default: str) -> list[tuple[str, str, str, bool]]:
    """The online name choices of a player for the buttons: (value, label, what shows online,
    chosen)."""
    shown = {
        OnlineName.FULL: player.name,
        OnlineName.INITIALS: privacy.initials(player.name),
        OnlineName.HIDDEN: _("nothing: no name, no page"),
    }
    default = OnlineName(club_default)
    return [
        (str(OnlineName.DEFAULT), f"{OnlineName.DEFAULT.label}: {default.label}", shown[default], own == "default"),
        *((str(choice), str(choice.label), shown[choice], own == choice) for choice in shown),
    ]


def online_name_context(player: Player) -> dict:
    """The context of the card "Name online" of a player's page (2 queries)."""
    own = PlayerPublishing.objects.filter(player=player).values_list("online_name", flat=True).first()
    return {"name_choices": name_choices(player, own or OnlineName.DEFAULT, queue.club_default())}


@leader_required
@require_POST
def player_online_name(request: HttpRequest, player_pk: int) -> HttpResponse:
    """Set how the player's name goes online; "not online" takes the player's page down."""
    player = get_object_or_404(Player, pk=player_pk)
    try:
        row = publishing.set_online_name(player_id=player.pk, choice=request.POST.get("online_name", ""))
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        if row.online_name == OnlineName.HIDDEN:
            messages.success(
                request, _("%(name)s is not online: the name and the page are taken down.") % {"name": player.name}
            )
        else:
            messages.success(request, _("Name online: %(choice)s.") % {"choice": row.get_online_name_display()})
    return redirect(reverse("organiser:player_detail", kwargs={"player_pk": player.pk}) + "#online")


@leader_required
def online(request: HttpRequest) -> HttpResponse:
    """The Turnierleitung's page "Online": where the hall publishes, the club default of the online
    names (POST: set it), and every evening that has a mode with its status (3 queries)."""
    if request.method == "POST":
        try:
            publishing.set_club_default(choice=request.POST.get("club_default", ""))
        except DomainError as error:
            messages.error(request, translate(error))
        else:
            messages.success(request, _("The club default for names online is saved."))
        return redirect("organiser:online")
    rows = EveningPublishing.objects.select_related("evening").order_by("-evening__date", "-evening_id")
    evenings = [(row.evening, evening_status(row.evening, row)) for row in rows]
    default = OnlineName(queue.club_default())
    return render(
        request,
        "organiser/online.html",
        {
            "url": settings.PUBLISH_URL,
            "key_set": bool(settings.PUBLISH_KEY),
            "problem": address_problem(settings.PUBLISH_URL, settings.PUBLISH_ALLOW_HTTP)
            if settings.PUBLISH_URL
            else "",
            "club_default": default,
            "defaults": [c for c in OnlineName if c != OnlineName.DEFAULT],
            "evenings": evenings,
            "modes": PublishMode,
            "own_choices": PlayerPublishing.objects.exclude(online_name=OnlineName.DEFAULT).count(),
        },
    )
