"""Template filters for Bruus Turnier."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

register = template.Library()


def format_matchsticks(value: Fraction | int | None) -> str:
    """Matchsticks for display: whole numbers as they are, sit-out averages with one decimal
    in the active locale (``6,2`` in German)."""
    if value is None:
        return ""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return number_format(round(float(value), 1), 1)


register.filter("matchsticks", format_matchsticks)


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template, None when missing."""
    return mapping.get(key)
