"""Table cards (Tischkarten): one card per table to lay on it, two to an A4 page with a cut line.

Each card: the evening, the table number very large, the QR code of the table's link (the
tablet's camera opens the table directly), and for typing: the short address ``…/tablet/``, the
table number and the table's short code; the hall's Wi-Fi name when it is set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.utils.translation import gettext
from reportlab.lib.units import mm
from reportlab.platypus import FrameBreak, KeepInFrame, Table, TableStyle

from scoring.documents import pdf_base as base
from scoring.documents.score_sheets import QrCode
from scoring.hall.table_codes import display

CARD_QR_SIZE = 66 * mm


def table_cards_name(evening) -> str:
    return base.document_name(gettext("Table cards"), evening)


def build_table_cards(evening, tables: Sequence, **kwargs) -> bytes:
    """:func:`table_cards_part` as PDF bytes."""
    return base.render_part(table_cards_part(evening, tables, **kwargs))


def table_cards_part(
    evening,
    tables: Sequence,
    *,
    table_url: Callable[[Any], str],
    join_url: str,
    wifi_name: str = "",
    printed_at: datetime | None = None,
) -> base.Part:
    """The cards of ``tables`` (objects with ``number`` and ``code``), in table order.
    ``table_url(table)`` is the absolute link of a table's page (the QR code); ``join_url`` the
    absolute address of ``/tablet/``."""
    title = table_cards_name(evening)
    decor = base.PageDecor(title=title, printed=base.printed_text(printed_at))
    template = base.cut_template(1, 2, template_id="table-cards")
    frame = template.frames[0]
    story: list[base.Flowable] = []
    for table in sorted(tables, key=lambda t: t.number):
        if story:
            story.append(FrameBreak())
        content = [
            base.para(evening.name, 12, color="#555555", align="center"),
            base.para(gettext("Table %(n)s") % {"n": table.number}, 84, bold=True, align="center", space_after=4 * mm),
            _body(table, table_url(table), join_url, wifi_name, frame._width),
        ]
        story.append(KeepInFrame(frame._width, frame._height, content, mode="shrink"))
    return base.Part(story, title, decor, [template], gettext("Table cards"))


def _body(table, url: str, join_url: str, wifi_name: str, width: float) -> Table:
    """QR code on the left; on the right how to open the table by typing."""
    text_width = width - CARD_QR_SIZE - 8 * mm
    right = [
        base.para(gettext("Scan the QR code with the tablet, or open:"), 12, color="#555555"),
        base.para(join_url, 18, bold=True, space_after=3 * mm),
        base.para(gettext("Table number"), 12, color="#555555"),
        base.para(str(table.number), 26, bold=True, space_after=3 * mm),
        base.para(gettext("Table code"), 12, color="#555555"),
        base.para(display(table.code), 34, bold=True, space_after=3 * mm),
    ]
    if wifi_name:
        right.append(base.para(gettext("Wi-Fi: %(name)s") % {"name": wifi_name}, 14))
    return Table(
        [[QrCode(url, size=CARD_QR_SIZE), right]],
        colWidths=[CARD_QR_SIZE + 8 * mm, text_width],
        style=TableStyle(
            [
                # Every cell in DejaVu Sans: reportlab sets a cell's font even for flowables, and
                # its default (Helvetica) is not embedded.
                ("FONT", (0, 0), (-1, -1), base.FONT, 12),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ]
        ),
        hAlign="CENTER",
    )
