"""The played evening the backup tests save and restore, built through the services once per test
process and put back into each test's database row for row (tests/rows.py).

Entering its 150 deals one by one, as the tablets do, took about 1.5 s per test (on both
databases); putting the same rows back takes a few queries. The rows are read with Django's own
serializer, not with the backup code under test, so a field the backup loses cannot vanish from
the evening the tests start with."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from scoring.hall.roles import LEADER
from scoring.models import Evening
from tests import rows
from tests.backup.played import build_played_evening
from tests.conftest import make_login


@pytest.fixture(scope="session")
def _played_evening_rows(django_db_setup, django_db_blocker) -> tuple[int, list[dict]]:
    """The rows :func:`build_played_evening` writes (every model of the app, in the order they can
    be inserted), and the id of the login that played it; built in a transaction that is rolled
    back, once per test process."""

    def build() -> int:
        organiser = make_login(get_user_model(), "leitung", LEADER)
        build_played_evening(organiser)
        return organiser.pk

    with django_db_blocker.unblock():
        return rows.capture(build)


@pytest.fixture
def played_evening(_played_evening_rows, organiser) -> Evening:
    """:func:`build_played_evening`, played by ``organiser``: its rows inserted as they were built
    (the organiser's id put in where the builder's login stood)."""
    builder, built = _played_evening_rows
    rows.put_back(built, {builder: organiser.pk})
    return Evening.objects.get()
