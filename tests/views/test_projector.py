"""The projector page: what it shows is chosen per evening on the live
overview; the seating of the next round; the QR code to "Where do I sit?" on every view; polls
as cheap as the ranking screen's. The layout itself is tested in Chromium
(tests/test_browser_projector.py)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Evening, ProjectorMode, Session
from scoring.services import ServiceError
from scoring.views import projector
from scoring.web import screen_cache
from tests import rows
from tests.conftest import make_evening
from tests.services.test_draw_wishes import play_round
from tests.services.test_seasons import small_season  # noqa: F401 (fixture)

HTMX = {"HTTP_HX_REQUEST": "true"}
HALL = "http://192.168.178.20:8000"


@pytest.fixture(scope="session")
def _projector_evening_rows(django_db_setup, django_db_blocker) -> tuple[int, list[dict]]:
    """The rows of :func:`drawn`, built through the services once per test process (tests/rows.py)."""

    def build() -> int:
        evening = make_evening(26)
        services.draw_session(evening=evening, seed=1)
        return evening.pk

    with django_db_blocker.unblock():
        return rows.capture(build)


@pytest.fixture
def drawn(db, _projector_evening_rows):
    """26 players, session 1 drawn (seed 1): the rows as the services wrote them, put back."""
    return rows.evening_put_back(_projector_evening_rows)


def _mode(evening) -> str:
    return Evening.objects.values_list("projector_mode", flat=True).get(pk=evening.pk)


def _version(evening) -> int:
    return Evening.objects.values_list("version", flat=True).get(pk=evening.pk)


def _page(client, evening, **headers):
    return client.get(reverse("public:projector", args=[evening.pk]), **headers)


# --- The choice: service and the live overview's buttons ------------------------------------------


def test_the_leader_chooses_what_the_projector_shows_and_the_screens_reload(drawn, organiser):
    assert _mode(drawn) == ProjectorMode.RANKING
    before = _version(drawn)
    services.set_projector_mode(evening_id=drawn.pk, mode="seating", user=organiser)
    assert _mode(drawn) == "seating" and _version(drawn) == before + 1
    # The same choice again changes nothing: no screen reloads for it.
    services.set_projector_mode(evening_id=drawn.pk, mode="seating", user=organiser)
    assert _version(drawn) == before + 1


@pytest.mark.parametrize("mode", ["", "beamer", "RANKING", "ranking ", "x" * 500])
def test_a_mode_not_offered_is_refused_and_changes_nothing(drawn, organiser, mode):
    before = _version(drawn)
    with pytest.raises(ServiceError) as refused:
        services.set_projector_mode(evening_id=drawn.pk, mode=mode, user=organiser)
    assert refused.value.code == "projector_mode"
    assert _mode(drawn) == "ranking" and _version(drawn) == before


def test_a_helper_or_nobody_may_not_choose(drawn, helper):
    for user in (helper, None):
        with pytest.raises(ServiceError) as refused:
            services.set_projector_mode(evening_id=drawn.pk, mode="clock", user=user)
        assert refused.value.code == "not_allowed"
    assert _mode(drawn) == "ranking"


def test_the_live_overview_offers_the_four_views_and_the_projector_address(organiser_client, drawn, settings):
    settings.PUBLIC_BASE_URL = HALL
    html = organiser_client.get(reverse("organiser:live", args=[drawn.pk])).content.decode()
    assert f"{HALL}/abend/{drawn.pk}/beamer/" in html
    for value in ProjectorMode.values:
        assert f'data-testid="projector-mode-{value}"' in html
    assert re.search(r'aria-pressed="true" data-testid="projector-mode-ranking"', html)

    response = organiser_client.post(
        reverse("organiser:projector_mode", args=[drawn.pk]), {"mode": "rotation", "durchgang": "1"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("organiser:live", args=[drawn.pk]) + "?durchgang=1"
    page = response.content.decode()
    assert "Der Beamer zeigt jetzt: Wechsel aller drei." in page or "The projector now shows" in page
    assert _mode(drawn) == "rotation"
    assert re.search(r'aria-pressed="true" data-testid="projector-mode-rotation"', page)


def test_a_bad_choice_on_the_live_overview_says_so_and_changes_nothing(organiser_client, drawn):
    response = organiser_client.post(reverse("organiser:projector_mode", args=[drawn.pk]), {"mode": "<b>"}, follow=True)
    assert response.status_code == 200
    assert "projector views offered" in response.content.decode() or "Beamer-Ansichten" in response.content.decode()
    assert _mode(drawn) == "ranking"


def test_a_helper_gets_no_buttons_and_the_403_page(client, helper, drawn):
    client.force_login(helper)
    live = client.get(reverse("organiser:live", args=[drawn.pk])).content.decode()
    assert 'data-testid="projector-modes"' not in live
    assert client.post(reverse("organiser:projector_mode", args=[drawn.pk]), {"mode": "clock"}).status_code == 403
    assert _mode(drawn) == "ranking"


def test_choosing_needs_a_post_and_an_existing_evening(organiser_client, drawn):
    assert organiser_client.get(reverse("organiser:projector_mode", args=[drawn.pk])).status_code == 405
    missing = organiser_client.post(reverse("organiser:projector_mode", args=[999999]), {"mode": "clock"})
    assert missing.status_code == 404


# --- The public projector page ---------------------------------------------------------------------


def test_every_view_carries_the_qr_code_of_where_do_i_sit_on_the_hall_address(client, drawn, settings, organiser):
    settings.PUBLIC_BASE_URL = HALL
    for mode in ProjectorMode.values:
        services.set_projector_mode(evening_id=drawn.pk, mode=mode, user=organiser)
        html = _page(client, drawn).content.decode()
        assert f'<span data-testid="finder-url">{HALL}/abend/{drawn.pk}/platz/</span>' in html, mode
        assert '<svg class="qr"' in html and 'data-testid="finder-qr"' in html, mode


def test_the_ranking_view_names_every_player_and_the_seating_view_every_table(client, drawn, organiser):
    names = {p.name for p in drawn.players.all()}
    html = _page(client, drawn).content.decode()
    assert 'data-section="ranking"' in html and 'data-section="seating"' not in html
    assert set(re.findall(r'class="projector-item" role="listitem" data-player="([^"]+)"', html)) == names

    services.set_projector_mode(evening_id=drawn.pk, mode="seating", user=organiser)
    html = _page(client, drawn).content.decode()
    assert 'data-section="ranking"' not in html and 'data-section="seating"' in html
    seated = re.findall(r'<span class="name" data-player="([^"]+)"', html)
    assert sorted(seated) == sorted(names)  # 26 players: 6 tables and a partnership sitting out
    assert html.count("seating-table sits-out") == 2


def test_the_seating_shown_is_the_next_round_once_a_round_is_confirmed(drawn):
    session = Session.objects.get(evening=drawn, number=1)
    assert selectors.projector_seating(drawn).round == 1
    play_round(session, 1)
    shown = selectors.projector_seating(drawn)
    assert (shown.session, shown.round) == (1, 2)
    tables = {t.number: set(t.team_a + t.team_b) for t in shown.tables}
    assert len(tables) == 6 and len(shown.sitting_out) == 2
    for number in range(2, drawn.rounds_per_session + 1):
        play_round(session, number)
    assert selectors.projector_seating(drawn).round is None  # session finished: the next draw follows


def test_before_the_draw_the_seating_view_says_what_comes(client, db, organiser):
    evening = make_evening(8)
    assert selectors.projector_seating(evening) is None
    services.set_projector_mode(evening_id=evening.pk, mode="seating", user=organiser)
    html = _page(client, evening).content.decode()
    assert "once the session is drawn" in html or "sobald der Durchgang ausgelost ist" in html


def test_the_rotation_shows_ranking_and_seating_and_no_clock_while_none_runs(client, drawn, organiser):
    services.set_projector_mode(evening_id=drawn.pk, mode="rotation", user=organiser)
    html = _page(client, drawn).content.decode()
    assert re.findall(r'data-section="(\w+)"', html) == ["ranking", "seating"]
    services.set_projector_mode(evening_id=drawn.pk, mode="clock", user=organiser)
    html = _page(client, drawn).content.decode()
    assert re.findall(r'data-section="(\w+)"', html) == ["clock"]
    assert 'data-testid="projector-clock"' in html


def test_a_hidden_ranking_stays_hidden_on_the_projector(client, drawn):
    services.set_ranking_hidden(evening_id=drawn.pk, hidden=True)
    html = _page(client, drawn).content.decode()
    assert 'data-testid="ranking-hidden"' in html and "Spieler 1<" not in html


def test_an_unknown_evening_is_404(client, db):
    assert client.get(reverse("public:projector", args=[999999])).status_code == 404


def test_the_floor_is_shorter_than_the_projector_poll():
    assert projector.POLL_SECONDS > screen_cache.FLOOR_SECONDS


def test_an_unchanged_poll_is_304_after_one_query(client, drawn, django_assert_num_queries):
    first = _page(client, drawn, **HTMX)
    assert first.status_code == 200 and first["ETag"] and "no-cache" in first["Cache-Control"]
    with django_assert_num_queries(1):
        again = _page(client, drawn, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert again.status_code == 304
    with django_assert_num_queries(1):  # a new projector: the fragment from the shared cache
        fresh = _page(client, drawn, **HTMX)
    assert fresh.content == first.content


def test_a_new_choice_reaches_the_projector_at_its_next_poll(client, drawn, organiser, monkeypatch):
    monkeypatch.setattr(screen_cache, "FLOOR_SECONDS", 0)
    first = _page(client, drawn, **HTMX)
    services.set_projector_mode(evening_id=drawn.pk, mode="seating", user=organiser)
    again = _page(client, drawn, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert again.status_code == 200 and 'data-section="seating"' in again.content.decode()


@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_the_query_count_does_not_grow_with_the_field(client, db, organiser):
    counts = []
    for players in (24, 80):
        evening = make_evening(players, name=f"Abend {players}")
        services.draw_session(evening=evening, seed=1)
        services.set_projector_mode(evening_id=evening.pk, mode="rotation", user=organiser)
        with CaptureQueriesContext(connection) as queries:
            assert _page(client, evening).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def test_the_projector_shows_the_round_clock_once_it_runs(drawn, client, organiser):
    assert projector.round_clock_for(drawn) is None
    page = _page(client, drawn).content.decode()
    assert "data-round-clock" not in page
    round_1 = drawn.sessions.get(number=1).rounds.get(number=1)
    services.start_round_clock(evening_id=drawn.pk, round_id=round_1.pk, user=organiser)
    services.set_projector_mode(evening_id=drawn.pk, mode="clock", user=organiser)
    page = _page(client, drawn).content.decode()
    assert 'data-round-clock data-status="running"' in page and ("30:00" in page or "29:5" in page)
    # A poll while the clock runs is rendered for that poll: the clock carries the server's time.
    first = _page(client, drawn, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-status="running"' in first and "data-now=" in first


# --- The season screen refreshes itself -------------------------------------


def test_the_season_screen_polls_names_every_player_and_answers_304_while_nothing_changed(
    client, small_season, django_assert_num_queries
):
    url = reverse("public:season_screen", args=[small_season.pk])
    page = client.get(url).content.decode()
    assert 'hx-trigger="every 30s"' in page and "js/projector.js" in page
    ranking = selectors.season_ranking(small_season)
    shown = set(re.findall(r'role="listitem" data-player="([^"]+)"', page))
    assert shown == {line.player.name for line in ranking.lines}  # the unranked too, without a place
    first = client.get(url, **HTMX)
    assert first.status_code == 200 and "<html" not in first.content.decode() and first["ETag"]
    with django_assert_num_queries(2):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX).status_code == 304

    # A change on one of its evenings, or of the season's settings: the next poll gets it.
    player = ranking.lines[0].player
    services.update_player(player_id=player.pk, name="Neu Benannt")
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert again.status_code == 200 and "Neu Benannt" in again.content.decode()
    small_season.min_evenings = 1
    small_season.save()
    assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"], **HTMX).status_code == 200
