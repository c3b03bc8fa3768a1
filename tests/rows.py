"""Rows built once per test process and put back into each test's database row for row
(tests/conftest.py, tests/backup/conftest.py).

An evening built through the services (the draw's planner, deals entered one by one) costs tenths
of a second to seconds per test on both databases; putting the same rows back takes a few
queries. The rows are read with Django's own serializer, not with the backup code under test, so
a test starts with exactly the rows the services wrote."""

from __future__ import annotations

from collections.abc import Callable

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection, transaction


def app_models() -> list:
    """The app's models, each after the models it refers to (Django's order for fixtures)."""
    return serializers.sort_dependencies([(apps.get_app_config("scoring"), None)])


def capture(build: Callable[[], object]) -> tuple[object, list[dict]]:
    """Run ``build`` in a transaction that is rolled back: (what it returned, every row of the app
    it left, in the order they can be inserted). The caller unblocks the database
    (``django_db_blocker``)."""
    with transaction.atomic():
        built = build()
        rows = [row for model in app_models() for row in serializers.serialize("python", model.objects.all())]
        transaction.set_rollback(True)
    return built, rows


def put_back(rows: list[dict], logins: dict[int, int] | None = None) -> None:
    """Insert ``rows`` (from :func:`capture`) as they were built, a login's id replaced by its
    entry in ``logins`` (the builder's login -> the test's); then PostgreSQL's id sequences past
    the ids inserted."""
    logins = logins or {}
    by_model: dict = {}
    for item in serializers.deserialize("python", rows):
        record = item.object
        for field in record._meta.concrete_fields:
            if field.is_relation and field.related_model is get_user_model():
                value = getattr(record, field.attname)
                assert value is None or value in logins, (record, field.name, value)
                setattr(record, field.attname, value and logins[value])
        by_model.setdefault(type(record), []).append(record)
    for model, records in by_model.items():
        model.objects.bulk_create(records)
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(by_model)):
            cursor.execute(statement)


def evening_put_back(captured: tuple[object, list[dict]]):
    """The evening that :func:`capture` built (its ``build`` returned the evening's id), its rows
    put back for this test: the function-scoped half of a fixture built once per process."""
    from scoring.models import Evening

    pk, built = captured
    put_back(built)
    return Evening.objects.get(pk=pk)
