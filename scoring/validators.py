"""Validators of names and texts people read on screens and printouts."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from scoring.domain.errors import DomainError
from scoring.domain.names import hidden_character
from scoring.domain.tiebreaks import parse_chain


def validate_no_bidi_controls(value: str) -> None:
    """Refuse text with a character that changes the writing direction or any other invisible
    character (zero-width space, soft hyphen, ...): it can make a name display as another one;
    see :func:`scoring.domain.names.hidden_character`. (The name is older than the invisible
    characters; the migrations refer to it.)

    Raises:
        ValidationError: code ``"bidi_control"`` or ``"invisible_character"``, the message naming
            the code point.
    """
    found = hidden_character(value or "")
    if found is not None:
        message, code, character = found
        raise ValidationError(gettext(message) % {"character": character}, code=code)


def validate_tiebreak_chain(value: str) -> None:
    """Refuse a stored tie-break chain that names an unknown criterion or one twice
    (:func:`scoring.domain.tiebreaks.parse_chain`).

    Raises:
        ValidationError: with the translated message, code ``unknown_criterion`` or ``repeated_criterion``.
    """
    try:
        parse_chain(value)
    except DomainError as error:
        raise ValidationError(gettext(error.message), code=error.code) from None
