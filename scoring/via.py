"""Who or where a change came from, shown in the reader's language.

Each deal change and each confirmation keeps a short text such as "Tisch 3 (Tisch-Link)",
"Turnierleitung Anna Jensen" or "Helfer kasse" (``DealChange.via``, ``Seating.confirmed_via``),
written in the language of the page that made it (the evening's language at the tablets); an
organiser page writes it with :func:`organiser_via`, naming the role the login has.
:func:`show_via` recognises those texts in every language of ``settings.LANGUAGES`` and gives them
in the active language, so an organiser reading in English sees "Table 3 (table link)". Any other
text is shown as it is.
"""

from __future__ import annotations

import re
from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from scoring.roles import RUN_PERM

#: The texts the views write (msgids, as in scoring/views/scorer.py and :func:`organiser_via`);
#: the longer forms first, so that "... for team A" is not read as a user name.
FORMS = (
    gettext_noop("Table %(number)s (table link), team %(team)s"),
    gettext_noop("Table %(number)s (table link)"),
    gettext_noop("Organiser %(user)s for team %(team)s"),
    gettext_noop("Helper %(user)s for team %(team)s"),
    gettext_noop("Organiser %(user)s"),
    gettext_noop("Helper %(user)s"),
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


def organiser_via(user, team: str = "") -> str:
    """The "via" of a change made on an organiser page, in the active language: the login's role
    ("Turnierleitung" with the permission to run the evening, else "Helfer") and its full name,
    or its user name when it has none; with ``team`` when confirming on a team's behalf.

    The role is read from the login's permissions (already read for the page: no query).
    """
    name = user.get_full_name().strip() or user.get_username()
    leader = user.has_perm(RUN_PERM)
    if team and leader:
        text = gettext("Organiser %(user)s for team %(team)s")
    elif team:
        text = gettext("Helper %(user)s for team %(team)s")
    elif leader:
        text = gettext("Organiser %(user)s")
    else:
        text = gettext("Helper %(user)s")
    return text % {"user": name, "team": team}
