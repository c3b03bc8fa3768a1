"""A spreadsheet import is bounded in time and memory: an .xlsx is refused from its unpacked size
before parsing, and its rows and columns are counted while reading, so a small file that unpacks
to tens of megabytes of empty rows is refused at once, with the limit named. What bounds the time
is checked as work done (the workbook never opened, the rows the parser reads), not as seconds:
a busy machine cannot make these tests fail."""

from __future__ import annotations

import io
import zipfile

import openpyxl
import pytest
from openpyxl.worksheet._reader import WorkSheetParser

from scoring.domain.player_import import PlayerFileError
from scoring.transfer.player_files import MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, MAX_XLSX_UNPACKED_BYTES, parse_player_file

SHEET = "xl/worksheets/sheet1.xml"


def _cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def workbook_with_sheet(rows_xml) -> bytes:
    """A real workbook (made by openpyxl) whose first worksheet is replaced by ``rows_xml``
    (an iterable of ``<row>`` elements), written straight into the archive."""
    buffer = io.BytesIO()
    openpyxl.Workbook().save(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename != SHEET:
                target.writestr(info, source.read(info))
                continue
            with target.open(SHEET, "w") as sheet:
                sheet.write(
                    b'<?xml version="1.0" encoding="UTF-8"?><worksheet '
                    b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
                )
                for row in rows_xml:
                    sheet.write(row.encode())
                sheet.write(b"</sheetData></worksheet>")
    return out.getvalue()


def players(count: int = 3):
    yield f'<row r="1">{_cell("A1", "Name")}{_cell("B1", "Verein")}</row>'
    for n in range(2, count + 2):
        yield f'<row r="{n}">{_cell(f"A{n}", f"Spieler {n}")}{_cell(f"B{n}", "Husum")}</row>'


def refused(data: bytes) -> PlayerFileError:
    with pytest.raises(PlayerFileError) as error:
        parse_player_file(data, "liste.xlsx")
    return error.value


@pytest.fixture
def rows_read(monkeypatch) -> list[int]:
    """The numbers of the rows the worksheet parser hands to the import, in order (openpyxl 3.1's
    ``WorkSheetParser.parse``, which the import reads one stored row at a time)."""
    seen: list[int] = []
    parse = WorkSheetParser.parse

    def counted(self):
        for line, cells in parse(self):
            seen.append(line)
            yield line, cells

    monkeypatch.setattr(WorkSheetParser, "parse", counted)
    return seen


def test_a_small_file_unpacking_to_tens_of_megabytes_of_empty_rows_is_refused_at_once(monkeypatch):
    # Rows without numbers (Excel may leave them out): 45 MB that compress to very little.
    empty_rows = ('<row spans="1:2" ht="15" customHeight="1"><c s="0"/><c s="0"/></row>' for _ in range(700_000))
    data = workbook_with_sheet([*players(), *empty_rows])
    assert len(data) < 2 * 1024 * 1024  # passes the upload limit

    def never(*args, **kwargs):
        raise AssertionError("the workbook was opened: refused only after parsing")

    monkeypatch.setattr(openpyxl, "load_workbook", never)  # "at once": from the archive's directory
    error = refused(data)
    assert error.code == "too_large"
    assert "once unpacked" in str(error) and f"at most {MAX_XLSX_UNPACKED_BYTES // 2**20} MB" in str(error)


def test_more_rows_than_the_limit_are_refused_while_reading(rows_read):
    empty_rows = (f'<row r="{n}"><c r="A{n}" s="0"/></row>' for n in range(5, MAX_SHEET_ROWS + 100))
    data = workbook_with_sheet([*players(), *empty_rows])
    error = refused(data)
    assert error.code == "too_large" and f"more than {MAX_SHEET_ROWS} rows" in str(error)
    assert len(rows_read) == MAX_SHEET_ROWS + 1  # stopped at the first row beyond the limit


def test_one_cell_in_the_last_row_of_excel_is_refused_without_walking_a_million_rows(rows_read):
    data = workbook_with_sheet([*players(), f'<row r="1048576">{_cell("A1048576", "x")}</row>'])
    error = refused(data)
    assert f"more than {MAX_SHEET_ROWS} rows" in str(error)
    assert rows_read == [1, 2, 3, 4, 1048576]  # the stored rows only, none made up in between


def test_a_value_beyond_the_column_limit_is_refused_naming_the_line():
    far = openpyxl.utils.get_column_letter(MAX_SHEET_COLUMNS + 5)
    data = workbook_with_sheet([*players(), f'<row r="9">{_cell("A9", "Gönke")}{_cell(f"{far}9", "x")}</row>'])
    error = refused(data)
    assert f"more than {MAX_SHEET_COLUMNS} columns (line 9)" in str(error)


def test_formatted_empty_cells_far_right_and_empty_rows_below_the_limit_are_fine():
    last = openpyxl.utils.get_column_letter(16384)
    rows = [
        *players(5),
        f'<row r="7"><c r="{last}7" s="0"/></row>',
        *(f'<row r="{n}"><c r="A{n}" s="0"/></row>' for n in range(8, MAX_SHEET_ROWS)),
    ]
    parsed = parse_player_file(workbook_with_sheet(rows), "liste.xlsx")
    assert [p.name for p in parsed.players] == [f"Spieler {n}" for n in range(2, 7)]
    assert not parsed.problems
