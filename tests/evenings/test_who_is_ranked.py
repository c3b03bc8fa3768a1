"""Who is ranked in an evening and who counts as having played it: the players
drawn into a session, checked out since or not; before the first draw those checked in; never a
player checked out before the draw, never a stand-in. The same players on the ranking page, the
projector, the PDF, CSV, Excel, the website's file, the season and the player's own page."""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Player, ProjectorMode
from scoring.setup.builders import evening_with_players, play_session
from tests.tracing import pdf_texts

pytestmark = pytest.mark.django_db

GONE = ("Spieler 9", "Spieler 10")  # checked out before the first draw


# --- The rule (pure) ----------------------------------------------------------------------------


def test_the_rule_before_and_after_the_first_draw():
    from scoring.domain.ranking import played_evening, ranked_in_evening

    drawn, checked_in, stand_ins = {1, 2, 3, 4, 7}, {2, 3, 4, 5, 7}, {7}
    # Before any draw: who is checked in now (a preview at 0), stand-ins never.
    assert ranked_in_evening(drawn=(), checked_in=checked_in, stand_ins=stand_ins, any_session_drawn=False) == {
        2,
        3,
        4,
        5,
    }
    # After a draw: who was drawn (1 went home since, 5 came late and waits for the next draw).
    after = ranked_in_evening(drawn=drawn, checked_in=checked_in, stand_ins=stand_ins, any_session_drawn=True)
    assert after == {1, 2, 3, 4} == played_evening(drawn, stand_ins)
    assert played_evening((), ()) == frozenset()


# --- One evening through every page -------------------------------------------------------------


def _evening(name="Mittwochsrunde", on=date(2026, 11, 21)):
    """Ten checked in; two checked out before the first draw; session 1 played by the eight;
    Spieler 1 goes home after session 1 (checked out), session 2 drawn without them."""
    evening = evening_with_players(
        10, name=name, on=on, sessions_count=2, rounds_per_session=2, deals_per_round=1, player_name="Spieler {n}"
    )
    for gone in GONE:
        services.set_checked_in(evening=evening, player=Player.objects.get(name=gone), checked_in=False)
    play_session(services.draw_session(evening=evening, seed=3))
    services.set_checked_in(evening=evening, player=Player.objects.get(name="Spieler 1"), checked_in=False)
    services.add_player(name="Spieler 11", club="Verein 1")
    services.set_checked_in(evening=evening, player=Player.objects.get(name="Spieler 11"), checked_in=True)
    services.draw_session(evening=evening, seed=4)
    return evening


@pytest.fixture
def evening(db):
    return _evening()


def _names(evening) -> list[str]:
    return [row.player.name for row in selectors.evening_ranking(evening)]


def test_ranking_lists_who_was_drawn_not_who_went_home_before_the_draw(evening):
    names = _names(evening)
    assert len(names) == 9  # the eight of session 1 (Spieler 1 included) and Spieler 11 of session 2
    assert "Spieler 1" in names and "Spieler 11" in names
    assert not set(GONE) & set(names)


def test_ranking_page_projector_and_exports_leave_out_who_was_checked_out_before_the_draw(
    organiser_client, organiser, evening
):
    url = reverse("organiser:ranking", args=[evening.pk])
    page = organiser_client.get(url).content.decode()
    assert re.search(r"Spieler 1\b", page)
    for gone in GONE:
        assert gone not in page

    response = organiser_client.get(url + "?_export=csv")
    delimiter = ";" if response["Content-Language"] == "de" else ","
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=delimiter))
    assert len(rows) == 1 + 9
    assert not set(GONE) & {cell for row in rows for cell in row}

    book = openpyxl.load_workbook(io.BytesIO(organiser_client.get(url + "?_export=xlsx").content))
    cells = [row for row in book.active.iter_rows(values_only=True)]
    assert len(cells) == 1 + 9
    assert not set(GONE) & {cell for row in cells for cell in row}

    response = organiser_client.get(reverse("organiser:ranking_pdf", args=[evening.pk]))
    pdf = "\n".join(pdf_texts(b"".join(response.streaming_content)))
    assert re.search(r"Spieler 1\b", pdf) and "Spieler 11" in pdf
    for gone in GONE:
        assert gone not in pdf

    html = organiser_client.get(reverse("organiser:results_html", args=[evening.pk])).content.decode()
    assert "Spieler 11" in html
    for gone in GONE:
        assert gone not in html

    services.set_projector_mode(evening_id=evening.pk, mode=ProjectorMode.RANKING, user=organiser)
    for screen in ("projector", "ranking_screen"):
        shown = organiser_client.get(reverse(f"public:{screen}", args=[evening.pk])).content.decode()
        assert "Spieler 11" in shown, screen
        for gone in GONE:
            assert gone not in shown, screen


def test_season_counts_the_evening_only_for_who_played_it_as_the_player_page_does(evening):
    second = _evening(name="Donnerstagsrunde", on=date(2026, 11, 28))
    season = services.save_season(
        name="Saison", year=2026, scoring="sum", evening_ids=[evening.pk, second.pk], planned_evenings=2
    )
    ranking = selectors.season_ranking(season)
    lines = {line.player.name: line for line in ranking.lines}
    for gone in GONE:
        assert gone not in lines
        history = selectors.player_history(Player.objects.get(name=gone))
        assert history.ranked_evenings == 0
    assert [column.players for column in ranking.evenings] == [9, 9]
    for name in ("Spieler 1", "Spieler 2", "Spieler 11"):
        history = selectors.player_history(Player.objects.get(name=name))
        assert len(lines[name].cells) == history.ranked_evenings == 2, name


def test_before_the_first_draw_the_ranking_lists_the_players_checked_in_at_zero(organiser_client):
    evening = evening_with_players(6, sessions_count=2, rounds_per_session=2, deals_per_round=1)
    services.set_checked_in(evening=evening, player=Player.objects.get(name="Spieler 6"), checked_in=False)
    services.set_stand_in(evening=evening, player=Player.objects.get(name="Spieler 5"), stand_in=True)
    rows = selectors.evening_ranking(evening)
    assert sorted(row.player.name for row in rows) == ["Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4"]
    assert {row.total for row in rows} == {0} and {row.place for row in rows} == {1}
    season = services.save_season(name="Saison", year=2026, scoring="sum", evening_ids=[evening.pk])
    assert selectors.season_ranking(season).lines == ()  # nobody has played it yet


def test_ranking_query_count_does_not_grow_with_players_checked_out(organiser_client):
    def queries(evening) -> int:
        with CaptureQueriesContext(connection) as context:
            selectors.evening_ranking(evening)
        return len(context.captured_queries)

    small = evening_with_players(8, name="Klein", sessions_count=2, rounds_per_session=2, deals_per_round=1)
    play_session(services.draw_session(evening=small, seed=1))
    large = evening_with_players(
        20, name="Gross", sessions_count=2, rounds_per_session=2, deals_per_round=1, player_name="Gast {n}"
    )
    for n in (19, 20):
        services.set_checked_in(evening=large, player=Player.objects.get(name=f"Gast {n}"), checked_in=False)
    play_session(services.draw_session(evening=large, seed=1))
    services.set_checked_in(evening=large, player=Player.objects.get(name="Gast 1"), checked_in=False)
    assert queries(small) == queries(large)
