"""Check-in in a minute: everyone at once and the last evening's attendance,
each with an undo; the draw button on the check-in page once enough players are present; a player
checked in after the draw is told that he has no seat and how to get one (linked)."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from scoring import services
from scoring.services.check_in import check_in_everyone
from tests import factories
from tests.services.test_check_in import present, register
from tests.transfer.test_exports import play

pytestmark = pytest.mark.django_db


def test_everyone_present_checks_in_the_whole_register_and_undo_takes_back_only_those(organiser_client):
    players = register(10)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    services.set_checked_in(evening=evening, player=players[0], checked_in=True)
    page = reverse("organiser:evening_players", args=[evening.pk])

    response = organiser_client.post(reverse("organiser:check_in_all", args=[evening.pk]), follow=True)
    assert present(evening) == {p.pk for p in players}
    html = response.content.decode()
    assert "9 Spieler jetzt als anwesend eingetragen." in html
    assert reverse("organiser:check_in_undo", args=[evening.pk]) in html

    organiser_client.post(reverse("organiser:check_in_undo", args=[evening.pk]))
    assert present(evening) == {players[0].pk}  # the one checked in by hand stays
    html = organiser_client.get(page).content.decode()
    assert reverse("organiser:check_in_undo", args=[evening.pk]) not in html  # nothing left to undo
    response = organiser_client.post(reverse("organiser:check_in_undo", args=[evening.pk]), follow=True)
    assert present(evening) == {players[0].pk}


def test_everyone_present_a_second_time_says_everyone_was_here_already(organiser_client):
    players = register(3)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    url = reverse("organiser:check_in_all", args=[evening.pk])
    organiser_client.post(url)
    response = organiser_client.post(url, follow=True)
    assert present(evening) == {p.pk for p in players}
    html = response.content.decode()
    assert "Alle Spieler des Spielerverzeichnisses waren schon als anwesend eingetragen." in html
    assert reverse("organiser:check_in_undo", args=[evening.pk]) not in html  # nothing new to undo


def test_as_at_the_last_evening_without_one_says_so(organiser_client):
    evening = services.create_evening(name="Erster Abend", date=date(2026, 11, 21))
    html = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert reverse("organiser:check_in_last", args=[evening.pk]) not in html  # not offered
    response = organiser_client.post(reverse("organiser:check_in_last", args=[evening.pk]), follow=True)
    assert "keinen früheren Abend mit Spielern" in response.content.decode()
    assert present(evening) == set()


def test_the_undo_keeps_players_already_drawn(organiser_client):
    register(8)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    organiser_client.post(reverse("organiser:check_in_all", args=[evening.pk]))
    services.draw_session(evening=evening, seed=1)
    response = organiser_client.post(reverse("organiser:check_in_undo", args=[evening.pk]), follow=True)
    assert len(present(evening)) == 8
    assert "8 Spieler bleiben anwesend: schon in einen Durchgang ausgelost." in response.content.decode()


def test_the_draw_button_is_on_the_check_in_page_once_enough_players_are_present(organiser_client):
    players = register(6)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    page = reverse("organiser:evening_players", args=[evening.pk])
    draw = reverse("organiser:session_draw", args=[evening.pk])
    for p in players[:3]:
        services.set_checked_in(evening=evening, player=p, checked_in=True)
    assert draw not in organiser_client.get(page).content.decode()  # 3: not one table
    services.set_checked_in(evening=evening, player=players[3], checked_in=True)
    assert draw in organiser_client.get(page).content.decode()
    response = organiser_client.post(draw, {"number": 1})
    assert response.status_code == 302 and evening.sessions.count() == 1
    assert draw not in organiser_client.get(page).content.decode()  # session 1 is under way


def test_the_draw_button_needs_the_leader(client, helper):
    register(4)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    check_in_everyone(evening_id=evening.pk)
    client.force_login(helper)
    html = client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert reverse("organiser:session_draw", args=[evening.pk]) not in html


def test_a_late_arrival_after_the_draw_is_told_how_to_seat_him(organiser_client):
    register(8)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    check_in_everyone(evening_id=evening.pk)
    session = services.draw_session(evening=evening, seed=1)
    page = reverse("organiser:evening_players", args=[evening.pk])
    session_page = reverse("organiser:session_detail", args=[evening.pk, 1]) + "#changes"

    response = organiser_client.post(page, {"name": "Hinnerk Spätkommer", "club": "Ladelund"}, follow=True)
    html = response.content.decode()
    assert "Hinnerk Spätkommer" in html
    assert f'href="{session_page}"' in html  # the link to swap, in the message and the card
    assert "Durchgang 1 ist ohne Hinnerk Spätkommer ausgelost" in html
    assert 'id="unseated"' in html

    # Once deals are entered, only replacing a player who leaves can seat him.
    play_session_first_deal(session)
    late = services.add_player(name="Tade Nachzügler", club="")[0]
    response = organiser_client.post(
        reverse("organiser:check_in", args=[evening.pk, late.pk]), {"present": "1"}, follow=True
    )
    html = response.content.decode()
    assert "Tade Nachzügler" in html and f'href="{session_page}"' in html
    assert "Durchgang 1 läuft ohne Tade Nachzügler" in html and "Spieler in Durchgang 1 ersetzen" in html


def test_no_late_arrival_note_before_the_draw_or_for_a_seated_player(organiser_client):
    players = register(8)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    response = organiser_client.post(
        reverse("organiser:check_in", args=[evening.pk, players[0].pk]), {"present": "1"}, follow=True
    )
    assert 'id="unseated"' not in response.content.decode()
    assert reverse("organiser:session_detail", args=[evening.pk, 1]) not in response.content.decode()


def play_session_first_deal(session) -> None:
    from scoring.models import Seating

    seating = Seating.objects.filter(round__session=session).first()
    factories.enter_deal(seating, table=None)


@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_evening_players_page_query_count_does_not_grow(organiser_client, django_assert_max_num_queries):
    register(40)
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 21))
    check_in_everyone(evening_id=evening.pk)
    play(evening, deals=1, rounds=[1])
    late = services.add_player(name="Spät", club="")[0]
    services.set_checked_in(evening=evening, player=late, checked_in=True)
    with django_assert_max_num_queries(30):
        html = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert 'id="unseated"' in html
