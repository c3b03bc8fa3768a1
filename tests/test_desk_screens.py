"""The organiser's desk, screens without a browser (issue 28, point 4): the evening list in date
order, a new evening dated today."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import services

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
