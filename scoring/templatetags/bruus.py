"""Template filters for Bruus Turnier."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

from scoring.via import show_via

register = template.Library()


def format_matchsticks(value: Fraction | float | int | None) -> str:
    """Matchsticks for display: whole numbers as they are, sit-out averages with one decimal
    in the active locale (``6,2`` in German)."""
    if value is None:
        return ""
    if value == int(value):
        return str(int(value))
    return number_format(round(float(value), 1), 1)


register.filter("matchsticks", format_matchsticks)


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template, None when missing."""
    return mapping.get(key)


@register.filter
def via(text: str) -> str:
    """Where a change or confirmation came from, in the reader's language (scoring/via.py)."""
    return show_via(text)
