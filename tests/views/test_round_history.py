"""The round's history tells the whole round: finished, disputed, reopened,
confirmed, locked and unlocked, each with who, where and when, in time order with the deals."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import backup, services
from scoring.hall.origin import Origin
from scoring.models import Evening, Round, RoundEvent, Seating
from tests import factories
from tests.conftest import make_evening


def _seating(evening: Evening, table: int = 1) -> Seating:
    return Seating.objects.select_related("table", "round__session__evening").get(
        table__evening=evening, table__number=table, round__number=1, round__session__number=1
    )


def _play_a_disputed_round(evening: Evening, organiser) -> Seating:
    """Table 1: entered, finished by team A, disputed by team B, corrected, finished again,
    confirmed by team B; then the organiser locks and unlocks the round."""
    seating = _seating(evening)
    factories.enter_round(seating, origin=Origin.table_link(seating.table.number, "A"))
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    services.reopen_seating(seating_id=seating.pk, table=seating.table)
    factories.enter_deal(seating, 2, "B", origin=Origin.table_link(1, "A"))
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    factories.enter_deal(seating, 3, "B", origin=Origin.table_link(1, "A"))
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    services.confirm_seating(seating_id=seating.pk, team="B", table=seating.table, origin=Origin.table_link(1, "B"))
    for locked in (True, False):
        services.set_round_locked(
            round_id=seating.round_id, locked=locked, origin=Origin.organiser(organiser), user=organiser
        )
    return seating


@pytest.mark.django_db
def test_the_services_record_each_step_with_who_and_where(organiser):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    seating = _play_a_disputed_round(evening, organiser)
    events = list(RoundEvent.objects.filter(round=seating.round).order_by("at", "pk"))
    assert [e.kind for e in events] == [
        "finished",
        "disputed",
        "finished",
        "reopened",
        "finished",
        "confirmed",
        "locked",
        "unlocked",
    ]
    finished, disputed = events[0], events[1]
    assert (finished.source, finished.table_number, finished.team) == ("table", 1, "A")
    assert (disputed.source, disputed.table_number, disputed.team) == ("table", 1, "B")
    assert events[5].team == "B" and events[5].seating_id == seating.pk
    lock = events[6]
    assert lock.seating_id is None and lock.source == "organiser" and lock.name == "leitung" and lock.user == organiser
    # Locking a locked round again records nothing.
    services.set_round_locked(round_id=seating.round_id, locked=False, user=organiser)
    assert RoundEvent.objects.filter(round=seating.round).count() == 8


@pytest.mark.django_db
def test_the_round_clock_locking_at_zero_is_recorded(organiser):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    round_ = Round.objects.get(session__evening=evening, number=1)
    services.set_round_locked(round_id=round_.pk, locked=True, by_clock=True)
    event = RoundEvent.objects.get(round=round_)
    assert event.kind == "clock" and event.source == "" and event.seating is None


@pytest.mark.django_db
def test_the_seating_page_shows_events_and_deals_in_time_order(organiser_client, organiser):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    seating = _play_a_disputed_round(evening, organiser)
    html = organiser_client.get(reverse("organiser:seating_detail", args=[seating.pk])).content.decode()
    history = html.split('id="history"')[1]
    rows = re.findall(r'data-testid="history-(row|event)"(?: data-kind="(\w+)")?', history)
    shown = [kind if what == "event" else "deal" for what, kind in rows]
    assert shown == [
        *["deal"] * 4,
        "finished",
        "disputed",
        "deal",
        "finished",
        "deal",
        "reopened",
        "finished",
        "confirmed",
        "locked",
        "unlocked",
    ]
    assert "Vom anderen Team beanstandet (Stimmt nicht)" in history
    assert "Tisch 1 (Tisch-Link), Team B" in history and "alle Tische der Runde" in history
    assert "Turnierleitung (leitung)" in history


@pytest.mark.django_db
@pytest.mark.no_cover  # the page at two field sizes: measured by the other tests
def test_the_history_costs_the_same_queries_at_any_field_size(organiser_client, organiser):
    counts = []
    for players in (8, 40):
        evening = make_evening(players, name=f"Abend {players}")
        services.draw_session(evening=evening, seed=1)
        seating = _play_a_disputed_round(evening, organiser)
        if players == 40:  # more tables with events of their own, more events of the round
            for table in range(2, 11):
                other = _seating(evening, table)
                factories.enter_round(other, origin=Origin.table_link(other.table.number, "A"))
                services.mark_seating_entered(seating_id=other.pk, table=other.table, team="A")
            for locked in (True, False):
                services.set_round_locked(round_id=seating.round_id, locked=locked, user=organiser)
        url = reverse("organiser:seating_detail", args=[seating.pk])
        organiser_client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert organiser_client.get(url).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_a_backup_carries_the_round_events(organiser):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    _play_a_disputed_round(evening, organiser)
    document = backup.export_evening(evening)
    assert len(document["data"]["round_events"]) == 8
    kinds = sorted(RoundEvent.objects.values_list("kind", "source", "table_number", "team"))
    outcome = backup.restore(document, allow_duplicates=True)
    copy = outcome.evenings[0]
    assert copy.pk != evening.pk
    restored = sorted(
        RoundEvent.objects.filter(round__session__evening=copy).values_list("kind", "source", "table_number", "team")
    )
    assert restored == kinds
    assert RoundEvent.objects.filter(round__session__evening=copy, seating__isnull=False).count() == 6
    # A file written before round events existed restores without them.
    del document["data"]["round_events"]
    document["sha256"] = backup.checksum(document["data"])
    backup.restore(document, allow_duplicates=True)


@pytest.mark.django_db
def test_a_deal_never_entered_is_entered_not_corrected(organiser_client):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    seating = _seating(evening)
    factories.enter_deal(seating, origin=Origin.table_link(1))
    url = reverse("organiser:seating_detail", args=[seating.pk])
    html = organiser_client.get(url).content.decode()
    assert re.search(r'data-testid="edit-deal-1">Korrigieren<', html)
    assert re.search(r'data-testid="edit-deal-2">Eintragen<', html)
    new = organiser_client.get(url + "?deal=2").content.decode()
    assert "Spiel 2 eintragen" in new and re.search(r'data-testid="save-deal">Speichern<', new)
    assert "Korrektur speichern" not in new and "Spiel 2 korrigieren" not in new
    old = organiser_client.get(url + "?deal=1").content.decode()
    assert "Spiel 1 korrigieren" in old and "Korrektur speichern" in old
