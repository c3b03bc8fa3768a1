"""Who or where a change came from, shown in the reader's language.

Each deal change and each confirmation keeps a short text such as "Tisch 3 (Tisch-Link)" or
"Turnierleitung anna" (``DealChange.via``, ``Seating.confirmed_via``), written in the language of
the page that made it (the evening's language at the tablets). :func:`show_via` recognises those
texts in every language of ``settings.LANGUAGES`` and gives them in the active language, so an
organiser reading in English sees "Table 3 (table link)". Any other text is shown as it is.
"""

from __future__ import annotations

import re
from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

#: The texts the views write (msgids, as in scoring/views/scorer.py, organiser.py and live.py);
#: the longer forms first, so that "... for team A" is not read as a user name.
FORMS = (
    gettext_noop("Table %(number)s (table link), team %(team)s"),
    gettext_noop("Table %(number)s (table link)"),
    gettext_noop("Organiser %(user)s for team %(team)s"),
    gettext_noop("Organiser %(user)s"),
)
_PLACEHOLDER = re.compile(r"%\\\((\w+)\\\)s")


def _pattern(text: str) -> re.Pattern:
    return re.compile("^" + _PLACEHOLDER.sub(r"(?P<\1>.+?)", re.escape(text)) + "$", re.DOTALL)


@cache
def _patterns() -> tuple[tuple[str, re.Pattern], ...]:
    found = []
    for form in FORMS:
        written = {form}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                written.add(gettext(form))
        found += [(form, _pattern(text)) for text in sorted(written)]
    return tuple(found)


def show_via(text: str) -> str:
    """``text`` (a stored "via") in the active language; unknown texts unchanged."""
    for form, pattern in _patterns():
        match = pattern.match(text or "")
        if match:
            return gettext(form) % match.groupdict()
    return text
