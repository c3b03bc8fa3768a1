"""Fonts and text for every printed document: the embedded fonts, paragraph styles, table cells
that print names literally, text widths, and the words and numbers as the pages write them
(matchsticks, dates, "printed at", document names). The page layouts use these:
:mod:`scoring.documents.pdf_base` (which re-exports them, so builders keep writing ``base.cell``).

Fonts: DejaVu Sans and DejaVu Sans Bold from ``scoring/fonts/`` (Debian's fonts-dejavu-core,
licence in ``scoring/fonts/LICENSE``). They cover German (ä ö ü ß), the suit symbols ♣ ♠ ♥ ♦ and
almost any name; reportlab embeds the glyphs used (subset) into each PDF.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from functools import cache, lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from django.utils import formats, timezone
from django.utils.translation import get_language, gettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph

from scoring.templatetags.bruus import format_matchsticks
from scoring.transfer.filenames import download_name

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"


def register_fonts() -> None:
    """Register DejaVu Sans (+ Bold) with reportlab; safe to call any number of times."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, filename in ((FONT, "DejaVuSans.ttf"), (FONT_BOLD, "DejaVuSans-Bold.ttf")):
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
    # <b> inside a Paragraph switches to the bold face.
    addMapping(FONT, 0, 0, FONT)
    addMapping(FONT, 1, 0, FONT_BOLD)
    addMapping(FONT, 0, 1, FONT)
    addMapping(FONT, 1, 1, FONT_BOLD)


register_fonts()


# --- Text ------------------------------------------------------------------------------------


@cache
def style(
    size: float,
    *,
    bold: bool = False,
    align: str = "left",
    color: str = "#000000",
    leading: float | None = None,
    space_after: float = 0,
) -> ParagraphStyle:
    """A paragraph style in DejaVu Sans (cached: styles are shared, never changed)."""
    alignment = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}[align]
    return ParagraphStyle(
        f"bruus-{size}-{bold}-{align}-{color}-{leading}-{space_after}",
        fontName=FONT_BOLD if bold else FONT,
        fontSize=size,
        leading=leading if leading is not None else round(size * 1.22, 1),
        alignment=alignment,
        textColor=colors.HexColor(color),
        spaceAfter=space_after,
        # Names such as "Hans-Peter" or "Oster-Ohrstedt" may break after their hyphen.
        embeddedHyphenation=1,
        hyphenationLang="",
        splitLongWords=1,
    )


class Para(Paragraph):
    """A Paragraph that remembers its last line breaking: tables and frames wrap the same cell
    several times at the same width, and a document may place one instance on many pages
    (one after the other, e.g. the legend of every score sheet)."""

    _wrapped_at: float | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # reportlab's wrap() replaces ``frags`` by its words, a name split at its hyphen ("Anna-"
        # at a line's end) as two of them; wrapped again at another width (KeepInFrame shrinks
        # by wrapping at several widths) the two are joined without the hyphen ("AnnaKatharina").
        # So every wrap starts again from the parsed text.
        self._source_frags = list(self.frags)  # type: ignore[has-type]

    def wrap(self, available_width, available_height):
        # reportlab's split() deletes ``blPara`` (the line breaking) when the paragraph does not
        # fit at the foot of a page; then the remembered size is no longer backed by lines.
        if (
            self._wrapped_at is not None
            and abs(self._wrapped_at - available_width) < 1e-6
            and "blPara" in self.__dict__
        ):
            return self.width, self.height
        if self._wrapped_at is not None or "blPara" in self.__dict__:
            self.frags = list(self._source_frags)
            for name in ("_hyphenations", "_splitLongWordCount"):
                self.__dict__.pop(name, None)
        result = super().wrap(available_width, available_height)
        # Remember only a real line breaking, not "no room at all" (which sets no lines).
        self._wrapped_at = None if result[1] == 0x7FFFFFFF else available_width
        return result


def para(text: str, size: float, **kwargs) -> Para:
    """A paragraph that prints ``text`` literally: markup characters and quotes are escaped."""
    return Para(escape(text), style(size, **kwargs))


def lines(texts: Sequence[str], size: float, **kwargs) -> Para:
    """Several literal lines in one paragraph."""
    return Para("<br/>".join(escape(t) for t in texts), style(size, **kwargs))


def fits(text: str, size: float, width: float, *, bold: bool = False) -> bool:
    return text_width(text, size, bold=bold) <= width


def cell(text: str, size: float, width: float, *, bold: bool = False, padding: float = 12, **kwargs):
    """A table cell for ``text``: the plain string when it fits on one line (fast, printed as it
    is), else a wrapping paragraph with the text escaped, so markup prints literally too.

    The table's style must set the same font and size for plain cells.
    """
    if fits(text, size, width - padding, bold=bold):
        return text
    return para(text, size, bold=bold, **kwargs)


@lru_cache(maxsize=8192)
def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """Width of ``text`` in points (cached: clubs, numbers and labels repeat on every row)."""
    return stringWidth(text, FONT_BOLD if bold else FONT, size)


def name_club_widths(
    names: Sequence[str], clubs: Sequence[str], room: float, size: float, padding: float
) -> tuple[float, float]:
    """The widths (points) of a table's name and club columns sharing ``room``, sized from the
    content in ``size`` points, each cell with ``padding``: both on one line if they fit; else
    the clubs' longest word keeps its line ("Oster-Ohrstedt" never becomes "Oster-/Ohrstedt"; up
    to half the room) and the names wrap at spaces. Returns (name width, club width)."""

    def widest(texts) -> float:
        return max((text_width(t, size) for t in texts), default=0) + padding

    name_need = widest([gettext("Name"), *names])
    club_need = widest([gettext("Club"), *clubs])
    club_word = widest([w for club in clubs for w in club.split()])
    club_w = min(club_need, max(room - name_need, min(club_word, room * 0.5)))
    return room - club_w, club_w


def matchsticks(value) -> str:
    """Matchsticks as on the pages: whole numbers as they are, sit-out averages with one decimal
    in the active language ("6,2")."""
    return _matchsticks(value, get_language())


@lru_cache(maxsize=4096)
def _matchsticks(value, language: str | None) -> str:
    return format_matchsticks(value)


def long_date(value: date) -> str:
    """The evening's date in the active language, e.g. "21. November 2026"."""
    return formats.date_format(value, "DATE_FORMAT")


def printed_text(printed_at: datetime | None) -> str:
    moment = timezone.localtime(printed_at or timezone.now())
    return gettext("Printed %(when)s") % {"when": formats.date_format(moment, "SHORT_DATETIME_FORMAT")}


def document_name(kind: str, evening, detail: str = "") -> str:
    """The title and file name of a document, e.g. "Rangliste – Schwesinger Bruus-Abend –
    2026-11-21" or "Spielzettel Durchgang 1 – … – 2026-11-21"."""
    return download_name(kind, evening.name, evening.date, detail)
