"""What every printed document shares: drawings reused across pages, the page decoration ("Seite
X von Y", title, printed date and time, a marker such as "vorläufig" on every page) and page
layouts, including sheets cut from one A4 page and long tables laid out a page at a time.

Fonts, styles, cells and the words of the pages live in :mod:`scoring.documents.pdf_text`; they
are re-exported here, so every builder needs only ``from scoring.documents import pdf_base as
base``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import get_language, gettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Table,
    TableStyle,
)
from reportlab.platypus.tables import LINECOMMANDS

from bruus_tournament import __version__
from scoring.documents.pdf_text import (  # noqa: F401 (re-exported: builders write base.cell, base.FONT)
    FONT,
    FONT_BOLD,
    FONT_DIR,
    Para,
    cell,
    document_name,
    fits,
    lines,
    long_date,
    matchsticks,
    name_club_widths,
    para,
    printed_text,
    register_fonts,
    style,
    text_width,
)

AUTHOR = "Bruus Turnier"
#: The metadata's creator of every PDF: the program and its version (``Bruus Turnier 0.9.0``).
CREATOR = f"{AUTHOR} {__version__}"

PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN = 15 * mm
FRAME_WIDTH = PAGE_WIDTH - 2 * MARGIN  # of a page of render()'s default template
FOOTER_SPACE = 16 * mm  # below the frame: footnote, title, printed at, page X of Y
GREY = colors.HexColor("#555555")
LIGHT = colors.HexColor("#eeeeee")
RULE = colors.HexColor("#999999")
ALERT = colors.HexColor("#b00020")


# --- Reused drawings ---------------------------------------------------------------------------


def forms_done(canvas) -> set[str]:
    """The names of the PDF forms (XObjects) already drawn into this canvas's document; a drawing
    adds its name after ``beginForm``/``endForm`` so later pages only place it."""
    return canvas.__dict__.setdefault("_bruus_forms", set())


class Stamp(Flowable):
    """Flowables drawn once per document into a PDF form (XObject), then placed wherever the
    stamp appears: the parts that are the same on every score sheet cost one drawing, not 200.

    ``name`` identifies the drawing within a document: equal names must mean equal content.
    """

    def __init__(self, name: str, content: Sequence[Flowable], width: float):
        super().__init__()
        self.name = name
        self.content = list(content)
        self.width = width
        self._sizes = [f.wrap(width, 100_000)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in self.content]
        self.height = sum(self._sizes)

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        canvas = self.canv
        done = forms_done(canvas)
        if self.name not in done:
            canvas.beginForm(self.name, 0, 0, self.width, self.height)
            y = self.height
            for flowable, height in zip(self.content, self._sizes, strict=True):
                y -= height
                flowable.wrap(self.width, 100_000)
                flowable.drawOn(canvas, 0, y + flowable.getSpaceAfter())
            canvas.endForm()
            done.add(self.name)
        canvas.doForm(self.name)


class Overlay(Flowable):
    """Flowables drawn on top of each other, top-aligned (e.g. a sheet's values over its grid)."""

    def __init__(self, *layers: Flowable):
        super().__init__()
        self.layers = layers

    def wrap(self, available_width, available_height):
        sizes = [layer.wrap(available_width, available_height) for layer in self.layers]
        self._heights = [h for _, h in sizes]
        self.width = max(w for w, _ in sizes)
        self.height = max(self._heights)
        return self.width, self.height

    def draw(self):
        for layer, height in zip(self.layers, self._heights, strict=True):
            layer.drawOn(self.canv, 0, self.height - height)


# --- Page decoration -------------------------------------------------------------------------


@dataclass(frozen=True)
class PageDecor:
    """What is printed on every page outside the frames.

    Attributes:
        title: the document's title (bottom left), e.g. "Rangliste – Schwesing – 2026-11-21".
        printed: "Gedruckt am 21.11.2026 22:15".
        marker: printed large at the top right of every page, e.g. "VORLÄUFIG"; None for none.
        footnotes: lines above the footer on every page, e.g. "* geteilter Platz" (each one line;
            a line too long for the page wraps, see :func:`footnote_lines`).
        footer: False for a document handed out page by page (a certificate): no title, printed
            date nor "Seite X von Y" at the bottom (the marker and footnotes stay).
    """

    title: str
    printed: str
    marker: str | None = None
    footnotes: tuple[str, ...] = ()
    footer: bool = True


FOOTER_Y = 7 * mm  # baseline of the footer line (title, printed at, page X of Y)
FOOTER_SIZE = 9
FOOTNOTE_SIZE = 10
FOOTNOTE_LEADING = 5 * mm
FOOTER_LEADING = 3.8 * mm  # between the lines of a footer whose title wraps
FOOTER_MAX_LINES = 2  # a title longer than that is shortened (…)


def footnote_lines(decor: PageDecor, width: float = FRAME_WIDTH) -> list[str]:
    """The footnotes broken into lines that fit ``width`` (at word boundaries)."""
    out = []
    for note in decor.footnotes:
        out += _wrap_words(note, FOOTNOTE_SIZE, width)
    return out


def footer_space(decor: PageDecor) -> float:
    """Room below the frame: the footer's lines, the footnote lines and a gap."""
    extra = max(len(footer_lines(decor, footer_width(PAGE_WIDTH))) - 1, 0) * FOOTER_LEADING
    return max(FOOTER_SPACE, FOOTER_Y + extra + (len(footnote_lines(decor)) + 1) * FOOTNOTE_LEADING + 2 * mm)


def footer_width(page_width: float, page_label: str | None = None) -> float:
    """The width the footer's text has left of "Seite X von Y" (``page_label``; None: the widest
    a document of up to 999 pages prints)."""
    if page_label is None:
        page_label = gettext("Page %(page)s of %(pages)s") % {"page": 999, "pages": 999}
    return page_width - 2 * MARGIN - text_width(page_label, 10, bold=True) - 4 * mm


def footer_text(decor: PageDecor, width: float) -> str:
    """ "<title> · Gedruckt am <date> <time>" on one line within ``width``: the title is shortened
    (…) when needed, the printed date and time never."""
    tail = f" · {decor.printed}"
    return _clip(decor.title, FOOTER_SIZE, width - text_width(tail, FOOTER_SIZE)) + tail


def footer_lines(decor: PageDecor, width: float) -> list[str]:
    """The footer's text within ``width``, top line first: "<title> · Gedruckt am …" on one line
    when it fits; else the title wraps at word boundaries over up to :data:`FOOTER_MAX_LINES`
    lines (shortened with … only beyond), the printed date and time ending the last line whole.
    [] for a document without a footer (``decor.footer``)."""
    if not decor.footer:
        return []
    tail = f" · {decor.printed}"
    if text_width(decor.title + tail, FOOTER_SIZE) <= width:
        return [decor.title + tail]
    wrapped = _wrap_words(decor.title, FOOTER_SIZE, width)
    if text_width(wrapped[-1] + tail, FOOTER_SIZE) <= width:
        wrapped[-1] += tail
    else:
        wrapped.append(decor.printed)
    if len(wrapped) > FOOTER_MAX_LINES:  # a very long title: shortened on the first line
        first = " ".join(wrapped[: len(wrapped) - FOOTER_MAX_LINES + 1])
        wrapped = [_clip(first, FOOTER_SIZE, width), *wrapped[len(wrapped) - FOOTER_MAX_LINES + 1 :]]
    return [_clip(line, FOOTER_SIZE, width) for line in wrapped]


def _wrap_words(text: str, size: float, width: float) -> list[str]:
    wrapped, current = [], ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and text_width(candidate, size) > width:
            wrapped.append(current)
            current = word
        else:
            current = candidate
    return [*wrapped, current] if current else wrapped


def _canvas_class(decors: Sequence[PageDecor]) -> type[pdfcanvas.Canvas]:
    """A canvas that keeps its pages until the end, so that each page can say "Seite X von Y".

    ``decors``: the decoration of each part of the document (:func:`render_parts`); a page
    belongs to the part whose :class:`PartStart` was drawn last, and is numbered within it."""

    class DecoratedCanvas(pdfcanvas.Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._page_states: list[dict] = []
            self._bruus_part = 0

        def showPage(self):
            self._page_states.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            parts = [state["_bruus_part"] for state in self._page_states]
            totals = {part: parts.count(part) for part in parts}
            numbers: dict[int, int] = {}
            for state in self._page_states:
                part = state["_bruus_part"]
                numbers[part] = numbers.get(part, 0) + 1
                self.__dict__.update(state)
                self._decorate(decors[part], numbers[part], totals[part])
                super().showPage()
            super().save()

        def _decorate(self, decor: PageDecor, number: int, total: int) -> None:
            width, height = self._pagesize
            self.saveState()
            self.setFillColor(GREY)
            footer: list[str] = []
            if decor.footer:
                page = gettext("Page %(page)s of %(pages)s") % {"page": number, "pages": total}
                footer = footer_lines(decor, footer_width(width, page))
                self.setFont(FONT, FOOTER_SIZE)
                for index, line in enumerate(footer):
                    self.drawString(MARGIN, FOOTER_Y + (len(footer) - 1 - index) * FOOTER_LEADING, line)
                self.setFont(FONT_BOLD, 10)
                self.drawRightString(width - MARGIN, FOOTER_Y, page)
            above = FOOTER_Y + max(len(footer) - 1, 0) * FOOTER_LEADING
            self.setFont(FONT, FOOTNOTE_SIZE)
            notes = footnote_lines(decor, width - 2 * MARGIN)
            for index, line in enumerate(notes):
                self.drawString(MARGIN, above + (len(notes) - index) * FOOTNOTE_LEADING, line)
            if decor.marker:
                self.setFillColor(ALERT)
                self.setFont(FONT_BOLD, 16)
                self.drawRightString(width - MARGIN, height - 10 * mm, decor.marker)
            self.restoreState()

    return DecoratedCanvas


def _clip(text: str, size: float, width: float) -> str:
    """``text`` shortened with … so that it fits ``width`` in DejaVu Sans at ``size``."""
    if stringWidth(text, FONT, size) <= width:
        return text
    while text and stringWidth(text + "…", FONT, size) > width:
        text = text[:-1]
    return text + "…"


def body_template(
    pagesize=A4, *, top: float = MARGIN, bottom: float = FOOTER_SPACE, template_id: str = "body"
) -> PageTemplate:
    """One frame filling the page inside the margins, above the footer (``bottom``: its height,
    :func:`footer_space`)."""
    width, height = pagesize
    frame = Frame(
        MARGIN,
        bottom,
        width - 2 * MARGIN,
        height - top - bottom,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id=f"{template_id}-frame",
    )
    return PageTemplate(id=template_id, frames=[frame], pagesize=pagesize)


def cut_template(
    columns: int, rows: int, *, pagesize=A4, inset: float = 7 * mm, template_id: str = "cut"
) -> PageTemplate:
    """A page of ``columns`` x ``rows`` equal pieces to cut apart, one frame each, with dashed
    cut lines and scissors between them. The footer stays below the lowest row."""
    width, height = pagesize
    top, bottom = 8 * mm, FOOTER_SPACE - 4 * mm
    piece_w = width / columns
    piece_h = (height - top - bottom) / rows
    frames = []
    for r in range(rows):
        for c in range(columns):
            frames.append(
                Frame(
                    c * piece_w + inset,
                    height - top - (r + 1) * piece_h + inset / 2,
                    piece_w - 2 * inset,
                    piece_h - inset,
                    leftPadding=0,
                    rightPadding=0,
                    topPadding=0,
                    bottomPadding=0,
                    id=f"{template_id}-{r}-{c}",
                )
            )

    def cut_lines(canvas, doc):
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setFillColor(RULE)
        canvas.setLineWidth(0.6)
        canvas.setDash(4, 3)
        canvas.setFont(FONT, 10)
        for r in range(1, rows):
            y = height - top - r * piece_h
            canvas.line(0, y, width, y)
            canvas.drawString(3 * mm, y + 1, "✂")
        for c in range(1, columns):
            x = c * piece_w
            canvas.line(x, bottom, x, height - top)
        canvas.restoreState()

    return PageTemplate(id=template_id, frames=frames, onPage=cut_lines, pagesize=pagesize)


@dataclass
class Part:
    """One document, ready to be laid out alone (:func:`render_part`) or with others in one PDF
    (:func:`render_parts`): its flowables, page decoration and page templates (None: one frame
    filling the page, :func:`body_template`)."""

    story: list[Flowable]
    title: str
    decor: PageDecor
    templates: Sequence[PageTemplate] | None = None
    subject: str = ""


class PartStart(Flowable):
    """Marks where a part begins: the pages from here on are decorated and numbered as that
    part's (drawn, it tells the canvas of :func:`_canvas_class`; it takes no room)."""

    def __init__(self, index: int):
        super().__init__()
        self.index = index

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        self.canv._bruus_part = self.index


def render(
    story: list[Flowable],
    *,
    title: str,
    decor: PageDecor,
    templates: Sequence[PageTemplate] | None = None,
    subject: str = "",
) -> bytes:
    """Lay out ``story`` and return the PDF. ``title`` and ``subject`` go into the document's
    metadata, with the program and its version as creator (:data:`CREATOR`)."""
    return render_part(Part(story, title, decor, templates, subject))


def render_part(part: Part) -> bytes:
    """One document as PDF bytes (:func:`render`)."""
    return render_parts([part], title=part.title, subject=part.subject)


def render_parts(parts: Sequence[Part], *, title: str, subject: str = "") -> bytes:
    """Several documents in one PDF, each from a new page with its own page templates, footer
    and page numbers ("Seite 1 von 3" of the table list, then "Seite 1 von 6" of the score
    sheets): one file to print. ``title`` and ``subject``: the whole file's metadata."""
    story: list[Flowable] = []
    templates: list[PageTemplate] = []
    for index, part in enumerate(parts):
        own = list(part.templates) if part.templates else [body_template(bottom=footer_space(part.decor))]
        if len(parts) > 1:
            for template in own:
                template.id = f"part{index}-{template.id}"
        if index:
            story += [NextPageTemplate(own[0].id), PageBreak()]
        story += [PartStart(index), *part.story]
        templates += own
    return _build(story, title=title, decors=[p.decor for p in parts], templates=templates, subject=subject)


def _build(
    story: list[Flowable], *, title: str, decors: Sequence[PageDecor], templates: list[PageTemplate], subject: str
) -> bytes:
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=A4,
        title=title,
        author=AUTHOR,
        creator=CREATOR,
        subject=subject,
        lang=get_language() or "de",
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=footer_space(decors[0]),
        displayDocTitle=True,
        # Every page starts in DejaVu Sans: no reference to a non-embedded standard font.
        initialFontName=FONT,
        initialFontSize=10,
        initialLeading=12,
    )
    doc.addPageTemplates(templates)
    doc.build(story, canvasmaker=_canvas_class(decors))
    return buffer.getvalue()


def frame_height(decor: PageDecor) -> float:
    """The height (points) of the frame of a page of :func:`render` (the default template)."""
    return PAGE_HEIGHT - MARGIN - footer_space(decor)


def room_below(flowables: Sequence[Flowable], width: float, room: float) -> float:
    """What is left of ``room`` (points) below ``flowables`` set at the top of a frame ``width``
    wide: their heights and the space after each (and before each but the first)."""
    used = 0.0
    for index, flowable in enumerate(flowables):
        used += flowable.wrap(width, room)[1] + flowable.getSpaceAfter()
        used += flowable.getSpaceBefore() if index else 0
    return room - used


#: ``TableStyle`` commands that reportlab draws over the table (besides the lines), not cell styles.
_DRAWN_COMMANDS = ("BACKGROUND", "ROWBACKGROUNDS", "COLBACKGROUNDS", "SPAN")

#: Points a page of :func:`page_by_page` leaves free at its foot, against rounding.
PAGE_SLACK = 0.5


def page_by_page(
    data: list[list],
    *,
    col_widths: Sequence[float],
    repeat_rows: int,
    commands: Sequence[tuple],
    row_commands: dict[int, Sequence[tuple]] | None = None,
    first_room: float,
    room: float,
    balance: bool = False,
) -> list[Table]:
    """A long table as one reportlab ``Table`` per page, its first ``repeat_rows`` rows (the
    heading) on top of each.

    reportlab splits a long table itself, but builds the rest of the table anew for every page,
    so its time grows with rows x pages (the table list of 1,000 players: half its build time).
    Here the rows are measured once, by reportlab (one ``Table`` of all rows), and each page's
    rows become a table of their own with those heights and cell styles: the same page breaks,
    linear time.

    Args:
        data: the rows (cells: strings or flowables), the heading rows first.
        col_widths: column widths, points.
        repeat_rows: how many of the first rows are the heading.
        commands: ``TableStyle`` commands for every page's table, rows counted within it
            (the heading rows, then the page's rows; -1 is its last row).
        row_commands: row of ``data`` -> commands for that row only, as
            ``(name, first column, last column, *arguments)``: cell styles only (``FONT``,
            ``TEXTCOLOR``, ``ALIGN``, paddings); lines and backgrounds belong in ``commands``.
        first_room: height free for the table on its first page (points).
        room: height of a whole page's frame (:func:`frame_height`).
        balance: share the rows out evenly over the pages the table needs (at most as many
            rows a page as the first page takes), so that the last page never holds a scrap of
            two rows; the number of pages stays the same. Put such tables into the story with
            :func:`one_a_page`.

    Returns:
        The tables, in order; put them into the story one after the other. A single row taller
        than a page gets a table of its own, which reportlab splits as it would.
    """
    whole = _whole_table(data, col_widths, repeat_rows, commands, row_commands)
    if len(data) <= repeat_rows:  # the heading alone
        return [whole]
    whole.wrap(sum(col_widths), float("inf"))
    heights, styles = list(whole._rowHeights), whole._cellStyles
    # Each page's table takes its cells' styles (fonts, paddings, alignment) from the whole
    # table, as reportlab's own split does, and only the lines, backgrounds and spans anew.
    drawn = [c for c in commands if c[0] in LINECOMMANDS or c[0] in _DRAWN_COMMANDS]
    return [
        Table(
            data[:repeat_rows] + data[start:end],
            colWidths=list(col_widths),
            rowHeights=heights[:repeat_rows] + heights[start:end],
            repeatRows=repeat_rows,
            cellStyles=styles[:repeat_rows] + styles[start:end],
            style=TableStyle(drawn),
        )
        for start, end in _page_rows(heights, repeat_rows, first_room, room, balance)
    ]


def _whole_table(
    data: list[list],
    col_widths: Sequence[float],
    repeat_rows: int,
    commands: Sequence[tuple],
    row_commands: dict[int, Sequence[tuple]] | None,
) -> Table:
    """All rows as one table, with ``commands`` and each row's own commands (arguments as
    :func:`page_by_page`), for reportlab to measure."""
    own = [
        (name, (first, row), (last, row), *args)
        for row, row_cmds in (row_commands or {}).items()
        for name, first, last, *args in row_cmds
    ]
    return Table(data, colWidths=list(col_widths), repeatRows=repeat_rows, style=TableStyle([*commands, *own]))


def _page_rows(
    heights: list[float], repeat_rows: int, first_room: float, room: float, balance: bool
) -> list[tuple[int, int]]:
    """The rows (start, end) of each page (:func:`_pages`); with ``balance`` shared out evenly
    over as many pages, when that takes no more of them."""
    pages = _pages(heights, repeat_rows, first_room, room)
    if balance and len(pages) > 1:
        balanced = _pages(heights, repeat_rows, first_room, room, spread=len(pages))
        if len(balanced) == len(pages):
            pages = balanced
    return pages


def one_a_page(tables: Sequence[Flowable]) -> list[Flowable]:
    """The tables of :func:`page_by_page` for the story, each from a new page: a balanced page
    holds less than fits, and the next page's rows must not follow on it."""
    story: list[Flowable] = []
    for index, table in enumerate(tables):
        story += [PageBreak(), table] if index else [table]
    return story


def _pages(
    heights: list[float], repeat_rows: int, first_room: float, room: float, spread: int | None = None
) -> list[tuple[int, int]]:
    """The rows (start, end) of each page of :func:`page_by_page`: as many as fit below the
    heading; with ``spread`` (a number of pages), at most the rows left shared out over the pages
    left (50 rows on 7 pages: 8, 7, 7, 7, 7, 7, 7, not 8, 8, 8, 8, 8, 8, 2)."""
    used_by_heading = sum(heights[:repeat_rows])
    pages: list[tuple[int, int]] = []
    start, free = repeat_rows, first_room - PAGE_SLACK
    while start < len(heights):
        end, used = start, used_by_heading
        most = None
        if spread is not None:
            pages_left = max(spread - len([p for p in pages if p[0] < p[1]]), 1)
            most = -(-(len(heights) - start) // pages_left)
        while end < len(heights) and used + heights[end] <= free and (most is None or end - start < most):
            used += heights[end]
            end += 1
        if end == start and free < room - PAGE_SLACK:  # not one row fits below what comes first
            pages.append((start, start))  # the first page holds none of the rows
            free = room - PAGE_SLACK
            continue
        end = max(end, start + 1)
        pages.append((start, end))
        start, free = end, room - PAGE_SLACK
    return [page for page in pages if page[0] < page[1]]
