"""Printed documents that fit and that build for every field size.

The builders take loaded data and return bytes, so the documents are built from data made in
memory (``tests/document_data.py``), without a database, and read back with pypdf
(``tests/pdf_check.py``: every text line with its position).
"""

from __future__ import annotations

import io
import random
from datetime import datetime
from fractions import Fraction
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import hypothesis
import pytest
from django.utils import translation
from hypothesis import strategies as st
from pypdf import PdfReader
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import PageBreak

from scoring.documents import pdf_base as base
from scoring.documents.certificates import build_certificates, build_prize_list
from scoring.documents.ranking import build_ranking
from scoring.documents.route_cards import build_route_cards
from scoring.documents.score_sheets import build_score_sheets
from scoring.documents.table_cards import build_table_cards
from scoring.documents.table_lists import build_table_list
from scoring.selectors import RankingRow
from tests import document_data as dd
from tests.pdf_check import Box, problems, text_lines
from tests.tracing import pdf_text, pdf_texts

PRINTED_AT = datetime(2026, 11, 21, 22, 15, tzinfo=ZoneInfo("Europe/Berlin"))
PRINTED = "Gedruckt am 21.11.2026 22:15"
W, H = base.PAGE_WIDTH, base.PAGE_HEIGHT
BODY = [Box(base.MARGIN, 2 * mm, W - base.MARGIN, H - 2 * mm)]


def cut_boxes(columns: int, rows: int) -> list[Box]:
    """The pieces of a cut page (each text within one piece, never across a cut line) and the
    footer below them."""
    frames = base.cut_template(columns, rows).frames
    boxes = [Box(f._x1, f._y1, f._x1 + f._width, f._y1 + f._height) for f in frames]
    lowest = min(f._y1 for f in frames)
    scissors = Box(0, lowest, min(f._x1 for f in frames), H)  # ✂ on the cut lines, left edge
    return [*boxes, scissors, Box(base.MARGIN, 0, W - base.MARGIN, lowest)]


def sheet_boxes(plan) -> callable:
    """Score sheets: two to a page when they fit (4 deals a round do), else one."""
    sheets = sum(len(r.tables) for r in plan.rounds)
    return lambda pages: cut_boxes(1, 2) if pages < sheets or sheets == 1 else cut_boxes(1, 1)


def documents(players: list, rnd: random.Random, evening, *, provisional: bool = True, team_size: int = 2):
    """(name, bytes, boxes) of every document of an evening with these players (in teams of
    ``team_size``: 3 for six-handed Bräus)."""
    rows = dd.ranking_rows(players, rnd)
    if provisional and rows:  # a sit-out credit of a running round, and a shared place
        first = rows[0]
        rows[0] = RankingRow(first.place, True, first.player, first.sessions, first.total, frozenset({1}))
        rows[1:2] = [RankingRow(first.place, True, r.player, r.sessions, r.total) for r in rows[1:2]]
    plan = dd.session_plan(players, rnd, team_size=team_size)
    rows_per_card_page = 4 if len(plan.rounds) <= 5 else 3
    return [
        (
            "ranking",
            build_ranking(evening, rows, complete=not provisional, sessions_drawn=2, printed_at=PRINTED_AT),
            BODY,
        ),
        ("table list", build_table_list(evening, plan, printed_at=PRINTED_AT), BODY),
        (
            "score sheets blank",
            build_score_sheets(evening, plan, filled=False, printed_at=PRINTED_AT),
            sheet_boxes(plan),
        ),
        (
            "score sheets filled",
            build_score_sheets(evening, plan, filled=True, printed_at=PRINTED_AT),
            sheet_boxes(plan),
        ),
        ("route cards", build_route_cards(evening, plan, printed_at=PRINTED_AT), cut_boxes(2, rows_per_card_page)),
        (
            "table cards",
            build_table_cards(
                evening,
                [SimpleNamespace(number=seat.table, code="KATWEN") for seat in plan.rounds[0].tables],
                table_url=lambda table: f"http://192.168.178.20:8000/t/{table.number:02d}{'Ab3_' * 7}x2/",
                join_url="http://192.168.178.20:8000/tablet/",
                wifi_name="Dörpshus Schwesing Gäste 5 GHz",
                printed_at=PRINTED_AT,
            ),
            cut_boxes(1, 2),
        ),
        (
            "certificates",
            build_certificates(evening, rows, places=3, complete=not provisional, printed_at=PRINTED_AT),
            BODY,
        ),
        (
            "prize list",
            build_prize_list(evening, rows, places=len(rows), complete=not provisional, printed_at=PRINTED_AT),
            BODY,
        ),
    ]


# --- PDFs that fit: long evening names, long names and clubs ----------------------------------


@pytest.mark.parametrize(("count", "team_size"), [(26, 2), (30, 2), (31, 3), (26, 3)])
def test_every_document_fits_with_long_names_and_the_footer_is_complete(count, team_size):
    """60-character evening name, 30-character names and clubs: every text line lies within its
    page and box, no two lines overlap, and every page's footer carries the complete print date
    and time and "Seite X von Y". Also in six-handed Bräus (teams of three, tables of six, two
    session sit-out players with 26 or 31 players)."""
    rnd = random.Random(count)
    evening = dd.evening(dd.LONG_EVENING)
    if team_size == 3:
        evening.rule_set = "braeus6"
    assert len(evening.name) == 60
    players = dd.people(count, rnd, long=True)
    assert {len(p.name) for p in players} == {30} and {len(p.club) for p in players} == {30}
    with translation.override("de"):
        built = documents(players, rnd, evening, team_size=team_size)
    plan_sheets = {"score sheets blank", "score sheets filled"}
    for name, data, boxes in built:
        sizes, lines = text_lines(data)
        if name in plan_sheets:
            assert len(sizes) * 2 >= sum(1 for t in lines if t.text.startswith("Tisch ") and t.size > 20)
            boxes = boxes(len(sizes))
            assert len(boxes) == 4, "long names: still two score sheets to a page"
        assert problems(data, boxes) == [], name
        for page in range(1, len(sizes) + 1):
            footer = [t.text for t in lines if t.page == page and t.y < 8 * mm]
            if name == "certificates":  # handed to a player: no page footer
                assert footer == [] and not any("Gedruckt" in t.text for t in lines), (page, footer)
                continue
            assert any(t.endswith(PRINTED) for t in footer), (name, page, footer)
            assert f"Seite {page} von {len(sizes)}" in footer, (name, page, footer)
            # The title wraps instead of being cut: the evening's whole name, no "…".
            title = " ".join(t.text for t in lines if t.page == page and t.y < 12 * mm and t.size < 10)
            assert dd.LONG_EVENING in title and "…" not in title, (name, page, title)


def test_a_table_list_of_eight_rounds_fits_its_page():
    """Eight rounds in a session (the most there are): the round columns share half of the page's
    width, names and partners the rest; every line lies within the page, none overlaps, and the
    narrow columns' "Runde 8" and "setzt aus" are never broken inside a word ("Ru/nd/e 8")."""
    rnd = random.Random(8)
    players = dd.people(26, rnd, long=True)
    plan = dd.session_plan(players, rnd, rounds=8)
    with translation.override("de"):
        data = build_table_list(dd.evening(), plan, printed_at=PRINTED_AT)
    assert problems(data, BODY) == []
    sizes, lines = text_lines(data)
    a_to_z = [t.text.split() for t in lines if t.page == len(sizes)]  # the A-Z list's last page
    words = [word for line in a_to_z for word in line]
    assert words.count("Runde") == 8, a_to_z[:20]
    assert words.count("setzt") == words.count("aus") >= 1, a_to_z


def test_footer_wraps_the_title_and_shortens_it_only_beyond_two_lines_never_the_print_time():
    title = "Rangliste (vorläufig) – " + dd.LONG_EVENING + " – 2026-11-21"
    decor = base.PageDecor(title=title, printed=PRINTED)
    text = base.footer_text(decor, 300)  # one line: shortened
    assert text.endswith(" · " + PRINTED) and "…" in text
    assert base.text_width(text, base.FOOTER_SIZE) <= 300
    lines = base.footer_lines(decor, 400)  # two lines: whole
    assert len(lines) == 2 and " ".join(lines) == title + " · " + PRINTED
    assert all(base.text_width(line, base.FOOTER_SIZE) <= 400 for line in lines)
    lines = base.footer_lines(decor, 150)  # more than two lines' worth: the start shortened
    assert len(lines) == 2 and lines[0].endswith("…") and lines[-1].endswith(PRINTED)
    assert base.footer_lines(base.PageDecor(title=title, printed=PRINTED, footer=False), 400) == []


def test_ranking_club_column_keeps_normal_club_names_on_one_line():
    """With long names, "Oster-Ohrstedt" still gets one line (it wrapped as "Oster-/Ohrstedt")."""
    rnd = random.Random(3)
    players = dd.people(20, rnd, long=True)
    for p in players:
        p.club = "Oster-Ohrstedt"
    with translation.override("de"):
        data = build_ranking(dd.evening(), dd.ranking_rows(players, rnd), complete=True, printed_at=PRINTED_AT)
    _, lines = text_lines(data)
    clubs = [t for t in lines if "Ohrstedt" in t.text or "Oster" in t.text]
    assert len(clubs) == 20 and all(t.text == "Oster-Ohrstedt" for t in clubs)


def test_ranking_marks_provisional_sitout_credit_with_a_legend():
    rnd = random.Random(5)
    players = dd.people(10, rnd)
    rows = dd.ranking_rows(players, rnd)
    r = rows[0]
    rows[0] = RankingRow(
        r.place, r.shared, r.player, (Fraction(57, 4), Fraction(3), Fraction(0)), Fraction(57, 4) + 3, frozenset({0})
    )
    with translation.override("de"):
        data = build_ranking(dd.evening(), rows, complete=False, sessions_drawn=1, printed_at=PRINTED_AT)
    text = pdf_text(data)
    assert "14,3°" in text and "17,3°" in text  # half up, with the mark
    assert "° vorläufig: Freilos-Gutschrift" in text


def test_score_sheet_legend_and_link_are_large_enough_for_readers_over_60():
    rnd = random.Random(7)
    with translation.override("de"):
        data = build_score_sheets(dd.evening(), dd.session_plan(dd.people(8, rnd), rnd), filled=False)
    _, lines = text_lines(data)
    legend = [t for t in lines if t.text.startswith("Fünf Stiche: das Team")]
    link = [t for t in lines if t.text.startswith("http://127.0.0.1:8000/t/")]
    assert legend and link
    assert min(t.size for t in legend) >= 9.5 and min(t.size for t in link) >= 9


# --- The ranking PDF crash ----------------------------------------------------


def test_paragraph_split_at_a_page_foot_is_wrapped_again_before_it_is_drawn():
    """reportlab's split() drops a paragraph's line breaking (blPara) when not even one line fits
    at the foot of a page; the paragraph must not answer with its remembered size then (it
    crashed the ranking PDF: AttributeError 'Para' object has no attribute 'blPara')."""
    paragraph = base.para("Sit-outs are credited with the average of the teams that played. " * 3, 11)
    paragraph.wrap(200, 1000)
    assert paragraph.split(200, 5) == []
    paragraph.wrap(200, 1000)
    paragraph.drawOn(Canvas(io.BytesIO()), 0, 0)


def test_ranking_with_names_like_spielerin_0001_ketelsen_builds():
    """The view answered 500 for a 26-player evening named like this."""
    for count in (24, 26):
        rnd = random.Random(count)
        players = dd.people(count, rnd)
        for p in players:
            p.name = f"Spielerin {p.pk:04d} Ketelsen"
        data = build_ranking(dd.evening(), dd.ranking_rows(players, rnd), complete=False, sessions_drawn=2)
        assert len(PdfReader(io.BytesIO(data)).pages) >= 1


# --- Every document for every field size ----------------------------------------------
#
# Building every document for each of the 297 sizes takes about 12 minutes on this 2-core machine
# (score sheets and route cards for 300 players take about 2 s each), so: the ranking, the document
# that crashed and whose page breaks move with the number of players, is built for every size
# from 4 to 300 (about a minute); every document (ranking, table list, score sheets blank and
# filled, route cards) is built for sizes, names, clubs, evening names and rounds drawn by
# hypothesis (derandomized, so every run tries the same cases), always including 24, 51 and 300.


@pytest.mark.no_cover  # a sweep: its lines are measured by other tests (tests/conftest.py)
def test_ranking_builds_for_every_number_of_players_from_4_to_300():
    failures = []
    for count in range(4, 301):
        rnd = random.Random(count)
        players = dd.people(count, rnd)  # names up to 30 characters, as "Spielerin 0001 Ketelsen"
        rows = dd.ranking_rows(players, rnd)
        try:
            data = build_ranking(dd.evening(), rows, complete=count % 2 == 0, sessions_drawn=count % 4)
            assert len(PdfReader(io.BytesIO(data)).pages) >= 1
        except Exception as error:  # noqa: BLE001 (collect every size that fails)
            failures.append((count, repr(error)))
    assert failures == []


@pytest.mark.no_cover  # a sweep: its lines are measured by other tests (tests/conftest.py)
@hypothesis.settings(
    max_examples=6, deadline=None, derandomize=True, suppress_health_check=[hypothesis.HealthCheck.too_slow]
)
@hypothesis.given(
    count=st.integers(4, 300),
    seed=st.integers(0, 2**32),
    name_max=st.integers(1, 30),
    club_max=st.integers(0, 30),
    evening_name=st.text(alphabet=dd.ALPHABET, min_size=1, max_size=60),
    rounds=st.integers(1, 8),
    team_size=st.sampled_from((2, 3)),
)
@hypothesis.example(count=24, seed=0, name_max=30, club_max=30, evening_name=dd.LONG_EVENING, rounds=4, team_size=2)
@hypothesis.example(count=51, seed=1, name_max=23, club_max=14, evening_name="Bruus", rounds=4, team_size=2)
@hypothesis.example(count=300, seed=2, name_max=30, club_max=30, evening_name=dd.LONG_EVENING, rounds=6, team_size=2)
@hypothesis.example(count=5, seed=3, name_max=1, club_max=0, evening_name="x", rounds=1, team_size=2)
@hypothesis.example(count=299, seed=4, name_max=30, club_max=30, evening_name=dd.LONG_EVENING, rounds=6, team_size=3)
@hypothesis.example(count=8, seed=5, name_max=1, club_max=0, evening_name="x", rounds=1, team_size=3)
def test_every_document_builds_for_any_field_size(count, seed, name_max, club_max, evening_name, rounds, team_size):
    rnd = random.Random(seed)
    evening = dd.evening(evening_name.strip() or "Bruus")
    if team_size == 3:
        evening.rule_set = "braeus6"
    players = dd.varied_people(count, rnd, name_max=name_max, club_max=club_max)
    rows = dd.ranking_rows(players, rnd)
    plan = dd.session_plan(players, rnd, rounds=rounds, team_size=team_size)
    with translation.override("de"):
        built = [
            build_ranking(evening, rows, complete=False, sessions_drawn=2),
            build_table_list(evening, plan),
            build_score_sheets(evening, plan, filled=False),
            build_score_sheets(evening, plan, filled=True),
            build_route_cards(evening, plan),
            build_prize_list(evening, rows, places=count, complete=True),
        ]
        certificates = build_certificates(evening, rows, places=min(3, count), complete=False)
    for data in built:
        reader = PdfReader(io.BytesIO(data))
        assert len(reader.pages) >= 1
        assert "Seite 1 von" in reader.pages[0].extract_text()  # a sweep: untraced as a whole
    first = PdfReader(io.BytesIO(certificates)).pages[0].extract_text()
    assert "Urkunde" in first and "Seite" not in first  # a certificate has no page footer


def test_a_name_broken_at_its_hyphen_keeps_the_hyphen_on_a_shrunk_card():
    """Route cards of teams of three with long names: "Partner: A & B" wraps inside a card that
    is shrunk to fit (wrapped at several widths); a name broken after its hyphen ("Anna-" /
    "Katharina") keeps it, never "AnnaKatharina" (reportlab joins its split words again)."""
    rnd = random.Random(31)
    players = dd.people(23, rnd, long=True)
    plan = dd.session_plan(players, rnd, team_size=3)
    with translation.override("de"):
        data = build_route_cards(dd.evening(dd.LONG_EVENING), plan, printed_at=PRINTED_AT)
    _, lines = text_lines(data)
    texts = [t.text for t in lines]
    assert any(t.startswith("Partner: ") and t.endswith("& Anna-") for t in texts)
    assert not any("AnnaKatharina" in t for t in texts)


def _long_table(rnd: random.Random) -> tuple[list[list], list]:
    """400 rows of one to three lines, some a paragraph, some in a larger font; a heading of
    two rows (a title across all columns, the column names)."""
    data = [[base.para("Tischliste · Runde 1", 24, bold=True), "", ""], ["Tisch", "Team A", "Team B"]]
    for n in range(1, 401):
        lines = rnd.choice([1, 2, 2, 3])
        team = "\n".join(f"Spielerin {n}-{i}" for i in range(lines))
        other = base.para(f"Ein sehr langer Name Nummer {n} der umbricht", 18) if n % 17 == 0 else f"Spieler {n}"
        data.append([str(n), team, other])
    commands = [
        ("SPAN", (0, 0), (-1, 0)),
        ("FONT", (0, 0), (-1, -1), base.FONT, 14, 17),
        ("FONT", (0, 2), (0, -1), base.FONT_BOLD, 28, 30),
        ("TOPPADDING", (0, 1), (-1, -1), 5),
        ("LINEBELOW", (0, 2), (-1, -1), 0.5, base.RULE),
        ("ROWBACKGROUNDS", (0, 2), (-1, -1), ["white", base.LIGHT]),
    ]
    return data, commands


def test_a_long_table_page_by_page_breaks_where_reportlab_breaks_it():
    """The table list lays out its long tables a page at a time (pdf_base.page_by_page, issue
    15): the same rows on the same pages as reportlab's own split, the heading on top of each."""
    from reportlab.platypus import Table, TableStyle

    translation.activate("de")
    decor = base.PageDecor(title="Probe", printed=PRINTED)
    widths = [60, 210, 240]
    big = {n: [("FONT", 1, 2, base.FONT, 22, 26)] for n in range(2, 402, 13)}  # some rows larger

    def story(paged: bool) -> list:
        data, commands = _long_table(random.Random(7))
        above = [base.para("Schwesinger Bruus-Abend", 14, space_after=4)]
        if paged:
            room = base.frame_height(decor)
            first = base.room_below(above, sum(widths), room)
            tables = base.page_by_page(
                data, col_widths=widths, repeat_rows=2, commands=commands, row_commands=big, first_room=first, room=room
            )
            return [*above, *tables]
        own = [(name, (a, row), (b, row), *args) for row, cmds in big.items() for name, a, b, *args in cmds]
        return [*above, Table(data, colWidths=widths, repeatRows=2, style=TableStyle(commands + own))]

    ours = pdf_texts(base.render(story(True), title="Probe", decor=decor))
    reportlabs = pdf_texts(base.render(story(False), title="Probe", decor=decor))
    assert len(ours) > 20
    assert ours == reportlabs
    assert all("Tischliste · Runde 1" in page and "Team A" in page for page in ours)


def test_a_table_of_only_its_heading_is_one_table():
    data, commands = _long_table(random.Random(1))
    tables = base.page_by_page(
        data[:2], col_widths=[60, 210, 240], repeat_rows=2, commands=commands, first_room=50, room=700
    )
    assert len(tables) == 1 and len(tables[0]._cellvalues) == 2


def test_a_balanced_long_table_shares_its_rows_out_evenly_over_the_same_pages():
    """50 rows, 8 to a page: 7 pages either way, but 8, 7, 7, 7, 7, 7, 7 rows instead of six
    full pages and a scrap of two (the A-Z list spilled two rows onto a page)."""
    data = [["Kopf"]] + [[f"Zeile {n}"] for n in range(50)]
    commands = [("FONT", (0, 0), (-1, -1), base.FONT, 10), ("TOPPADDING", (0, 0), (-1, -1), 0)]
    whole = base.page_by_page(data, col_widths=[200], repeat_rows=1, commands=commands, first_room=1e6, room=1e6)
    row = whole[0]._rowHeights[1]
    room = row * 9 + base.PAGE_SLACK + 0.1  # the heading and 8 rows
    greedy = base.page_by_page(data, col_widths=[200], repeat_rows=1, commands=commands, first_room=room, room=room)
    balanced = base.page_by_page(
        data, col_widths=[200], repeat_rows=1, commands=commands, first_room=room, room=room, balance=True
    )
    assert [len(t._cellvalues) - 1 for t in greedy] == [8, 8, 8, 8, 8, 8, 2]
    assert [len(t._cellvalues) - 1 for t in balanced] == [8, 7, 7, 7, 7, 7, 7]
    assert [t._cellvalues[0] for t in balanced] == [["Kopf"]] * 7  # the heading on every page
    assert [c for t in balanced for c in t._cellvalues[1:]] == data[1:]
    story = base.one_a_page(balanced)
    assert sum(isinstance(f, PageBreak) for f in story) == 6


@pytest.mark.parametrize(
    ("name", "club"),
    [
        ("Anna-Katharina " * 6 + "Süderstapel", "SV " * 33 + "e.V."),  # 100 letters with spaces
        ("W" * 100, "M" * 100),  # 100 wide letters without a space: no line can break
    ],
    ids=["words", "one-word"],
)
def test_a_certificate_for_a_name_of_any_width_fits_one_page(name, club):
    """A certificate for a 100-letter name spilled onto a second page."""
    from scoring.models import Player

    rnd = random.Random(1)
    players = dd.people(3, rnd)
    players[0] = Player(pk=1, name=name[:100], club=club[:100])
    evening = dd.evening(dd.LONG_EVENING)
    rows = dd.ranking_rows(players, rnd)
    with translation.override("de"):
        data = build_certificates(evening, rows, places=3, complete=True, printed_at=PRINTED_AT)
    sizes, _ = text_lines(data)
    assert len(sizes) == 3  # one page a certificate
    assert problems(data, BODY) == []
    assert name[:20] in pdf_text(data)
