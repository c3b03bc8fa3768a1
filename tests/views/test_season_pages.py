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

from scoring import selectors, services
from scoring.documents.season import season_ranking_name
from scoring.models import Seating
from scoring.setup.demo import play_evening
from tests import factories
from tests.services.test_seasons import played_evening, pool, season_with

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
