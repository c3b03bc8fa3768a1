"""The results site's pages: four languages, live refresh with ETag and a shared cache, hidden
rounds, privacy (not published, withdrawn), seasons and the association's ranking."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.hub import services
from tests.hub.conftest import evening_snapshot, post, season_snapshot

pytestmark = pytest.mark.django_db

LANGUAGES = {"de": "Rangliste", "en": "Ranking", "da": "Stilling", "sv": "Resultatlista"}


def _pages(club) -> list[str]:
    return [
        "/",
        f"/verein/{club.slug}/",
        f"/verein/{club.slug}/abend/hall-1-17/",
        f"/verein/{club.slug}/spieler/p-0001/",
        f"/verein/{club.slug}/saison/hall-1-s3/",
    ]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_page_renders_in_each_language(hub, language):
    client, club, key = hub
    post(client, evening_snapshot(), key)
    post(client, season_snapshot(), key)
    association = services.create_association("Nordfriesischer Bruusverband", [club.name])
    season = services.add_association_season(association.name, "Winter 2026/27", "2026-09-01", "2027-04-30")
    prefix = "" if language == "de" else f"/{language}"
    pages = [*_pages(club), f"/verband/{association.slug}/", f"/verband/{association.slug}/saison/{season.pk}/"]
    for page in pages:
        answer = client.get(prefix + page)
        assert answer.status_code == 200, page
        assert f'<html lang="{language}">' in answer.content.decode()
        assert answer["Content-Language"] == language
        assert "public" in answer["Cache-Control"] and not answer.cookies
    evening = client.get(f"{prefix}/verein/{club.slug}/abend/hall-1-17/").content.decode()
    assert LANGUAGES[language] in evening


def test_the_language_links_lead_to_the_same_page(hub):
    client, club, key = hub
    post(client, evening_snapshot(), key)
    page = client.get(f"/verein/{club.slug}/abend/hall-1-17/").content.decode()
    for code in ("en", "da", "sv"):
        assert f'href="/{code}/verein/{club.slug}/abend/hall-1-17/"' in page


def test_a_live_evening_refreshes_itself_and_answers_304(hub):
    client, club, key = hub
    post(client, evening_snapshot(version=100), key)
    url = f"/verein/{club.slug}/abend/hall-1-17/"
    first = client.get(url)
    assert 'hx-trigger="every 15s"' in first.content.decode()
    assert first["Cache-Control"] == "public, max-age=5, s-maxage=2"
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert client.get(f"/en{url}", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200  # another page
    post(client, evening_snapshot(version=101, state="final"), key)
    final = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert final.status_code == 200 and final["ETag"] != first["ETag"]
    assert "hx-trigger" not in final.content.decode() and "Endstand" in final.content.decode()
    assert final["Cache-Control"] == "public, max-age=60"


def test_an_evening_shows_ranking_tables_and_deals(hub):
    client, club, key = hub
    post(client, evening_snapshot(count=8), key)
    page = client.get(f"/verein/{club.slug}/abend/hall-1-17/").content.decode()
    assert "Spieler 0001 Hansen" in page and "Durchgang 1" in page and "Runde 1" in page
    assert "14 : 9" in page and "Spiel 1: 5 : 0" in page
    assert f'href="/verein/{club.slug}/spieler/p-0001/"' in page


def test_a_player_not_published_shows_as_such(hub):
    client, club, key = hub
    post(client, evening_snapshot(count=8), key)
    page = client.get(f"/verein/{club.slug}/abend/hall-1-17/").content.decode()
    assert page.count('data-testid="not-published"') == 2  # in the ranking and at the table
    assert "(nicht veröffentlicht)" in page


def test_hidden_rounds_keep_the_ranking_shown_before_with_a_note(hub):
    client, club, key = hub
    post(client, evening_snapshot(version=100), key)
    post(client, evening_snapshot(version=130, hidden=True), key)
    page = client.get(f"/verein/{club.slug}/abend/hall-1-17/").content.decode()
    assert 'data-testid="ranking-hidden"' in page and "Spieler 0001 Hansen" in page


def test_a_withdrawal_removes_the_names_everywhere(hub):
    client, club, key = hub
    post(client, evening_snapshot("hall-1-17"), key)
    post(client, evening_snapshot("hall-1-18"), key)
    post(client, season_snapshot(evenings=("hall-1-17", "hall-1-18")), key)
    name = "Spieler 0001 Hansen"
    assert client.get(f"/verein/{club.slug}/spieler/p-0001/").status_code == 200
    withdraw = {"format": "bruus-withdraw", "format_version": 1, "players": ["p-0001"], "evenings": ["hall-1-18"]}
    post(client, withdraw, key)
    for page in _pages(club):
        answer = client.get(page)
        assert name not in answer.content.decode(), page
    assert client.get(f"/verein/{club.slug}/spieler/p-0001/").status_code == 404
    assert client.get(f"/verein/{club.slug}/abend/hall-1-18/").status_code == 404
    assert "hall-1-18" not in client.get(f"/verein/{club.slug}/").content.decode()


def test_the_club_page_lists_evenings_newest_first_and_its_imprint(hub):
    client, club, key = hub
    post(client, evening_snapshot("a", date="2026-10-01", name="Oktoberabend"), key)
    post(client, evening_snapshot("b", date="2026-11-27", name="Novemberabend"), key)
    services.set_club_imprint(club.name, "Bruus-Club Schwesing e. V.\nDorfstraße 1")
    page = client.get(f"/verein/{club.slug}/").content.decode()
    assert page.index("Novemberabend") < page.index("Oktoberabend")
    assert "Dorfstraße 1" in page and 'data-testid="imprint"' in page


def test_the_association_ranks_players_across_clubs(hub):
    client, first, first_key = hub
    second, second_key = services.create_club("Bruus-Club Treia")
    services.create_association("Verband", [first.name, second.name])
    season = services.add_association_season("Verband", "Winter", "2026-09-01", "2027-04-30")
    post(client, evening_snapshot("a", state="final"), first_key)
    post(client, evening_snapshot("b", state="final"), second_key)
    post(client, evening_snapshot("c", state="live"), second_key)  # not final: does not count yet
    post(client, evening_snapshot("d", state="final", date="2026-05-01"), second_key)  # before the season
    page = client.get(f"/verband/{services.Association.objects.get().slug}/saison/{season.pk}/").content.decode()
    # "Spieler 0001 Hansen" played one evening in each club: one person, 60 + 60.
    row = page[page.index("Spieler 0001 Hansen") :]
    assert '<td class="num total">120</td>' in row[: row.index("</tr>")]
    # "E. F." (initials, p-0004) counts per club: two rows of one evening each.
    assert page.count("E. F.") == 2


def test_unknown_pages_are_404_in_the_hubs_own_page(hub):
    client, club, _ = hub
    mine = f"/verein/{club.slug}"
    for url in ("/verein/nobody/", f"{mine}/abend/nope/", f"{mine}/spieler/x/", f"{mine}/saison/x/", "/verband/x/"):
        answer = client.get(url)
        assert answer.status_code == 404 and "Seite nicht gefunden" in answer.content.decode()


def test_pages_only_answer_get(hub):
    client, _, _ = hub
    assert Client().post("/").status_code == 405
