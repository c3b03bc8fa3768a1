"""Test code that runs without coverage's tracer.

Coverage measures the application (``scoring``, ``bruus_tournament``), but on Python 3.11 its tracer
(``sys.settrace``) slows every line of Python a test runs two- to threefold: the application's and
everyone else's too — pypdf reading a PDF back line by line, a sweep repeating code already
measured. :func:`untraced` runs such a block with no tracer at all and puts the tracer back after
it. Only for code whose coverage is not wanted: never around a call into the application that no
other (measured) test makes.

Coverage's C tracer, put back with ``sys.settrace``, installs itself the C way again at the next
function call (coverage's ``CTracer_call``), so the measured code after the block runs as fast as
before it.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from pypdf import PdfReader


@contextmanager
def untraced() -> Iterator[None]:
    """Run the block with no trace function (coverage's or any other); restore it afterwards."""
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(tracer)


def pdf_texts(data: bytes | PdfReader) -> list[str]:
    """The text of every page of a PDF (pypdf's ``extract_text``), one string per page, read
    untraced: pypdf is not ours to measure, and traced it is the slowest part of a document test."""
    reader = data if isinstance(data, PdfReader) else PdfReader(io.BytesIO(data))
    with untraced():
        return [page.extract_text() for page in reader.pages]


def pdf_text(data: bytes | PdfReader) -> str:
    """The text of every page of a PDF, pages joined by a line break."""
    return "\n".join(pdf_texts(data))
