"""An evening that ends: after the last session's last confirmation the
tablets, "Where do I sit?" and the projector say the evening is over and show or link the final
ranking, instead of waiting for a next draw that never comes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import selectors, services
from scoring.domain.evening import evening_is_over
from scoring.models import Player, ProjectorMode, Seating, Table
from scoring.selectors.table_entry import scorer_state, table_signature
from scoring.setup.builders import evening_with_players, play_round, play_seating, play_session

pytestmark = pytest.mark.django_db

NEXT_DRAW = (
    "lost den nächsten Durchgang aus",  # tablet: "new partners: the next session is drawn by the organiser"
    "mit der nächsten Auslosung",  # seat page: "... come with the next draw"
    "Bitte warten",  # tablet: waiting for the next session
    "sobald er ausgelost ist",  # projector: the seating of the next session
)


def test_the_rule():
    assert not evening_is_over(sessions_planned=3, sessions_drawn=0, tables_confirmed=[])
    assert not evening_is_over(sessions_planned=3, sessions_drawn=2, tables_confirmed=[True, True])
    assert not evening_is_over(sessions_planned=3, sessions_drawn=3, tables_confirmed=[True, False])
    assert evening_is_over(sessions_planned=3, sessions_drawn=3, tables_confirmed=[True, True])


@pytest.fixture
def evening(db):
    """Eight players, two sessions of two rounds of one deal; session 1 played, session 2 drawn."""
    evening = evening_with_players(8, sessions_count=2, rounds_per_session=2, deals_per_round=1)
    play_session(services.draw_session(evening=evening, seed=1))
    services.draw_session(evening=evening, seed=2)
    return evening


def _last_session(evening):
    return evening.sessions.get(number=2)


def test_between_sessions_the_evening_is_not_over(evening):
    assert not selectors.evening_is_confirmed(evening)
    play_round(_last_session(evening), 1)
    assert not selectors.evening_is_confirmed(evening)


def test_the_tablet_says_the_evening_is_over_and_links_the_final_ranking(evening):
    play_session(_last_session(evening))
    table = Table.objects.get(evening=evening, number=1)
    state = scorer_state(table)
    assert state.step == "over"
    html = Client().get(reverse("scorer:table", args=[table.token])).content.decode()
    assert "Der Abend ist zu Ende" in html
    assert reverse("public:ranking_screen", args=[evening.pk]) in html
    for waiting in NEXT_DRAW:
        assert waiting not in html


def test_a_table_done_first_learns_of_the_end_when_the_last_table_confirms(evening):
    session = _last_session(evening)
    play_round(session, 1)
    first, last = Seating.objects.filter(round__session=session, round__number=2).order_by("table__number")
    play_seating(first)
    table = first.table
    before = table_signature(table)
    assert scorer_state(table).step == "waiting"
    play_seating(last)
    assert table_signature(table) != before  # its tablet's poll redraws the page
    assert scorer_state(table).step == "over"


def test_the_seat_finder_and_a_players_seat_say_the_evening_is_over(evening):
    play_session(_last_session(evening))
    client = Client()
    finder = client.get(reverse("public:seat_finder", args=[evening.pk])).content.decode()
    player = Player.objects.get(name="Spieler 1")
    seat = client.get(reverse("public:seat", args=[evening.pk, player.pk])).content.decode()
    for page in (finder, seat):
        assert "Der Abend ist zu Ende" in page
        assert reverse("public:ranking_screen", args=[evening.pk]) in page
        for waiting in NEXT_DRAW:
            assert waiting not in page


@pytest.mark.parametrize("mode", [ProjectorMode.SEATING, ProjectorMode.ROTATION, ProjectorMode.CLOCK])
def test_the_projector_shows_the_final_ranking_in_every_mode(evening, organiser, mode):
    play_session(_last_session(evening))
    services.set_projector_mode(evening_id=evening.pk, mode=mode, user=organiser)
    html = Client().get(reverse("public:projector", args=[evening.pk])).content.decode()
    assert "Der Abend ist zu Ende" in html and "Endstand" in html
    assert 'data-section="ranking"' in html and 'data-section="seating"' not in html
    assert 'data-section="clock"' not in html
    for waiting in NEXT_DRAW:
        assert waiting not in html
