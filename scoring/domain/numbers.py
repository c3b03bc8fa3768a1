"""Whole numbers from outside: ASCII digits only.

``str.isdigit`` is true for superscripts and other Unicode digits ("²", "٣") that ``int`` refuses
or reads differently; every number taken from a query string or a form outside a Django form, and
every id a service is handed, goes through :func:`ascii_int`. Pure Python, so that the views, the
forms and the services share it without the services importing the web layer.
"""

from __future__ import annotations

import re
from typing import overload

_ASCII_DIGITS = re.compile(r"[0-9]{1,9}")


@overload
def ascii_int(value: object, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int: ...
@overload
def ascii_int(
    value: object, default: None = None, *, minimum: int | None = None, maximum: int | None = None
) -> int | None: ...
def ascii_int(
    value: object, default: int | None = None, *, minimum: int | None = None, maximum: int | None = None
) -> int | None:
    """``value`` as a non-negative int if it is 1-9 ASCII digits within [minimum, maximum],
    else ``default``.

    >>> ascii_int("12"), ascii_int("²"), ascii_int("-1"), ascii_int("5", maximum=4, default=0)
    (12, None, None, 0)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and _ASCII_DIGITS.fullmatch(value.strip()):
        number = int(value.strip())
    else:
        return default
    if number < 0 or (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        return default
    return number
