"""Checking players out: the undo of a bulk check-in counts only who it would
really check out; a player with a seat in the session under way is not checked out without a
word."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Participant, Player
from scoring.setup.builders import evening_with_players, play_session
from tests.services.test_check_in import present, register

pytestmark = pytest.mark.django_db


def test_the_undo_button_counts_only_who_it_would_check_out(organiser_client):
    players = register(26)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    page = reverse("organiser:evening_players", args=[evening.pk])
    organiser_client.post(reverse("organiser:check_in_all", args=[evening.pk]))
    assert "26 Spieler wieder abmelden" in organiser_client.get(page).content.decode()
    for player in players[:7]:
        organiser_client.post(reverse("organiser:check_in", args=[evening.pk, player.pk]), {"present": "0"})
    html = organiser_client.get(page).content.decode()
    assert "19 Spieler wieder abmelden" in html and "26 Spieler" not in html

    response = organiser_client.post(reverse("organiser:check_in_undo", args=[evening.pk]), follow=True)
    assert present(evening) == set()
    html = response.content.decode()
    assert "19 Spieler wieder abgemeldet." in html and "bleiben anwesend" not in html


def test_the_wish_page_lists_no_absent_player(organiser_client):
    evening = evening_with_players(6, player_name="Gast {n}")
    services.set_checked_in(evening=evening, player=Player.objects.get(name="Gast 6"), checked_in=False)
    html = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    wishes = html[html.index('name="player_a"') : html.index('name="player_b"')]
    assert "Gast 5" in wishes and "Gast 6" not in wishes


def test_checking_out_a_player_seated_in_the_session_under_way_is_refused_with_a_message(organiser_client):
    evening = evening_with_players(8, sessions_count=2, rounds_per_session=2, deals_per_round=1)
    seated = Player.objects.get(name="Spieler 3")
    services.draw_session(evening=evening, seed=1)
    response = organiser_client.post(
        reverse("organiser:check_in", args=[evening.pk, seated.pk]), {"present": "0"}, follow=True
    )
    assert Participant.objects.get(evening=evening, player=seated).checked_in
    assert "Spieler 3 ist in Durchgang 1 ausgelost" in response.content.decode()

    # Once the session is over, the player may go home (and stays ranked).
    play_session(evening.sessions.get(number=1))
    services.set_checked_in(evening=evening, player=seated, checked_in=False)
    assert not Participant.objects.get(evening=evening, player=seated).checked_in
    assert seated in [row.player for row in selectors.evening_ranking(evening)]
