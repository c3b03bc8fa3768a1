"""The played evening the backup tests save and restore, built through the services once per test
process and put back into each test's database row for row.

Entering its 150 deals one by one, as the tablets do, took about 1.5 s per test (on both
databases); putting the same rows back takes a few queries. The rows are read with Django's own
serializer, not with the backup code under test, so a field the backup loses cannot vanish from
the evening the tests start with."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection, transaction

from scoring.hall.roles import LEADER
from scoring.models import Evening
from tests.backup.played import build_played_evening
from tests.conftest import make_login


def _app_models() -> list:
    """The app's models, each after the models it refers to (Django's order for fixtures)."""
    return serializers.sort_dependencies([(apps.get_app_config("scoring"), None)])


@pytest.fixture(scope="session")
def _played_evening_rows(django_db_setup, django_db_blocker) -> tuple[int, list[dict]]:
    """The rows :func:`build_played_evening` writes (every model of the app, in the order they can
    be inserted), and the id of the login that played it; built in a transaction that is rolled
    back, once per test process."""
    with django_db_blocker.unblock(), transaction.atomic():
        organiser = make_login(get_user_model(), "leitung", LEADER)
        build_played_evening(organiser)
        rows = [row for model in _app_models() for row in serializers.serialize("python", model.objects.all())]
        transaction.set_rollback(True)
    return organiser.pk, rows


@pytest.fixture
def played_evening(_played_evening_rows, organiser) -> Evening:
    """:func:`build_played_evening`, played by ``organiser``: its rows inserted as they were built
    (the organiser's id put in where the builder's login stood)."""
    builder, rows = _played_evening_rows
    by_model: dict = {}
    for item in serializers.deserialize("python", rows):
        record = item.object
        for field in record._meta.concrete_fields:
            if field.is_relation and field.related_model is get_user_model():
                value = getattr(record, field.attname)
                assert value in (None, builder), (record, field.name, value)
                setattr(record, field.attname, value and organiser.pk)
        by_model.setdefault(type(record), []).append(record)
    for model, records in by_model.items():
        model.objects.bulk_create(records)
    with connection.cursor() as cursor:  # PostgreSQL's id sequences past the ids inserted
        for statement in connection.ops.sequence_reset_sql(no_style(), list(by_model)):
            cursor.execute(statement)
    return Evening.objects.get()
