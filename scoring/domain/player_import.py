"""The rules of an organiser's player list: which row is the header, what makes a row a player
(name and club) and why a row is refused; the outcome types of an import.

The file itself (bytes, encodings, CSV separators, openpyxl) is read by
:func:`scoring.transfer.player_files.parse_player_file`, which hands the rows of cells to
:func:`players_from_rows`. The Django layer shows the organiser a preview (the good rows, the
problems by line, the notes) and saves only after confirmation. This module reads no file, saves
nothing and imports nothing from Django.

The file needs a header row. It is normally line 1; up to :data:`HEADER_SEARCH_ROWS` non-empty
lines above it (a title such as "Anmeldungen 2025") are skipped with a note. Headers are matched
case- and whitespace-insensitively, in German, English, Danish or Swedish (see :data:`NAME_HEADERS`,
:data:`FIRST_NAME_HEADERS`, :data:`LAST_NAME_HEADERS`, :data:`CLUB_HEADERS`).

Names are text and nothing else: markup, quotes and a leading ``=`` are stored literally; nothing
is evaluated or interpreted. Escaping for HTML, PDF or CSV output is the job of whoever writes them.

Messages are English msgids marked with :func:`gettext_noop`; the Django layer translates them
with ``gettext(message) % params``.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.names import find_bidi_control, find_invisible_character, match_key, normalise_name

__all__ = [
    "CLUB_HEADERS",
    "FIRST_NAME_HEADERS",
    "HEADER_SEARCH_ROWS",
    "LAST_NAME_HEADERS",
    "MAX_CLUB_LENGTH",
    "MAX_NAME_LENGTH",
    "MAX_PLAYER_ROWS",
    "NAME_HEADERS",
    "ExcelError",
    "Layout",
    "Note",
    "ParsedFile",
    "ParsedPlayer",
    "PlayerFileError",
    "RowProblem",
    "empty_file_error",
    "is_control",
    "layout_for",
    "match_key",
    "non_empty_prefix",
    "normalise_name",
    "players_from_rows",
]

#: Most non-empty rows below the header that a file may have.
MAX_PLAYER_ROWS = 5000
#: Longest name and club, in characters (Unicode code points after normalisation).
MAX_NAME_LENGTH = 100
MAX_CLUB_LENGTH = 100
#: How many non-empty rows from the top are searched for the header row.
HEADER_SEARCH_ROWS = 10

#: Recognised headers, compared after :func:`_header_key` (casefolded, whitespace collapsed,
#: "_" read as a space, a trailing ":" or "*" dropped).
NAME_HEADERS = frozenset(
    {
        # German
        "name",
        "spieler",
        "spielerin",
        "vollständiger name",
        "spielername",
        "spieler/in",
        "spieler:in",
        "spieler*in",
        "vor- und nachname",
        "teilnehmer",
        # English
        "player",
        "full name",
        "player name",
        "participant",
        # Danish
        "navn",
        "spiller",
        "spillere",
        "fulde navn",
        "fuldt navn",
        "spillernavn",
        "deltager",
        # Swedish
        "namn",
        "spelare",
        "fullständigt namn",
        "spelarnamn",
        "deltagare",
    }
)
FIRST_NAME_HEADERS = frozenset(
    {"vorname", "first name", "firstname", "given name", "forename", "fornavn", "förnamn", "fornamn"}
)
LAST_NAME_HEADERS = frozenset(
    {
        "nachname",
        "familienname",
        "last name",
        "lastname",
        "surname",
        "family name",
        "efternavn",
        "slægtsnavn",
        "efternamn",
        "släktnamn",
    }
)
CLUB_HEADERS = frozenset(
    {
        # German
        "verein",
        "ort",
        "dorf",
        "wohnort",
        "gemeinde",
        # English
        "club",
        "village",
        "town",
        "home town",
        "hometown",
        # Danish
        "klub",
        "forening",
        "by",
        "landsby",
        "bopæl",
        "hjemby",
        "sogn",
        # Swedish
        "klubb",
        "förening",
        "hemort",
        "stad",
        "socken",
    }
)

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
    """The outcome of :func:`players_from_rows` (and :func:`scoring.transfer.player_files.parse_player_file`).

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
        ``"too_large"``: more than :data:`scoring.transfer.player_files.MAX_FILE_BYTES` bytes, more than
            :data:`MAX_PLAYER_ROWS` non-empty rows below the header, or an ``.xlsx`` declaring
            more than :data:`scoring.transfer.player_files.MAX_XLSX_UNPACKED_BYTES` unpacked, or whose
            first worksheet has more than :data:`scoring.transfer.player_files.MAX_SHEET_ROWS` rows (empty
            ones included) or a value beyond column :data:`scoring.transfer.player_files.MAX_SHEET_COLUMNS`;
            the message names the limit.
        ``"corrupt_xlsx"``: an ``.xlsx`` that cannot be opened as an Excel workbook.
    ``params`` always contains ``filename`` (the base name of the upload).
    """


# --------------------------------------------------------------------------------------------
# Public helpers

# --------------------------------------------------------------------------------------------
# Shared with the file readers (scoring.transfer.player_files)


class ExcelError(str):
    """A cell holding an Excel error value such as ``#REF!`` (the .xlsx reader yields it)."""


def empty_file_error(display: str) -> PlayerFileError:
    """The refusal of a file without a single non-empty cell."""
    return PlayerFileError(gettext_noop("%(filename)s is empty."), code="empty", filename=display)


def is_control(char: str) -> bool:
    """A control character (Unicode category Cc)."""
    return unicodedata.category(char) == "Cc"


def _too_many_rows_error(display: str) -> PlayerFileError:
    return PlayerFileError(
        gettext_noop("%(filename)s has more than %(max)s rows. Please upload a list of at most %(max)s players."),
        code="too_large",
        filename=display,
        max=MAX_PLAYER_ROWS,
    )


# --------------------------------------------------------------------------------------------
# Header recognition and row checks


@dataclass(frozen=True)
class Layout:
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


def layout_for(line: int, cells: Sequence[str]) -> Layout | None:
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
    return Layout(
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


def non_empty_prefix(rows: Iterable[tuple[int, Sequence[str]]], limit: int) -> list[tuple[int, Sequence[str]]]:
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


def _find_layout(rows: Iterator[tuple[int, tuple[str, ...]]], display: str, notes: list[Note]) -> Layout:
    """Find the header among the first non-empty rows (``rows`` is read up to it).

    Raises:
        PlayerFileError: an empty file, or no column with the players' names.
    """
    seen: list[tuple[int, tuple[str, ...]]] = []
    layout: Layout | None = None
    for line, cells in rows:
        if _is_empty(cells):
            continue
        seen.append((line, cells))
        layout = layout_for(line, cells)
        if layout is not None or len(seen) >= HEADER_SEARCH_ROWS:
            break
    if layout is None:
        if not seen:
            raise empty_file_error(display)
        found = [cell for cell in seen[0][1] if cell.strip()]
        raise PlayerFileError(
            gettext_noop(
                "No column with the players' names was found in %(filename)s. The first line "
                "contains: %(found)s. The first line should contain the column headings “Name” "
                "(or “Player”) or the two columns “First name” and “Last name”, and optionally "
                "“Club” (or “Town”). Headings in German, English, Danish and Swedish are understood."
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


def players_from_rows(
    rows: Iterator[tuple[int, tuple[str, ...]]],
    display: str,
    encoding: str | None,
    notes: list[Note],
) -> ParsedFile:
    """Check a list's rows: find the header, then take every following non-empty row as a player
    or list its problems.

    Args:
        rows: (line as the organiser sees it, cells as text; :class:`ExcelError` for an Excel
            error value), in file order, empty rows included.
        display: the file's name as shown in messages.
        encoding: the text encoding the reader used (None for ``.xlsx``), kept in the outcome.
        notes: remarks the reader made so far; the header search adds its own.

    Raises:
        PlayerFileError: no header with a name column, no players below it, or more than
            :data:`MAX_PLAYER_ROWS` rows.
    """
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
        if unheaded_line is None and _has_unheaded_value(cells, layout):
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
        notes.append(_unheaded_note(unheaded_line))
    problems.sort(key=lambda problem: problem.line)  # stable: a row's problems keep their order
    return ParsedFile(
        players=tuple(players),
        problems=tuple(problems),
        notes=tuple(notes),
        encoding=encoding,
    )


def _has_unheaded_value(cells: Sequence[str], layout: Layout) -> bool:
    """Whether a row has a value in a column without a heading (one the layout does not use)."""
    return any(
        cell.strip()
        for index, cell in enumerate(cells)
        if index not in layout.used and (index >= len(layout.keys) or not layout.keys[index])
    )


def _unheaded_note(line: int) -> Note:
    """The note that values in columns without a heading, first in ``line``, were ignored."""
    return Note(
        gettext_noop(
            "Some lines have values in columns without a heading (first in line %(line)s); these values were ignored."
        ),
        {"line": line},
    )


def _cell(cells: Sequence[str], index: int | None) -> str:
    if index is None or index >= len(cells):
        return ""
    return cells[index]


def _problem(line: int, message: str, code: str, **params: object) -> RowProblem:
    return RowProblem(line=line, message=message, params={"line": line, **params}, code=code)


def _invisible_problems(line: int, text: str) -> list[RowProblem]:
    """What is wrong with a row's name and club (``text``) that nobody sees: control characters,
    a character that changes the writing direction, or another invisible character (a zero-width
    space, a soft hyphen, ...: :func:`scoring.domain.names.is_invisible`)."""
    problems = []
    if any(is_control(char) for char in text):
        problems.append(
            _problem(
                line,
                gettext_noop(
                    "Line %(line)s: the name or club contains invisible control characters. Please retype it."
                ),
                "control_characters",
            )
        )
    bidi = find_bidi_control(text)
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
    invisible = find_invisible_character(text)
    if bidi is None and invisible is not None and not is_control(invisible):
        problems.append(
            _problem(
                line,
                gettext_noop(
                    "Line %(line)s: the name or club contains an invisible character (U+%(character)s), "
                    "such as a zero-width space or a soft hyphen; it can make a name look like another. "
                    "Please retype it."
                ),
                "invisible_character",
                character=f"{ord(invisible):04X}",
            )
        )
    return problems


def _skipped(line: int, cells: Sequence[str], layout: Layout) -> RowProblem | None:
    """Why a row is skipped before its name is read: an Excel error value, a repeated heading."""
    errors = [cell for cell in (_cell(cells, index) for index in sorted(layout.used)) if isinstance(cell, ExcelError)]
    if errors:
        message = gettext_noop("Line %(line)s: a cell shows the Excel error %(value)s instead of a name or club.")
        return _problem(line, message, "excel_error", value=str(errors[0]))
    if all(_header_key(_cell(cells, index)) == layout.keys[index] for index in layout.used):
        return _problem(
            line, gettext_noop("Line %(line)s repeats the column headings and was skipped."), "repeated_header"
        )
    return None


def _length_problems(line: int, name: str, club: str) -> list[RowProblem]:
    """A missing name, a name or club too long."""
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
    return problems


def _check_row(
    line: int, cells: Sequence[str], layout: Layout, first_line_of: dict[str, int]
) -> tuple[ParsedPlayer | None, list[RowProblem]]:
    skipped = _skipped(line, cells, layout)
    if skipped is not None:
        return None, [skipped]
    if layout.name_col is not None:
        name = normalise_name(_cell(cells, layout.name_col))
    else:
        name = normalise_name(f"{_cell(cells, layout.first_col)} {_cell(cells, layout.last_col)}")
    club = normalise_name(_cell(cells, layout.club_col))
    problems = _length_problems(line, name, club)
    problems += _invisible_problems(line, name + club)
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
