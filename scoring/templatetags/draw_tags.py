"""Template filters for the draw pages."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

register = template.Library()


@register.filter
def player_label(player, stand_ins) -> str:
    """The player's name, marked "(stand-in)" when their id is in ``stand_ins`` (escaped)."""
    if player is None:
        return ""
    if stand_ins and player.pk in stand_ins:
        return format_html('{} <small class="stand-in">{}</small>', player.name, gettext("(stand-in)"))
    return format_html("{}", player.name)
