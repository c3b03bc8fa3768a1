"""Score sheets (Spielzettel): one per table per round, two to an A4 page with a cut line.

Each sheet: session, round and table number, both teams (for teams of three also the seat order
numbered round the table, partners alternating), one row per deal with five tricks, to
nil, daring and striking and the matchsticks of each team, the round totals, a signature field
per team and a QR code with the table's scorer link. Blank (to fill in by hand) or filled with
what has been entered (missing deals stay blank, to be completed by hand).

A session of 50 tables has 200 sheets, so what is the same on every sheet (the grid with its
headings, the legend, the signature fields, and each table's QR code) is drawn once per document
as a PDF form and placed on each sheet (:class:`~scoring.documents.pdf_base.Stamp`); only the
names and numbers are drawn per sheet.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from xml.sax.saxutils import escape

from django.utils.text import capfirst
from django.utils.translation import gettext
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, FrameBreak, KeepInFrame, Paragraph, Spacer, Table, TableStyle

from scoring.documents import pdf_base as base
from scoring.documents.data import DealLine, SessionPlan, TablePlan
from scoring.domain.rulesets import BOCK, Wording

QR_SIZE = 30 * mm
CHECK = "✓"
SHEET_WIDTH = base.PAGE_WIDTH - 14 * mm  # the frame of cut_template(1, 2)
RED_SUITS = ("♥", "♦")
DEAL_W = 15 * mm
TEAM_COLUMNS = (0.19, 0.17, 0.30, 0.34)  # five tricks, to nil, daring and striking, matchsticks
#: A rule set without bonus matchsticks (Treia, Bräus): no bonus column.
TEAM_COLUMNS_NO_BONUS = (0.30, 0.26, 0.44)  # five (six) tricks, to nil, matchsticks


def columns(has_bonus: bool) -> list[float]:
    """The widths (points) of the grid's columns: the deal number, then each team's columns."""
    team = TEAM_COLUMNS if has_bonus else TEAM_COLUMNS_NO_BONUS
    return [DEAL_W] + [(SHEET_WIDTH - DEAL_W) / 2 * f for f in team] * 2


COLUMNS = columns(True)
VALUE_SIZE = 13
LEGEND_SIZE = 10  # pt: the rules legend, readable for scorers over 60
URL_SIZE = 9  # pt: the table's link under the teams
MAX_SHRINK = 0.96  # a sheet up to 4 % too tall for half a page is shrunk, still two to a page


def score_sheets_name(evening, session_number: int, *, filled: bool) -> str:
    """Title and file name, e.g. "Spielzettel Durchgang 1 (leer) – <evening> – <date>"."""
    detail = gettext("Session %(number)s") % {"number": session_number}
    detail += " " + (gettext("(filled in)") if filled else gettext("(blank)"))
    return base.document_name(gettext("Score sheets"), evening, detail)


# --- QR code ---------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def qr_modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The dark (True) and light modules of ``url``'s QR code, row by row, as encoded by
    :class:`QrCodeWidget` (cached: a table keeps its link all evening)."""
    widget = QrCodeWidget(url, barLevel="M")
    widget.qr.make()
    return tuple(tuple(bool(m) for m in row) for row in widget.qr.modules)


class QrCode(Flowable):
    """The QR code of a table's scorer link.

    A table has the same link in every round, so its code is drawn once per document, as a PDF
    form, and placed on each of the table's sheets.
    """

    border = 4  # modules of quiet zone, as QrCodeWidget

    def __init__(self, url: str, size: float = QR_SIZE):
        super().__init__()
        self.url = url
        self.width = self.height = size

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        canvas = self.canv
        name = "qr-" + hashlib.sha1(self.url.encode()).hexdigest()[:20]
        done = base.forms_done(canvas)
        if name not in done:
            modules = qr_modules(self.url)
            box = self.width / (len(modules) + 2 * self.border)
            canvas.beginForm(name, 0, 0, self.width, self.height)
            canvas.setFillColor(colors.black)
            path = canvas.beginPath()
            for r, row in enumerate(modules):
                y = self.height - (r + self.border + 1) * box
                c = 0
                for dark, run in itertools.groupby(row):
                    count = len(list(run))
                    if dark:
                        path.rect((c + self.border) * box, y, count * box, box * 1.02)
                    c += count
            canvas.drawPath(path, stroke=0, fill=1)
            canvas.endForm()
            done.add(name)
        canvas.doForm(name)


# --- The document ----------------------------------------------------------------------------


def build_score_sheets(evening, plan: SessionPlan, *, filled: bool, printed_at: datetime | None = None) -> bytes:
    """:func:`score_sheets_part` as PDF bytes."""
    return base.render_part(score_sheets_part(evening, plan, filled=filled, printed_at=printed_at))


def score_sheets_part(evening, plan: SessionPlan, *, filled: bool, printed_at: datetime | None = None) -> base.Part:
    """All score sheets of a session, in round then table order, to render with
    :func:`base.render_part` or with other documents.

    Two sheets to an A4 page when a sheet fits half a page (4 deals per round do, also with long
    names at tables of six, shrunk a little: :data:`MAX_SHRINK`), else one.

    Args:
        evening: the Evening (name and date are read).
        plan: the session (:func:`scoring.documents.data.load_session_plan`, with deals when filled).
        filled: True prints the entered deals; False prints blank sheets.
    """
    title = score_sheets_name(evening, plan.number, filled=filled)
    decor = base.PageDecor(title=title, printed=base.printed_text(printed_at))
    parts = _Parts.make(evening, plan.deals_per_round)
    sheets = [
        _sheet(parts, plan, round_.number, seat, filled=filled) for round_ in plan.rounds for seat in round_.tables
    ]
    template = base.cut_template(1, 2, template_id="two")
    frame = template.frames[0]
    if sheets and _height(sheets[0], frame._width) * MAX_SHRINK > frame._height:
        template = base.cut_template(1, 1, template_id="one")
        frame = template.frames[0]
    story = []
    for index, content in enumerate(sheets):
        if index:
            story.append(FrameBreak())
        if _height(content, frame._width) <= frame._height:
            story += content
        else:  # very long names: the sheet shrinks a little instead of breaking apart
            story.append(KeepInFrame(frame._width, frame._height, content, mode="shrink"))
    if not story:
        story.append(base.para(gettext("No tables in this session."), 14))
    return base.Part(story, title, decor, [template], gettext("Score sheets"))


def _height(content, width: float) -> float:
    return sum(f.wrap(width, 100_000)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in content)


@dataclass(frozen=True)
class _Parts:
    """What every sheet of a document shares."""

    kicker: str
    grid: base.Stamp  # the deal table's headings, deal numbers, lines, "Runde gesamt"
    row_heights: tuple[float, ...]
    footer: base.Stamp  # legend and signature fields
    label_width: float
    has_bonus: bool = True  # the rule set scores bonus matchsticks: the grid has their column

    @classmethod
    def make(cls, evening, deals_per_round: int) -> _Parts:
        rules = evening.rules
        grid_table = _grid(deals_per_round, rules.wording, has_bonus=rules.has_bonus)
        grid_table.wrap(SHEET_WIDTH, 100_000)
        label_width = (
            max(
                base.text_width(gettext("Team A") + ":", 13, bold=True),
                base.text_width(gettext("Team B") + ":", 13, bold=True),
            )
            + 6
        )
        return cls(
            kicker=" · ".join((gettext("Score sheet"), evening.name, gettext(rules.name))),
            grid=base.Stamp(f"grid-{deals_per_round}-{int(rules.has_bonus)}", [grid_table], SHEET_WIDTH),
            row_heights=tuple(grid_table._rowHeights),
            footer=base.Stamp(
                "legend-signatures",
                [
                    Spacer(1, 1 * mm),
                    _legend(rules.wording.legend, seat_order_note(rules.players_per_team)),
                    Spacer(1, 0.5 * mm),
                    _signatures(),
                ],
                SHEET_WIDTH,
            ),
            label_width=label_width,
            has_bonus=rules.has_bonus,
        )


def _sheet(parts: _Parts, plan: SessionPlan, round_number: int, seat: TablePlan, *, filled: bool) -> list:
    team_a, team_b = team_lines(seat)
    header = SheetHeader(
        parts,
        table=gettext("Table %(n)s") % {"n": seat.table},
        session=" · ".join(
            (gettext("Session %(number)s") % {"number": plan.number}, gettext("Round %(n)s") % {"n": round_number})
        ),
        teams=((gettext("Team A") + ":", team_a), (gettext("Team B") + ":", team_b)),
        url=seat.scorer_url,
    )
    deals = {d.number: d for d in seat.deals} if filled else {}
    grid = base.Overlay(parts.grid, GridValues(parts, plan.deals_per_round, deals)) if deals else parts.grid
    return [header, Spacer(1, 2 * mm), grid, parts.footer]


def team_lines(seat: TablePlan) -> tuple[str, str]:
    """Team A's and team B's names as the sheet prints them.

    At a table of four: "A1 & A2", "B1 & B2". At a table of six (teams of three) with the seats
    numbered round the table, partners alternating (six-handed Bräus: *Bräus* (Gotland);
    *Bräus* (encyclopedia), "Rules"; the legend says so, :func:`seat_order_note`):
    "1: A1 · 3: A2 · 5: A3" and "2: B1 · 4: B2 · 6: B3".
    """
    a, b = seat.team_a.players, seat.team_b.players
    if len(a) < 3:
        return seat.team_a.label, seat.team_b.label
    team_a, team_b = (
        " · ".join(f"{2 * i + first}: {p.label}" for i, p in enumerate(team)) for first, team in ((1, a), (2, b))
    )
    return team_a, team_b


def seat_order_note(players_per_team: int) -> str:
    """The legend's sentence on the seat numbers at a table of six; "" for teams of two."""
    if players_per_team < 3:
        return ""
    return gettext("Seats 1 to %(last)s round the table: partners alternate.") % {"last": 2 * players_per_team}


class SheetHeader(Flowable):
    """Kicker, table number, session and round, both teams, the link in small print, and the QR
    code on the right. Plain lines; a line too long for the sheet wraps (printed literally)."""

    def __init__(self, parts: _Parts, *, table: str, session: str, teams, url: str):
        super().__init__()
        self.parts = parts
        self.qr = QrCode(url)
        self.text_width = SHEET_WIDTH - QR_SIZE - 4 * mm
        names_width = self.text_width - parts.label_width
        # (x, font, size, leading, colour, text or wrapped paragraph)
        self.lines = [
            _line(0, base.FONT, 10, 12, base.GREY, parts.kicker, self.text_width),
            _line(0, base.FONT_BOLD, 26, 30, colors.black, table, self.text_width),
            _line(0, base.FONT_BOLD, 15, 21, colors.black, session, self.text_width),
        ]
        for label, names in teams:
            self.lines.append((0, base.FONT_BOLD, 13, 0, colors.black, label))
            self.lines.append(_line(parts.label_width, base.FONT, 13, 16, colors.black, names, names_width))
        self.lines.append(_line(0, base.FONT, URL_SIZE, URL_SIZE * 1.25, base.GREY, url, self.text_width))

    def wrap(self, available_width, available_height):
        self.width = SHEET_WIDTH
        self.height = max(QR_SIZE, sum(_line_height(line) for line in self.lines))
        return self.width, self.height

    def draw(self):
        canvas = self.canv
        y = self.height
        for x, font, size, leading, color, content in self.lines:
            if isinstance(content, str):
                canvas.setFont(font, size)
                canvas.setFillColor(color)
                canvas.drawString(x, y - size, content)
            else:
                content.drawOn(canvas, x, y - content.height)
            y -= _line_height((x, font, size, leading, color, content))
        self.qr.drawOn(canvas, self.width - QR_SIZE, self.height - QR_SIZE)


def _line(x, font, size, leading, color, text, width):
    if base.fits(text, size, width, bold=font == base.FONT_BOLD):
        return (x, font, size, leading, color, text)
    paragraph = base.para(text, size, bold=font == base.FONT_BOLD, leading=size * 1.22)
    paragraph.wrap(width, 10_000)
    return (x, font, size, leading, color, paragraph)


def _line_height(line) -> float:
    content, leading = line[5], line[3]
    if isinstance(content, str):
        return leading
    return max(content.height + leading - content.style.leading, leading) if leading else 0


def _legend(legend: str, note: str = "") -> Paragraph:
    """The rule set's rules in one paragraph (``Wording.legend``, translated, then ``note``), red
    suits red."""
    text = escape(" ".join(filter(None, (gettext(legend), note))))
    for suit in RED_SUITS:
        text = text.replace(suit, f'<font color="#b00020">{suit}</font>')
    return base.Para(text, base.style(LEGEND_SIZE, color="#333333"))


def _grid(deals_per_round: int, wording: Wording, *, has_bonus: bool = True) -> Table:
    """The deal table without values: headings (in the rule set's words), deal numbers, lines;
    the bonus column only for a rule set with bonus matchsticks (``has_bonus``)."""
    to_nil = capfirst(gettext(wording.to_nil_short))
    titles = [gettext(wording.won_column), to_nil]
    if has_bonus:
        titles.append(gettext(wording.bonus))
    titles.append(gettext("Matchsticks"))
    heads = [base.para(h, 8.5, bold=True, align="center", leading=10) for h in titles]
    n = len(heads)  # columns per team
    blank = [""] * (n - 1)
    data = [
        ["", gettext("Team A"), *blank, gettext("Team B"), *blank],
        [base.para(gettext("Deal"), 8.5, bold=True, align="center"), *heads, *heads],
        *[[str(number)] + [""] * (2 * n) for number in range(1, deals_per_round + 1)],
        [gettext("Round total"), *[""] * (n - 1), "", gettext("Round total"), *[""] * (n - 1)],
    ]
    last = len(data) - 1
    return Table(
        data,
        colWidths=columns(has_bonus),
        rowHeights=[None, None] + [7.5 * mm] * (len(data) - 2),
        style=TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), base.FONT, VALUE_SIZE),
                ("SPAN", (1, 0), (n, 0)),
                ("SPAN", (n + 1, 0), (2 * n, 0)),
                ("SPAN", (0, last), (n - 1, last)),
                ("SPAN", (n + 1, last), (2 * n - 1, last)),
                ("FONT", (0, 0), (-1, 0), base.FONT_BOLD, 11),
                ("FONT", (0, 2), (0, -1), base.FONT, VALUE_SIZE),
                ("FONT", (0, last), (-1, last), base.FONT_BOLD, 12),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("ALIGN", (0, last), (0, last), "RIGHT"),
                ("ALIGN", (n + 1, last), (n + 1, last), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
                ("LINEAFTER", (n, 0), (n, -1), 2, colors.black),
                ("BOX", (0, 0), (-1, -1), 1.2, colors.black),
                ("BACKGROUND", (0, 0), (-1, 1), colors.HexColor("#e6e6e6")),
                ("BACKGROUND", (0, last), (-1, last), colors.HexColor("#f2f2f2")),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ]
        ),
    )


class GridValues(Flowable):
    """The entered values, each centred in its cell of the grid (same columns and rows), drawn
    over the stamped grid: a sheet costs a few strings, not a whole table."""

    def __init__(self, parts: _Parts, deals_per_round: int, deals: dict[int, DealLine]):
        super().__init__()
        self.width = SHEET_WIDTH
        self.height = sum(parts.row_heights)
        self.columns = columns(parts.has_bonus)
        rows: list[tuple[str, ...]] = []
        for number in range(1, deals_per_round + 1):
            deal = deals.get(number)
            if deal is None:
                rows.append(())
                continue
            row: list[str] = []
            for team, bonus, points in (("A", deal.bonus_a, deal.points_a), ("B", deal.bonus_b, deal.points_b)):
                won = deal.winner == team
                mark = CHECK if won else BOCK_MARK if deal.winner == BOCK else ""
                row += [mark, CHECK if won and deal.to_nil else ""]
                row += [str(bonus), str(points)] if parts.has_bonus else [str(points)]
            rows.append(tuple(row))
        self.rows = rows
        self.totals = (str(sum(d.points_a for d in deals.values())), str(sum(d.points_b for d in deals.values())))
        self.row_heights = parts.row_heights

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        canvas = self.canv
        starts = list(itertools.accumulate([0, *self.columns[:-1]]))
        centres = [start + width / 2 for start, width in zip(starts, self.columns, strict=True)]
        per_team = (len(self.columns) - 1) // 2
        top = self.height - self.row_heights[0] - self.row_heights[1]
        canvas.setFillColor(colors.black)
        canvas.setFont(base.FONT, VALUE_SIZE)
        for row, height in zip(self.rows, self.row_heights[2:], strict=False):
            baseline = top - height / 2 - VALUE_SIZE * 0.35
            for column, text in enumerate(row, start=1):
                if text:
                    canvas.drawCentredString(centres[column], baseline, text)
            top -= height
        baseline = top - self.row_heights[-1] / 2 - VALUE_SIZE * 0.35
        canvas.setFont(base.FONT_BOLD, VALUE_SIZE)
        canvas.drawCentredString(centres[per_team], baseline, self.totals[0])
        canvas.drawCentredString(centres[2 * per_team], baseline, self.totals[1])


BOCK_MARK = "4:4"  # a Treia Bock: nobody won the deal


def _signatures() -> Table:
    label = gettext("Signature %(team)s")
    return Table(
        [["", "", ""], [label % {"team": gettext("Team A")}, "", label % {"team": gettext("Team B")}]],
        colWidths=[SHEET_WIDTH * 0.45, SHEET_WIDTH * 0.1, SHEET_WIDTH * 0.45],
        rowHeights=[8.5 * mm, None],
        style=TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), base.FONT, 9),
                ("LINEBELOW", (0, 0), (0, 0), 0.8, colors.black),
                ("LINEBELOW", (2, 0), (2, 0), 0.8, colors.black),
                ("TEXTCOLOR", (0, 1), (-1, 1), base.GREY),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 1), (-1, 1), 1),
            ]
        ),
    )
