"""One German order, one matchstick formatter, sit-out credit while a round runs, and names that
collide, through the pages, exports and documents.

Run on SQLite and on PostgreSQL (``scripts/with-postgres.sh``): the order must be the same.
"""

from __future__ import annotations

import io
import re
from datetime import date
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from scoring import selectors, services
from scoring.documents import pdf_base
from scoring.models import Round, Seating
from scoring.tables import matchsticks_number
from scoring.templatetags.bruus import format_matchsticks
from tests import factories
from tests.tracing import pdf_text, pdf_texts

# Surname order (DIN 5007-1): Ärger = Arger, Groß = Gross; Sönke before Swantje.
ROSTER = [
    ("Swantje Sönnichsen", "Treia"),
    ("Sönke Sönnichsen", "Treia"),
    ("Zoe Ärger", "Husum"),
    ("anna Arger", "Husum"),
    ("Ilse Gross", "Viöl"),
    ("Hans Groß", "Schwesing"),
    ("Broder Hansen", "Husum"),
    ("Jens Carstensen", "Viöl"),
    ("Jens Carstensen", "Schwesing"),
    ("Momme Öhlers", "Treia"),
    ("Ocke Olsen", "Treia"),
    ("Uwe Übel", "Husum"),
]
EXPECTED = [
    "anna Arger",
    "Zoe Ärger",
    "Jens Carstensen",
    "Jens Carstensen",
    "Hans Groß",
    "Ilse Gross",
    "Broder Hansen",
    "Momme Öhlers",
    "Ocke Olsen",
    "Sönke Sönnichsen",
    "Swantje Sönnichsen",
    "Uwe Übel",
]


@pytest.fixture
def evening(db):
    evening = services.create_evening(name="Reihenfolge", date=date(2026, 11, 21))
    for name, club in ROSTER:
        player, _ = services.add_player(name=name, club=club)
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    return evening


def names_in(html: str, names) -> list[str]:
    """The names in the order they appear in the page."""
    found = []
    for match in re.finditer("|".join(sorted(map(re.escape, set(names)), key=len, reverse=True)), html):
        found.append(match.group(0))
    return found


# --- One German order ---------------------------------------------------------------------------


def test_check_in_list_and_register_follow_the_german_order(organiser_client, evening):
    names = [n for n, _ in ROSTER]
    page = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert names_in(page.split("<tbody", 1)[1], names) == EXPECTED
    page = organiser_client.get(reverse("organiser:player_list")).content.decode()
    assert names_in(page.split("<tbody", 1)[1], names) == EXPECTED
    # Carstensen from Schwesing before Carstensen from Viöl (then club).
    assert [p.club for p in selectors.search_players("Carstensen")] == ["Schwesing", "Viöl"]


def test_seat_finder_and_documents_use_the_same_order(client, organiser_client, evening):
    services.draw_session(evening=evening, seed=3)
    page = client.get(reverse("public:seat_finder", args=[evening.pk])).content.decode()
    names = [n for n, _ in ROSTER]
    assert names_in(page, names) == EXPECTED
    letters = re.findall(r"<h2[^>]*>\s*([A-Z?#])\s*</h2>", page)
    assert letters[:4] == ["A", "C", "G", "H"]  # Ärger under A (the surname's letter)

    response = organiser_client.get(reverse("organiser:route_cards_pdf", args=[evening.pk, 1]))
    text = pdf_text(b"".join(response.streaming_content))
    # The route cards: one per player, in list order (the partner line follows each name).
    headings = [
        line
        for line in text.splitlines()
        if line.strip() in set(names) | {"Jens Carstensen (Viöl)", "Jens Carstensen (Schwesing)"}
    ]
    assert [re.sub(r" \(.*\)", "", h) for h in headings] == EXPECTED


def test_ranking_ties_in_german_order(organiser_client, evening):
    services.draw_session(evening=evening, seed=3)  # nothing entered: everybody shares place 1
    rows = selectors.evening_ranking(evening)
    assert [r.player.name for r in rows] == EXPECTED
    assert {r.place for r in rows} == {1}


# --- One matchstick formatter -------------------------------------------------------------------


def test_matchsticks_round_half_up_in_every_language_and_export():
    with translation.override("de"):
        assert format_matchsticks(Fraction(57, 4)) == "14,3"
        assert pdf_base.matchsticks(Fraction(57, 4)) == "14,3"
        assert format_matchsticks(Fraction(49, 20)) == "2,5"
        assert format_matchsticks(7) == "7"
    with translation.override("en"):
        assert format_matchsticks(Fraction(57, 4)) == "14.3"
        assert pdf_base.matchsticks(Fraction(57, 4)) == "14.3"
    assert matchsticks_number(Fraction(57, 4)) == 14.3
    assert matchsticks_number(Fraction(3)) == 3


# --- Sit-out credit while a round runs ----------------------------------------------------------


def play(seating, points_a: int):
    """Four deals: team A wins ``points_a`` of them, team B the rest (1 matchstick each)."""
    for number in range(1, 5):
        winner = "A" if number <= points_a else "B"
        factories.enter_deal(seating, number, winner, table=None)


@pytest.fixture
def running(evening):
    """14 players: one partnership sits out each round; round 1: the first table has played all
    four deals (3:1), the second has entered two, the third none."""
    for name in ("Nahne Nissen", "Tade Thomsen"):
        player, _ = services.add_player(name=name, club="Treia")
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    session = services.draw_session(evening=evening, seed=5)
    first, second, third = Seating.objects.filter(round__session=session, round__number=1).order_by("table__number")
    play(first, 3)
    for number in (1, 2):
        factories.enter_deal(second, number, to_nil=True, table=None)
    sitters = Round.objects.get(session=session, number=1).sitout_partnership
    return evening, (first, second, third), (sitters.player_1, sitters.player_2)


def test_sitout_credit_counts_finished_tables_only_and_is_provisional(organiser_client, client, running):
    evening, (first, second, third), sitters = running
    rows = {r.player.pk: r for r in selectors.evening_ranking(evening)}
    for player in sitters:
        assert rows[player.pk].sessions[0] == Fraction(4, 2)  # (3 + 1) / 2, not (3 + 1 + 4 + 0 + 0 + 0) / 6
        assert rows[player.pk].provisional == {0}

    with translation.override("de"):
        page = organiser_client.get(reverse("organiser:ranking", args=[evening.pk])).content.decode()
        assert page.count("2°") == 4  # session 1 and total of both sitters
        assert "° vorläufig: Freilos-Gutschrift" in page
        screen = client.get(reverse("public:ranking_screen", args=[evening.pk])).content.decode()
        assert screen.count("2°") == 2 and "° vorläufig" in screen
        live = organiser_client.get(reverse("organiser:live", args=[evening.pk])).content.decode()
        assert re.search(r'data-testid="credit-1">2° <small>vorläufig</small>', live)

    for number in (3, 4):
        factories.enter_deal(second, number, "B", table=None)
    play(third, 4)
    for seating in (first, second, third):
        services.enter_and_confirm_seating(seating_id=seating.pk)
    rows = {r.player.pk: r for r in selectors.evening_ranking(evening)}
    for player in sitters:  # (3 + 1 + 4 + 2 + 4 + 0) / 6 = 14 / 6, final
        assert rows[player.pk].sessions[0] == Fraction(14, 6) and rows[player.pk].provisional == frozenset()
    with translation.override("de"):
        live = organiser_client.get(reverse("organiser:live", args=[evening.pk])).content.decode()
        assert 'data-testid="credit-1">2,3</td>' in live


def test_xlsx_and_csv_show_the_credit_rounded_half_up(organiser_client, running):
    evening, (first, second, third), sitters = running
    for number in (3, 4):
        factories.enter_deal(second, number, table=None)
    # Credit: (3 + 1 + 6 + 0) / 4 = 2.5 exactly; 1 decimal, half up. And 57/4-like values: unit tests.
    response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]) + "?_export=xlsx")
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    total = len(rows[0]) - 1  # the total: the last column
    assert rows[0][-1] in ("Gesamt", "Total")
    totals = [row[total] for row in rows[1:]]
    assert totals.count(2.5) == 2
    with translation.override("de"):
        response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]) + "?_export=csv")
    assert response.content.decode("utf-8-sig").count(";2,5;") >= 2  # German: ";" and a decimal comma


# --- Names that collide ------------------------------------------------------------------------


def test_players_with_the_same_name_show_their_club(organiser_client, client, evening):
    services.draw_session(evening=evening, seed=3)
    jens = "Jens Carstensen (Schwesing)", "Jens Carstensen (Viöl)"
    assert set(selectors.evening_display_names(evening.pk).values()) >= set(jens)
    assert "Sönke Sönnichsen" in selectors.evening_display_names(evening.pk).values()

    page = organiser_client.get(reverse("organiser:session_detail", args=[evening.pk, 1])).content.decode()
    assert all(name in page for name in jens)
    seating = next(
        s
        for s in Seating.objects.filter(round__session__evening=evening).select_related(
            *selectors.PARTNERSHIP_PLAYERS, "table"
        )
        if "Jens Carstensen"
        in (s.team_a.player_1.name, s.team_a.player_2.name, s.team_b.player_1.name, s.team_b.player_2.name)
    )
    tablet = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    assert "Jens Carstensen (" in tablet and "Jens Carstensen &" not in tablet
    factories.enter_deal(seating, table=None)
    deals = organiser_client.get(reverse("organiser:deal_results", args=[evening.pk])).content.decode()
    assert "Jens Carstensen (" in deals
    detail = organiser_client.get(reverse("organiser:seating_detail", args=[seating.pk])).content.decode()
    assert "Jens Carstensen (" in detail

    response = organiser_client.get(reverse("organiser:table_list_pdf", args=[evening.pk, 1]))
    text = "".join(pdf_texts(b"".join(response.streaming_content)))
    assert all(name in text.replace("\n", " ") for name in jens)
    player = next(p for p in selectors.session_players(evening.sessions.get()) if p.name == "Jens Carstensen")
    seat = client.get(reverse("public:seat", args=[evening.pk, player.pk])).content.decode()
    assert f"Jens Carstensen ({player.club})" in seat


def test_sorting_the_ranking_page_by_name_or_club_uses_the_german_order(organiser_client, evening):
    services.draw_session(evening=evening, seed=3)
    names = [n for n, _ in ROSTER]
    url = reverse("organiser:ranking", args=[evening.pk])
    page = organiser_client.get(url + "?sort=name").content.decode()
    assert names_in(page.split("<tbody", 1)[1], names) == EXPECTED
    page = organiser_client.get(url + "?sort=-name").content.decode()
    assert names_in(page.split("<tbody", 1)[1], names) == EXPECTED[::-1]
    page = organiser_client.get(url + "?sort=club").content.decode()
    clubs = re.findall(r'<td class="club">([^<]*)</td>', page)
    assert clubs == sorted(clubs, key=lambda c: c.replace("ö", "o"))
