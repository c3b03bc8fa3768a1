"""Where a change came from, kept as data and shown in the reader's language.

Each deal change (:class:`~scoring.models.DealChange`), each drawn deal
(:class:`~scoring.models.DrawnDeal`) and each confirmation (:class:`~scoring.models.Seating`,
fields with the prefix ``confirmed_``) keeps its origin in fields: the source (table link,
organiser page, demo, other), the table's number, the team (A/B/C or empty), the role the login
had at the time (it can change later) and the name it had (full name, else user name: the login
may be deleted, or unknown where a backup is restored). The login itself stays in the record's
user field (``changed_by``, ``recorded_by``, ``confirmed_by``) and the device in ``client``.

Services are given an :class:`Origin`; pages show one with :func:`describe` (template filter
``origin``), in the active language: nothing is parsed back.

:func:`origin_from_text` reads the sentences earlier versions stored instead ("Tisch 3
(Tisch-Link)", "Turnierleitung Anna Jensen", in German and English): used only by the restore
of older backups (migration 0018 keeps a frozen copy of its own). It must keep reading the same
texts.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from django.db import models
from django.utils.translation import gettext, gettext_noop, pgettext
from django.utils.translation import gettext_lazy as _

from scoring.hall.roles import RUN_PERM


class Source(models.TextChoices):
    TABLE = "table", _("table link")
    ORGANISER = "organiser", _("organiser page")
    DEMO = "demo", _("demo")
    # A text no form of :func:`origin_from_text` matches (older data, test set-ups): ``name`` holds it.
    OTHER = "other", _("other")


class OriginRole(models.TextChoices):
    LEADER = "leader", _("organiser")
    HELPER = "helper", _("helper")


#: The fields an origin takes on a record, after the record's prefix ("" or "confirmed_").
FIELDS = ("source", "table_number", "team", "role", "name")


@dataclass(frozen=True)
class Origin:
    """Where a change came from. ``table`` is the table's number; ``team`` "A", "B", "C" or "";
    ``role`` an :class:`OriginRole` or ""; ``name`` the login's name at the time (for
    ``Source.OTHER``: the text)."""

    source: str
    table: int | None = None
    team: str = ""
    role: str = ""
    name: str = ""

    @classmethod
    def table_link(cls, number: int, team: str = "") -> Origin:
        return cls(Source.TABLE, table=number, team=team)

    @classmethod
    def organiser(cls, user, team: str = "") -> Origin:
        """A change on an organiser page: the login's role ("leader" with the permission to run
        the evening, else "helper"; read from permissions already read for the page: no query)
        and its full name, or its user name when it has none."""
        name = user.get_full_name().strip() or user.get_username()
        role = OriginRole.LEADER if user.has_perm(RUN_PERM) else OriginRole.HELPER
        return cls(Source.ORGANISER, team=team, role=role, name=name[:150])

    @classmethod
    def demo(cls) -> Origin:
        return cls(Source.DEMO)

    @classmethod
    def other(cls, text: str) -> Origin:
        return cls(Source.OTHER, name=text[:150])

    def fields(self, prefix: str = "") -> dict[str, Any]:
        """The model fields of this origin, for a record whose fields have ``prefix``."""
        values = asdict(self)
        values["table_number"] = values.pop("table")
        return {prefix + name: values[name] for name in FIELDS}

    @classmethod
    def of(cls, record, prefix: str = "") -> Origin:
        """The origin stored on ``record`` (no query)."""
        values = {name: getattr(record, prefix + name) for name in FIELDS}
        values["table"] = values.pop("table_number")
        return cls(**values)


def describe(origin: Origin) -> str:
    """The origin in the active language: "Tisch 3 (Tisch-Link)", "Table 3 (table link), team
    B", "Turnierleitung (Anna Jensen)", "Helfer (kasse) für Team B"."""
    params = {"number": origin.table, "team": origin.team, "user": origin.name}
    if origin.source == Source.TABLE:
        if origin.team:
            return gettext("Table %(number)s (table link), team %(team)s") % params
        return gettext("Table %(number)s (table link)") % params
    if origin.source == Source.ORGANISER:
        leader = origin.role == OriginRole.LEADER
        if origin.name and origin.team:
            text = (
                gettext_noop("Organiser (%(user)s) for team %(team)s")
                if leader
                else gettext_noop("Helper (%(user)s) for team %(team)s")
            )
        elif origin.name:
            text = gettext_noop("Organiser (%(user)s)") if leader else gettext_noop("Helper (%(user)s)")
        elif origin.team:
            text = gettext_noop("Organiser for team %(team)s") if leader else gettext_noop("Helper for team %(team)s")
        else:
            return pgettext("role", "Organiser") if leader else pgettext("role", "Helper")
        return gettext(text) % params
    if origin.source == Source.DEMO:
        return gettext("Demo")
    return origin.name


# The texts earlier versions stored, in every language they were written in (de, en: those
# versions had no other), the longer forms first, so that "... for team A" is not read as a user name.
# Each: (pattern, source, role).
_TABLE = r"(?P<table>\d+)"
_TEAM = r"(?P<team>[AB])"
_USER = r"(?P<name>.+?)"
_OLD_FORMS = (
    (rf"Table {_TABLE} \(table link\), team {_TEAM}", Source.TABLE, ""),
    (rf"Tisch {_TABLE} \(Tisch-Link\), Team {_TEAM}", Source.TABLE, ""),
    (rf"Table {_TABLE} \((?:table link|tablet)\)", Source.TABLE, ""),
    (rf"Tisch {_TABLE} \((?:Tisch-Link|Tablet)\)", Source.TABLE, ""),
    # The name in brackets: what migration 0018 writes back when it is reversed (describe()).
    (rf"Organiser \({_USER}\)(?: for team {_TEAM})?", Source.ORGANISER, OriginRole.LEADER),
    (rf"Turnierleitung \({_USER}\)(?: für Team {_TEAM})?", Source.ORGANISER, OriginRole.LEADER),
    (rf"Helper \({_USER}\)(?: for team {_TEAM})?", Source.ORGANISER, OriginRole.HELPER),
    (rf"Helfer \({_USER}\)(?: für Team {_TEAM})?", Source.ORGANISER, OriginRole.HELPER),
    (rf"Organiser {_USER} for team {_TEAM}", Source.ORGANISER, OriginRole.LEADER),
    (rf"Turnierleitung {_USER} für Team {_TEAM}", Source.ORGANISER, OriginRole.LEADER),
    (rf"Helper {_USER} for team {_TEAM}", Source.ORGANISER, OriginRole.HELPER),
    (rf"Helfer {_USER} für Team {_TEAM}", Source.ORGANISER, OriginRole.HELPER),
    (r"(?:Organiser|Turnierleitung)(?: (?P<name>.+))?", Source.ORGANISER, OriginRole.LEADER),
    (r"(?:Helper|Helfer)(?: (?P<name>.+))?", Source.ORGANISER, OriginRole.HELPER),
    (r"Demo", Source.DEMO, ""),
)
_OLD_PATTERNS = tuple((re.compile(pattern, re.DOTALL), source, role) for pattern, source, role in _OLD_FORMS)


def origin_from_text(text: str) -> Origin:
    """The origin an earlier version wrote as a sentence (``via``, ``confirmed_via``), in German
    or English; any other text kept as it is (``Source.OTHER``). For the restore of older backups
    only: it must go on reading what those versions wrote."""
    text = (text or "").strip()
    for pattern, source, role in _OLD_PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            found = match.groupdict()
            table = found.get("table")
            return Origin(
                source,
                table=int(table) if table else None,
                team=found.get("team") or "",
                role=role,
                name=(found.get("name") or "")[:150],
            )
    return Origin.other(text)
