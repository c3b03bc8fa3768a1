"""The language an evening's rule set suggests, for the evening page."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.utils.translation import get_language

from scoring.domain.languages import suggested_language

register = template.Library()


@register.simple_tag
def other_suggested_language(evening) -> tuple[str, str] | None:
    """``(code, name)`` of the language ``evening``'s rule set suggests (Danish for Danish Brus,
    Swedish for Bräus, German for Schwesing and Treia) when the evening is in another one, else
    None (the name in the active language)."""
    languages = dict(settings.LANGUAGES)
    code = suggested_language(evening.rule_set, languages)
    return None if code == evening.language else (code, language_name(code))


#: Languages that write the names of languages in small letters within a sentence ("Brug tysk").
SMALL_LANGUAGE_NAMES = frozenset({"da", "sv"})


def language_name(code: str) -> str:
    """The name of the language ``code`` (of ``settings.LANGUAGES``) for use within a sentence in
    the active language: "German", "Deutsch", but "tysk" in Danish and "tyska" in Swedish."""
    name = str(dict(settings.LANGUAGES)[code])
    return name.lower() if (get_language() or "").split("-")[0] in SMALL_LANGUAGE_NAMES else name
