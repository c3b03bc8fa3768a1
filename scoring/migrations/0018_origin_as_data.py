"""Where a change came from, as data, so that pages can show it in the reader's language. Deal
changes, drawn deals and confirmations get the fields of an origin (source, table number, team, the
login's role and name at the time); the sentence each kept so far ("Tisch 3 (Tisch-Link)",
"Turnierleitung Anna Jensen", in German or English) is read into them one last time. Migration
0019 removes the old texts; going back writes them again in the site's language.

The reading and the writing of those sentences are frozen copies of ``scoring.hall.origin`` as it
was when this migration was written (``origin_from_text``, ``describe``): a migration must do the
same on every later version of the code, so it imports none of it."""

import re

from django.conf import settings
from django.db import migrations, models
from django.utils import translation
from django.utils.translation import gettext, gettext_noop, pgettext

#: The fields an origin takes on a record, after the record's prefix ("" or "confirmed_").
FIELDS = ("source", "table_number", "team", "role", "name")

# The sentences earlier versions stored, in German and English, the longer forms first, so that
# "... for team A" is not read as a user name. Each: (pattern, source, role).
_TABLE = r"(?P<table>\d+)"
_TEAM = r"(?P<team>[AB])"
_USER = r"(?P<name>.+?)"
_OLD_FORMS = (
    (rf"Table {_TABLE} \(table link\), team {_TEAM}", "table", ""),
    (rf"Tisch {_TABLE} \(Tisch-Link\), Team {_TEAM}", "table", ""),
    (rf"Table {_TABLE} \((?:table link|tablet)\)", "table", ""),
    (rf"Tisch {_TABLE} \((?:Tisch-Link|Tablet)\)", "table", ""),
    # The name in brackets: what this migration writes back when it is reversed (_describe()).
    (rf"Organiser \({_USER}\)(?: for team {_TEAM})?", "organiser", "leader"),
    (rf"Turnierleitung \({_USER}\)(?: für Team {_TEAM})?", "organiser", "leader"),
    (rf"Helper \({_USER}\)(?: for team {_TEAM})?", "organiser", "helper"),
    (rf"Helfer \({_USER}\)(?: für Team {_TEAM})?", "organiser", "helper"),
    (rf"Organiser {_USER} for team {_TEAM}", "organiser", "leader"),
    (rf"Turnierleitung {_USER} für Team {_TEAM}", "organiser", "leader"),
    (rf"Helper {_USER} for team {_TEAM}", "organiser", "helper"),
    (rf"Helfer {_USER} für Team {_TEAM}", "organiser", "helper"),
    (r"(?:Organiser|Turnierleitung)(?: (?P<name>.+))?", "organiser", "leader"),
    (r"(?:Helper|Helfer)(?: (?P<name>.+))?", "organiser", "helper"),
    (r"Demo", "demo", ""),
)
_OLD_PATTERNS = tuple((re.compile(pattern, re.DOTALL), source, role) for pattern, source, role in _OLD_FORMS)


def _origin_from_text(text: str) -> dict:
    """The origin fields (:data:`FIELDS`, no prefix) of a sentence an earlier version stored; any
    other text kept as it is (source "other", the text as the name)."""
    text = (text or "").strip()
    for pattern, source, role in _OLD_PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            found = match.groupdict()
            table = found.get("table")
            return {
                "source": source,
                "table_number": int(table) if table else None,
                "team": found.get("team") or "",
                "role": role,
                "name": (found.get("name") or "")[:150],
            }
    return {"source": "other", "table_number": None, "team": "", "role": "", "name": text[:150]}


def _describe(record, prefix: str) -> str:
    """The origin stored on ``record`` as a sentence in the active language."""
    source, table, team, role, name = (getattr(record, prefix + field) for field in FIELDS)
    params = {"number": table, "team": team, "user": name}
    if source == "table":
        if team:
            return gettext("Table %(number)s (table link), team %(team)s") % params
        return gettext("Table %(number)s (table link)") % params
    if source == "organiser":
        leader = role == "leader"
        if name and team:
            text = (
                gettext_noop("Organiser (%(user)s) for team %(team)s")
                if leader
                else gettext_noop("Helper (%(user)s) for team %(team)s")
            )
        elif name:
            text = gettext_noop("Organiser (%(user)s)") if leader else gettext_noop("Helper (%(user)s)")
        elif team:
            text = gettext_noop("Organiser for team %(team)s") if leader else gettext_noop("Helper for team %(team)s")
        else:
            return pgettext("role", "Organiser") if leader else pgettext("role", "Helper")
        return gettext(text) % params
    if source == "demo":
        return gettext("Demo")
    return name


SOURCES = [("table", "table link"), ("organiser", "organiser page"), ("demo", "demo"), ("other", "other")]
ROLES = [("leader", "organiser"), ("helper", "helper")]
TEAMS = [("A", "Team A"), ("B", "Team B")]
BATCH = 1000


def _convert(model, text_field: str, prefix: str) -> None:
    names = [prefix + name for name in FIELDS]
    rows = []
    for record in model.objects.exclude(**{text_field: ""}).only("pk", text_field).iterator(chunk_size=BATCH):
        for name, value in _origin_from_text(getattr(record, text_field)).items():
            setattr(record, prefix + name, value)
        rows.append(record)
        if len(rows) == BATCH:
            model.objects.bulk_update(rows, names)
            rows = []
    if rows:
        model.objects.bulk_update(rows, names)


def texts_to_data(apps, schema_editor):
    _convert(apps.get_model("scoring", "DealChange"), "via", "")
    _convert(apps.get_model("scoring", "DrawnDeal"), "via", "")
    _convert(apps.get_model("scoring", "Seating"), "confirmed_via", "confirmed_")


def _back_to_text(model, text_field: str, prefix: str) -> None:
    """Going back: the sentence again, in the site's language (as the tablets wrote it)."""
    rows = []
    with translation.override(settings.LANGUAGE_CODE):
        for record in model.objects.exclude(**{prefix + "source": ""}).iterator(chunk_size=BATCH):
            setattr(record, text_field, _describe(record, prefix)[:120])
            rows.append(record)
    model.objects.bulk_update(rows, [text_field], batch_size=BATCH)


def data_to_texts(apps, schema_editor):
    _back_to_text(apps.get_model("scoring", "DealChange"), "via", "")
    _back_to_text(apps.get_model("scoring", "DrawnDeal"), "via", "")
    _back_to_text(apps.get_model("scoring", "Seating"), "confirmed_via", "confirmed_")


def _origin_fields(prefix: str, source_blank: bool) -> list:
    source = (
        models.CharField(blank=True, choices=SOURCES, max_length=10)
        if source_blank
        else models.CharField(choices=SOURCES, default="other", max_length=10)
    )
    return [
        (prefix + "source", source, source_blank),
        (prefix + "table_number", models.PositiveSmallIntegerField(blank=True, null=True), True),
        (prefix + "team", models.CharField(blank=True, choices=TEAMS, max_length=1), True),
        (prefix + "role", models.CharField(blank=True, choices=ROLES, max_length=10), True),
        (prefix + "name", models.CharField(blank=True, max_length=150), True),
    ]


class Migration(migrations.Migration):
    dependencies = [("scoring", "0017_roles_decide_not_superuser")]

    operations = [
        *(
            migrations.AddField(model_name=model, name=name, field=field, preserve_default=keep)
            for model, prefix, blank in (
                ("dealchange", "", False),
                ("drawndeal", "", False),
                ("seating", "confirmed_", True),
            )
            for name, field, keep in _origin_fields(prefix, blank)
        ),
        migrations.RunPython(texts_to_data, data_to_texts),
    ]
