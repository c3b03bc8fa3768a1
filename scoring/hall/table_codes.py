"""Short table codes: what a scorer types at ``/tablet/`` (with the table number) instead of the
32-character table link.

Six capital letters from an alphabet of 20 without look-alikes and without digits: no I and L
(1, l), no O and Q (0, D), no Y and Z (swapped on German and English keyboards). Shown in two
groups of three (``KAT WEN``). Typing is forgiving: lowercase, spaces, hyphens and dots are
accepted. 20**6 = 64,000,000 possible codes; the guessing limit is in ``scoring.hall.throttle``
(settings ``TABLE_CODE_*``); the arithmetic is on the help page.
"""

from __future__ import annotations

import secrets

ALPHABET = "ABCDEFGHJKMNPRSTUVWX"
LENGTH = 6
CODE_SPACE = len(ALPHABET) ** LENGTH


def new_table_code() -> str:
    """A fresh random code, e.g. ``"KATWEN"`` (cryptographically random)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def is_table_code(value: object) -> bool:
    """Whether ``value`` is a code as :func:`new_table_code` makes and the database stores it
    (six capitals of :data:`ALPHABET`; a restored backup holds nothing else)."""
    return isinstance(value, str) and len(value) == LENGTH and all(ch in ALPHABET for ch in value)


def normalise(typed: str) -> str | None:
    """The code as stored, or None if ``typed`` cannot be one (wrong length, letters outside the
    alphabet). Lowercase, spaces, hyphens and dots are forgiven: ``" kat-wen "`` -> ``"KATWEN"``."""
    cleaned = "".join(ch for ch in typed.upper() if ch not in " \t\r\n-.\u00a0")
    if len(cleaned) != LENGTH or any(ch not in ALPHABET for ch in cleaned):
        return None
    return cleaned


def display(code: str) -> str:
    """``"KATWEN"`` -> ``"KAT WEN"`` (two groups of three, easier to read and to type)."""
    return f"{code[:3]} {code[3:]}"
