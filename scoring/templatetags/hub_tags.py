"""Template tags of the results site's pages (templates/hub/)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template
from django.conf import settings
from django.urls import translate_url

from scoring.templatetags.bruus import format_matchsticks

register = template.Library()


@register.simple_tag(takes_context=True)
def hub_languages(context) -> list[tuple[str, str, bool]]:
    """This page in each language: ``(code, address, current)``; the language is in the address
    (``/en/…``), so every address is one page for everybody (``scoring.hub.middleware``)."""
    request = context["request"]
    current = getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE)
    return [(code, translate_url(request.path, code), code == current) for code, _ in settings.LANGUAGES]


@register.filter
def sticks(value: str | Decimal | int | None) -> str:
    """Matchsticks as the hall shows them (``scoring.templatetags.bruus.format_matchsticks``:
    ``54``, ``54,6`` in German), from a snapshot's text (``"54.6"``) or a number."""
    if value is None or value == "":
        return ""
    try:
        return format_matchsticks(Fraction(Decimal(str(value))))
    except ArithmeticError:
        return str(value)
