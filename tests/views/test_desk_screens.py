"""The organiser's desk, screens without a browser: the evening list in date
order, a new evening dated today."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import services
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_evening_list_is_in_date_order_newest_first(organiser_client):
    for name, day in (("Mai", date(2026, 5, 9)), ("Januar", date(2026, 1, 10)), ("Dezember", date(2026, 12, 5))):
        services.create_evening(name=name, date=day)
    services.create_evening(name="März", date=date(2026, 3, 14))
    html = organiser_client.get(reverse("organiser:evening_list")).content.decode()
    names = re.findall(r'<a href="/organiser/abende/\d+/">([^<]+)</a>', html)
    assert names == ["Dezember", "Mai", "März", "Januar"]


def test_a_new_evening_is_dated_today(organiser_client):
    html = organiser_client.get(reverse("organiser:evening_create")).content.decode()
    field = re.search(r'<input[^>]*name="date"[^>]*>', html).group(0)
    assert f'value="{timezone.localdate().isoformat()}"' in field


def test_a_round_locked_halfway_tells_the_table_and_the_organiser_what_to_do(organiser_client, client, organiser):
    """A round locked while a table has 2 of 4 deals. The tablet says how many are entered
    and what happens next; the live grid marks the table for the organiser, linked to its page; once
    the organiser has entered the rest, the table finishes and confirms as usual."""
    from scoring.hall.origin import Origin
    from scoring.models import Seating
    from tests.conftest import make_evening

    evening = make_evening(8)
    session = services.draw_session(evening=evening, seed=1)
    seating = Seating.objects.select_related("table", "round").filter(round__session=session, round__number=1).first()
    for number in (1, 2):
        factories.enter_deal(seating, number)
    services.set_round_locked(round_id=seating.round_id, locked=True)

    tablet = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    assert "mit 2 von 4 Spielen gesperrt" in tablet and "Spielzettel" in tablet

    live = organiser_client.get(reverse("organiser:live", args=[evening.pk])).content.decode()
    table = seating.table.number
    cell = re.search(rf'<td class="state in_progress stuck"[^>]*data-table="{table}"[^>]*>(.*?)</td>', live)
    assert cell, "the table is marked for the organiser"
    assert "gesperrt 2/4" in cell.group(1) and "fehlende Spiele eintragen" in cell.group(1)
    assert reverse("organiser:seating_detail", args=[seating.pk]) in cell.group(1)

    for number in (3, 4):  # the organiser types in the paper sheet's deals
        factories.enter_deal(seating, number, "B", table=None, origin=Origin.organiser(organiser))
    tablet = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    assert 'data-testid="finish-a"' in tablet  # the finish buttons, despite the lock
    assert "aber alle Spiele sind eingetragen" in tablet
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    services.confirm_seating(seating_id=seating.pk, team="B", table=seating.table)
    seating.refresh_from_db()
    assert seating.confirmed_at is not None
