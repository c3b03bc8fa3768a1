"""Errors raised by the pure domain modules, carrying a translatable message.

The domain has no Django import, so it cannot translate. Each error carries the English msgid
(``message``, with ``%(name)s`` placeholders) and the values for them (``params``). The Django
layer calls ``gettext(error.message) % error.params`` to show it in the user's language;
``str(error)`` gives the English text for logs and tests.
"""

from __future__ import annotations

from typing import Any


def gettext_noop(message: str) -> str:
    """Mark ``message`` for extraction by ``makemessages`` without translating it.

    Returns ``message`` unchanged. Django's ``makemessages`` knows the keyword
    ``gettext_noop``, so strings wrapped in it land in ``locale/*/django.po``.
    """
    return message


class DomainError(ValueError):
    """Base class of every error the domain raises for bad input.

    Attributes:
        message: English msgid, possibly with ``%(name)s`` placeholders.
        params: values for the placeholders.
        code: short machine-readable reason, for tests and callers.
    """

    def __init__(self, message: str, code: str = "invalid", **params: Any) -> None:
        self.message = message
        self.code = code
        self.params = params
        super().__init__(message % params if params else message)
