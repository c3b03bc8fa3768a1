"""Issue 25, point 5: where a change came from, as data. Deal changes, drawn deals and
confirmations get the fields of scoring.hall.origin (source, table number, team, the login's role and
name at the time); the sentence each kept so far ("Tisch 3 (Tisch-Link)", "Turnierleitung Anna
Jensen", in German or English) is read into them one last time (scoring.hall.origin.origin_from_text,
the same function the restore of older backups uses). Migration 0019 removes the old texts; going
back writes them again in the site's language."""

from django.conf import settings
from django.db import migrations, models
from django.utils import translation

from scoring.hall.origin import FIELDS, Origin, describe, origin_from_text

SOURCES = [("table", "table link"), ("organiser", "organiser page"), ("demo", "demo"), ("other", "other")]
ROLES = [("leader", "organiser"), ("helper", "helper")]
TEAMS = [("A", "Team A"), ("B", "Team B")]
BATCH = 1000


def _convert(model, text_field: str, prefix: str) -> None:
    names = [prefix + name for name in FIELDS]
    rows = []
    for record in model.objects.exclude(**{text_field: ""}).only("pk", text_field).iterator(chunk_size=BATCH):
        for name, value in origin_from_text(getattr(record, text_field)).fields(prefix).items():
            setattr(record, name, value)
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
            setattr(record, text_field, describe(Origin.of(record, prefix))[:120])
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
