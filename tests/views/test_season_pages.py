"""Seasons at the organiser's desk: names with club and linked, the tie-break
said in the spreadsheets, the evening's place shown in placement-points mode, the PDF title's year
once, a stand-in's evening counted alike on the player page and in the season, and the hint
"same person?" on the register."""

from __future__ import annotations

import csv
import io
import random
from datetime import date

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring import selectors, services
from scoring.documents.season import build_season_ranking, season_ranking_name
from scoring.domain.rules import DealResult
from scoring.domain.tiebreaks import Criterion
from scoring.models import Season, Seating
from scoring.setup.demo import play_evening
from tests import factories
from tests.pdf_check import Box, problems
from tests.services.test_seasons import (
    played_evening,
    pool,
    season_with,
    small_season,  # noqa: F401 (fixture)
)
from tests.tracing import pdf_texts

pytestmark = pytest.mark.django_db


def tied_season():
    """One evening of 8: team A of every table wins its deal, team B dares (1 each): every total 1,
    the deal winners ahead by "deals won"."""
    players = pool(8)
    evening = services.create_evening(
        name="Gleichstand", date=date(2026, 1, 5), sessions_count=1, rounds_per_session=1, deals_per_round=1
    )
    for player in players:
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    session = services.draw_session(evening=evening, seed=41)
    for seating in Seating.objects.filter(round__session=session).select_related("table"):
        factories.enter_deal(seating, bonus_b=1)
        services.enter_and_confirm_seating(seating_id=seating.pk, table=seating.table)
    return season_with([evening], planned_evenings=1, tie_break="deals_won")


def test_the_spreadsheets_say_why_equal_totals_have_different_places(organiser_client):
    season = tied_season()
    lines = selectors.season_ranking(season).lines
    assert {line.total for line in lines} == {1} and len({line.place for line in lines}) == 2
    url = reverse("organiser:season_detail", args=[season.pk])
    text = organiser_client.get(url + "?_export=csv").content.decode("utf-8-sig")
    dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;")
    rows = list(csv.reader(io.StringIO(text), dialect))
    assert rows[0][-1] == "Gleichstand"
    fourth = next(row for row in rows[1:] if row[1] == lines[3].player.name)
    assert fourth[-1] == f"vor {lines[4].player.name} durch mehr gewonnene Spiele"
    sheet = load_workbook(io.BytesIO(organiser_client.get(url + "?_export=xlsx").content)).active
    assert sheet.cell(1, sheet.max_column).value == "Gleichstand"
    assert any(str(sheet.cell(r, sheet.max_column).value or "").startswith("vor ") for r in range(2, 10))


def test_placement_points_show_the_evenings_place(organiser_client):
    players = pool(8)
    evenings = [played_evening(players, 1, seed=1), played_evening(players, 2, seed=2)]
    season = season_with(evenings, scoring="points", placement_points=(10, 8, 6, 5, 4, 3, 2, 1))
    ranking = selectors.season_ranking(season)
    page = organiser_client.get(reverse("organiser:season_detail", args=[season.pk])).content.decode()
    first = ranking.lines[0]
    cell = first.cells[0]
    assert page.count('data-testid="evening-place"') == sum(len(line.cells) for line in ranking.lines)
    assert f'{cell.value}<small class="evening-place" data-testid="evening-place">{cell.result.place}. Platz' in page
    summed = season_with([played_evening(players, 3, seed=3)], name="Summe", planned_evenings=1)  # no place shown
    page = organiser_client.get(reverse("organiser:season_detail", args=[summed.pk])).content.decode()
    assert 'data-testid="evening-place"' not in page


def test_names_with_club_and_linked(organiser_client, client):
    players = pool(8)
    twin = services.add_player(name=players[0].name, club="Husum")[0]  # same name, another club
    evening = played_evening([twin, *players[1:]], 1, seed=1)
    season = season_with([evening])
    page = organiser_client.get(reverse("organiser:season_detail", args=[season.pk])).content.decode()
    assert f'<a href="{reverse("organiser:player_detail", args=[twin.pk])}">{twin.name}</a>' in page
    screen = client.get(reverse("public:season_screen", args=[season.pk])).content.decode()
    assert f'<small class="club">{twin.club}</small>' in screen


def test_the_pdf_title_says_the_year_once():
    evening = played_evening(pool(8), 1, seed=1)
    with_year = season_with([evening], name="Jahreswertung 2027", year=2027)
    assert season_ranking_name(selectors.season_ranking(with_year)).count("2027") == 1
    services.save_season(
        season=with_year, name="Jahreswertung", year=2027, scoring="sum", planned_evenings=1, evening_ids=[evening.pk]
    )
    with_year.refresh_from_db()
    assert season_ranking_name(selectors.season_ranking(with_year)).endswith("Jahreswertung 2027")


def test_a_stand_ins_evening_counts_alike_on_the_player_page_and_in_the_season(organiser_client):
    """docs/rules.md, "Sitting out": a stand-in plays but is not ranked. So an evening as stand-in is no result: the
    season does not count it, and the player page counts the ranked evenings as the season does,
    naming the stand-in evening apart."""
    players = pool(8)
    anke = players[0]
    evenings = [played_evening(players, day, seed=day) for day in (1, 2, 3)]
    stand_in_evening = services.create_evening(name="Als Ersatz", date=date(2026, 1, 20), sessions_count=1)
    for player in players:
        services.set_checked_in(evening=stand_in_evening, player=player, checked_in=True)
    services.set_stand_in(evening=stand_in_evening, player=anke, stand_in=True)
    play_evening(stand_in_evening, random.Random(4))
    season = season_with([*evenings, stand_in_evening])
    line = next(line for line in selectors.season_ranking(season).lines if line.player == anke)
    assert line.played == 3
    history = selectors.player_history(anke)
    assert (len(history.evenings), history.ranked_evenings, history.stand_in_evenings) == (4, 3, 1)
    page = organiser_client.get(reverse("organiser:player_detail", args=[anke.pk])).content.decode()
    assert '<dd data-testid="ranked-evenings">3 <small>und 1 als Ersatzspieler (nicht gewertet)</small>' in page


def test_the_register_flags_likely_duplicates_and_links_the_merge(organiser_client):
    without, _ = services.add_player(name="Jens Carstensen")
    with_club, _ = services.add_player(name="Jens Carstensen", club="Schwesing")
    spelled, _ = services.add_player(name="Lützen, Jürgen", club="Husum")
    plain, _ = services.add_player(name="Jürgen Lützen", club="Husum")
    services.add_player(name="Ocke Brodersen", club="Treia")
    services.add_player(name="Ocke Brodersen", club="Husum")  # two people
    page = organiser_client.get(reverse("organiser:player_list")).content.decode()
    hint = page.split('data-testid="duplicates"')[1].split("</section>")[0]
    merge = reverse("organiser:player_merge")
    assert f"{merge}?keep={with_club.pk}&amp;remove={without.pk}" in hint
    assert f"{merge}?keep={spelled.pk}&amp;remove={plain.pk}" in hint
    assert "gleicher Name, einer ohne Verein" in hint and "Ocke" not in hint
    assert organiser_client.get(f"{merge}?keep={with_club.pk}&remove={without.pk}").status_code == 200


def test_no_hint_without_duplicates(organiser_client):
    pool(4)
    assert 'data-testid="duplicates"' not in organiser_client.get(reverse("organiser:player_list")).content.decode()


@pytest.mark.django_db
def test_the_form_shows_the_placement_table_error_in_german_and_saves_nothing(organiser_client):
    evening = services.create_evening(name="Januar", date=date(2026, 1, 10))
    data = {
        "name": "Jahreswertung",
        "year": "2026",
        "scoring": "points",
        "placement_points": "25, 20, , 13",
        "min_evenings": "1",
        "planned_evenings": "12",
        "evenings": [evening.pk],
    }
    response = organiser_client.post(reverse("organiser:season_create"), data)
    assert response.status_code == 200
    assert "Die Punkte für Platz 3 fehlen" in response.content.decode()
    data["placement_points"] = "25, 20, 16"
    data["best_of"] = "１"  # a full-width digit is no number here
    response = organiser_client.post(reverse("organiser:season_create"), data)
    assert "ganze Zahl" in response.content.decode()
    assert not Season.objects.exists()
    data["best_of"] = "13"
    response = organiser_client.post(reverse("organiser:season_create"), data)
    assert "zwischen 1 und den 12 geplanten Abenden" in response.content.decode()
    assert not Season.objects.exists()
    data["best_of"] = ""
    response = organiser_client.post(reverse("organiser:season_create"), data)
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("organiser:season_detail", args=[season.pk])
    assert season.placement_points == [25, 20, 16] and list(season.evenings.all()) == [evening]


def test_the_season_page_strikes_dropped_results_and_lists_the_unranked_below(organiser_client, small_season):
    ranking = selectors.season_ranking(small_season)
    assert ranking.any_dropped and ranking.unranked and not ranking.final
    page = organiser_client.get(reverse("organiser:season_detail", args=[small_season.pk])).content.decode()
    assert 'class="num dropped"' in page
    dropped = next(c for line in ranking.lines for c in line.cells.values() if c.dropped)
    assert f">({dropped.value})</td>" in page
    assert "Noch nicht gewertet (weniger als 2 Abende)" in page
    assert 'data-testid="season-provisional"' in page
    assert page.index(ranking.ranked[-1].player.name) < page.index(ranking.unranked[0].player.name)
    screen = organiser_client.get(reverse("public:season_screen", args=[small_season.pk])).content.decode()
    assert ranking.ranked[0].player.name in screen and "vorläufig" in screen


def test_public_player_pages_only_when_the_season_allows_them(client, small_season):
    """Players' pages of a season are public only when the organiser allows it; then the season
    screen links each name to the player's evenings of this season (and no other evening)."""
    ranking = selectors.season_ranking(small_season)
    first = ranking.ranked[0].player
    page_url = reverse("public:season_player", args=[small_season.pk, first.pk])
    screen_url = reverse("public:season_screen", args=[small_season.pk])
    assert client.get(page_url).status_code == 404
    assert page_url not in client.get(screen_url).content.decode()

    regulars = [p for p in pool(16) if p != first]
    other = played_evening([*regulars[-7:], first], 40, seed=9)  # first plays it, not in the season
    small_season.public_player_pages = True
    small_season.save()
    assert page_url in client.get(screen_url).content.decode()
    page = client.get(page_url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert first.name in page and small_season.name in page and "<svg" in page
    line = next(line for line in ranking.lines if line.player == first)
    played = {ranking.evenings[i].evening.name for i in line.cells}
    assert played and all(f"<td>{name}</td>" in page for name in played)
    assert "<td>Abend 40</td>" not in page and other.name == "Abend 40"  # only the season's evenings
    assert "/organiser/" not in page  # no organiser links on a public page

    never = services.add_player(name="Nie Dabei", club="")[0]
    assert client.get(reverse("public:season_player", args=[small_season.pk, never.pk])).status_code == 404


def test_season_spreadsheets(organiser_client, small_season):
    ranking = selectors.season_ranking(small_season)
    url = reverse("organiser:season_detail", args=[small_season.pk])
    csv = organiser_client.get(url + "?_export=csv")
    assert csv["Content-Type"].startswith("text/csv") and "Saisonwertung" in csv["Content-Disposition"]
    text = csv.content.decode("utf-8-sig").splitlines()
    assert text[0].startswith("Platz;Name;Verein;1 · ") and text[0].endswith(";Abende;Gesamt")  # German Excel
    first = ranking.lines[0]
    assert text[1].startswith(f"{first.place}.") and first.player.name in text[1]
    assert any("(" in line for line in text[1:])  # dropped results in brackets
    xlsx = organiser_client.get(url + "?_export=xlsx")
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet.cell(2, 1).value == first.place
    assert sheet.cell(2, 5 + len(ranking.evenings)).value == int(first.total)
    # Named as the season's PDF, another extension.
    pdf = organiser_client.get(reverse("organiser:season_pdf", args=[small_season.pk]))["Content-Disposition"]
    for response, extension in ((csv, "csv"), (xlsx, "xlsx")):
        stem, found = response["Content-Disposition"].split("filename*=utf-8''")[1].rsplit(".", 1)
        assert found == extension and stem.startswith("Saisonwertung")
        assert stem == pdf.split("filename*=utf-8''")[1].rsplit(".", 1)[0]


def test_season_pdf_fits_portrait_and_landscape(organiser_client, small_season):
    response = organiser_client.get(reverse("organiser:season_pdf", args=[small_season.pk]))
    assert response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content)
    page = PdfReader(io.BytesIO(data)).pages[0]
    assert float(page.mediabox.width) < float(page.mediabox.height)  # 4 evenings: portrait
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert problems(data, [Box(0, 0, width, height)]) == []
    text = pdf_texts(data)[0]
    assert "Saisonwertung (vorläufig)" in text and "VORLÄUFIG" in text
    # Twelve evenings: landscape, every column on the page.
    evenings = [services.create_evening(name=f"Abend {n}", date=date(2026, 3, n)) for n in range(1, 9)]
    services.save_season(
        season=small_season,
        name="Jahreswertung",
        year=2026,
        scoring="sum",
        planned_evenings=12,
        evening_ids=[*small_season.links.values_list("evening_id", flat=True), *(e.pk for e in evenings)],
    )
    ranking = selectors.season_ranking(small_season)
    assert len(ranking.evenings) == 12
    data = build_season_ranking(ranking)
    page = PdfReader(io.BytesIO(data)).pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert width > height
    assert problems(data, [Box(0, 0, width, height)]) == []
    text = pdf_texts(data)[0]
    assert "Abend 8" in text and "12\n" in text


@pytest.mark.django_db
def test_a_season_without_results_prints_nothing_and_says_why(organiser_client):
    season = season_with([services.create_evening(name="Januar", date=date(2026, 1, 10))])
    response = organiser_client.get(reverse("organiser:season_pdf", args=[season.pk]))
    assert response.status_code == 302
    page = organiser_client.get(response["Location"]).content.decode()
    assert "noch keine Saisonwertung zu drucken" in page


@pytest.mark.django_db
def test_the_evening_page_links_to_its_season(organiser_client):
    evening = services.create_evening(name="Januar", date=date(2026, 1, 10))
    page = organiser_client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    assert "Nicht in einer Saison" in page
    season = season_with([evening], name="Jahreswertung 2026")
    page = organiser_client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    assert reverse("organiser:season_detail", args=[season.pk]) in page
    page = organiser_client.get(reverse("organiser:evening_list")).content.decode()
    assert reverse("organiser:season_list") in page


@pytest.mark.django_db
def test_a_season_tie_break_chain_is_saved_from_the_form_and_separates_equal_values(organiser_client):
    players = pool(8)
    evening = services.create_evening(
        name="Gleichstand", date=date(2026, 1, 5), sessions_count=1, rounds_per_session=1, deals_per_round=1
    )
    for player in players:
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    # Team A wins its deal (1), team B dares successfully (1): everybody has 1 matchstick, only
    # team A has won a deal.
    session = services.draw_session(evening=evening, seed=41)
    winners = set()
    for seating in Seating.objects.filter(round__session=session).select_related("table", "team_a"):
        result = DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=1)
        factories.enter_deal(seating, 1, result=result)
        services.enter_and_confirm_seating(seating_id=seating.pk, table=seating.table)
        winners |= {seating.team_a.player_1_id, seating.team_a.player_2_id}
    season = season_with([evening], planned_evenings=1)
    ranking = selectors.season_ranking(season)
    assert {line.total for line in ranking.lines} == {1} and {line.place for line in ranking.lines} == {1}
    data = {
        "name": "Jahreswertung",
        "year": "2026",
        "scoring": "sum",
        "min_evenings": "1",
        "planned_evenings": "1",
        "tiebreak_1": "deals_won",
        "tiebreak_2": "deals_won",
        "evenings": [evening.pk],
    }
    url = reverse("organiser:season_edit", args=[season.pk])
    response = organiser_client.post(url, data)
    assert "nur einmal" in response.content.decode()  # the same tie-break twice: refused
    season.refresh_from_db()
    assert season.tie_break == ""
    data["tiebreak_2"] = "best_session"
    assert organiser_client.post(url, data).status_code == 302
    season.refresh_from_db()
    assert season.tie_break == "deals_won,best_session"
    lines = selectors.season_ranking(season).lines
    assert [(line.player.pk in winners, line.place, line.shared) for line in lines] == [
        *[(True, 1, True)] * 4,
        *[(False, 5, True)] * 4,
    ]
    assert [line.ahead_by for line in lines] == [None, None, None, Criterion.DEALS_WON, None, None, None, None]
    page = organiser_client.get(reverse("organiser:season_detail", args=[season.pk])).content.decode()
    assert "in dieser Reihenfolge" in page
    assert page.count('class="meta tiebreak"') == 1
    assert f"vor {lines[4].player.name}" in page
