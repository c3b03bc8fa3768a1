"""Validators of names and texts people read on screens and printouts."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from scoring.domain.errors import DomainError
from scoring.domain.player_import import BIDI_CONTROL_MESSAGE, find_bidi_control
from scoring.domain.tiebreaks import parse_chain


def validate_no_bidi_controls(value: str) -> None:
    """Refuse text with a character that changes the writing direction (it can make a name
    display as another one); see :data:`scoring.domain.player_import.BIDI_CONTROLS`.

    Raises:
        ValidationError: code ``"bidi_control"``, the message naming the code point.
    """
    char = find_bidi_control(value or "")
    if char is not None:
        raise ValidationError(gettext(BIDI_CONTROL_MESSAGE) % {"character": f"{ord(char):04X}"}, code="bidi_control")


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
