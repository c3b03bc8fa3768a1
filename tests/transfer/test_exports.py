"""Ranking and every deal result as CSV and XLSX (django-tables2 + tablib), German column names."""

from __future__ import annotations

import csv
import io
import random
import re
from datetime import datetime
from fractions import Fraction
from urllib.parse import unquote

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import selectors, services
from scoring.models import Deal, Player, Seating
from tests import factories
from tests.conftest import make_evening

pytestmark = pytest.mark.django_db

POSSIBLE = [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (1, 1), (3, 0), (0, 3), (2, 1), (1, 2), (4, 0), (0, 4)]
RANKING_HEADERS = ["Platz", "Name", "Verein", "Durchgang 1", "Durchgang 2", "Durchgang 3", "Gesamt"]
DEAL_HEADERS = [
    "Durchgang",
    "Runde",
    "Tisch",
    "Spiel",
    "Team A",
    "Team B",
    "Fünf Stiche",
    "Zu Null",
    "Wagen und Schlagen A",
    "Wagen und Schlagen B",
    "Streichhölzer A",
    "Streichhölzer B",
    "Eingegeben/geändert",
]


def play(evening, seed=1, deals=4, rounds=None):
    """Draw a session and enter ``deals`` deals at every table of its rounds (services)."""
    rng = random.Random(seed)
    session = services.draw_session(evening=evening, seed=seed)
    seatings = Seating.objects.filter(round__session=session).select_related("round")
    if rounds is not None:
        seatings = seatings.filter(round__number__in=rounds)
    for seating in seatings:
        for number in range(1, deals + 1):
            a, b = rng.choice(POSSIBLE)
            factories.enter_deal(
                seating, number, rng.choice("AB"), to_nil=rng.random() < 0.2, bonus_a=a, bonus_b=b, table=None
            )
    return session


def xlsx_rows(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    sheet = book.active
    return sheet.title, [list(row) for row in sheet.iter_rows(values_only=True)]


def csv_rows(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.startswith("\ufeff".encode())  # Excel recognises UTF-8
    delimiter = ";" if response["Content-Language"] == "de" else ","  # German Excel's separator
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=delimiter))


def filename(response) -> str:
    header = response["Content-Disposition"]
    assert header.startswith("attachment;")
    match = re.search(r"filename\*=utf-8''(\S+)", header)
    return unquote(match.group(1)) if match else re.search(r'filename="([^"]+)"', header).group(1)


# --- Ranking ------------------------------------------------------------------------------------


def test_ranking_xlsx_has_german_headers_umlauts_and_numbers(organiser_client, roster_evening):
    play(roster_evening, seed=3)  # 26 players: a partnership sits out, credited an average
    response = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk]) + "?_export=xlsx")
    title, rows = xlsx_rows(response)
    assert title == "Rangliste"
    assert filename(response) == "Rangliste (vorläufig) – Schwesing – 2026-11-21.xlsx"
    assert rows[0] == RANKING_HEADERS
    assert len(rows) == 27
    by_name = {row[1]: row for row in rows[1:]}
    assert {"Gönke Hansen", "Jürgen Lützen", "Keike Schröder"} <= set(by_name)
    assert by_name["Dörte Boysen"][2] == "Oster-Ohrstedt"
    ranking = {r.player.name: r for r in selectors.evening_ranking(roster_evening)}
    fractional = 0
    for name, row in by_name.items():
        place, _, _, s1, s2, s3, total = row  # the rule set is not repeated on every row
        assert isinstance(place, int) and place == ranking[name].place
        for value in (s1, total):
            assert isinstance(value, (int, float)) and not isinstance(value, bool)
        assert s1 == pytest.approx(round(float(ranking[name].sessions[0]), 1))
        assert total == pytest.approx(round(float(ranking[name].total), 1))
        assert (s2, s3) == (None, None)  # not drawn yet: empty cells (– on the page and in print), not 0
        fractional += isinstance(s1, float)
    # Sit-out credits that are not whole numbers arrive as numbers with one decimal.
    if any(Fraction(r.total).denominator != 1 for r in ranking.values()):
        assert fractional


def test_ranking_csv_has_german_headers_and_the_text_of_the_page(organiser_client, roster_evening):
    play(roster_evening, seed=3)
    response = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk]) + "?_export=csv")
    rows = csv_rows(response)
    assert filename(response) == "Rangliste (vorläufig) – Schwesing – 2026-11-21.csv"
    assert rows[0] == RANKING_HEADERS
    page = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk])).content.decode()
    for row in rows[1:]:
        assert re.fullmatch(r"\d+(,\d)?", row[3]), row  # decimal comma, as on the page
        assert row[1] in page


def test_ranking_export_in_english_for_an_english_evening(organiser_client, roster_evening):
    """Downloads are printouts: in the evening's language, whatever the organiser reads."""
    roster_evening.language = "en"
    roster_evening.save(update_fields=["language"])
    organiser_client.cookies["django_language"] = "de"
    response = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk]) + "?_export=xlsx")
    title, rows = xlsx_rows(response)
    assert rows[0] == ["Place", "Name", "Club", "Session 1", "Session 2", "Session 3", "Total"]
    assert title == "Ranking" and filename(response) == "Ranking (provisional) – Schwesing – 2026-11-21.xlsx"


def test_ranking_page_links_both_exports(organiser_client, roster_evening):
    page = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk])).content.decode()
    assert 'href="?_export=csv"' in page and 'href="?_export=xlsx"' in page
    assert reverse("organiser:deal_results", args=[roster_evening.pk]) in page
    assert "Alle Spiele" in page


# --- Every deal -----------------------------------------------------------------------------------


def test_deal_export_has_one_row_per_deal_with_the_right_points(organiser_client, roster_evening):
    play(roster_evening, seed=4)
    seating = Seating.objects.filter(round__session__evening=roster_evening).order_by("pk").first()
    factories.enter_deal(seating, 1, "B", to_nil=True, bonus_a=2, bonus_b=1, table=None)
    deals = list(selectors.evening_deals(roster_evening))
    assert len(deals) == 6 * 4 * 4

    response = organiser_client.get(reverse("organiser:deal_results", args=[roster_evening.pk]) + "?_export=xlsx")
    title, rows = xlsx_rows(response)
    assert title == "Spiele" and filename(response) == "Spiele – Schwesing – 2026-11-21.xlsx"
    assert rows[0] == DEAL_HEADERS
    assert len(rows) == 1 + len(deals)
    for row, deal in zip(rows[1:], deals, strict=True):
        at = deal.seating
        assert row[:4] == [1, at.round.number, at.table.number, deal.number]
        assert row[4] == f"{at.team_a.player_1.name} & {at.team_a.player_2.name}"
        assert row[5] == f"{at.team_b.player_1.name} & {at.team_b.player_2.name}"
        assert row[6] == f"Team {deal.winner}"
        assert row[7] == ("ja" if deal.to_nil else "nein")
        assert row[8:12] == [deal.bonus_a, deal.bonus_b, deal.points_a, deal.points_b]
        assert isinstance(row[10], int)
        assert isinstance(row[12], datetime)
        assert row[12] == timezone.localtime(deal.updated_at).replace(tzinfo=None, microsecond=0)
    corrected = next(
        r
        for r in rows[1:]
        if r[:4] == [1, seating.round.number, seating.table.number, 1] and r[4].startswith(seating.team_a.player_1.name)
    )
    assert corrected[6:12] == ["Team B", "ja", 2, 1, 2, 3]
    assert any("ö" in row[4] + row[5] or "ü" in row[4] + row[5] for row in rows[1:])

    response = organiser_client.get(reverse("organiser:deal_results", args=[roster_evening.pk]) + "?_export=csv")
    rows = csv_rows(response)
    assert filename(response) == "Spiele – Schwesing – 2026-11-21.csv"
    assert rows[0] == DEAL_HEADERS
    assert len(rows) == 1 + len(deals)
    for row, deal in zip(rows[1:], deals, strict=True):
        assert row[10:12] == [str(deal.points_a), str(deal.points_b)]
        assert re.fullmatch(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", row[12]), row[12]
    assert sum(int(r[10]) + int(r[11]) for r in rows[1:]) == sum(d.points_a + d.points_b for d in deals)


def test_deal_page_shows_the_deals_and_sorts(organiser_client, roster_evening):
    empty = organiser_client.get(reverse("organiser:deal_results", args=[roster_evening.pk]))
    assert empty.status_code == 200 and "Noch kein Spiel eingegeben." in empty.content.decode()
    play(roster_evening, seed=2, rounds=[1])
    url = reverse("organiser:deal_results", args=[roster_evening.pk])
    page = organiser_client.get(url).content.decode()
    assert "Wagen und Schlagen A" in page and "Gönke Hansen" in page or "Jürgen Lützen" in page
    assert 'href="?_export=xlsx"' in page
    response = organiser_client.get(url + "?sort=-points_a")
    points = [row.record.points_a for row in response.context["table"].paginated_rows]
    assert points == sorted(points, reverse=True)
    response = organiser_client.get(url + "?sort=-points_a&_export=csv")
    exported = [int(r[10]) for r in csv_rows(response)[1:]]
    assert exported == sorted(exported, reverse=True) and len(exported) == 6 * 4


def test_deal_export_of_an_evening_without_deals_is_just_the_headings(organiser_client, roster_evening):
    response = organiser_client.get(reverse("organiser:deal_results", args=[roster_evening.pk]) + "?_export=xlsx")
    assert xlsx_rows(response)[1] == [DEAL_HEADERS]
    missing = organiser_client.get(reverse("organiser:deal_results", args=[999999]) + "?_export=csv")
    assert missing.status_code == 404


def test_exports_need_a_login(client, roster_evening):
    for name in ("ranking", "deal_results"):
        response = client.get(reverse(f"organiser:{name}", args=[roster_evening.pk]) + "?_export=xlsx")
        assert response.status_code == 302 and "/anmelden/" in response["Location"]


def test_formulas_in_names_stay_text_and_file_names_keep_umlauts(organiser_client):
    evening = make_evening(8, name='Süderlügum "Pokal"/2026')
    player = Player.objects.get(name="Spieler 1")
    player.name = '=HYPERLINK("http://example.com","x")'
    player.save()
    play(evening, seed=1, rounds=[1], deals=1)
    response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]) + "?_export=xlsx")
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    cells = [c for row in book.active.iter_rows() for c in row if isinstance(c.value, str) and "HYPERLINK" in c.value]
    assert cells and all(c.data_type == "s" and c.value.startswith("'=") for c in cells)
    header = response["Content-Disposition"]
    # The PDF's scheme: kind, evening, date.
    assert filename(response) == "Rangliste (vorläufig) – Süderlügum -Pokal-2026 – 2026-11-21.xlsx"
    assert 'filename="rangliste-vorlaeufig-suederluegum-pokal-2026-2026-11-21.xlsx"' in header
    rows = csv_rows(organiser_client.get(reverse("organiser:deal_results", args=[evening.pk]) + "?_export=csv"))
    assert any(r[4].startswith("'=HYPERLINK") or r[5].startswith("'=HYPERLINK") for r in rows[1:])


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("ranking", "?_export=xlsx"),
        ("ranking", "?_export=csv"),
        ("deal_results", "?_export=csv"),
        ("deal_results", "?_export=xlsx"),
        ("deal_results", ""),
    ],
)
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_export_query_count_does_not_grow_with_players(organiser_client, django_assert_num_queries, name, query):
    counts = []
    for players in (24, 60):
        evening = make_evening(players, name=f"Abend {players}")
        play(evening, seed=1, rounds=[1, 2])
        assert Deal.objects.filter(seating__round__session__evening=evening).count() == players // 4 * 2 * 4
        url = reverse(f"organiser:{name}", args=[evening.pk]) + query
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as context:
            assert organiser_client.get(url).status_code == 200
        counts.append(len(context.captured_queries))
    assert counts[0] == counts[1], counts
    # Asked again, the ranking comes from the shared cache of the evening's version:
    # without the ranking selector's 5 queries and the count of sessions drawn.
    with django_assert_num_queries(counts[1] - 6 if name == "ranking" else counts[1]):
        organiser_client.get(url)


@pytest.mark.django_db
def test_deal_export_of_six_handed_braeus_names_three_players_a_team(organiser_client):
    from tests.six_handed import draw_six_handed, team_names

    evening = make_evening(12, rule_set="braeus6")
    draw_six_handed(evening)
    seatings = list(
        Seating.objects.filter(round__session__evening=evening).order_by(
            "round__session__number", "round__number", "table__number"
        )
    )
    for seating in seatings:
        factories.enter_deal(seating, table=None)
    url = reverse("organiser:deal_results", args=[evening.pk])
    for rows in (
        xlsx_rows(organiser_client.get(url + "?_export=xlsx"))[1],
        csv_rows(organiser_client.get(url + "?_export=csv")),
    ):
        assert len(rows) == 1 + len(seatings)
        for row, seating in zip(rows[1:], seatings, strict=True):
            assert row[4] == " & ".join(team_names(seating.team_a)) and len(team_names(seating.team_a)) == 3
            assert row[5] == " & ".join(team_names(seating.team_b)) and len(team_names(seating.team_b)) == 3


# --- CSV that German Excel opens in columns ------------------------------------------


@pytest.mark.parametrize(("language", "separator", "decimal"), [("de", ";", ","), ("en", ",", ".")])
def test_csv_separator_and_decimal_mark_follow_the_evening_language(
    organiser_client, roster_evening, language, separator, decimal
):
    """German: ";" and a decimal comma, unquoted (German Excel opens the file in columns); English:
    "," and a decimal point. Both with a byte order mark; the XLSX is the same in both."""
    roster_evening.language = language
    roster_evening.save(update_fields=["language"])
    play(roster_evening, seed=3)
    response = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk]) + "?_export=csv")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    lines = text[1:].splitlines()
    columns = len(lines[0].split(separator))
    assert columns == 7 and all(len(line.split(separator)) == columns for line in lines)
    assert '"' not in text  # nothing needs quoting: no separator inside a cell
    credits = [
        cell for line in lines[1:] for cell in line.split(separator)[3:7] if cell not in "–" and not cell.isdigit()
    ]
    assert credits and all(re.fullmatch(rf"\d+\{decimal}\d", cell) for cell in credits), credits
    deals = organiser_client.get(reverse("organiser:deal_results", args=[roster_evening.pk]) + "?_export=csv")
    header = deals.content.decode("utf-8-sig").splitlines()[0]
    assert len(header.split(separator)) == len(DEAL_HEADERS)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_ranking_csv_imports_back_as_a_player_list(organiser_client, roster_evening, language):
    """Round trip: the downloaded ranking, given to the player import, gives the same players
    (name and club), whichever separator it has."""
    from scoring.transfer.player_files import parse_player_file

    roster_evening.language = language
    roster_evening.save(update_fields=["language"])
    play(roster_evening, seed=3)
    response = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk]) + "?_export=csv")
    parsed = parse_player_file(response.content, "Rangliste.csv")
    assert not parsed.problems
    expected = [(r.player.name, r.player.club) for r in selectors.evening_ranking(roster_evening)]
    assert [(p.name, p.club) for p in parsed.players] == expected


def test_csv_and_xlsx_are_named_as_the_pdf_with_the_date(organiser_client, roster_evening):
    """One file-name scheme: the ranking's CSV and XLSX are the PDF's name with another
    extension; the deals and the fairness report follow it: kind – evening – date."""
    play(roster_evening, seed=3)
    url = reverse("organiser:ranking", args=[roster_evening.pk])
    header = organiser_client.get(reverse("organiser:ranking_pdf", args=[roster_evening.pk]))["Content-Disposition"]
    pdf = unquote(header.split("filename*=utf-8''")[1])
    assert pdf == "Rangliste (vorläufig) – Schwesing – 2026-11-21.pdf"
    for extension in ("csv", "xlsx"):
        assert filename(organiser_client.get(f"{url}?_export={extension}")) == pdf.replace(".pdf", f".{extension}")
    deals = organiser_client.get(reverse("organiser:deal_results", args=[roster_evening.pk]) + "?_export=csv")
    assert filename(deals) == "Spiele – Schwesing – 2026-11-21.csv"
    fairness = organiser_client.get(reverse("organiser:fairness", args=[roster_evening.pk]) + "?_export=xlsx")
    assert filename(fairness) == "Fairness der Auslosung – Schwesing – 2026-11-21.xlsx"
