"""Table links: the random token in a table's address (``/t/<token>/``), what a tablet opens with
its QR code instead of typing the short code (``scoring.hall.table_codes``).

24 random bytes (192 bits), written as URL-safe base64 without padding: 32 characters of
letters, digits, ``-`` and ``_``. The model's default is ``scoring.models.new_table_token``.
"""

from __future__ import annotations

import secrets
import string

#: Random bytes of a table link token (192 bits).
TOKEN_BYTES = 24
#: Its length written as URL-safe base64 without padding, as ``secrets.token_urlsafe`` writes it.
TOKEN_LENGTH = -(-TOKEN_BYTES * 4 // 3)
#: The characters of URL-safe base64 (RFC 4648, section 5).
TOKEN_ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")


def new_token() -> str:
    """A fresh table link token: :data:`TOKEN_BYTES` random bytes, URL-safe base64, 32 characters."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_table_token(value: object) -> bool:
    """Whether ``value`` is a token :func:`new_token` could have made (a restored backup holds
    nothing else: ``scoring.backup.contents``)."""
    return isinstance(value, str) and len(value) == TOKEN_LENGTH and set(value) <= TOKEN_ALPHABET
