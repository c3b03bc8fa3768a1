"""Show domain errors in the user's language."""

from __future__ import annotations

from django.utils.translation import gettext

from scoring.domain.errors import DomainError


def translate(error: DomainError) -> str:
    """The error's message translated into the active language, placeholders filled in."""
    text = gettext(error.message)
    return text % error.params if error.params else text
