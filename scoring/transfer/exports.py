"""Spreadsheet downloads of django-tables2 tables (CSV and XLSX through tablib), with German
file names and column headings in the active language.

- CSV: UTF-8 with a byte order mark (so Excel and LibreOffice recognise the umlauts), the same
  text as the page, in the language of the download (:func:`csv_delimiter`): in German separated
  by ``;`` with a decimal comma (``6,2``), as German Excel opens a double-clicked file in
  columns; in English separated by ``,`` with a decimal point (``6.2``). The player import reads
  both (``scoring.transfer.player_files``).
- XLSX: numbers as numbers (sit-out averages rounded to one decimal), times as local date cells.

Cells that a spreadsheet would run as a formula (text starting with ``=``, ``+``, ``-``, ``@``)
get a leading apostrophe, so a player named ``=HYPERLINK(…)`` stays a name.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import get_language
from django_tables2.export import TableExport
from tablib import Dataset

from scoring.transfer.filenames import UNSAFE_IN_FILENAMES, content_disposition

#: The formats offered on the pages (``?_export=csv`` or ``?_export=xlsx``).
EXPORT_FORMATS = ("csv", "xlsx")

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_delimiter(language: str | None = None) -> str:
    """The CSV separator of a download in ``language`` (default: the active one): ``;`` in German,
    where the comma is the decimal separator (Excel's list separator there), else ``,``."""
    return ";" if (language or get_language() or "de").lower().startswith("de") else ","


def defuse(value):
    """Text that a spreadsheet would take for a formula, made literal with a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def attachment(filename: str) -> str:
    """``attachment`` with the exact UTF-8 name (RFC 5987) and an ASCII fallback."""
    return content_disposition(filename, as_attachment=True, default="export")


def export_response(table, export_format: str, name: str, title: str) -> HttpResponse:
    """The table as a download ``<name>.<format>`` (sheet ``title`` in XLSX; ``name`` from
    :func:`scoring.transfer.filenames.download_name`, as the PDFs').

    The table's column headings are evaluated now, in the active language. Facts of the whole
    evening (its rule set) are not repeated on every row: the headings are in the rule set's
    words, and the PDF and the page name it once.
    """
    if export_format not in EXPORT_FORMATS:
        raise ValueError(export_format)
    table.export_format = export_format
    exported = TableExport(export_format, table).dataset
    headers = [str(h) for h in exported.headers]
    return dataset_response(headers, [list(row) for row in exported], export_format, name, title)


def dataset_response(headers, rows, export_format: str, name: str, title: str) -> HttpResponse:
    """Rows of cell values (with their ``headers``) as a download ``<name>.<format>`` (sheet
    ``title`` in XLSX); text that would run as a formula is defused."""
    if export_format not in EXPORT_FORMATS:
        raise ValueError(export_format)
    dataset = Dataset(title=UNSAFE_IN_FILENAMES.sub("-", str(title)).replace("[", "(").replace("]", ")")[:31])
    dataset.headers = [str(h) for h in headers]
    for row in rows:
        dataset.append([defuse(value) for value in row])
    if export_format == "xlsx":
        content = dataset.export("xlsx")
    else:
        content = "\ufeff" + dataset.export("csv", delimiter=csv_delimiter())
    response = HttpResponse(content, content_type=TableExport.FORMATS[export_format])
    response["Content-Disposition"] = attachment(f"{name}.{export_format}")
    response["Cache-Control"] = "no-store"
    return response
