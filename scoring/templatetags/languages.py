"""The language an evening's rule set suggests, for the evening page (issue 29)."""

from __future__ import annotations

from django import template
from django.conf import settings

from scoring.domain.languages import suggested_language

register = template.Library()


@register.simple_tag
def other_suggested_language(evening) -> tuple[str, str] | None:
    """``(code, name)`` of the language ``evening``'s rule set suggests (Danish for Danish Brus,
    Swedish for Bräus, German for Schwesing and Treia) when the evening is in another one, else
    None (the name in the active language)."""
    languages = dict(settings.LANGUAGES)
    code = suggested_language(evening.rule_set, languages)
    return None if code == evening.language else (code, str(languages[code]))
