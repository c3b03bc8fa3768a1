"""Read an uploaded player list (an Excel workbook or a CSV file) into rows of cells, and hand
them to the pure row checks of :mod:`scoring.domain.player_import`.

This is the part of the import that deals with files: the name's ending, size limits, text
encodings, CSV separators and openpyxl. What a row means (the header, names and clubs, the
problems of a row) is decided in the domain; this module saves nothing and imports nothing from
Django.

Accepted files
    * ``.xlsx`` (Excel workbook): the first worksheet is read, formulas are *not* evaluated (the
      value Excel stored last is used, see ``openpyxl``'s ``data_only``).
    * ``.csv`` / ``.txt``: separated by semicolons (German Excel), commas or tabs, detected from
      the header line; a first line ``sep=;`` (an Excel hint) is honoured. Encoded UTF-8 with or
      without BOM, or Windows-1252 (older Excel on Windows): UTF-8 is tried strictly first.

Line numbers are those the organiser sees in the spreadsheet: a CSV record whose quoted cell
spans several text lines still counts as one line, exactly as Excel shows it.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import warnings
import zipfile
from collections.abc import Iterator

from scoring.domain.errors import gettext_noop
from scoring.domain.player_import import (
    HEADER_SEARCH_ROWS,
    ExcelError,
    Note,
    ParsedFile,
    PlayerFileError,
    empty_file_error,
    is_control,
    layout_for,
    non_empty_prefix,
    players_from_rows,
)

__all__ = [
    "ACCEPTED_EXTENSIONS",
    "MAX_FILE_BYTES",
    "MAX_SHEET_COLUMNS",
    "MAX_SHEET_ROWS",
    "MAX_XLSX_UNPACKED_BYTES",
    "parse_player_file",
]

#: Largest accepted upload, in bytes (2 MiB).
MAX_FILE_BYTES = 2 * 1024 * 1024
#: File name endings accepted, lower case.
ACCEPTED_EXTENSIONS = (".xlsx", ".csv", ".txt")
#: Largest total unpacked size of an .xlsx (it is a zip archive), in bytes, checked from the
#: archive's directory before anything is parsed (Python's zipfile never unpacks a member beyond
#: its declared size). A list of 5000 players with name and club unpacks to about 1 MiB; parsing
#: 8 MiB of worksheet XML takes about two seconds.
MAX_XLSX_UNPACKED_BYTES = 8 * 1024 * 1024
#: Most rows of a worksheet read, empty ones included (Excel may store thousands of formatted
#: empty rows); reading stops at the row after it and the file is refused.
MAX_SHEET_ROWS = 10_000
#: Most columns of a worksheet read; a value further right refuses the file.
MAX_SHEET_COLUMNS = 50

# Candidate CSV separators, in order of preference when the header does not decide. NUL (never
# present: files containing it are refused) means "one column, do not split".
_NO_SPLIT = "\x00"
_DELIMITERS = (_NO_SPLIT, ";", ",", "\t")
_SEP_HINT = re.compile(r"\Asep=([;,\t])\r?\n", re.IGNORECASE)


# --------------------------------------------------------------------------------------------
# Entry point


def parse_player_file(data: bytes, filename: str) -> ParsedFile:
    """Parse an uploaded player list into good rows, row problems and notes.

    Args:
        data: the complete uploaded file, at most :data:`MAX_FILE_BYTES` bytes.
        filename: the original file name as uploaded (a path is allowed; only its last part is
            used). Its ending decides the format: ``.xlsx``, ``.csv`` or ``.txt``, any case.

    Returns:
        A :class:`ParsedFile`. Rows with problems are left out of ``players`` and listed in
        ``problems``; completely empty rows are skipped silently.

    Raises:
        PlayerFileError: the file cannot be used at all (see its ``code`` list). No other
            exception is raised for any content of ``data``.
        TypeError: ``data`` is not bytes-like or ``filename`` is not a ``str``.
    """
    if not isinstance(filename, str):
        raise TypeError("filename must be a str")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("data must be bytes")
    data = bytes(data)
    display = _display_name(filename)
    extension = _extension(display)
    _check_file(data, display, extension)
    if extension == ".xlsx":
        notes: list[Note] = []
        rows = _xlsx_rows(data, display, notes)
        return players_from_rows(rows, display, encoding=None, notes=notes)
    text, encoding = _decode(data, display)
    notes = []
    if encoding == "cp1252":
        notes.append(
            Note(
                gettext_noop(
                    "The file was read as older Windows text (Windows-1252). Please check that "
                    "letters such as ä, ö, ü, ß, æ, ø and å look right in the names."
                ),
                {},
            )
        )
    text, delimiter = _choose_delimiter(text)
    rows = _csv_rows(text, delimiter, display)
    return players_from_rows(rows, display, encoding=encoding, notes=notes)


def _check_file(data: bytes, display: str, extension: str) -> None:
    """Raise PlayerFileError unless the file is of an accepted type, not empty and not too large."""
    if extension not in ACCEPTED_EXTENSIONS:
        raise PlayerFileError(
            gettext_noop(
                "%(filename)s cannot be read. Please upload an Excel workbook (.xlsx) or a CSV "
                'file (.csv or .txt); in your spreadsheet program use "Save as" to get one.'
            ),
            code="unsupported_type",
            filename=display,
        )
    if not data.strip():
        raise empty_file_error(display)
    if len(data) > MAX_FILE_BYTES:
        raise PlayerFileError(
            gettext_noop(
                "%(filename)s is too large (%(size_kb)s KB). At most %(max_kb)s KB are accepted; "
                "a list of players is usually much smaller."
            ),
            code="too_large",
            filename=display,
            size_kb=(len(data) + 1023) // 1024,
            max_kb=MAX_FILE_BYTES // 1024,
        )


# --------------------------------------------------------------------------------------------
# File-level helpers


def _display_name(filename: str) -> str:
    base = re.split(r"[\\/]", filename)[-1].strip()
    if len(base) > 100:
        base = base[:97] + "..."
    return base or "?"


def _extension(display: str) -> str:
    dot = display.rfind(".")
    return display[dot:].casefold() if dot > 0 else ""


def _binary_error(display: str) -> PlayerFileError:
    return PlayerFileError(
        gettext_noop(
            "%(filename)s does not look like a text (CSV) file. If it is an Excel file, save it "
            "as an Excel workbook (.xlsx) or as CSV and upload that."
        ),
        code="undecodable",
        filename=display,
    )


def _decode(data: bytes, display: str) -> tuple[str, str]:
    """Decode a text upload; return (text without BOM, encoding name)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise PlayerFileError(
            gettext_noop(
                '%(filename)s was saved as "Unicode text" (UTF-16), which cannot be read. '
                'Please save it as "CSV UTF-8" or as an Excel workbook (.xlsx).'
            ),
            code="undecodable",
            filename=display,
        )
    if b"\x00" in data:
        raise _binary_error(display)
    try:
        if data.startswith(codecs.BOM_UTF8):
            text, encoding = data[len(codecs.BOM_UTF8) :].decode("utf-8"), "utf-8-sig"
        else:
            text, encoding = data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        if data.startswith(codecs.BOM_UTF8):
            raise _undecodable_error(display) from None
        try:
            text, encoding = data.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            raise _undecodable_error(display) from None
    text = text.rstrip("\x1a")  # old DOS end-of-file marker
    # A few stray control characters are reported on their rows; many mean "not text".
    controls = sum(1 for char in text if char not in "\t\n\r" and is_control(char))
    if controls * 100 > len(text):
        raise _binary_error(display)
    if not text.strip():
        raise empty_file_error(display)
    return text, encoding


def _undecodable_error(display: str) -> PlayerFileError:
    return PlayerFileError(
        gettext_noop(
            "The characters in %(filename)s could not be read. Please save the list as "
            '"CSV UTF-8" or as an Excel workbook (.xlsx) and upload that.'
        ),
        code="undecodable",
        filename=display,
    )


def _corrupt_xlsx_error(display: str) -> PlayerFileError:
    return PlayerFileError(
        gettext_noop(
            "%(filename)s could not be opened as an Excel workbook. It may be damaged, protected "
            "by a password, or another kind of file renamed to .xlsx. Please open it in your "
            "spreadsheet program, save it again as .xlsx or CSV and upload that."
        ),
        code="corrupt_xlsx",
        filename=display,
    )


# --------------------------------------------------------------------------------------------
# Reading rows: each reader yields (line, cells) with cells as str (xlsx errors as ExcelError)


def _csv_reader(text: str, delimiter: str) -> Iterator[list[str]]:
    return csv.reader(
        io.StringIO(text, newline=""),
        delimiter=delimiter,
        quotechar='"',
        doublequote=True,
        skipinitialspace=True,
        strict=False,
    )


def _choose_delimiter(text: str) -> tuple[str, str]:
    """Return (text, delimiter) for a decoded CSV text.

    An Excel ``sep=X`` first line decides and is removed (Excel hides it, so line numbers stay
    as Excel shows them: the header is line 1). Otherwise every candidate is tried on the first
    rows and the one whose header row recognises the most columns wins; on a tie (a one-column
    header) the line is not split at all.
    """
    hint = _SEP_HINT.match(text)
    if hint:
        return text[hint.end() :], hint.group(1)
    best: tuple[tuple[int, int, int], str] | None = None
    for order, delimiter in enumerate(_DELIMITERS):
        try:
            prefix = non_empty_prefix(enumerate(_csv_reader(text, delimiter), start=1), HEADER_SEARCH_ROWS)
        except csv.Error:
            continue
        layout = None
        for line, cells in prefix:
            layout = layout_for(line, cells)
            if layout is not None:
                break
        if layout is None:
            continue
        score = (layout.recognised, layout.named_cells, -order)
        if best is None or score > best[0]:
            best = (score, delimiter)
    if best is not None:
        return text, best[1]
    # No header anywhere: split the first line by the separator that gives the most cells so
    # that the error message can list what was found.
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(_DELIMITERS[1:], key=first_line.count)
    return text, delimiter


def _csv_rows(text: str, delimiter: str, display: str) -> Iterator[tuple[int, tuple[str, ...]]]:
    reader = _csv_reader(text, delimiter)
    line = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error:
            raise PlayerFileError(
                gettext_noop(
                    "%(filename)s could not be read as a CSV file near line %(line)s. Please "
                    "save it again as CSV or as an Excel workbook (.xlsx)."
                ),
                code="undecodable",
                filename=display,
                line=line + 1,
            ) from None
        line += 1
        yield line, tuple(cells)


def _xlsx_rows(data: bytes, display: str, notes: list[Note]) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Open the workbook now (so a corrupt file fails early) and return a row iterator."""
    import openpyxl  # local: only needed for .xlsx

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except Exception:  # zipfile raises several types for garbage
        raise _corrupt_xlsx_error(display) from None
    if unpacked > MAX_XLSX_UNPACKED_BYTES:
        raise PlayerFileError(
            gettext_noop(
                "%(filename)s is too large once unpacked (%(size_mb)s MB; at most %(max_mb)s MB). "
                "Please upload a smaller workbook containing only the list of players."
            ),
            code="too_large",
            filename=display,
            size_mb=(unpacked + 2**20 - 1) // 2**20,
            max_mb=MAX_XLSX_UNPACKED_BYTES // 2**20,
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except Exception:  # openpyxl and its XML parser raise many types for a bad file
        raise _corrupt_xlsx_error(display) from None
    try:
        sheets = workbook.worksheets
        if not sheets:
            raise _corrupt_xlsx_error(display)
        sheet = sheets[0]
        if len(sheets) > 1:
            notes.append(
                Note(
                    gettext_noop(
                        'Only the first worksheet, "%(sheet)s", was read; the workbook has %(count)s worksheets.'
                    ),
                    {"sheet": str(sheet.title), "count": len(sheets)},
                )
            )
    except PlayerFileError:
        workbook.close()
        raise
    except Exception:
        workbook.close()
        raise _corrupt_xlsx_error(display) from None
    return _iter_sheet(workbook, sheet, display)


def _iter_sheet(workbook, sheet, display: str) -> Iterator[tuple[int, tuple[str, ...]]]:
    """The worksheet's rows as stored, read one at a time and bounded while reading: a row
    beyond :data:`MAX_SHEET_ROWS` or a value beyond column :data:`MAX_SHEET_COLUMNS` refuses
    the file at once. Rows and cells that are not stored are not made up (openpyxl's own
    row iterator pads every row up to its last stored cell, and every missing row)."""
    from openpyxl.worksheet._reader import WorkSheetParser  # openpyxl 3.1 (pinned): stored cells only

    try:
        with sheet._get_source() as source:
            parser = WorkSheetParser(
                source,
                sheet._shared_strings,
                data_only=True,
                epoch=workbook.epoch,
                date_formats=workbook._date_formats,
                timedelta_formats=workbook._timedelta_formats,
            )
            for line, stored in parser.parse():
                if line > MAX_SHEET_ROWS:
                    raise PlayerFileError(
                        gettext_noop(
                            "%(filename)s has more than %(max)s rows in its first worksheet (empty "
                            "rows count too). Please delete the rows below the list, or save it as "
                            "CSV, and upload it again."
                        ),
                        code="too_large",
                        filename=display,
                        max=MAX_SHEET_ROWS,
                    )
                cells: dict[int, str] = {}
                for cell in stored:
                    text = _cell_text(cell["value"], cell.get("data_type"))
                    if cell["column"] > MAX_SHEET_COLUMNS and text.strip():
                        raise PlayerFileError(
                            gettext_noop(
                                "%(filename)s has values in more than %(max)s columns (line "
                                "%(line)s). Please upload a list with only the columns of names "
                                "and clubs."
                            ),
                            code="too_large",
                            filename=display,
                            max=MAX_SHEET_COLUMNS,
                            line=line,
                        )
                    if text:
                        cells[cell["column"]] = text
                yield line, tuple(cells.get(column, "") for column in range(1, max(cells, default=0) + 1))
    except (PlayerFileError, GeneratorExit):
        raise
    except Exception:
        raise _corrupt_xlsx_error(display) from None
    finally:
        workbook.close()


def _cell_text(value: object, data_type: str | None) -> str:
    if value is None:
        return ""
    if data_type == "e":
        return ExcelError(str(value))
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)
