"""A register player's page: evenings, place and total, average per session, partners, daring and
striking, best evening, the SVG chart of places; flat query count. The figures themselves:
tests/selectors/test_player_history.py; the chart's geometry: tests/web/test_charts.py."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Seating
from tests import factories
from tests.selectors.test_player_history import anke_evenings, expected, roster, team_of  # noqa: F401 (anke_evenings: a fixture)
from tests.services.test_player_merge import small_evening

pytestmark = pytest.mark.django_db


def test_player_page_shows_everything_and_a_chart_without_inline_style(organiser_client, anke_evenings):
    anke, evenings = anke_evenings
    page = organiser_client.get(reverse("organiser:player_detail", args=[anke.pk]), HTTP_ACCEPT_LANGUAGE="de")
    text = page.content.decode()
    assert page.status_code == 200
    for label in ("Gewertete Abende", "Streichhölzer pro Durchgang", "Wagen und Schlagen", "Bester Abend", "Partner"):
        assert label in text
    for evening in evenings:
        assert evening.name in text
    svg = re.search(r"<svg.*?</svg>", text, re.S).group(0)
    assert svg.count("<circle") == 3 and "<polyline" in svg
    assert "style=" not in svg and "<script" not in svg


def test_stand_in_evening_is_listed_but_not_ranked(organiser_client):
    anke, *others = roster("Anke Hansen", "Bernd Jensen", "Carla Lorenzen", "Dirk Petersen")
    evening = services.create_evening(
        name="Mit Ersatz", date=date(2026, 4, 1), sessions_count=1, rounds_per_session=1, deals_per_round=1
    )
    for player in (anke, *others):
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    services.set_stand_in(evening=evening, player=anke, stand_in=True)
    services.draw_session(evening=evening, seed=1)
    history = selectors.player_history(anke)
    assert len(history.evenings) == 1 and history.evenings[0].place is None and history.best is None
    text = organiser_client.get(reverse("organiser:player_detail", args=[anke.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Ersatzspieler, nicht gewertet" in text.content.decode()


def test_a_player_without_evenings(organiser_client):
    (anke,) = roster("Anke Hansen")
    text = organiser_client.get(reverse("organiser:player_detail", args=[anke.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "hat noch keinen Abend gespielt" in text.content.decode()
    assert organiser_client.get(reverse("organiser:player_detail", args=[99999])).status_code == 404


@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_query_count_does_not_grow_with_evenings_or_players(organiser_client):
    counts = []
    for evenings, players in ((2, 4), (5, 12)):
        people = roster(*(f"Spieler {evenings}-{n}" for n in range(players)))
        for n in range(evenings):
            small_evening(f"Abend {evenings}-{n}", n + 1, people)
        url = reverse("organiser:player_detail", args=[people[0].pk])
        with CaptureQueriesContext(connection) as context:
            assert organiser_client.get(url).status_code == 200
        counts.append(len(context.captured_queries))
    assert counts[0] == counts[1], counts


# --- The chart's geometry (no database) ---------------------------------------------------------


def test_best_evening_counts_only_evenings_that_are_over(organiser_client):
    """An evening still running (a round not confirmed) may put the player first now and
    lower later: it is listed, but not the best evening yet."""
    anke, *others = roster("Anke Hansen", "Bernd Jensen", "Carla Lorenzen", "Dirk Petersen")
    over = small_evening("Vorbei", 1, [anke, *others])
    running = services.create_evening(
        name="Läuft noch", date=date(2026, 3, 20), sessions_count=1, rounds_per_session=1, deals_per_round=2
    )
    for player in (anke, *others):
        services.set_checked_in(evening=running, player=player, checked_in=True)
    session = services.draw_session(evening=running, seed=5)
    seating = Seating.objects.get(round__session=session)
    anke_team = "A" if anke.pk in seating.team_a.player_ids else "B"
    for number in (1, 2):  # Anke's team wins both deals: place 1 there, but not confirmed
        factories.enter_deal(seating, number, anke_team, to_nil=True, table=None)
    history = selectors.player_history(anke)
    assert [e.evening.name for e in history.evenings] == ["Vorbei", "Läuft noch"]
    assert history.evenings[1].place == 1 and not history.evenings[1].finished
    assert history.best.evening == over
    services.enter_and_confirm_seating(seating_id=seating.pk)
    assert selectors.player_history(anke).best.evening == running
