"""Printed documents (PDF): ranking, score sheets, table list and route cards.

Every document is fetched through its organiser URL and read back with pypdf: the right names,
places and numbers on the right pages, page counts, umlauts and suit symbols intact, "vorläufig"
exactly while deals are missing, names with markup printed literally. The expected values are
computed here from the database, independently of the document code. One test renders pages to
PNG with Debian's poppler-utils (``pdftoppm``) and checks that they are not blank.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from urllib.parse import unquote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from scoring import selectors, services
from scoring.documents import pdf_base
from scoring.domain.names import person_key
from scoring.models import Deal, Evening, Partnership, Round, Seating
from tests import factories, rows
from tests.conftest import make_evening, make_roster_evening
from tests.tracing import pdf_texts

MARKUP_NAME = '<b>Jan</b> "Hinnerk" O\'Neill'
MARKUP_CLUB = '<i>Treia</i> & "Umgebung"'
LONG_MARKUP_NAME = '<font size="40">Hinnerk</font> "de Lütte" O\'Neill-Süderstapel & <br/>Söhne von Ahrenviöl'


# --- Helpers ---------------------------------------------------------------------------------


def fetch_pdf(client, name: str, *args, query: str = ""):
    """GET a document (the organiser's URL ``name``); returns (response, the PDF's bytes)."""
    response = client.get(reverse(f"organiser:{name}", args=args) + query)
    assert response.status_code == 200, response
    assert response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content)
    assert data.startswith(b"%PDF-")
    return response, data


def get_pdf(client, name: str, *args, query: str = ""):
    """GET a document; returns (response, reader, one text per page, the PDF's bytes)."""
    response, data = fetch_pdf(client, name, *args, query=query)
    reader = PdfReader(io.BytesIO(data))
    return response, reader, pdf_texts(reader), data


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def filename_star(response) -> str:
    match = re.search(r"filename\*=utf-8''(\S+)", response["Content-Disposition"])
    assert match, response["Content-Disposition"]
    return unquote(match.group(1))


def filename_ascii(response) -> str:
    match = re.search(r'filename="([^"]+)"', response["Content-Disposition"])
    assert match, response["Content-Disposition"]
    return match.group(1)


def seatings(evening, session_number=1):
    return list(
        Seating.objects.filter(round__session__evening=evening, round__session__number=session_number)
        .select_related("table", "round", *selectors.PARTNERSHIP_PLAYERS)
        .order_by("round__number", "table__number")
    )


def team_names(partnership) -> list[str]:
    return [partnership.player_1.name, partnership.player_2.name]


def ranking_rows(pages: list[str], session_count: int) -> list[dict]:
    """The ranking table as read from the PDF, in order: place, name, club, sessions, total.

    pypdf gives each cell on its own line; a row starts with its place ("3." or "3.*")."""
    rows = []
    for page_number, text in enumerate(pages, start=1):
        current = None
        for line in lines_of(text):
            if re.fullmatch(r"\d+\.\*?", line):
                current = [line]
                rows.append((page_number, current))
            elif line.startswith(("* ", "Rangliste", "Seite ", "VORLÄUFIG")) or line == "Endstand":
                current = None
            elif current is not None:
                current.append(line)
    parsed = []
    for page_number, cells in rows:
        parsed.append(
            {
                "page": page_number,
                "place": cells[0],
                "name": cells[1],
                "club": "".join(cells[2 : -session_count - 1]),
                "sessions": cells[-session_count - 1 : -1],
                "total": cells[-1],
            }
        )
    return parsed


def expected_ranking(evening) -> list[dict]:
    """The ranking from the selector, as the PDF should print it (German number format)."""
    out = []
    for row in selectors.evening_ranking(evening):
        out.append(
            {
                "place": f"{row.place}.{'*' if row.shared else ''}",
                "name": row.player.name,
                "total": pdf_base.matchsticks(row.total) + ("°" if row.provisional else ""),
            }
        )
    return out


@pytest.fixture(scope="session")
def _documents_roster_rows(django_db_setup, django_db_blocker) -> tuple[int, list[dict]]:
    """The rows of :func:`drawn_roster`, built through the services once per test process
    (tests/rows.py)."""

    def build() -> int:
        evening = make_roster_evening()
        services.draw_session(evening=evening, seed=8)
        first = seatings(evening)[0]
        factories.enter_deals(
            first, [("A", False, 0, 0), ("A", True, 0, 0), ("B", False, 1, 0), ("A", False, 0, 2)], table=None
        )
        return evening.pk

    with django_db_blocker.unblock():
        return rows.capture(build)


@pytest.fixture
def drawn_roster(db, _documents_roster_rows):
    """The Schwesing roster (26 players), session 1 drawn; the first table of round 1 has played
    four deals, nothing else is entered (the rows as the services wrote them, put back)."""
    return rows.evening_put_back(_documents_roster_rows)


# --- Ranking ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_ranking_small_evening_provisional(organiser_client, drawn_roster):
    evening = drawn_roster
    response, reader, pages, _ = get_pdf(organiser_client, "ranking_pdf", evening.pk)

    assert filename_star(response) == "Rangliste (vorläufig) – Schwesing – 2026-11-21.pdf"
    assert filename_ascii(response) == "rangliste-vorlaeufig-schwesing-2026-11-21.pdf"
    assert reader.metadata.title == "Rangliste (vorläufig) – Schwesing – 2026-11-21"

    first = pages[0]
    assert "Rangliste (vorläufig)" in first
    assert "21. November 2026 · Dörpshus" in first
    assert "Vorläufig: Es fehlen noch Spiele." in first
    for number, text in enumerate(pages, start=1):
        assert "vorläufig" in text.lower()
        assert f"Seite {number} von {len(pages)}" in text
        assert "Platz" in text and "Gesamt" in text and "Durchgang" in text  # header on every page
        assert "* geteilter Platz" in text  # the footnote explains the marker on every page
    assert len(pages) == 1  # 26 players on one A4 page, not a second page holding a row

    rows = ranking_rows(pages, 3)
    expected = expected_ranking(evening)
    assert [(r["place"], r["name"], r["total"]) for r in rows] == [
        (e["place"], e["name"], e["total"]) for e in expected
    ]
    # The first table: team A won 1 + 2 (to nil) + 1 (a dare in a deal B won) + 1 = 5 matchsticks,
    # team B 1 + 2 (daring and striking) = 3; every matchstick counts for both partners.
    seating = seatings(evening)[0]
    # (Team B is 5th: the sit-outs' provisional 4 puts them at 3.)
    for team, total, place in ((seating.team_a, "5", "1.*"), (seating.team_b, "3", "5.*")):
        for name in team_names(team):
            row = next(r for r in rows if r["name"] == name)
            assert (row["place"], row["sessions"], row["total"]) == (place, [total, "–", "–"], total)
    # The partnership that sits out round 1 is credited the average of the teams at the tables
    # that have finished the round: only the first, (5 + 3) / 2 = 4, provisional (°) until every
    # table has confirmed; the five tables that have not played do not count as 0 (8 / 12 = 0,7).
    sitters = Round.objects.get(session__evening=evening, number=1).sitout_partnership
    for name in team_names(sitters):
        row = next(r for r in rows if r["name"] == name)
        assert (row["place"], row["total"], row["sessions"][0]) == ("3.*", "4°", "4°")
    assert "° vorläufig: Freilos-Gutschrift aus den Tischen, die die Runde beendet" in pages[0]
    # Umlauts intact, clubs printed (a club may break after its hyphen).
    gonke = next(r for r in rows if r["name"] == "Gönke Hansen")
    assert gonke["club"] == "Schwesing"
    assert any(r["club"] == "Ahrenviöl" for r in rows)
    assert {r["club"] for r in rows if r["name"] == "Jürgen Lützen"} == {"Oster-Ohrstedt"}


@pytest.mark.django_db
def test_ranking_final_says_endstand_and_not_provisional(organiser_client, roster_evening):
    evening = roster_evening
    evening.sessions_count, evening.rounds_per_session, evening.deals_per_round = 1, 1, 1
    evening.save()
    services.draw_session(evening=evening, seed=3)
    for index, seating in enumerate(seatings(evening)):
        factories.enter_deals(seating, [("A" if index % 2 else "B", index == 0, 0, 0)], table=None)
        services.enter_and_confirm_seating(seating_id=seating.pk)
    assert selectors.evening_is_confirmed(evening)

    response, reader, pages, _ = get_pdf(organiser_client, "ranking_pdf", evening.pk)
    assert filename_star(response) == "Rangliste – Schwesing – 2026-11-21.pdf"
    assert reader.metadata.title == "Rangliste – Schwesing – 2026-11-21"
    text = "\n".join(pages)
    assert "Endstand" in pages[0]
    assert "vorläufig" not in text.lower()
    rows = ranking_rows(pages, 1)
    assert [(r["place"], r["name"], r["total"]) for r in rows] == [
        (e["place"], e["name"], e["total"]) for e in expected_ranking(evening)
    ]
    assert rows[0]["total"] == "2"  # the to-nil winners of table 1


@pytest.mark.django_db
@pytest.mark.no_cover  # a 26-player test's code on 200 players: measured by the smaller tests (tests/conftest.py)
def test_ranking_200_players_every_page_has_header_and_numbers(organiser_client):
    evening = make_evening(200, name="Schwesinger Bruus-Abend")
    services.draw_session(evening=evening, seed=5)
    for index, seating in enumerate(seatings(evening)[:5]):
        factories.enter_deals(
            seating,
            [("A", index == 0, 0, 0), ("B", False, 0, index % 3), ("A", False, 1, 0), ("A", False, 0, 0)],
            table=None,
        )

    response, reader, pages, _ = get_pdf(organiser_client, "ranking_pdf", evening.pk)
    assert filename_star(response) == "Rangliste (vorläufig) – Schwesinger Bruus-Abend – 2026-11-21.pdf"
    assert len(pages) >= 200 // 32  # 14 pt rows: no more than about 30 to a page
    for number, text in enumerate(pages, start=1):
        assert f"Seite {number} von {len(pages)}" in text
        head = lines_of(text)[:12]
        assert "Platz" in head and "Name" in head and "Verein" in head and "Gesamt" in head, head
        assert "VORLÄUFIG" in text
    rows = ranking_rows(pages, 3)
    expected = expected_ranking(evening)
    assert len(rows) == 200
    assert [(r["place"], r["name"], r["total"]) for r in rows] == [
        (e["place"], e["name"], e["total"]) for e in expected
    ]
    # Each player exactly once, and every page carries a share of the list.
    assert sorted(int(r["name"].split()[1]) for r in rows) == list(range(1, 201))
    assert {r["page"] for r in rows} == set(range(1, len(pages) + 1))
    assert rows[0]["place"] == "1." or rows[0]["place"] == "1.*"
    assert rows[-1]["page"] == len(pages)


@pytest.mark.django_db
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_document_queries_do_not_grow_with_players(organiser_client):
    counts = {}
    for players in (12, 120):
        evening = make_evening(players, name=f"Abend {players}")
        services.draw_session(evening=evening, seed=1)
        factories.enter_deals(seatings(evening)[0], [("A", False, 0, 0)] * 4, table=None)
        counts[players] = []
        for name, args, query in (
            ("ranking_pdf", [evening.pk], ""),
            ("score_sheets_pdf", [evening.pk, 1], ""),
            ("score_sheets_pdf", [evening.pk, 1], "?leer=1"),
            ("table_list_pdf", [evening.pk, 1], ""),
            ("route_cards_pdf", [evening.pk, 1], ""),
            ("table_cards_pdf", [evening.pk], ""),
            ("session_print_pdf", [evening.pk, 1], ""),
            ("certificates_pdf", [evening.pk], "?plaetze=3"),
            ("prize_list_pdf", [evening.pk], "?plaetze=10"),
        ):
            with CaptureQueriesContext(connection) as queries:
                fetch_pdf(organiser_client, name, *args, query=query)
            counts[players].append(len(queries))
        with CaptureQueriesContext(connection) as queries:  # the results file for the website (HTML)
            assert organiser_client.get(reverse("organiser:results_html", args=[evening.pk])).status_code == 200
        counts[players].append(len(queries))
    assert counts[12] == counts[120], counts


# --- Score sheets ----------------------------------------------------------------------------


def expected_values(seating) -> list[str]:
    """What a filled sheet prints in its grid, row by row: per team five tricks, to nil,
    daring and striking, matchsticks; then the two round totals."""
    out = []
    deals = list(Deal.objects.filter(seating=seating).order_by("number"))
    for deal in deals:
        for team, bonus, points in (("A", deal.bonus_a, deal.points_a), ("B", deal.bonus_b, deal.points_b)):
            if deal.winner == team:
                out.append("✓")
                if deal.to_nil:
                    out.append("✓")
            out += [str(bonus), str(points)]
    if deals:
        out += [str(sum(d.points_a for d in deals)), str(sum(d.points_b for d in deals))]
    return out


def contains_run(haystack: list[str], needle: list[str]) -> bool:
    return any(haystack[i : i + len(needle)] == needle for i in range(len(haystack) - len(needle) + 1))


@pytest.mark.django_db
def test_score_sheets_small_evening_filled_and_blank(organiser_client, drawn_roster):
    evening = drawn_roster
    all_seatings = seatings(evening)
    assert len(all_seatings) == 24  # 6 tables x 4 rounds

    response, reader, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1)
    assert filename_star(response) == "Spielzettel Durchgang 1 (ausgefüllt) – Schwesing – 2026-11-21.pdf"
    assert reader.metadata.title == "Spielzettel Durchgang 1 (ausgefüllt) – Schwesing – 2026-11-21"
    assert len(pages) == 12  # two sheets to a page
    for index, seating in enumerate(all_seatings):
        text = pages[index // 2]
        assert f"Tisch {seating.table.number}" in text
        assert f"Durchgang 1 · Runde {seating.round.number}" in text
        for team in (seating.team_a, seating.team_b):
            assert " & ".join(team_names(team)) in text
        assert f"http://testserver/t/{seating.table.token}/" in text
    for number, text in enumerate(pages, start=1):
        assert f"Seite {number} von 12" in text
        assert text.count("Unterschrift Team A") == 2 and text.count("Unterschrift Team B") == 2
        assert "♠8 Toller Hund" in text and "♥K Bruus" in text and "♣B Spitz" in text
        assert "Streichhölzer" in text and "Wagen und" in text and "Fünf" in text
    # The first table has its four deals printed, the other sheets are empty.
    first = lines_of(pages[0])
    assert contains_run(first, expected_values(all_seatings[0]))
    assert expected_values(all_seatings[0])[-2:] == ["5", "3"]
    assert sum(text.count("✓") for text in pages) == 5  # 4 winners + 1 to nil

    response, reader, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1, query="?leer=1")
    assert filename_star(response) == "Spielzettel Durchgang 1 (leer) – Schwesing – 2026-11-21.pdf"
    assert filename_ascii(response) == "spielzettel-durchgang-1-leer-schwesing-2026-11-21.pdf"
    assert len(pages) == 12
    assert not any("✓" in text for text in pages)
    assert "Hauke Petersen" in "\n".join(pages) and "Gönke Hansen" in "\n".join(pages)


@pytest.mark.django_db
@pytest.mark.no_cover  # a 26-player test's code on 200 players: measured by the smaller tests (tests/conftest.py)
def test_score_sheets_200_players_in_round_then_table_order(organiser_client):
    evening = make_evening(200)
    services.draw_session(evening=evening, seed=11)
    all_seatings = seatings(evening)
    assert len(all_seatings) == 200  # 50 tables x 4 rounds
    played = {
        0: [("A", True, 0, 0), ("B", False, 0, 1), ("A", False, 2, 0), ("B", True, 0, 0)],
        57: [("B", False, 0, 0)] * 4,
        199: [("A", False, 1, 0), ("A", False, 0, 0)],
    }
    for index, results in played.items():
        factories.enter_deals(all_seatings[index], results, table=None)

    _, reader, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1)
    assert len(pages) == 100
    for index, seating in enumerate(all_seatings):
        page = pages[index // 2]
        header = f"Tisch {seating.table.number}\nDurchgang 1 · Runde {seating.round.number}"
        assert header in page, (index, page[:300])
        assert " & ".join(team_names(seating.team_a)) in page
        assert " & ".join(team_names(seating.team_b)) in page
        assert f"/t/{seating.table.token}/" in page
    # Round then table order: page 1 = round 1 tables 1 and 2, page 26 = round 2 tables 1 and 2.
    assert "Tisch 1\nDurchgang 1 · Runde 1" in pages[0] and "Tisch 2\nDurchgang 1 · Runde 1" in pages[0]
    assert "Tisch 1\nDurchgang 1 · Runde 2" in pages[25]
    assert "Tisch 50\nDurchgang 1 · Runde 4" in pages[99]
    for index in played:
        assert contains_run(lines_of(pages[index // 2]), expected_values(all_seatings[index])), index
    assert [i for i, text in enumerate(pages) if "✓" in text] == sorted({i // 2 for i in played})


@pytest.mark.django_db
def test_score_sheets_with_many_deals_are_one_to_a_page(organiser_client):
    evening = make_evening(8, deals_per_round=8, rounds_per_session=2)
    services.draw_session(evening=evening, seed=2)
    _, _, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1, query="?leer=1")
    assert len(pages) == 4  # 2 tables x 2 rounds, a sheet with 8 deals needs a whole page
    assert all("8" in lines_of(text) and "Unterschrift Team B" in text for text in pages)


# --- Table list and route cards --------------------------------------------------------------


def seat_map(evening, session_number=1):
    """player name -> {round: table number or None}, and player name -> partner name."""
    where: dict[str, dict[int, int | None]] = {}
    partner: dict[str, str] = {}
    for p in Partnership.objects.filter(session__evening=evening, session__number=session_number).select_related(
        "player_1", "player_2"
    ):
        partner[p.player_1.name], partner[p.player_2.name] = p.player_2.name, p.player_1.name
    for seating in seatings(evening, session_number):
        for team in (seating.team_a, seating.team_b):
            for name in team_names(team):
                where.setdefault(name, {})[seating.round.number] = seating.table.number
    for round_ in Round.objects.filter(session__evening=evening, session__number=session_number):
        if round_.sitout_partnership:
            for name in team_names(round_.sitout_partnership):
                where.setdefault(name, {})[round_.number] = None
    return where, partner


def alphabetical(names):
    return sorted(names, key=person_key)


def check_players_listing(pages: list[str], where, partner) -> str:
    """The players A to Z: name, partner, table in each round ("setzt aus" where so), in
    alphabetical order, the heading and the heading row on every page (no page holds
    rows without saying what they are), no page with fewer than a third of the rows of the
    first. A long name may wrap inside its cell, so rows are compared without white space.
    Returns the squeezed rows."""
    body = ""
    rows_on = []
    for page in pages:
        assert "Spieler von A bis Z · Durchgang 1" in page
        squeezed = squeeze(page)
        assert "NamePartnerRunde1Runde2Runde3Runde4" in squeezed
        rows = squeezed.split("Runde4", 1)[1].split("TischlisteDurchgang1–", 1)[0]
        rows_on.append(sum(1 for name in where if squeeze(name) in rows))
        body += rows
    assert min(rows_on) * 3 >= rows_on[0], rows_on
    expected = ""
    for name in alphabetical(where):
        tables = [str(where[name][r]) if where[name][r] else "setzt aus" for r in range(1, 5)]
        expected += squeeze(name + partner[name] + "".join(tables))
    assert body == expected
    return body


@pytest.mark.django_db
def test_table_list_small_evening(organiser_client, drawn_roster):
    evening = drawn_roster
    response, reader, pages, _ = get_pdf(organiser_client, "table_list_pdf", evening.pk, 1)
    assert filename_star(response) == "Tischliste Durchgang 1 – Schwesing – 2026-11-21.pdf"
    assert reader.metadata.title == "Tischliste Durchgang 1 – Schwesing – 2026-11-21"
    # Two rounds to a page, then the players A to Z on one page (it took six pages).
    assert len(pages) == 3
    for round_ in Round.objects.filter(session__evening=evening).order_by("number"):
        text = pages[(round_.number - 1) // 2]
        assert f"Tischliste · Durchgang 1 · Runde {round_.number}" in text
        for seating in seatings(evening):
            if seating.round_id == round_.pk:
                assert f"{seating.table.number}\n" + "\n".join(team_names(seating.team_a)) in text
                assert "\n".join(team_names(seating.team_b)) in text
        assert "Setzt aus: " + " & ".join(team_names(round_.sitout_partnership)) in text

    where, partner = seat_map(evening)
    assert "Spieler von A bis Z · Durchgang 1" in pages[2]
    body = check_players_listing(pages[2:], where, partner)
    assert body.count("setztaus") == 2 * 4  # one partnership sits out in each round


@pytest.mark.django_db
@pytest.mark.no_cover  # a 26-player test's code on 200 players: measured by the smaller tests (tests/conftest.py)
def test_table_list_and_route_cards_200_players(organiser_client):
    evening = make_evening(200)
    services.draw_session(evening=evening, seed=7)
    where, partner = seat_map(evening)

    _, _, pages, _ = get_pdf(organiser_client, "table_list_pdf", evening.pk, 1)
    starts = [next(i for i, page in enumerate(pages) if f"Durchgang 1 · Runde {r}\n" in page) for r in range(1, 5)]
    players_page = next(i for i, page in enumerate(pages) if "Spieler von A bis Z" in page)
    assert starts[0] == 0 and starts == sorted(starts) and players_page > starts[-1]
    bounds = starts + [players_page]
    for seating in seatings(evening):
        r = seating.round.number
        block = "\n".join(pages[bounds[r - 1] : bounds[r]])
        assert "\n".join(team_names(seating.team_a)) in block and "\n".join(team_names(seating.team_b)) in block
    for number, page in enumerate(pages, start=1):
        assert f"Seite {number} von {len(pages)}" in page
        assert "Team A" in page or "Partner" in page  # the heading row is repeated
    body = check_players_listing(pages[players_page:], where, partner)
    assert "setztaus" not in body  # 200 players: nobody sits out

    response, reader, pages, _ = get_pdf(organiser_client, "route_cards_pdf", evening.pk, 1)
    assert filename_star(response) == "Laufzettel Durchgang 1 – Testabend – 2026-11-21.pdf"
    assert len(pages) == 25  # 200 cards, 8 to a page
    cards = []
    for page_number, page in enumerate(pages):
        lines = lines_of(page)
        for i, line in enumerate(lines):
            if line in where:  # the card's player (partners follow "Partner:")
                cards.append((page_number, line, lines[i + 1 : i + 12]))
    assert [name for _, name, _ in cards] == alphabetical(where)
    assert [page for page, _, _ in cards] == [i // 8 for i in range(200)]
    for _, name, rest in cards:
        assert f"Partner: {partner[name]}" in rest
        for r in range(1, 5):
            i = rest.index(f"Runde {r}")
            assert rest[i + 1] == f"Tisch {where[name][r]}"


@pytest.mark.django_db
def test_route_cards_small_evening_with_sit_outs(organiser_client, drawn_roster):
    evening = drawn_roster
    where, partner = seat_map(evening)
    response, reader, pages, _ = get_pdf(organiser_client, "route_cards_pdf", evening.pk, 1)
    assert reader.metadata.title == "Laufzettel Durchgang 1 – Schwesing – 2026-11-21"
    assert len(pages) == 4  # 26 cards, 8 to a page
    lines = [line for page in pages for line in lines_of(page)]
    cards = [
        i
        for i, line in enumerate(lines)
        if line in where and lines[i - 1] == "Schwesing" and lines[i - 2] == "Laufzettel · Durchgang 1"
    ]
    assert [lines[i] for i in cards] == alphabetical(where)
    gonke = lines[lines.index("Gönke Hansen", cards[0]) + 1 :][:12]
    assert gonke[0] == "Schwesing" and gonke[1] == f"Partner: {partner['Gönke Hansen']}"
    for r in range(1, 5):
        table = where["Gönke Hansen"][r]
        assert gonke[gonke.index(f"Runde {r}") + 1] == (f"Tisch {table}" if table else "setzt aus")
    assert "Ahrenviöl" in lines


# --- Literal names, fonts, images -------------------------------------------------------------


@pytest.mark.django_db
def test_names_with_markup_and_quotes_print_literally(organiser_client):
    evening = make_evening(6, name='Abend <i>"Treia"</i> & Co')
    for name, club in ((MARKUP_NAME, MARKUP_CLUB), (LONG_MARKUP_NAME, "")):
        player, _ = services.add_player(name=name, club=club)
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    services.draw_session(evening=evening, seed=4)

    documents = [
        ("ranking_pdf", [evening.pk], ""),
        ("score_sheets_pdf", [evening.pk, 1], "?leer=1"),
        ("table_list_pdf", [evening.pk, 1], ""),
        ("route_cards_pdf", [evening.pk, 1], ""),
    ]
    for name, args, query in documents:
        response, reader, pages, _ = get_pdf(organiser_client, name, *args, query=query)
        text = "\n".join(pages)
        # Printed character for character (a name may wrap inside its cell: compare without spaces).
        assert squeeze(MARKUP_NAME) in squeeze(text), name
        assert squeeze(LONG_MARKUP_NAME) in squeeze(text), name
        assert 'Abend <i>"Treia"</i> & Co' in reader.metadata.title
        # The file name keeps what a file system allows: < > " and / become "-".
        assert "– Abend -i-Treia-i- & Co – 2026-11-21.pdf" in filename_star(response)
        assert re.fullmatch(r"[a-z0-9-]+\.pdf", filename_ascii(response))
    _, _, pages, _ = get_pdf(organiser_client, "ranking_pdf", evening.pk)
    assert squeeze(MARKUP_CLUB) in squeeze("\n".join(pages))
    _, _, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1)
    assert MARKUP_NAME in "\n".join(pages)  # on the sheet's team line it fits unbroken


def test_fonts_cover_german_and_suits_and_register_once():
    pdf_base.register_fonts()
    pdf_base.register_fonts()
    from reportlab.pdfbase import pdfmetrics

    for font_name in (pdf_base.FONT, pdf_base.FONT_BOLD):
        face = pdfmetrics.getFont(font_name).face
        for char in "äöüÄÖÜß♣♠♥♦✓✂–·€":
            assert ord(char) in face.charToGlyph, (font_name, char)
    assert (pdf_base.FONT_DIR / "LICENSE").read_text().count("Bitstream") > 0


@pytest.mark.django_db
def test_fonts_are_embedded_and_no_other_font_is_used(organiser_client, drawn_roster):
    evening = drawn_roster
    for name, args in (
        ("ranking_pdf", [evening.pk]),
        ("score_sheets_pdf", [evening.pk, 1]),
        ("table_list_pdf", [evening.pk, 1]),
        ("route_cards_pdf", [evening.pk, 1]),
        ("table_cards_pdf", [evening.pk]),  # it referred to Helvetica, not embedded
        ("session_print_pdf", [evening.pk, 1]),
        ("certificates_pdf", [evening.pk]),
        ("prize_list_pdf", [evening.pk]),
    ):
        _, reader, _, _ = get_pdf(organiser_client, name, *args)
        seen = set()
        for page in reader.pages:
            fonts = page["/Resources"].get_object().get("/Font", {})
            for font in fonts.values():
                font = font.get_object()
                base_font = str(font["/BaseFont"])
                seen.add(base_font.split("+")[-1])
                descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
                descriptor = descendant["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor, (name, base_font)  # embedded TrueType
        assert seen <= {"DejaVuSans", "DejaVuSans-Bold"} and "DejaVuSans" in seen, (name, seen)


@pytest.mark.django_db
def test_rendered_pages_are_not_blank(organiser_client, drawn_roster, tmp_path):
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm, "pdftoppm is missing: install Debian's poppler-utils (make chromium does)"
    evening = drawn_roster
    for name, args, query in (
        ("ranking_pdf", [evening.pk], ""),
        ("score_sheets_pdf", [evening.pk, 1], ""),
        ("table_list_pdf", [evening.pk, 1], ""),
        ("route_cards_pdf", [evening.pk, 1], ""),
    ):
        _, _, _, data = get_pdf(organiser_client, name, *args, query=query)
        source = tmp_path / f"{name}.pdf"
        source.write_bytes(data)
        subprocess.run(
            [pdftoppm, "-r", "50", "-png", "-f", "1", "-l", "1", str(source), str(tmp_path / name)],
            check=True,
            capture_output=True,
            timeout=60,
        )
        (image_path,) = tmp_path.glob(f"{name}-*.png")
        image = Image.open(image_path).convert("L")
        assert abs(image.size[0] - 413) <= 1 and abs(image.size[1] - 585) <= 1  # A4 at 50 dpi
        dark = image.point(lambda value: 255 if value < 200 else 0).histogram()[255]
        share = dark / (image.size[0] * image.size[1])
        assert 0.01 < share < 0.5, (name, share)


# --- Bad input -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_documents_need_a_login(client, drawn_roster):
    for url in (
        reverse("organiser:ranking_pdf", args=[drawn_roster.pk]),
        reverse("organiser:score_sheets_pdf", args=[drawn_roster.pk, 1]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/anmelden/" in response["Location"]


@pytest.mark.django_db
def test_undrawn_or_unknown_sessions_redirect_with_a_message(organiser_client, drawn_roster):
    evening = drawn_roster
    for name in ("score_sheets_pdf", "table_list_pdf", "route_cards_pdf"):
        for number in (0, 2, 3, 99):
            response = organiser_client.get(reverse(f"organiser:{name}", args=[evening.pk, number]), follow=True)
            assert response.status_code == 200
            assert response.redirect_chain[-1][0] == reverse("organiser:evening_detail", args=[evening.pk])
            messages = [str(m) for m in response.context["messages"]]
            assert messages == [f"Durchgang {number} ist noch nicht ausgelost."], messages


@pytest.mark.django_db
def test_unknown_evening_is_a_friendly_404(organiser_client):
    missing = (Evening.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    for name, args in (
        ("ranking_pdf", [missing]),
        ("score_sheets_pdf", [missing, 1]),
        ("table_list_pdf", [missing, 1]),
        ("route_cards_pdf", [missing, 1]),
    ):
        response = organiser_client.get(reverse(f"organiser:{name}", args=args))
        assert response.status_code == 404
        assert "application/pdf" not in response["Content-Type"]


@pytest.mark.django_db
def test_ranking_without_players_redirects_with_a_message(organiser_client):
    evening = services.create_evening(name="Leer", date="2026-11-21")
    response = organiser_client.get(reverse("organiser:ranking_pdf", args=[evening.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("organiser:ranking", args=[evening.pk])
    assert [str(m) for m in response.context["messages"]] == [
        "Es gibt noch keine Rangliste zum Drucken: Niemand ist als anwesend eingetragen."
    ]


@pytest.mark.django_db
def test_links_on_the_organiser_pages(organiser_client, drawn_roster):
    evening = drawn_roster
    page = organiser_client.get(reverse("organiser:ranking", args=[evening.pk])).content.decode()
    assert f'class="button" href="{reverse("organiser:ranking_pdf", args=[evening.pk])}"' in page
    page = organiser_client.get(reverse("organiser:session_detail", args=[evening.pk, 1])).content.decode()
    sheets = reverse("organiser:score_sheets_pdf", args=[evening.pk, 1])
    for href in (
        f"{sheets}?leer=1",
        sheets,
        reverse("organiser:table_list_pdf", args=[evening.pk, 1]),
        reverse("organiser:route_cards_pdf", args=[evening.pk, 1]),
    ):
        assert f'class="button" href="{href}"' in page, href
    assert "Spielzettel leer (PDF)" in page and "Laufzettel (PDF)" in page


@pytest.mark.django_db
def test_documents_follow_the_language(organiser_client, drawn_roster):
    """In the evening's language, not the organiser's: a German evening prints German
    for an organiser reading English, an English evening English."""
    organiser_client.cookies["django_language"] = "en"
    _, _, pages, _ = get_pdf(organiser_client, "ranking_pdf", drawn_roster.pk)
    assert "Rangliste (vorläufig)" in pages[0]
    organiser_client.cookies["django_language"] = "de"
    drawn_roster.language = "en"
    drawn_roster.save(update_fields=["language"])
    response, reader, pages, _ = get_pdf(organiser_client, "ranking_pdf", drawn_roster.pk)
    assert "Ranking (provisional)" in pages[0] and "Page 1 of 1" in pages[0]
    assert filename_star(response) == "Ranking (provisional) – Schwesing – 2026-11-21.pdf"


@pytest.mark.django_db
def test_stand_ins_are_marked_on_the_printed_lists(organiser_client, roster_evening):
    from scoring.models import Participant

    stand_in = Participant.objects.get(evening=roster_evening, player__name="Tom Whitfield")
    stand_in.is_stand_in = True
    stand_in.save()
    services.draw_session(evening=roster_evening, seed=3)
    for name in ("table_list_pdf", "route_cards_pdf", "score_sheets_pdf"):
        _, _, pages, _ = get_pdf(organiser_client, name, roster_evening.pk, 1)
        text = squeeze("\n".join(pages))
        assert "TomWhitfield(Ersatz)" in text, name
        assert "HaukePetersen(Ersatz)" not in text
