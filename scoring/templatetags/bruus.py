"""Template filters and tags for Bruus Turnier."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

from bruus_tournament import __version__
from scoring.domain.ranking import one_decimal
from scoring.hall.origin import Origin, describe

register = template.Library()


def format_matchsticks(value: Fraction | float | int | None) -> str:
    """Matchsticks for display, the one way for pages, PDFs and exports: whole numbers as they
    are, sit-out averages with one decimal rounded half up (:func:`one_decimal`) in the active
    locale (57/4 -> ``14,3`` in German, ``14.3`` in English)."""
    if value is None:
        return ""
    if value == int(value):
        return str(int(value))
    return number_format(one_decimal(value), 1)


register.filter("matchsticks", format_matchsticks)


@register.filter
def shown(player, names) -> str:
    """The player's name as shown in the evening: ``names`` is
    :func:`scoring.selectors.evening_display_names` (the club is added where names collide)."""
    if player is None:
        return ""
    return (names or {}).get(player.pk, player.name)


@register.filter
def team_shown(team, names) -> str:
    """A partnership's players (two, or three in six-handed Bräus), or any sequence of players,
    each as :func:`shown`, joined by " & " (not escaped: use it with autoescape)."""
    if team is None:
        return ""
    return " & ".join(shown(p, names) for p in getattr(team, "players", team))


#: U+2011 NON-BREAKING HYPHEN: looks like "-", but a line never breaks after it.
NON_BREAKING_HYPHEN = "\u2011"


@register.filter(is_safe=True)
def nobreak(value) -> str:
    """``value`` (a str, e.g. a date as Swedish and ISO write it, "2026-11-27") with every hyphen a
    non-breaking one, so that a button or a narrow column never breaks it in two ("2026-" / "11-27")."""
    return str(value).replace("-", NON_BREAKING_HYPHEN)


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template, None when missing."""
    return mapping.get(key)


@register.filter
def origin(record) -> str:
    """Where a deal change or a drawn deal came from, in the reader's language (scoring.hall.origin)."""
    return describe(Origin.of(record))


@register.filter
def confirmed_origin(seating) -> str:
    """Where a seating's confirmation came from, in the reader's language (scoring.hall.origin);
    "" when it has none."""
    return describe(Origin.of(seating, "confirmed_")) if seating.confirmed_source else ""


@register.simple_tag
def app_version() -> str:
    """The program's version (``bruus_tournament.__version__``), e.g. ``0.9.0``: the page footer."""
    return __version__
