"""Certificates (Urkunden) for the first places of an evening, and the prize list (Preisliste).

A certificate is one A4 portrait page: "Urkunde", the evening, its date and venue, the player's
name (and club), the place and the total in matchsticks. The organiser chooses how many places
get one; a place shared by several players gives each of them a certificate ("3. Platz" twice).
The prize list is one table of the same places to note the prizes on: place, name, club, total
and an empty column "Preis". Both say "vorläufig" while any deal is missing, as the ranking does,
and the prize list keeps the footer of every document (title, printed date and time, "Seite X
von Y"); a certificate, handed to a player, has no page footer.

A total with a sit-out credit (the exact average of the teams that played the round) can be a
fraction: the certificate prints it as the ranking does (one decimal, :func:`pdf_base.matchsticks`),
worded "with a total of 54.6 (sit-out credit included)", never "54.6 matchsticks".
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils.translation import gettext, ngettext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, PageBreak, Spacer, TableStyle

from scoring.documents import pdf_base as base
from scoring.selectors import RankingRow

PRIZE_LIST_BODY = 14  # pt, as the ranking


def certificate_rows(rows: Sequence[RankingRow], places: int) -> list[RankingRow]:
    """The rows of ``rows`` (in ranking order) whose place is at most ``places``: with a shared
    place, every player who shares it."""
    return [row for row in rows if row.place <= places]


def certificates_name(evening) -> str:
    """ "Urkunden – <evening> – <date>"."""
    return base.document_name(gettext("Certificates"), evening)


def prize_list_name(evening) -> str:
    """ "Preisliste – <evening> – <date>"."""
    return base.document_name(gettext("Prize list"), evening)


def _decor(title: str, complete: bool, printed_at: datetime | None, *, footer: bool = True) -> base.PageDecor:
    return base.PageDecor(
        title=title,
        printed=base.printed_text(printed_at),
        marker=None if complete else gettext("provisional").upper(),
        footer=footer,
    )


def total_wording(total) -> str:
    """The certificate's line under the place: "with 11 matchsticks" ("with 1 matchstick"); a
    total with a fractional sit-out credit "with a total of 54.6 (sit-out credit included)", the
    number as the ranking prints it."""
    shown = base.matchsticks(total)
    if total != int(total):
        return gettext("with a total of %(total)s (sit-out credit included)") % {"total": shown}
    return ngettext("with %(total)s matchstick", "with %(total)s matchsticks", int(total)) % {"total": shown}


def build_certificates(
    evening, rows: Sequence[RankingRow], *, places: int, complete: bool, printed_at: datetime | None = None
) -> bytes:
    """A certificate for each player placed ``places`` or better, best first, one a page, as
    PDF bytes.

    Args:
        evening: the Evening (name, date, venue are read; no query).
        rows: :func:`scoring.selectors.evening_ranking`, in ranking order.
        places: how many places get a certificate (1 .. the number of players; the view checks).
        complete: :func:`scoring.selectors.evening_is_confirmed`; False marks every page "vorläufig".
    """
    title = certificates_name(evening)
    decor = _decor(title, complete, printed_at, footer=False)
    room = base.frame_height(decor)
    width = base.FRAME_WIDTH
    where = " · ".join(x for x in (base.long_date(evening.date), evening.venue) if x)
    story: list = []
    for row in certificate_rows(rows, places):
        if story:
            story.append(PageBreak())
        content = _fitted(evening, where, row, width, room)
        # Centred on the page: the space left above, half of it.
        used = room - base.room_below(content, width, room)
        story += [Spacer(1, max((room - used) / 2 - 10 * mm, 0)), *content]
    template = base.body_template(bottom=base.footer_space(decor), template_id="certificate")
    template.onPage = _border
    return base.render(story, title=title, decor=decor, templates=[template], subject=gettext("Certificates"))


#: How far a certificate's type shrinks at most to fit one page (a name of 100 letters).
SMALLEST_SCALE = 0.25


def _fitted(evening, where: str, row: RankingRow, width: float, room: float) -> list:
    """The flowables of one certificate, at the largest scale (1, 0.9, 0.81, ... down to
    :data:`SMALLEST_SCALE`) at which they fit one page: every word within the width (a long
    name without spaces cannot wrap) and the whole within ``room`` points."""
    scale = 1.0
    while True:
        content = _certificate(evening, where, row, scale)
        texts = [(evening.name, 22), (row.player.name, 36), (row.player.club, 18)]
        words_fit = all(
            base.fits(word, size * scale, width, bold=True) for text, size in texts for word in text.split()
        )
        if (words_fit and base.room_below(content, width, room) >= 0) or scale * 0.9 < SMALLEST_SCALE:
            return content
        scale *= 0.9


def _certificate(evening, where: str, row: RankingRow, scale: float) -> list:
    """The flowables of one certificate, type and spaces at ``scale``."""
    content = [
        base.para(gettext("Certificate"), 54 * scale, bold=True, align="center", space_after=10 * mm * scale),
        base.para(evening.name, 22 * scale, bold=True, align="center", space_after=2 * mm * scale),
        base.para(where, 16 * scale, align="center", color="#555555", space_after=22 * mm * scale),
        base.para(row.player.name, 36 * scale, bold=True, align="center", space_after=3 * mm * scale),
    ]
    if row.player.club:
        content.append(base.para(row.player.club, 18 * scale, align="center", color="#555555"))
    content += [
        Spacer(1, 20 * mm * scale),
        base.para(gettext("reached"), 18 * scale, align="center", space_after=3 * mm * scale),
        base.para(gettext("place %(place)s") % {"place": row.place}, 44 * scale, bold=True, align="center"),
        Spacer(1, 8 * mm * scale),
        base.para(total_wording(row.total), 18 * scale, align="center"),
    ]
    return content


def _border(canvas, doc) -> None:
    """A double line around the certificate, inside the margins, above the footer and below the
    "vorläufig" marker."""
    canvas.saveState()
    canvas.setStrokeColor(base.GREY)
    bottom, top = base.FOOTER_SPACE - 3 * mm, base.PAGE_HEIGHT - 13 * mm
    for inset, width in ((8 * mm, 1.8), (10 * mm, 0.6)):
        canvas.setLineWidth(width)
        canvas.rect(inset, bottom + inset - 8 * mm, base.PAGE_WIDTH - 2 * inset, top - bottom - 2 * (inset - 8 * mm))
    canvas.restoreState()


def build_prize_list(
    evening, rows: Sequence[RankingRow], *, places: int, complete: bool, printed_at: datetime | None = None
) -> bytes:
    """The players placed ``places`` or better as a list to note the prizes on, as PDF bytes
    (arguments as :func:`build_certificates`)."""
    title = prize_list_name(evening)
    decor = _decor(title, complete, printed_at)
    table = _prize_table(certificate_rows(rows, places))
    story = [
        base.para(gettext("Prize list"), 24, bold=True, space_after=4),
        base.para(evening.name, 18, bold=True, space_after=2),
        base.para(
            " · ".join(x for x in (base.long_date(evening.date), evening.venue) if x), PRIZE_LIST_BODY, space_after=8
        ),
        table,
    ]
    if not complete:
        story.insert(
            3,
            base.para(
                gettext("Provisional: deals are still missing."),
                PRIZE_LIST_BODY,
                bold=True,
                color="#b00020",
                space_after=6,
            ),
        )
    return base.render(story, title=title, decor=decor, subject=gettext("Prize list"))


def _prize_table(chosen: Sequence[RankingRow]) -> LongTable:
    """Place, name, club, total and an empty column to write the prize in, a row per player."""
    width = base.FRAME_WIDTH
    pad = 12
    place_w = max(base.text_width(gettext("Place"), 12, bold=True), base.text_width("000.", PRIZE_LIST_BODY)) + pad
    total_w = max(base.text_width(gettext("Total"), 12, bold=True), base.text_width("0000,0", PRIZE_LIST_BODY)) + pad
    prize_w = width * 0.2
    rest = width - place_w - total_w - prize_w
    # The club as wide as its longest entry needs (at most half), the name the rest.
    club_need = max((base.text_width(r.player.club, PRIZE_LIST_BODY) for r in chosen), default=0) + pad
    club_w = min(max(club_need, base.text_width(gettext("Club"), 12, bold=True) + pad), rest * 0.5)
    name_w = rest - club_w
    data = [[gettext("Place"), gettext("Name"), gettext("Club"), gettext("Total"), gettext("Prize")]]
    for row in chosen:
        data.append(
            [
                f"{row.place}.",
                base.cell(row.player.name, PRIZE_LIST_BODY, name_w),
                base.cell(row.player.club, PRIZE_LIST_BODY, club_w),
                base.matchsticks(row.total),
                "",
            ]
        )
    return LongTable(
        data,
        colWidths=[place_w, name_w, club_w, total_w, prize_w],
        repeatRows=1,
        hAlign="LEFT",
        style=TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), base.FONT_BOLD, 12),
                ("FONT", (0, 1), (-1, -1), base.FONT, PRIZE_LIST_BODY, PRIZE_LIST_BODY * 1.2),
                ("FONT", (3, 1), (3, -1), base.FONT_BOLD, PRIZE_LIST_BODY, PRIZE_LIST_BODY * 1.2),
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("ALIGN", (3, 0), (3, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 1), (-1, -1), 8),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 8),
                ("LINEBELOW", (0, 0), (-1, 0), 1.2, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.4, base.RULE),
                ("LINEBEFORE", (4, 0), (4, -1), 0.4, base.RULE),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, base.LIGHT]),
            ]
        ),
    )
