"""Read an organiser's player list (spreadsheet or CSV) into checked rows of name and club.

The Django layer calls :func:`parse_player_file` with the uploaded bytes, shows the organiser a
preview (the good rows, the problems by line, the notes) and saves only after confirmation. This
module saves nothing and imports nothing from Django.

Accepted files
    * ``.xlsx`` (Excel workbook): the first worksheet is read, formulas are *not* evaluated (the
      value Excel stored last is used, see ``openpyxl``'s ``data_only``).
    * ``.csv`` / ``.txt``: separated by semicolons (German Excel), commas or tabs, detected from
      the header line; a first line ``sep=;`` (an Excel hint) is honoured. Encoded UTF-8 with or
      without BOM, or Windows-1252 (older Excel on Windows): UTF-8 is tried strictly first.

The file needs a header row. It is normally line 1; up to :data:`HEADER_SEARCH_ROWS` non-empty
lines above it (a title such as "Anmeldungen 2025") are skipped with a note. Headers are matched
case- and whitespace-insensitively, in German or English (see :data:`NAME_HEADERS`,
:data:`FIRST_NAME_HEADERS`, :data:`LAST_NAME_HEADERS`, :data:`CLUB_HEADERS`).

Line numbers are those the organiser sees in the spreadsheet: the header is line 1 when it is the
first row, and a CSV record whose quoted cell spans several text lines still counts as one line,
exactly as Excel shows it.

Names are text and nothing else: markup, quotes and a leading ``=`` are stored literally; nothing
is evaluated or interpreted. Escaping for HTML, PDF or CSV output is the job of whoever writes them.

Messages are English msgids marked with :func:`gettext_noop`; the Django layer translates them
with ``gettext(message) % params``.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import re
import unicodedata
import warnings
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.names import match_key, normalise_name

__all__ = [
    "ACCEPTED_EXTENSIONS",
    "MAX_CLUB_LENGTH",
    "MAX_FILE_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_PLAYER_ROWS",
    "MAX_SHEET_COLUMNS",
    "MAX_SHEET_ROWS",
    "MAX_XLSX_UNPACKED_BYTES",
    "Note",
    "ParsedFile",
    "ParsedPlayer",
    "PlayerFileError",
    "RowProblem",
    "BIDI_CONTROL_MESSAGE",
    "find_bidi_control",
    "match_key",
    "normalise_name",
    "parse_player_file",
]

#: Largest accepted upload, in bytes (2 MiB).
MAX_FILE_BYTES = 2 * 1024 * 1024
#: Most non-empty rows below the header that a file may have.
MAX_PLAYER_ROWS = 5000
#: Longest name and club, in characters (Unicode code points after normalisation).
MAX_NAME_LENGTH = 100
MAX_CLUB_LENGTH = 100
#: File name endings accepted, lower case.
ACCEPTED_EXTENSIONS = (".xlsx", ".csv", ".txt")
#: How many non-empty rows from the top are searched for the header row.
HEADER_SEARCH_ROWS = 10
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

#: Recognised headers, compared after :func:`_header_key` (casefolded, whitespace collapsed,
#: "_" read as a space, a trailing ":" or "*" dropped).
NAME_HEADERS = frozenset(
    {
        "name",
        "spieler",
        "spielerin",
        "player",
        "vollständiger name",
        # common variants seen in club lists
        "full name",
        "player name",
        "spielername",
        "spieler/in",
        "spieler:in",
        "spieler*in",
        "vor- und nachname",
    }
)
FIRST_NAME_HEADERS = frozenset({"vorname", "first name", "firstname", "given name"})
LAST_NAME_HEADERS = frozenset({"nachname", "last name", "lastname", "surname", "familienname", "family name"})
CLUB_HEADERS = frozenset({"club", "verein", "ort", "dorf", "village", "wohnort", "gemeinde", "town"})

# Candidate CSV separators, in order of preference when the header does not decide. NUL (never
# present: files containing it are refused) means "one column, do not split".
_NO_SPLIT = "\x00"
_DELIMITERS = (_NO_SPLIT, ";", ",", "\t")
_SEP_HINT = re.compile(r"\Asep=([;,\t])\r?\n", re.IGNORECASE)


# --------------------------------------------------------------------------------------------
# Result types


@dataclass(frozen=True)
class ParsedPlayer:
    """One good row of the file.

    Attributes:
        line: 1-based line in the file as the organiser sees it in the spreadsheet.
        name: normalised name (see :func:`normalise_name`), 1 to :data:`MAX_NAME_LENGTH` chars.
        club: normalised club, ``""`` if the file has no club column or the cell is empty.
    """

    line: int
    name: str
    club: str


@dataclass(frozen=True)
class RowProblem:
    """Why one row of the file was not taken.

    Attributes:
        line: 1-based line as the organiser sees it.
        message: English msgid (``gettext_noop``) with ``%(name)s`` placeholders.
        params: values for the placeholders; always contains ``line``.
        code: machine-readable reason, one of ``"missing_name"``, ``"name_too_long"``,
            ``"club_too_long"``, ``"duplicate"``, ``"control_characters"``, ``"bidi_control"``,
            ``"excel_error"``, ``"repeated_header"``. A row may have several problems (e.g. both too long).
    """

    line: int
    message: str
    params: Mapping[str, object]
    code: str

    def __str__(self) -> str:
        return self.message % self.params


class Note(NamedTuple):
    """A remark about the whole file for the preview, not an error.

    A ``(message, params)`` pair: ``message`` is an English msgid (``gettext_noop``), ``params``
    the values for its placeholders (strings and ints only).
    """

    message: str
    params: Mapping[str, object]

    def __str__(self) -> str:
        return self.message % self.params if self.params else self.message


@dataclass(frozen=True)
class ParsedFile:
    """The outcome of :func:`parse_player_file`.

    Attributes:
        players: the good rows, in file order.
        problems: the bad rows, ordered by line (a row may appear more than once).
        notes: remarks about the whole file (encoding, ignored columns, skipped title lines...).
        encoding: ``"utf-8"``, ``"utf-8-sig"`` (UTF-8 with BOM) or ``"cp1252"`` for text files,
            ``None`` for ``.xlsx``.
    """

    players: tuple[ParsedPlayer, ...]
    problems: tuple[RowProblem, ...]
    notes: tuple[Note, ...] = ()
    encoding: str | None = None


class PlayerFileError(DomainError):
    """The file as a whole cannot be read; nothing from it can be used.

    ``code`` is one of:
        ``"empty"``: no bytes, or no non-empty cell at all.
        ``"no_players"``: a header row but no rows below it.
        ``"unsupported_type"``: file name does not end in ``.xlsx``, ``.csv`` or ``.txt``.
        ``"undecodable"``: a text file that is neither UTF-8 nor Windows-1252 text, looks
            binary, or is not readable as CSV.
        ``"no_name_column"``: no header row with a name column (params ``found``).
        ``"too_large"``: more than :data:`MAX_FILE_BYTES` bytes, more than
            :data:`MAX_PLAYER_ROWS` non-empty rows below the header, or an ``.xlsx`` declaring
            more than :data:`MAX_XLSX_UNPACKED_BYTES` unpacked, or whose first worksheet has
            more than :data:`MAX_SHEET_ROWS` rows (empty ones included) or a value beyond
            column :data:`MAX_SHEET_COLUMNS`; the message names the limit.
        ``"corrupt_xlsx"``: an ``.xlsx`` that cannot be opened as an Excel workbook.
    ``params`` always contains ``filename`` (the base name of the upload).
    """


# --------------------------------------------------------------------------------------------
# Public helpers

#: Characters that change the direction of the text around them (Unicode bidirectional
#: formatting: marks, embeddings, overrides, isolates). In a name they can make it display as
#: another name ("RLO" turns "Hansen" around), so names, clubs and evening names refuse them.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: The refusal, with ``%(character)s`` the character's code point such as ``202E``.
BIDI_CONTROL_MESSAGE = gettext_noop(
    "The text contains an invisible character that changes the writing direction (U+%(character)s); "
    "it can make a name look like another. Please retype it."
)


def find_bidi_control(text: str) -> str | None:
    """The first bidirectional formatting character (:data:`BIDI_CONTROLS`) in ``text``, else
    None."""
    return next((char for char in text if char in BIDI_CONTROLS), None)


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
        raise _empty_error(display)
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
    if extension == ".xlsx":
        notes: list[Note] = []
        rows = _xlsx_rows(data, display, notes)
        return _build(rows, display, encoding=None, notes=notes)
    text, encoding = _decode(data, display)
    notes = []
    if encoding == "cp1252":
        notes.append(
            Note(
                gettext_noop(
                    "The file was read as older Windows text (Windows-1252). Please check that "
                    "umlauts such as ä, ö, ü and ß look right in the preview."
                ),
                {},
            )
        )
    text, delimiter = _choose_delimiter(text)
    rows = _csv_rows(text, delimiter, display)
    return _build(rows, display, encoding=encoding, notes=notes)


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


def _empty_error(display: str) -> PlayerFileError:
    return PlayerFileError(gettext_noop("%(filename)s is empty."), code="empty", filename=display)


def _binary_error(display: str) -> PlayerFileError:
    return PlayerFileError(
        gettext_noop(
            "%(filename)s does not look like a text (CSV) file. If it is an Excel file, save it "
            "as an Excel workbook (.xlsx) or as CSV and upload that."
        ),
        code="undecodable",
        filename=display,
    )


def _is_control(char: str) -> bool:
    return unicodedata.category(char) == "Cc"


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
    controls = sum(1 for char in text if char not in "\t\n\r" and _is_control(char))
    if controls * 100 > len(text):
        raise _binary_error(display)
    if not text.strip():
        raise _empty_error(display)
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


def _too_many_rows_error(display: str) -> PlayerFileError:
    return PlayerFileError(
        gettext_noop("%(filename)s has more than %(max)s rows. Please upload a list of at most %(max)s players."),
        code="too_large",
        filename=display,
        max=MAX_PLAYER_ROWS,
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
# Reading rows: each reader yields (line, cells) with cells as str (xlsx errors as _ExcelError)


class _ExcelError(str):
    """A cell holding an Excel error value such as ``#REF!``."""


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
            prefix = _non_empty_prefix(enumerate(_csv_reader(text, delimiter), start=1), HEADER_SEARCH_ROWS)
        except csv.Error:
            continue
        layout = None
        for line, cells in prefix:
            layout = _layout_for(line, cells)
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
        return _ExcelError(str(value))
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


# --------------------------------------------------------------------------------------------
# Header recognition and row checks


@dataclass(frozen=True)
class _Layout:
    line: int
    name_col: int | None
    first_col: int | None
    last_col: int | None
    club_col: int | None
    ignored: tuple[str, ...]  # texts of non-empty headers not used
    used: frozenset[int]
    keys: tuple[str, ...]  # header keys of the whole header row
    recognised: int
    named_cells: int


def _header_key(text: str) -> str:
    key = normalise_name(text.replace("_", " ").replace("\ufeff", "")).casefold()
    key = key.rstrip(":*").strip()
    return " ".join(key.split())


def _layout_for(line: int, cells: Sequence[str]) -> _Layout | None:
    """Return the column layout if ``cells`` is a header row with a name column, else None."""
    keys = tuple(_header_key(cell) for cell in cells)
    name_col = first_col = last_col = club_col = None
    for index, key in enumerate(keys):
        if key in NAME_HEADERS and name_col is None:
            name_col = index
        elif key in FIRST_NAME_HEADERS and first_col is None:
            first_col = index
        elif key in LAST_NAME_HEADERS and last_col is None:
            last_col = index
        elif key in CLUB_HEADERS and club_col is None:
            club_col = index
    if name_col is not None:
        first_col = last_col = None  # a full-name column wins; the others are ignored
    elif first_col is None or last_col is None:
        return None
    used = frozenset(c for c in (name_col, first_col, last_col, club_col) if c is not None)
    ignored = tuple(normalise_name(cells[i]) for i, key in enumerate(keys) if key and i not in used)
    return _Layout(
        line=line,
        name_col=name_col,
        first_col=first_col,
        last_col=last_col,
        club_col=club_col,
        ignored=ignored,
        used=used,
        keys=keys,
        recognised=len(used),
        named_cells=sum(1 for key in keys if key),
    )


def _is_empty(cells: Sequence[str]) -> bool:
    return all(not cell.strip() for cell in cells)


def _non_empty_prefix(rows: Iterable[tuple[int, Sequence[str]]], limit: int) -> list[tuple[int, Sequence[str]]]:
    return list(itertools.islice(((line, c) for line, c in rows if not _is_empty(c)), limit))


def _quote_list(texts: Iterable[str], limit: int = 10) -> str:
    items = []
    for text in itertools.islice(texts, limit + 1):
        text = normalise_name(text)
        if len(text) > 40:
            text = text[:37] + "..."
        items.append(f"“{text}”")
    if len(items) > limit:
        items[limit:] = ["..."]
    return ", ".join(items)


def _find_layout(rows: Iterator[tuple[int, tuple[str, ...]]], display: str, notes: list[Note]) -> _Layout:
    """Find the header among the first non-empty rows (``rows`` is read up to it).

    Raises:
        PlayerFileError: an empty file, or no column with the players' names.
    """
    seen: list[tuple[int, tuple[str, ...]]] = []
    layout: _Layout | None = None
    for line, cells in rows:
        if _is_empty(cells):
            continue
        seen.append((line, cells))
        layout = _layout_for(line, cells)
        if layout is not None or len(seen) >= HEADER_SEARCH_ROWS:
            break
    if layout is None:
        if not seen:
            raise _empty_error(display)
        found = [cell for cell in seen[0][1] if cell.strip()]
        raise PlayerFileError(
            gettext_noop(
                "No column with the players' names was found in %(filename)s. The first line "
                "contains: %(found)s. The first line should contain the column headings: "
                "“Name” (or “Spieler”, “Player”) or the two "
                "columns “Vorname” and “Nachname”, and optionally "
                "“Verein” (or “Club”, “Ort”, “Dorf”)."
            ),
            code="no_name_column",
            filename=display,
            found=_quote_list(found),
        )
    if len(seen) > 1:
        notes.append(
            Note(
                gettext_noop("The lines above the column headings in line %(line)s were ignored."),
                {"line": layout.line},
            )
        )
    if layout.ignored:
        notes.append(
            Note(
                gettext_noop("These columns were ignored: %(columns)s."),
                {"columns": _quote_list(layout.ignored)},
            )
        )
    return layout


def _build(
    rows: Iterator[tuple[int, tuple[str, ...]]],
    display: str,
    encoding: str | None,
    notes: list[Note],
) -> ParsedFile:
    layout = _find_layout(rows, display, notes)

    # 2. Check every following row.
    players: list[ParsedPlayer] = []
    problems: list[RowProblem] = []
    first_line_of: dict[str, int] = {}
    data_rows = 0
    unheaded_line: int | None = None
    for line, cells in rows:
        if _is_empty(cells):
            continue
        data_rows += 1
        if data_rows > MAX_PLAYER_ROWS:
            raise _too_many_rows_error(display)
        if unheaded_line is None and any(
            cell.strip()
            for index, cell in enumerate(cells)
            if index not in layout.used and (index >= len(layout.keys) or not layout.keys[index])
        ):
            unheaded_line = line
        player, row_problems = _check_row(line, cells, layout, first_line_of)
        problems.extend(row_problems)
        if player is not None:
            players.append(player)
    if data_rows == 0:
        raise PlayerFileError(
            gettext_noop("%(filename)s contains the column headings but no players below them."),
            code="no_players",
            filename=display,
        )
    if unheaded_line is not None:
        notes.append(
            Note(
                gettext_noop(
                    "Some lines have values in columns without a heading (first in line "
                    "%(line)s); these values were ignored."
                ),
                {"line": unheaded_line},
            )
        )
    problems.sort(key=lambda problem: problem.line)  # stable: a row's problems keep their order
    return ParsedFile(
        players=tuple(players),
        problems=tuple(problems),
        notes=tuple(notes),
        encoding=encoding,
    )


def _cell(cells: Sequence[str], index: int | None) -> str:
    if index is None or index >= len(cells):
        return ""
    return cells[index]


def _problem(line: int, message: str, code: str, **params: object) -> RowProblem:
    return RowProblem(line=line, message=message, params={"line": line, **params}, code=code)


def _check_row(
    line: int, cells: Sequence[str], layout: _Layout, first_line_of: dict[str, int]
) -> tuple[ParsedPlayer | None, list[RowProblem]]:
    used_cells = [_cell(cells, index) for index in sorted(layout.used)]
    errors = [cell for cell in used_cells if isinstance(cell, _ExcelError)]
    if errors:
        return None, [
            _problem(
                line,
                gettext_noop("Line %(line)s: a cell shows the Excel error %(value)s instead of a name or club."),
                "excel_error",
                value=str(errors[0]),
            )
        ]
    if all(_header_key(_cell(cells, index)) == layout.keys[index] for index in layout.used):
        return None, [
            _problem(
                line,
                gettext_noop("Line %(line)s repeats the column headings and was skipped."),
                "repeated_header",
            )
        ]
    if layout.name_col is not None:
        name = normalise_name(_cell(cells, layout.name_col))
    else:
        name = normalise_name(f"{_cell(cells, layout.first_col)} {_cell(cells, layout.last_col)}")
    club = normalise_name(_cell(cells, layout.club_col))

    problems: list[RowProblem] = []
    if not name:
        problems.append(_problem(line, gettext_noop("Line %(line)s: the name is missing."), "missing_name"))
    elif len(name) > MAX_NAME_LENGTH:
        problems.append(
            _problem(
                line,
                gettext_noop(
                    "Line %(line)s: the name is too long (%(length)s characters; at most %(max)s are allowed)."
                ),
                "name_too_long",
                length=len(name),
                max=MAX_NAME_LENGTH,
            )
        )
    if len(club) > MAX_CLUB_LENGTH:
        problems.append(
            _problem(
                line,
                gettext_noop(
                    "Line %(line)s: the club is too long (%(length)s characters; at most %(max)s are allowed)."
                ),
                "club_too_long",
                length=len(club),
                max=MAX_CLUB_LENGTH,
            )
        )
    if any(_is_control(char) for char in name + club):
        problems.append(
            _problem(
                line,
                gettext_noop(
                    "Line %(line)s: the name or club contains invisible control characters. Please retype it."
                ),
                "control_characters",
            )
        )
    bidi = find_bidi_control(name + club)
    if bidi is not None:
        problems.append(
            _problem(
                line,
                gettext_noop(
                    "Line %(line)s: the name or club contains an invisible character that changes "
                    "the writing direction (U+%(character)s); it can make a name look like another. "
                    "Please retype it."
                ),
                "bidi_control",
                character=f"{ord(bidi):04X}",
            )
        )
    if problems:
        return None, problems

    key = match_key(name, club)
    first = first_line_of.get(key)
    if first is not None:
        if club:
            message = gettext_noop("Line %(line)s: %(name)s (%(club)s) is already listed in line %(first_line)s.")
        else:
            message = gettext_noop("Line %(line)s: %(name)s is already listed in line %(first_line)s.")
        return None, [_problem(line, message, "duplicate", name=name, club=club, first_line=first)]
    first_line_of[key] = line
    return ParsedPlayer(line=line, name=name, club=club), []
