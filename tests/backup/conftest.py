"""The played evening the backup tests save and restore, built through the services once per test
process and put back into each test's database row for row.

Entering its 150 deals one by one, as the tablets do, took about 1.5 s per test (on both
databases); putting the same rows back takes a few queries. The rows are read with Django's own
serializer, not with the backup code under test, so a field the backup loses cannot vanish from
the evening the tests start with."""

from __future__ import annotations

import random
import uuid

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection, transaction

from scoring import services
from scoring.domain.rules import DealResult
from scoring.hall.origin import Origin
from scoring.hall.roles import LEADER
from scoring.models import DealChange, Evening, Participant, Round, Seating, Session
from tests.conftest import make_login, make_roster_evening

POSSIBLE = [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (1, 1), (3, 0), (0, 3), (2, 1), (1, 2), (4, 0), (0, 4)]


def play_session(evening, user, seed: int, rng: random.Random, complete: bool = True, deals: int | None = None):
    """Draw a session and enter its deals through the services, like the tablets do."""
    session = services.draw_session(evening=evening, user=user, seed=seed)
    for seating in Seating.objects.filter(round__session=session).order_by("round__number", "table__number"):
        for number in range(1, (deals or evening.deals_per_round) + 1):
            a, b = rng.choice(POSSIBLE)
            result = DealResult(rng.choice("AB"), rng.random() < 0.15, a, b)
            services.enter_deal(
                seating_id=seating.pk, number=number, result=result, origin=Origin.table_link(seating.table.number)
            )
        if complete:
            services.enter_and_confirm_seating(seating_id=seating.pk)
    return session


def build_played_evening(organiser) -> Evening:
    """The Schwesing roster: session 1 complete, with an organiser's correction and an accepted
    "impossible" result; session 2 drawn and half entered; fields beyond the defaults set, so that
    a round trip has something to lose."""
    evening = make_roster_evening()
    rng = random.Random(11)
    play_session(evening, organiser, seed=5, rng=rng)
    seating = Seating.objects.filter(round__session__evening=evening).order_by("pk").first()
    services.enter_deal(
        seating_id=seating.pk,
        number=2,
        result=DealResult("B", True, 0, 1),
        origin=Origin.organiser(organiser),
        user=organiser,
        reason="Zählfehler",
    )
    services.enter_deal(
        seating_id=seating.pk,
        number=3,
        result=DealResult("A", False, 3, 3),
        origin=Origin.organiser(organiser),
        user=organiser,
        reason="Hausregel",
        accept_impossible=True,
    )
    play_session(evening, organiser, seed=6, rng=rng, complete=False, deals=2)
    Participant.objects.filter(evening=evening, player__name="Tom Whitfield").update(checked_in=False)
    Evening.objects.filter(pk=evening.pk).update(ranking_hidden=True)
    Session.objects.filter(evening=evening, number=1).update(closed=True)
    Round.objects.filter(session__evening=evening, session__number=1, number=4).update(locked=True)
    Seating.objects.filter(pk=seating.pk).update(
        confirmed_by=organiser, **Origin.organiser(organiser).fields("confirmed_"), entered_by="B"
    )
    DealChange.objects.filter(deal__seating=seating).update(client="192.168.178.23")
    DealChange.objects.filter(pk=DealChange.objects.filter(deal__seating=seating).first().pk).update(
        submission=uuid.UUID("5b1c0d6e-8f43-4f0a-9a57-0b3c2f1e7d42")
    )
    return Evening.objects.get(pk=evening.pk)


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
