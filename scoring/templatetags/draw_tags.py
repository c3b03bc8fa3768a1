"""Template filters for the draw pages."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext

register = template.Library()


@register.filter
def player_label(player, changes) -> str:
    """The player's name as shown in the evening (with the club when names collide,
    ``changes.names``), marked "(stand-in)" when their id is in ``changes.stand_ins`` (escaped).
    ``changes``: :class:`scoring.selectors.SessionChanges`, or just the set of stand-in ids."""
    if player is None:
        return ""
    name = getattr(changes, "names", {}).get(player.pk, player.name)
    if player.pk in (getattr(changes, "stand_ins", changes) or ()):
        return format_html('{} <small class="stand-in">{}</small>', name, gettext("(stand-in)"))
    return format_html("{}", name)


@register.filter
def team_label(team, changes) -> str:
    """A partnership's players (two, or three in six-handed Bräus), each as
    :func:`player_label`, joined by " & " (escaped)."""
    if team is None:
        return ""
    return format_html_join(" & ", "{}", ((player_label(p, changes),) for p in team.players))
