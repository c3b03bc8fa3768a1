"""The season ranking (Jahreswertung) as PDF: A4, portrait for up to five evenings, landscape
for more; the type shrinks (14 pt down to 7 pt) only as far as needed to fit every evening.

Place (shared places marked with *), name, club, one column per evening (its number and
date; a dropped result in brackets, struck through and grey; "·" for an evening not played),
evenings played and the season total; players below the minimum follow under their own heading.
Until the season is final it says "vorläufig" in the title and on every page.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple
from xml.sax.saxutils import escape

from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext, pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Spacer, TableStyle

from scoring.documents import pdf_base as base
from scoring.selectors.season import SeasonRanking, season_chain
from scoring.tables import season_evening_heading
from scoring.web.tiebreak_labels import LABELS

LANDSCAPE_FROM = 6  # evenings
SIZES = (14, 13, 12, 11, 10, 9, 8, 7)  # pt, largest first
NAME_MIN = 70 * mm  # name and club together
CELL_PADDING = 3
ROW_PADDING = 2.5


def season_ranking_name(ranking: SeasonRanking) -> str:
    """Title and file name: "Saisonwertung – <season> <year>" ("vorläufig" until final); the year
    only once, when the season's name already says it ("Jahreswertung 2027")."""
    kind = gettext("Season ranking") if ranking.final else gettext("Season ranking (provisional)")
    season = ranking.season
    name = season.name.strip() or "Bruus"
    return f"{kind} – {name}" if str(season.year) in name else f"{kind} – {name} {season.year}"


def season_title(season) -> str:
    """The season's name, with its year unless the name already says it."""
    return season.name if str(season.year) in season.name else f"{season.name} {season.year}"


def page_size(evening_count: int) -> tuple[float, float]:
    """A4 portrait for up to five evenings, landscape from six."""
    return landscape(A4) if evening_count >= LANDSCAPE_FROM else A4


def build_season_ranking(ranking: SeasonRanking, *, printed_at: datetime | None = None) -> bytes:
    """The season ranking as PDF bytes (:func:`scoring.selectors.season_ranking`; no query)."""
    season = ranking.season
    pagesize = page_size(len(ranking.evenings))
    title = season_ranking_name(ranking)
    notes = [gettext("* shared place.")]
    if ranking.any_dropped:
        notes.append(gettext("(12) struck through: dropped, not among the best evenings."))
    notes.append(gettext("· not played. ° the evening is not complete yet."))
    decor = base.PageDecor(
        title=title,
        printed=base.printed_text(printed_at),
        marker=None if ranking.final else gettext("provisional").upper(),
        footnotes=(" ".join(notes),),
    )
    rules = ranking.rules
    how = [season.get_scoring_display()]
    if rules.best_of:
        how.append(
            ngettext("the best %(n)s evening counts", "the best %(n)s evenings count", rules.best_of)
            % {"n": rules.best_of}
        )
    if rules.min_evenings > 1:
        how.append(gettext("ranked from %(n)s evenings") % {"n": rules.min_evenings})
    chain = season_chain(season)
    if chain:
        how.append(
            gettext("Equal totals are separated by, in this order:") + " " + ", ".join(str(LABELS[c]) for c in chain)
        )
    how.append(
        gettext("%(have)s of %(planned)s evenings")
        % {"have": len(ranking.evenings), "planned": season.planned_evenings}
    )
    story = [
        base.para(
            gettext("Final season ranking") if ranking.final else gettext("Season ranking (provisional)"),
            22,
            bold=True,
            space_after=4,
            color="#000000" if ranking.final else "#b00020",
        ),
        base.para(season_title(season), 18, bold=True, space_after=2),
        base.para(" · ".join(how), 12, space_after=6),
        _table(ranking, pagesize[0] - 2 * base.MARGIN),
        Spacer(1, 3 * mm),
        base.para(
            " · ".join(
                # The date as the pages write it, in the language's convention (21.11.2026, 2026-11-21).
                f"{e.number}: {date_format(e.evening.date, 'SHORT_DATE_FORMAT')} {e.evening.name}"
                f"{'' if e.confirmed else ' °'}"
                for e in ranking.evenings
            ),
            9,
            color="#555555",
        ),
    ]
    templates = [base.body_template(pagesize, bottom=base.footer_space(decor))]
    return base.render(story, title=title, decor=decor, templates=templates, subject=gettext("Season ranking"))


def _cells(ranking: SeasonRanking):
    """Per line: place text, name, club, per evening (text, dropped), played, total text."""
    out = []
    for line in ranking.lines:
        evenings = []
        for cell in ranking.row(line):
            if cell is None:
                evenings.append(("·", False))
            else:
                value = base.matchsticks(cell.value)
                evenings.append((f"({value})" if cell.dropped else value, cell.dropped))
        place = "–" if line.place is None else f"{line.place}.{'*' if line.shared else ''}"
        out.append(
            (place, line.player.name, line.player.club, evenings, str(line.played), base.matchsticks(line.total))
        )
    return out


class _Widths(NamedTuple):
    """The season table's type size (pt) and the widths (pt) of its number columns; ``rest`` is
    left for name and club."""

    size: float
    place: float
    number: float
    played: float
    total: float
    rest: float


def _widths(cells: list, headings: list[str], width: float, pad: float) -> _Widths:
    """The largest of :data:`SIZES` that leaves name and club at least :data:`NAME_MIN` of
    ``width`` (else the smallest)."""
    count = len(headings)

    def widest(texts, size, bold=False):
        return max((base.text_width(t, size, bold=bold) for t in texts), default=0) + pad

    for size in SIZES:
        head = size - 2
        place_w = max(widest([gettext("Place")], head, True), widest([c[0] for c in cells], size))
        # Evening headings break at " · " into number and date: the wider of the two counts.
        number_w = max(
            widest(["000", *(t for c in cells for t, _ in c[3])], size),
            widest([part for h in headings for part in h.split(" · ")], head, True),
        )
        played_w = max(widest([pgettext("season column", "Evenings")], head, True), widest(["00"], size))
        total_w = max(widest([gettext("Total")], head, True), widest(["000", *(c[5] for c in cells)], size, True))
        rest = width - place_w - count * number_w - played_w - total_w
        if rest >= NAME_MIN:
            break
    return _Widths(size, place_w, number_w, played_w, total_w, rest)


def _table(ranking: SeasonRanking, width: float) -> LongTable:
    cells = _cells(ranking)
    count = len(ranking.evenings)
    headings = [season_evening_heading(e) + ("°" if not e.confirmed else "") for e in ranking.evenings]
    pad = 2 * CELL_PADDING + 2
    widths = _widths(cells, headings, width, pad)
    size, head = widths.size, widths.size - 2
    # Name and club share the rest as on the evening ranking.
    name_w, club_w = base.name_club_widths([c[1] for c in cells], [c[2] for c in cells], widths.rest, size, pad)
    data: list[list] = [
        [
            gettext("Place"),
            gettext("Name"),
            gettext("Club"),
            *[base.lines(h.split(" · "), head, bold=True, align="right") for h in headings],
            pgettext("season column", "Evenings"),
            gettext("Total"),
        ]
    ]
    commands = _table_commands(head, size)
    _add_rows(data, commands, ranking, cells, size, name_w, club_w, pad)
    return LongTable(
        data,
        colWidths=[widths.place, name_w, club_w, *[widths.number] * count, widths.played, widths.total],
        repeatRows=1,
        style=TableStyle(commands),
        hAlign="LEFT",
    )


def _add_rows(
    data: list[list],
    commands: list[tuple],
    ranking: SeasonRanking,
    cells: list,
    size: float,
    name_w: float,
    club_w: float,
    pad: float,
) -> None:
    """The players' rows appended to ``data`` (their stripes to ``commands``), the ranked first;
    above those not ranked a row with the note why."""
    count = len(ranking.evenings)
    below_started = False
    for place, name, club, evenings, played, total in cells:
        row = len(data)
        if place == "–" and not below_started:
            below_started = True
            data.append([_not_ranked_note(ranking), "", "", *[""] * count, "", ""])
            commands += _heading_row_commands(row, size)
            row += 1
        # A dropped result: in brackets, grey and struck through (a paragraph: table cells cannot strike).
        values = [
            base.Para(f"<strike>{escape(text)}</strike>", base.style(size, align="right", color="#555555"))
            if dropped
            else text
            for text, dropped in evenings
        ]
        data.append(
            [
                place,
                base.cell(name, size, name_w, padding=pad),
                base.cell(club, size, club_w, padding=pad),
                *values,
                played,
                total,
            ]
        )
        if row % 2 == 0:
            commands.append(("BACKGROUND", (0, row), (-1, row), base.LIGHT))


def _table_commands(head: float, size: float) -> list[tuple]:
    """The season table's style: one header row in ``head`` points bold, the rows in ``size``
    points, the total (last column) bold; stripes are added per row by the caller."""
    return [
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("FONT", (0, 0), (-1, 0), base.FONT_BOLD, head),
        ("FONT", (0, 1), (-1, -1), base.FONT, size, size * 1.2),
        ("FONT", (-1, 1), (-1, -1), base.FONT_BOLD, size, size * 1.2),
        ("ALIGN", (0, 0), (0, -1), "RIGHT"),
        ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), ROW_PADDING),
        ("BOTTOMPADDING", (0, 0), (-1, -1), ROW_PADDING),
        ("LINEBELOW", (0, 0), (-1, 0), 1.2, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dddddd")),
    ]


def _not_ranked_note(ranking: SeasonRanking) -> str:
    """The heading over the players with too few evenings ("Noch nicht gewertet (weniger als 3
    Abende)")."""
    return ngettext(
        "Not ranked yet (fewer than %(n)s evening)",
        "Not ranked yet (fewer than %(n)s evenings)",
        ranking.rules.min_evenings,
    ) % {"n": ranking.rules.min_evenings}


def _heading_row_commands(row: int, size: float) -> list[tuple]:
    """Table row ``row`` as a heading across the whole table: one cell, bold, grey, a rule above."""
    return [
        ("SPAN", (0, row), (-1, row)),
        ("ALIGN", (0, row), (-1, row), "LEFT"),
        ("FONT", (0, row), (-1, row), base.FONT_BOLD, size, size * 1.2),
        ("BACKGROUND", (0, row), (-1, row), base.LIGHT),
        ("LINEABOVE", (0, row), (-1, row), 0.8, base.RULE),
    ]
