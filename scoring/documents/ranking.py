"""The ranking (Rangliste) as PDF: A4 portrait, large print for reading from two metres.

Place (shared places marked with * and explained on every page), name, club, one column per
session and the total; with a tie-break chain, one column per criterion the chain used and, under
the name of a player it put ahead of the next one, which rule did (small, grey). The header row
is repeated on every page. While any deal is missing the
ranking says "vorläufig" in its title and on every page; when complete, "Endstand".
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from xml.sax.saxutils import escape

from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Spacer, TableStyle

from scoring.documents import pdf_base as base
from scoring.documents.pdf_base import Para
from scoring.domain.ranking import PROVISIONAL_MARK
from scoring.domain.rulesets import RuleSet
from scoring.domain.tiebreaks import Criterion
from scoring.selectors import RankingRow
from scoring.tables import ahead_note
from scoring.web import tiebreak_labels

BODY = 14  # pt: readable from two metres
NOTE = 10  # the tie-break notes and headings
HEAD = 12
#: Sizes tried, largest first, to put the whole ranking on one page (:func:`_fitting_table`).
FITTING_SIZES = (BODY, 13, 12, 11)
SMALLEST_BODY = FITTING_SIZES[-1]
#: More players than this never fit on one page (11 pt rows of 6 mm): not tried.
ONE_PAGE_AT_MOST = 45
ROW_PADDING = 3
CELL_PADDING = 4


def PROVISIONAL_LEGEND() -> str:  # noqa: N802 (a translated constant)
    return gettext(
        "° provisional: sit-out credit from the tables that have finished the round; "
        "it changes until every table has confirmed."
    )


def ranking_name(evening, *, complete: bool) -> str:
    """Title and file name: "Rangliste – <evening> – <date>" (with "vorläufig" while incomplete)."""
    kind = gettext("Ranking") if complete else gettext("Ranking (provisional)")
    return base.document_name(kind, evening)


def build_ranking(
    evening,
    rows: Sequence[RankingRow],
    *,
    complete: bool,
    sessions_drawn: int | None = None,
    printed_at: datetime | None = None,
    criteria: Sequence[Criterion] = (),
    chain: Sequence[Criterion] = (),
    names: dict[int, str] | None = None,
) -> bytes:
    """The ranking of an evening as PDF bytes.

    Args:
        evening: the Evening (name, date, venue, sessions_count are read; no query).
        rows: :func:`scoring.selectors.evening_ranking`, in ranking order.
        complete: :func:`scoring.selectors.evening_is_confirmed`; False prints "vorläufig".
        sessions_drawn: sessions drawn so far; later sessions print "–" instead of 0.
        printed_at: the moment printed in the footer (default now).
        criteria: tie-break columns (:func:`scoring.selectors.tiebreak_columns`).
        chain: the evening's whole chain, named below the table.
        names: :func:`scoring.selectors.evening_display_names`, for the names in the notes
            "ahead of <name> by <rule>".
    """
    session_count = max([evening.sessions_count, *(len(r.sessions) for r in rows)])
    drawn = session_count if sessions_drawn is None else sessions_drawn
    title = ranking_name(evening, complete=complete)
    decor = base.PageDecor(
        title=title,
        printed=base.printed_text(printed_at),
        marker=None if complete else gettext("provisional").upper(),
        footnotes=_footnotes(rows, chain),
    )
    story = _heading(evening, complete)
    story.append(_fitting_table(story, rows, session_count, drawn, tuple(criteria), names or {}, decor, evening.rules))
    story += _legend(evening, chain)
    return base.render(story, title=title, decor=decor, subject=gettext("Ranking"))


def _footnotes(rows: Sequence[RankingRow], chain: Sequence[Criterion]) -> tuple[str, ...]:
    """The notes at the foot of each page: what "*" (a shared place) and "°" (provisional) mean,
    each only when a row has it."""
    notes = []
    if any(r.shared for r in rows):
        if chain:
            notes.append(gettext("* shared place: equal totals and equal on every tie-break."))
        else:
            notes.append(gettext("* shared place: equal totals share a place."))
    if any(r.provisional for r in rows):
        notes.append(PROVISIONAL_LEGEND())
    return tuple(notes)


def _heading(evening, complete: bool) -> list:
    """Above the table: "Endstand" (or "Rangliste (vorläufig)" in red), the evening's name, date,
    venue and rules, and while deals are missing a line saying so."""
    story = [
        base.para(
            gettext("Final ranking") if complete else gettext("Ranking (provisional)"),
            24,
            bold=True,
            space_after=4,
            color="#000000" if complete else "#b00020",
        ),
        base.para(evening.name, 18, bold=True, space_after=2),
        base.para(
            " · ".join(x for x in (base.long_date(evening.date), evening.venue, _rules_text(evening)) if x),
            BODY,
            space_after=6,
        ),
    ]
    if not complete:
        story.append(
            base.para(gettext("Provisional: deals are still missing."), BODY, bold=True, color="#b00020", space_after=6)
        )
    return story


def _legend(evening, chain: Sequence[Criterion]) -> list:
    """Below the table: how places are shared and sit-outs credited, and the evening's tie-break
    chain in order."""
    story = [
        Spacer(1, 3 * mm),
        base.para(
            gettext("* shared place. Sit-outs are credited with the average of the teams that played in that round."),
            11,
            color="#555555",
        ),
    ]
    if chain:
        story.append(
            base.para(
                gettext("Equal totals are separated by, in this order:")
                + " "
                + ", ".join(tiebreak_labels.label(c, evening.rules) for c in chain)
                + ".",
                11,
                color="#555555",
            )
        )
    return story


def _fitting_table(
    above: list,
    rows: Sequence[RankingRow],
    session_count: int,
    drawn: int,
    criteria: tuple,
    names: dict,
    decor,
    rules: RuleSet,
) -> LongTable:
    """The ranking table in :data:`BODY` points, or a little smaller (down to
    :data:`SMALLEST_BODY`) when that puts the whole ranking on one page (26 players of a club
    evening: one A4 page instead of a second one holding a row or two). A ranking that needs
    several pages anyway keeps the large print, its pages numbered."""
    room = base.frame_height(decor)
    # The notes below the table (shared place, tie-break chain): two lines of 11 pt each.
    below = 3 * mm + 4 * 11 * 1.22
    for body in FITTING_SIZES if len(rows) <= ONE_PAGE_AT_MOST else ():
        table = _table(rows, session_count, drawn, criteria, names, rules, body)
        if base.room_below([*above, table], base.FRAME_WIDTH, room) - below >= base.PAGE_SLACK:
            return table
    return _table(rows, session_count, drawn, criteria, names, rules)


def _rules_text(evening) -> str:
    """ "Regeln: Treia" (the rule set the evening's deals were scored by)."""
    return gettext("Rules: %(name)s") % {"name": gettext(evening.rules.name)}


def _widest(texts, size: float, pad: float, bold: bool = False) -> float:
    """The width (pt) of the widest of ``texts`` in ``size`` points, plus ``pad``; ``pad`` if none."""
    return max((base.text_width(t, size, bold=bold) for t in texts), default=0) + pad


def _number_widths(
    cells: list[_Cells], session_count: int, session_head: str, body: float, pad: float
) -> tuple[float, float, float]:
    """The widths (pt) of the place, each session's and the total's column: headings are set in
    HEAD (bold), values in ``body``."""
    place_w = max(_widest([gettext("Place")], HEAD, pad, bold=True), _widest([c[0] for c in cells], body, pad))
    number_w = max(
        _widest(["000", *(s for c in cells for s in c[3])], body, pad),
        12 * mm,
        _widest([session_head], HEAD, pad, bold=True) / session_count,
    )
    total_w = max(
        _widest([gettext("Total")], HEAD, pad, bold=True),
        _widest(["000", *(c[4] for c in cells)], body, pad, bold=True),
    )
    return place_w, number_w, total_w


def _tiebreak_columns(
    rows: Sequence[RankingRow],
    cells: list[_Cells],
    criteria: tuple[Criterion, ...],
    names: dict[int, str],
    rules: RuleSet,
    room: float,
    body: float,
    pad: float,
) -> tuple[list[str], list[float], list[tuple[list[str], str]]]:
    """The tie-break columns' headings and widths (pt), and per row its values and note. Columns
    when they leave the names and clubs their longest words on one line within ``room`` (pt); else
    (many sessions and criteria) no columns, the values go under the name with the note, as on
    the projector ("Bester Durchgang 26 · Gewonnene Spiele 15 · vor … durch …")."""
    values = [[base.matchsticks(row.tiebreaks[c]) for c in criteria] for row in rows]
    criterion_heads = [tiebreak_labels.column(c, rules) for c in criteria]
    criterion_ws = [
        max(_widest(head.split(), NOTE, pad, bold=True), _widest(["000", *(v[i] for v in values)], body, pad), 12 * mm)
        for i, head in enumerate(criterion_heads)
    ]
    words = _widest([w for c in cells for w in c[1].split()], body, pad) + _widest(
        [w for c in cells for w in c[2].split()], body, pad
    )
    if criteria and room - sum(criterion_ws) < words:
        notes = tiebreak_labels.tie_notes(rows, criteria, names, rules)
        return [], [], [([], notes.get(row.player.pk, "")) for row in rows]
    tiebreaks = [(v, ahead_note(row, names, rules) if criteria else "") for row, v in zip(rows, values, strict=True)]
    return criterion_heads, criterion_ws, tiebreaks


def _table(
    rows: Sequence[RankingRow],
    session_count: int,
    drawn: int,
    criteria: tuple[Criterion, ...],
    names: dict[int, str],
    rules: RuleSet,
    body: float = BODY,
) -> LongTable:
    """Two header rows ("Durchgang" over the session numbers), repeated on every page; the
    tie-break columns in the words of the evening's rule set ``rules``; names and numbers in
    ``body`` points."""
    width = base.FRAME_WIDTH
    cells = _cells(rows, session_count, drawn)
    pad = 2 * CELL_PADDING + 2
    session_head = gettext("Session")
    place_w, number_w, total_w = _number_widths(cells, session_count, session_head, body, pad)
    room = width - place_w - session_count * number_w - total_w
    criterion_heads, criterion_ws, tiebreaks = _tiebreak_columns(rows, cells, criteria, names, rules, room, body, pad)
    rest = room - sum(criterion_ws)
    name_w, club_w = base.name_club_widths([c[1] for c in cells], [c[2] for c in cells], rest, body, pad)

    # "Durchgang" centred over the session columns. Drawn from the first of them, overflowing
    # into the others: a SPAN would make reportlab recompute spans on every page break.
    head_pad = (session_count * number_w - base.text_width(session_head, HEAD, bold=True)) / 2
    data = _header_rows(session_count, session_head, criterion_heads)
    for (place, name, club, sessions, total), (criterion_values, note) in zip(cells, tiebreaks, strict=True):
        data.append(
            [
                place,
                _name_cell(name, note, name_w, pad, body),
                base.cell(club, body, club_w, padding=pad),
                *sessions,
                total,
                *criterion_values,
            ]
        )
    # LongTable: row heights are computed only as far as a page reaches, so a table of 300 rows
    # is split page by page in linear time (Table recomputes the rest at every page break).
    return LongTable(
        data,
        colWidths=[place_w, name_w, club_w, *[number_w] * session_count, total_w, *criterion_ws],
        repeatRows=2,
        style=_table_style(session_count, body, head_pad),
        hAlign="LEFT",
    )


_Cells = tuple[str, str, str, list[str], str]


def _cells(rows: Sequence[RankingRow], session_count: int, drawn: int) -> list[_Cells]:
    """Per row the texts of place ("3." or "3.*" when shared), name, club, the sessions ("–" for
    one not drawn yet) and the total; a value with provisional sit-out credit marked "°"."""
    cells = []
    for row in rows:
        sessions = [
            base.matchsticks(row.sessions[i]) + (PROVISIONAL_MARK if i in row.provisional else "")
            if i < drawn and i < len(row.sessions)
            else "–"
            for i in range(session_count)
        ]
        total = base.matchsticks(row.total) + (PROVISIONAL_MARK if row.provisional else "")
        cells.append((f"{row.place}.{'*' if row.shared else ''}", row.player.name, row.player.club, sessions, total))
    return cells


def _header_rows(session_count: int, session_head: str, criterion_heads: Sequence[str]) -> list[list]:
    """The two header rows: "Durchgang" over the first session column, then the column heads."""
    first = ["", "", "", session_head, *[""] * (session_count - 1), "", *[""] * len(criterion_heads)]
    second = [
        gettext("Place"),
        gettext("Name"),
        gettext("Club"),
        *[str(n) for n in range(1, session_count + 1)],
        gettext("Total"),
        *[base.para(head, NOTE, bold=True, align="right") for head in criterion_heads],
    ]
    return [first, second]


def _table_style(session_count: int, body: float, head_pad: float) -> TableStyle:
    """Fonts, alignment, rules and stripes of the ranking table (two header rows; the total,
    column ``3 + session_count``, in bold; ``head_pad`` centres "Durchgang" over the sessions)."""
    last = 3 + session_count
    commands = [
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("FONT", (0, 0), (-1, 1), base.FONT_BOLD, HEAD),
        ("FONT", (0, 2), (-1, -1), base.FONT, body, body * 1.2),
        ("FONT", (last, 2), (last, -1), base.FONT_BOLD, body, body * 1.2),
        ("ALIGN", (3, 0), (3, 0), "LEFT"),
        ("LEFTPADDING", (3, 0), (3, 0), head_pad),
        ("ALIGN", (0, 1), (0, -1), "RIGHT"),
        ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), ROW_PADDING),
        ("BOTTOMPADDING", (0, 0), (-1, -1), ROW_PADDING),
        ("LINEBELOW", (3, 0), (last - 1, 0), 0.4, base.RULE),
        ("VALIGN", (last + 1, 1), (-1, 1), "BOTTOM"),
        ("LINEBELOW", (0, 1), (-1, 1), 1.2, colors.black),
        ("ROWBACKGROUNDS", (0, 2), (-1, -1), [colors.white, base.LIGHT]),
        ("BACKGROUND", (0, 0), (-1, 1), colors.HexColor("#dddddd")),
    ]
    return TableStyle(commands)


def _name_cell(name: str, note: str, width: float, pad: float, body: float = BODY):
    """The name, and below it in small grey type the tie-break note ("vor Bernd Jensen durch
    besten Durchgang") when there is one."""
    if not note:
        return base.cell(name, body, width, padding=pad)
    return Para(
        f'{escape(name)}<br/><font size="{NOTE}" color="#555555">{escape(note)}</font>',
        base.style(body),
    )
