"""Where the text of a PDF lies: every text line with its position, size and width, read with
pypdf (``extract_text`` with ``visitor_text``), including the text inside PDF forms (XObjects) that
the documents reuse on every page (score sheet grid and legend), placed where the form is drawn.

Used by the tests that check that printed documents fit: every line within its page and box, no
two lines on top of each other, the footer complete.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from tests.tracing import untraced

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m, n):
    """The PDF matrix product m x n (apply m first, then n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


@dataclass(frozen=True)
class TextLine:
    """One piece of text as drawn: left end of its baseline (x, y) in points from the page's
    bottom left, its width and font size as printed (scaling included), and the font."""

    page: int
    text: str
    x: float
    y: float
    width: float
    size: float
    font: str

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + 0.76 * self.size  # DejaVu Sans: ascent of capitals and ä, ö, ü

    @property
    def bottom(self) -> float:
        return self.y - 0.24 * self.size  # descenders (g, p, y)


def text_lines(data: bytes) -> tuple[list[tuple[float, float]], list[TextLine]]:
    """(width, height) of every page, and every drawn text line of the document."""
    reader = PdfReader(io.BytesIO(data))
    sizes, found = [], []
    for number, page in enumerate(reader.pages, start=1):
        box = page.mediabox
        sizes.append((float(box.width), float(box.height)))
        outer: list[tuple] = []  # the page's matrix at each "Do" being read (forms)

        def before(operator, operands, cm, tm, outer=outer):
            if operator == b"Do":
                outer.append(tuple(float(v) for v in cm))

        def after(operator, operands, cm, tm, outer=outer):
            if operator == b"Do" and outer:
                outer.pop()

        def visit(text, cm, tm, font, size, number=number, outer=outer):
            text = text.strip("\n")
            if not text.strip() or font is None:
                return
            matrix = multiply(tuple(float(v) for v in tm), tuple(float(v) for v in cm))
            for placed in reversed(outer):
                matrix = multiply(matrix, placed)
            scale = (matrix[0] ** 2 + matrix[1] ** 2) ** 0.5
            name = str(font.get("/BaseFont", "")).split("+")[-1]
            for index, line in enumerate(text.split("\n")):
                if not line.strip():
                    continue
                width = stringWidth(line, name, float(size)) * scale
                found.append(
                    TextLine(
                        number,
                        line,
                        matrix[4],
                        matrix[5] - index * float(size) * scale,
                        width,
                        float(size) * scale,
                        name,
                    )
                )

        with untraced():  # pypdf's reading, not ours to measure (tests/tracing.py)
            page.extract_text(visitor_text=visit, visitor_operand_before=before, visitor_operand_after=after)
    return sizes, found


@dataclass(frozen=True)
class Box:
    left: float
    bottom: float
    right: float
    top: float

    def holds(self, line: TextLine, slack: float = 1.0) -> bool:
        return (
            line.x >= self.left - slack
            and line.right <= self.right + slack
            and line.bottom >= self.bottom - slack
            and line.top <= self.top + slack
        )


def problems(data: bytes, boxes: list[Box]) -> list[str]:
    """What does not fit: a line outside its page or outside every allowed box (the frames and
    the footer area), and two lines drawn over each other."""
    sizes, lines = text_lines(data)
    found = []
    for line in lines:
        width, height = sizes[line.page - 1]
        page = Box(0, 0, width, height)
        if not page.holds(line, slack=0):
            found.append(f"page {line.page}: {line.text!r} outside the page ({line.x:.1f}..{line.right:.1f})")
        elif not any(box.holds(line) for box in boxes):
            found.append(
                f"page {line.page}: {line.text!r} outside its box "
                f"(x {line.x:.1f}..{line.right:.1f}, y {line.bottom:.1f}..{line.top:.1f})"
            )
    by_page: dict[int, list[TextLine]] = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    for page_lines in by_page.values():
        page_lines.sort(key=lambda t: t.x)
        for i, a in enumerate(page_lines):
            for b in page_lines[i + 1 :]:
                if b.x >= a.right - 0.5:
                    break
                if min(a.top, b.top) - max(a.bottom, b.bottom) > 0.5:
                    found.append(f"page {a.page}: {a.text!r} and {b.text!r} overlap")
    return found
