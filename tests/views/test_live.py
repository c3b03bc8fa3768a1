"""The room during an evening: the organiser's live overview (tables x rounds, updating itself,
locks), the public ranking screen (hideable) and "Where do I sit?"."""

from __future__ import annotations

import re
import time

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import Evening, Player, Round, Seating, Session
from scoring.views import screens
from tests import factories
from tests.conftest import make_evening


def seating_at(evening, table, round_number=1, session=1) -> Seating:
    return Seating.objects.select_related("table", "round__session").get(
        table__evening=evening, table__number=table, round__number=round_number, round__session__number=session
    )


def cell_states(html: str) -> dict[tuple[int, int], str]:
    return {
        (int(t), int(r)): s for s, t, r in re.findall(r'data-state="(\w+)" data-table="(\d+)" data-round="(\d+)"', html)
    }


@pytest.fixture
def drawn(drawn_roster_evening):
    """The roster evening with session 1 drawn (seed 1)."""
    return drawn_roster_evening


# --- The organiser's live overview -------------------------------------------------------------


@pytest.mark.django_db
def test_live_overview_shows_each_tables_state(organiser_client, drawn):
    factories.enter_round(seating_at(drawn, 1))  # table 1: entered ...
    services.mark_seating_entered(seating_id=seating_at(drawn, 1).pk, table=seating_at(drawn, 1).table, team="A")
    factories.enter_round(seating_at(drawn, 2), deals=2)  # table 2: in progress, 2 of 4
    three = seating_at(drawn, 3)
    factories.enter_round(three)
    services.enter_and_confirm_seating(seating_id=three.pk)  # table 3: confirmed
    response = organiser_client.get(reverse("organiser:live", args=[drawn.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    states = cell_states(html)
    assert len(states) == 6 * 4  # 6 tables x 4 rounds
    assert states[(1, 1)] == "entered" and states[(2, 1)] == "in_progress"
    assert states[(3, 1)] == "confirmed" and states[(4, 1)] == "not_started"
    assert "wartet auf Team B" in html and "2/4" in html
    assert 'hx-trigger="every 5s"' in html
    assert f"/abend/{drawn.pk}/rangliste/" in html and f"/abend/{drawn.pk}/platz/" in html
    # The polled part alone, for htmx.
    partial = organiser_client.get(reverse("organiser:live", args=[drawn.pk]), HTTP_HX_REQUEST="true")
    assert "<html" not in partial.content.decode() and cell_states(partial.content.decode()) == states


@pytest.mark.django_db
def test_live_overview_needs_a_login_and_works_before_any_draw(organiser_client, roster_evening):
    client = Client()  # no login
    url = reverse("organiser:live", args=[roster_evening.pk])
    assert client.get(url).status_code == 302
    for name, args in (
        ("round_lock", [roster_evening.pk, 1]),
        ("session_close", [roster_evening.pk, 1]),
        ("ranking_visibility", [roster_evening.pk]),
        ("seating_confirm", [1]),
    ):
        response = client.post(reverse(f"organiser:{name}", args=args))
        assert response.status_code == 302 and "/anmelden/" in response["Location"], name
    response = organiser_client.get(url)
    assert response.status_code == 200 and "Es ist noch kein Durchgang ausgelost" in response.content.decode()
    assert organiser_client.get(reverse("organiser:live", args=[999])).status_code == 404


@pytest.mark.django_db
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_live_overview_query_count_does_not_grow_with_tables(organiser_client):
    counts = []
    for players in (24, 80):
        evening = make_evening(players, name=f"Abend {players}")
        services.draw_session(evening=evening, seed=1)
        with CaptureQueriesContext(connection) as queries:
            assert organiser_client.get(reverse("organiser:live", args=[evening.pk])).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_lock_and_unlock_a_round(organiser_client, drawn):
    round_2 = Round.objects.get(session__evening=drawn, number=2)
    url = reverse("organiser:round_lock", args=[drawn.pk, round_2.pk])
    # Round 2 has not started at any table: "Sperren" asks first, naming the tables.
    response = organiser_client.post(url, {"locked": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == url
    round_2.refresh_from_db()
    assert not round_2.locked
    page = organiser_client.get(url).content.decode()
    assert (
        'data-testid="lock-confirm"' in page and "Tische 1, 2, 3, 4, 5, 6 haben diese Runde noch nicht begonnen" in page
    )
    response = organiser_client.post(url, {"locked": "1", "confirmed": "1", "seen": ["1", "2", "3", "4", "5", "6"]})
    assert response.status_code == 302
    round_2.refresh_from_db()
    assert round_2.locked
    html = organiser_client.get(reverse("organiser:live", args=[drawn.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert 'data-testid="unlock-2"' in html and "gesperrt" in html
    response = organiser_client.post(url, {"locked": "0"})
    assert response.status_code == 302 and response["Location"].endswith("?durchgang=1")
    round_2.refresh_from_db()
    assert not round_2.locked
    # A round of another evening is not found.
    other = make_evening(8, name="Anderer Abend")
    services.draw_session(evening=other, seed=1)
    foreign = Round.objects.filter(session__evening=other).first()
    assert (
        organiser_client.post(reverse("organiser:round_lock", args=[drawn.pk, foreign.pk]), {"locked": "1"}).status_code
        == 404
    )


@pytest.mark.django_db
def test_locking_names_only_the_tables_not_started_and_refuses_one_not_shown(organiser_client, drawn):
    """Tables that have entered deals are locked without a question; a table not started that the
    confirmation did not name (it was shown before the draw changed, a hand-made form) keeps the
    round open with a message naming it."""
    round_1 = Round.objects.get(session__evening=drawn, number=1)
    for table in (1, 2, 3, 4, 5):
        factories.enter_round(seating_at(drawn, table), deals=1)
    url = reverse("organiser:round_lock", args=[drawn.pk, round_1.pk])
    page = organiser_client.get(url).content.decode()
    assert "Tisch 6 hat diese Runde noch nicht begonnen" in page
    response = organiser_client.post(url, {"locked": "1", "confirmed": "1"}, follow=True)
    round_1.refresh_from_db()
    assert not round_1.locked
    assert any(
        "Diese Runde hat an diesen Tischen noch nicht begonnen: 6." in str(m) for m in response.context["messages"]
    )
    factories.enter_round(seating_at(drawn, 6), deals=1)  # now every table has started: no question
    response = organiser_client.post(url, {"locked": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'data-testid="unlock-1"' in response.content.decode()
    round_1.refresh_from_db()
    assert round_1.locked


@pytest.mark.django_db
def test_close_and_reopen_a_session(organiser_client, drawn):
    url = reverse("organiser:session_close", args=[drawn.pk, 1])
    response = organiser_client.post(url, {"closed": "1"}, follow=True)
    assert any("geschlossen" in str(m) for m in response.context["messages"])
    assert Session.objects.get(evening=drawn).closed
    organiser_client.post(url, {"closed": "0"})
    assert not Session.objects.get(evening=drawn).closed
    assert (
        organiser_client.post(reverse("organiser:session_close", args=[drawn.pk, 2]), {"closed": "1"}).status_code
        == 404
    )


# --- The public ranking screen -----------------------------------------------------------------


@pytest.mark.django_db
def test_ranking_screen_is_public_read_only_and_updates_itself(client, drawn):
    factories.enter_round(seating_at(drawn, 1))
    url = reverse("public:ranking_screen", args=[drawn.pk])
    assert url == f"/abend/{drawn.pk}/rangliste/"
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Tom Whitfield" in html and "vorläufig" in html and 'hx-trigger="every 10s"' in html
    assert f"Wo sitze ich? <strong>http://testserver/abend/{drawn.pk}/platz/</strong>" in html
    leaders = seating_at(drawn, 1).team_a
    first_two = re.findall(r'<span class="name">([^<]+)</span>', html)[:2]
    assert set(first_two) == {leaders.player_1.name, leaders.player_2.name}
    assert client.post(url).status_code == 405
    assert client.get(reverse("public:ranking_screen", args=[999])).status_code == 404
    partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and "Tom Whitfield" in partial
    top = client.get(url + "?top=2").content.decode()
    assert len(re.findall(r'<span class="name">', top)) == 2


@pytest.mark.django_db
def test_ranking_screen_can_be_hidden_for_the_last_rounds(organiser_client, drawn):
    client = Client()  # the projector: no login
    organiser_client.post(reverse("organiser:ranking_visibility", args=[drawn.pk]), {"hidden": "1"})
    assert Evening.objects.get(pk=drawn.pk).ranking_hidden
    html = client.get(reverse("public:ranking_screen", args=[drawn.pk])).content.decode()
    assert "Die Rangliste wird am Ende bekanntgegeben" in html
    assert "Tom Whitfield" not in html and 'class="name"' not in html  # nothing leaks
    page = organiser_client.get(reverse("organiser:live", args=[drawn.pk])).content.decode()
    assert 'data-testid="reveal-ranking"' in page
    organiser_client.post(reverse("organiser:ranking_visibility", args=[drawn.pk]), {"hidden": "0"})
    assert "Tom Whitfield" in client.get(reverse("public:ranking_screen", args=[drawn.pk])).content.decode()


@pytest.mark.django_db
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_ranking_screen_query_count_does_not_grow_with_players(client):
    counts = []
    for players in (24, 80):
        evening = make_evening(players, name=f"Abend {players}")
        services.draw_session(evening=evening, seed=1)
        with CaptureQueriesContext(connection) as queries:
            client.get(reverse("public:ranking_screen", args=[evening.pk]))
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


# --- Where do I sit? ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_seat_finder_lists_every_player_a_to_z_with_search(client, drawn):
    url = reverse("public:seat_finder", args=[drawn.pk])
    html = client.get(url).content.decode()
    names = re.findall(r'<li data-name="[^"]*"><a class="button big" href="[^"]+">([^<]+)<', html)
    assert len(names) == 26
    assert names.index("Sönke Andresen") < names.index("Swantje Thomsen")  # ö sorts as o
    found = client.get(url, {"q": "sonke"}).content.decode()
    assert "Sönke Andresen" in found and "Tom Whitfield" not in found
    assert "Heute Abend spielt niemand" in client.get(url, {"q": "Niemand Xyz"}).content.decode()
    assert client.post(url).status_code == 405


@pytest.mark.django_db
def test_seat_finder_before_the_draw(client, roster_evening):
    html = client.get(reverse("public:seat_finder", args=[roster_evening.pk])).content.decode()
    assert "noch nicht ausgelost" in html


@pytest.mark.django_db
def test_a_player_sees_table_and_partner_now_and_next(client, drawn, monkeypatch):
    moment = [time.time()]
    monkeypatch.setattr(time, "time", lambda: moment[0])
    first = seating_at(drawn, 1)
    player = first.team_a.player_1
    url = reverse("public:seat", args=[drawn.pk, player.pk])
    html = client.get(url).content.decode()
    now = html.split('data-testid="seat-now"')[1].split("</section>")[0]
    assert "Tisch 1" in now and first.team_a.player_2.name in now
    assert first.team_b.player_1.name in now  # the opponents
    later = Seating.objects.select_related("table").filter(round__session__evening=drawn, round__number=2)
    where = {
        p: s.table.number
        for s in later
        for p in (s.team_a.player_1_id, s.team_a.player_2_id, s.team_b.player_1_id, s.team_b.player_2_id)
    }
    following = html.split('data-testid="seat-next"')[1].split("</section>")[0]
    if player.pk in where:
        assert f"Tisch {where[player.pk]}" in following
    else:
        assert "setzen in dieser Runde aus" in following
    # Table 1 confirms round 1: for its players "now" is round 2 as soon as the seat pages are
    # computed again (at most every few seconds for all phones together, so that a round change does not
    # compute the seat pages once per phone).
    factories.enter_round(first)
    services.enter_and_confirm_seating(seating_id=first.pk)
    moment[0] += screens.SEAT_FLOOR_SECONDS
    html = client.get(url).content.decode()
    assert "Jetzt: Durchgang 1, Runde 2" in html
    assert "<html" not in client.get(url, HTTP_HX_REQUEST="true").content.decode()


@pytest.mark.django_db
def test_a_sitting_out_player_is_told_so(client, drawn):
    round_1 = Round.objects.select_related("sitout_partnership").get(session__evening=drawn, number=1)
    sitter = round_1.sitout_partnership.player_1
    html = client.get(reverse("public:seat", args=[drawn.pk, sitter.pk])).content.decode()
    now = html.split('data-testid="seat-now"')[1].split("</section>")[0]
    assert "Sie setzen in dieser Runde aus" in now and round_1.sitout_partnership.player_2.name in now


@pytest.mark.django_db
def test_unknown_player_or_evening_is_a_friendly_404(client, drawn):
    stranger, _ = services.add_player(name="Nicht Dabei")
    response = client.get(reverse("public:seat", args=[drawn.pk, stranger.pk]))
    assert response.status_code == 404 and "spielt im laufenden Durchgang nicht mit" in response.content.decode()
    assert client.get(reverse("public:seat", args=[999, 1])).status_code == 404
    assert client.get(reverse("public:seat_finder", args=[999])).status_code == 404
    assert Player.objects.filter(name="Nicht Dabei").exists()
