"""Reading a player list: the file (xlsx, csv) by ``scoring.transfer.player_files``, the rows checked by
``scoring.domain.player_import`` (pure Python, no Django, no database)."""

from __future__ import annotations

import codecs
import io
import random
import unicodedata
import zipfile

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.domain.errors import DomainError
from scoring.domain.player_import import (
    MAX_PLAYER_ROWS,
    ParsedFile,
    ParsedPlayer,
    PlayerFileError,
    RowProblem,
    match_key,
    normalise_name,
)
from scoring.transfer.player_files import MAX_FILE_BYTES, parse_player_file
from tests.conftest import ROSTER


def roster_text() -> str:
    """The demo roster of the repository (scoring/data), as the organiser's file would be."""
    return ROSTER.read_text(encoding="utf-8")


def roster_rows() -> list[list[str]]:
    return [line.split(",") for line in roster_text().splitlines()]


def xlsx_bytes(rows, *, extra_sheets=()) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Spieler"
    for row in rows:
        sheet.append(list(row))
    for title in extra_sheets:
        workbook.create_sheet(title).append(["irrelevant"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def csv_bytes(text: str, encoding: str = "utf-8") -> bytes:
    return text.encode(encoding)


def names(parsed: ParsedFile) -> list[tuple[int, str, str]]:
    return [(p.line, p.name, p.club) for p in parsed.players]


def codes(parsed: ParsedFile) -> list[tuple[int, str]]:
    return [(p.line, p.code) for p in parsed.problems]


def file_error(data: bytes, filename: str) -> PlayerFileError:
    with pytest.raises(PlayerFileError) as info:
        parse_player_file(data, filename)
    error = info.value
    assert isinstance(error, DomainError)
    assert error.params["filename"]
    str(error)  # the English text renders with its params
    return error


# ---------------------------------------------------------------------------------------------
# The real roster in every accepted form


def test_real_roster_parses_to_26_players_with_umlauts():
    parsed = parse_player_file(roster_text().encode("utf-8"), "players-schwesing.csv")
    assert len(parsed.players) == 26
    assert parsed.problems == ()
    assert parsed.encoding == "utf-8"
    assert parsed.players[0] == ParsedPlayer(line=2, name="Hauke Petersen", club="Schwesing")
    assert parsed.players[1] == ParsedPlayer(line=3, name="Gönke Hansen", club="Schwesing")
    assert ParsedPlayer(line=16, name="Hans-Peter Jürgensen", club="Treia") in parsed.players
    assert ParsedPlayer(line=22, name="Göntje Ingwersen", club="Ahrenviöl") in parsed.players
    assert parsed.players[-1] == ParsedPlayer(line=27, name="Tom Whitfield", club="England")
    assert all(unicodedata.is_normalized("NFC", p.name) for p in parsed.players)
    assert parsed.notes == ()


@pytest.fixture(scope="module")
def reference_players():
    return parse_player_file(roster_text().encode("utf-8"), "players.csv").players


def test_utf8_with_bom_gives_same_players(reference_players):
    data = codecs.BOM_UTF8 + roster_text().encode("utf-8")
    parsed = parse_player_file(data, "players.csv")
    assert parsed.players == reference_players
    assert parsed.encoding == "utf-8-sig"


def test_cp1252_with_semicolons_and_crlf_gives_same_players(reference_players):
    text = roster_text().replace(",", ";").replace("\n", "\r\n")
    parsed = parse_player_file(text.encode("cp1252"), "Spieler.CSV")
    assert parsed.players == reference_players
    assert parsed.problems == ()
    assert parsed.encoding == "cp1252"
    assert len(parsed.notes) == 1  # "read as Windows-1252, check the umlauts"


def test_xlsx_gives_same_players(reference_players):
    parsed = parse_player_file(xlsx_bytes(roster_rows()), "players.xlsx")
    assert parsed.players == reference_players
    assert parsed.problems == ()
    assert parsed.encoding is None


def test_txt_with_tabs_gives_same_players(reference_players):
    text = roster_text().replace(",", "\t")
    assert parse_player_file(text.encode("utf-8"), "players.txt").players == reference_players


def test_excel_sep_hint_line_is_honoured_and_hidden(reference_players):
    text = "sep=;\n" + roster_text().replace(",", ";")
    assert parse_player_file(text.encode("utf-8"), "players.csv").players == reference_players


def test_decomposed_umlauts_are_composed():
    text = "Name\n" + unicodedata.normalize("NFD", "Gönke Hansen") + "\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert parsed.players[0].name == "Gönke Hansen"


# ---------------------------------------------------------------------------------------------
# Headers


def test_first_and_last_name_columns_are_joined():
    text = "Vorname;Nachname;Verein\nGönke;Hansen;Schwesing\nTom;;England\n;Clausen;Treia\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [
        (2, "Gönke Hansen", "Schwesing"),
        (3, "Tom", "England"),
        (4, "Clausen", "Treia"),
    ]


def test_english_first_last_headers_in_xlsx():
    rows = [["Surname", "First Name", "Village"], ["Hansen", "Gönke", "Schwesing"]]
    parsed = parse_player_file(xlsx_bytes(rows), "x.xlsx")
    assert names(parsed) == [(2, "Gönke Hansen", "Schwesing")]


@pytest.mark.parametrize(
    "name_header, club_header",
    [
        ("Spieler", "Verein"),
        ("SPIELERIN", "Ort"),
        ("  Vollständiger   Name ", "Dorf"),
        ("Player", "Club"),
        ("name", "village"),
        ("Name:", "Verein:"),
    ],
)
def test_german_and_english_headers_case_and_space_insensitive(name_header, club_header):
    text = f"{name_header};{club_header}\nGönke Hansen;Schwesing\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [(2, "Gönke Hansen", "Schwesing")]


def test_club_column_is_optional_and_club_may_be_empty():
    parsed = parse_player_file("Name\nGönke Hansen\nHansen, Gönke\n".encode(), "x.csv")
    assert names(parsed) == [(2, "Gönke Hansen", ""), (3, "Hansen, Gönke", "")]
    parsed = parse_player_file("Name;Verein\nGönke Hansen;\n".encode(), "x.csv")
    assert names(parsed) == [(2, "Gönke Hansen", "")]


def test_unknown_columns_are_ignored_with_one_note():
    text = "Nr;Name;Telefon;Verein;E-Mail\n1;Gönke Hansen;0481 123;Schwesing;g@x.de\n2;Tom;;;\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [(2, "Gönke Hansen", "Schwesing"), (3, "Tom", "")]
    ignored = [note for note in parsed.notes if "ignored" in note.message]
    assert len(ignored) == 1
    message, params = ignored[0]
    assert message == "These columns were ignored: %(columns)s."
    assert "Telefon" in params["columns"] and "E-Mail" in params["columns"]
    assert "Nr" in str(ignored[0])


def test_title_lines_above_the_header_are_skipped_with_a_note():
    rows = [
        ["Bruus-Turnier Schwesing 2025"],
        [],
        ["Name", "Verein"],
        ["Gönke Hansen", "Schwesing"],
    ]
    parsed = parse_player_file(xlsx_bytes(rows), "x.xlsx")
    assert names(parsed) == [(4, "Gönke Hansen", "Schwesing")]
    assert any(note.params.get("line") == 3 for note in parsed.notes)


def test_only_the_first_worksheet_is_read_with_a_note():
    data = xlsx_bytes([["Name"], ["Gönke Hansen"]], extra_sheets=["Ergebnisse"])
    parsed = parse_player_file(data, "x.xlsx")
    assert names(parsed) == [(2, "Gönke Hansen", "")]
    assert any(note.params.get("sheet") == "Spieler" for note in parsed.notes)


# ---------------------------------------------------------------------------------------------
# Rows


def test_empty_rows_are_skipped_silently_and_lines_keep_counting():
    text = "Name,Verein\n\nGönke Hansen,Schwesing\n,\n  ,  \n\nTom Whitfield,England\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [(3, "Gönke Hansen", "Schwesing"), (7, "Tom Whitfield", "England")]
    assert parsed.problems == ()


def test_empty_rows_in_xlsx_keep_spreadsheet_line_numbers():
    rows = [["Name", "Verein"], ["Gönke Hansen", "Schwesing"], [], [None, None], ["Tom", "GB"]]
    parsed = parse_player_file(xlsx_bytes(rows), "x.xlsx")
    assert names(parsed) == [(2, "Gönke Hansen", "Schwesing"), (5, "Tom", "GB")]


def test_duplicates_point_at_the_first_line():
    text = (
        "Name;Verein\n"
        "Gönke Hansen;Schwesing\n"
        "Tom Whitfield;England\n"
        "gönke  HANSEN ; schwesing\n"
        "Gönke Hansen;Treia\n"
        "Tom Whitfield;England\n"
    )
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [
        (2, "Gönke Hansen", "Schwesing"),
        (3, "Tom Whitfield", "England"),
        (5, "Gönke Hansen", "Treia"),  # same name, other club: another person
    ]
    assert codes(parsed) == [(4, "duplicate"), (6, "duplicate")]
    first = parsed.problems[0]
    assert first.params["line"] == 4 and first.params["first_line"] == 2
    assert str(first) == "Line 4: gönke HANSEN (schwesing) is already listed in line 2."


def test_duplicate_without_club_message():
    parsed = parse_player_file(b"Name\nTom\nTom\n", "x.csv")
    assert str(parsed.problems[0]) == "Line 3: Tom is already listed in line 2."


def test_missing_name_is_reported_with_the_right_line():
    text = "Name,Verein\nGönke Hansen,Schwesing\n\n,Treia\nTom,England\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [(2, "Gönke Hansen", "Schwesing"), (5, "Tom", "England")]
    assert parsed.problems == (
        RowProblem(
            line=4,
            message="Line %(line)s: the name is missing.",
            params={"line": 4},
            code="missing_name",
        ),
    )
    assert str(parsed.problems[0]) == "Line 4: the name is missing."


def test_too_long_name_and_club():
    long_name = "A" * 101
    text = f"Name;Verein\n{'B' * 100};{'C' * 100}\n{long_name};Treia\nTom;{'D' * 101}\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [(2, "B" * 100, "C" * 100)]
    assert codes(parsed) == [(3, "name_too_long"), (4, "club_too_long")]
    assert parsed.problems[0].params["length"] == 101


def test_a_row_can_have_several_problems():
    text = f"Name;Verein\n{'A' * 101};{'C' * 101}\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert codes(parsed) == [(2, "name_too_long"), (2, "club_too_long")]


def test_whitespace_is_normalised():
    text = 'Name;Verein\n"  Gönke \t Hansen\n  ";\u00a0Schwesing \n'
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [(2, "Gönke Hansen", "Schwesing")]


def test_markup_and_quotes_are_kept_literally():
    name = '<b>Jan</b> "Hinnerk" O\'Neill'
    # once written as Excel does (quoted, quotes doubled), once raw
    quoted = '"' + name.replace('"', '""') + '"'
    text = f'Name,Verein\n{quoted},<script>alert(1)</script>\n{name};x\n=1+1,=HYPERLINK("x")\n'
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert parsed.players[0] == ParsedPlayer(2, name, "<script>alert(1)</script>")
    # row 3 has no comma: the whole raw line is the name
    assert parsed.players[1] == ParsedPlayer(3, name + ";x", "")
    assert parsed.players[2] == ParsedPlayer(4, "=1+1", '=HYPERLINK("x")')


def test_xlsx_formulas_are_not_evaluated_and_markup_kept():
    name = '<b>Jan</b> "Hinnerk" O\'Neill'
    rows = [["Name", "Verein"], [name, "Schwesing"], ['=CONCAT("a","b")', "Treia"]]
    parsed = parse_player_file(xlsx_bytes(rows), "x.xlsx")
    assert parsed.players[0] == ParsedPlayer(2, name, "Schwesing")
    # A formula never calculated by Excel has no stored value: nothing is evaluated.
    assert codes(parsed) == [(3, "missing_name")]


def test_xlsx_numbers_become_text():
    rows = [["Name", "Ort"], [4711, 25884], ["Tom", 2.5]]
    parsed = parse_player_file(xlsx_bytes(rows), "x.xlsx")
    assert names(parsed) == [(2, "4711", "25884"), (3, "Tom", "2.5")]


def test_repeated_header_row_is_skipped_as_a_problem():
    text = "Name;Verein\nTom;England\nName;Verein\nGönke Hansen;Schwesing\n"
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [(2, "Tom", "England"), (4, "Gönke Hansen", "Schwesing")]
    assert codes(parsed) == [(3, "repeated_header")]


def test_multiline_quoted_cell_counts_as_one_spreadsheet_line():
    text = 'Name,Verein\n"Gönke\nHansen",Schwesing\nTom,England\n'
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert names(parsed) == [(2, "Gönke Hansen", "Schwesing"), (3, "Tom", "England")]


def test_stray_control_character_is_a_row_problem():
    text = "Name,Verein\nGönke Hansen,Schwesing\nTom\x07,England\n" + "Uwe,Treia\n" * 20
    parsed = parse_player_file(text.encode("utf-8"), "x.csv")
    assert (3, "control_characters") in codes(parsed)


def test_values_in_columns_without_heading_are_noted():
    parsed = parse_player_file(b"Name;Verein\nTom;England;extra\n", "x.csv")
    assert names(parsed) == [(2, "Tom", "England")]
    assert any(note.params.get("line") == 2 for note in parsed.notes)


# ---------------------------------------------------------------------------------------------
# File-level errors


@pytest.mark.parametrize("filename", ["leer.csv", "leer.txt", "leer.xlsx"])
def test_empty_file(filename):
    assert file_error(b"", filename).code == "empty"


@pytest.mark.parametrize("data", [b"  \r\n\r\n", codecs.BOM_UTF8 + b"\n", b";;;\n;;\n"])
def test_blank_file_is_empty(data):
    assert file_error(data, "x.csv").code == "empty"


def test_blank_xlsx_is_empty():
    assert file_error(xlsx_bytes([]), "x.xlsx").code == "empty"


def test_header_without_players():
    assert file_error(b"Name;Verein\n;\n", "x.csv").code == "no_players"


@pytest.mark.parametrize("filename", ["spieler.xls", "spieler.ods", "spieler.pdf", "spieler", "csv", "C:\\x\\a.docx"])
def test_unsupported_type_names_the_accepted_types(filename):
    error = file_error(b"Name\nTom\n", filename)
    assert error.code == "unsupported_type"
    assert ".xlsx" in str(error) and ".csv" in str(error)
    assert "\\" not in error.params["filename"]


def test_undecodable_bytes():
    # 0x81 is undefined in Windows-1252 and invalid UTF-8 on its own.
    assert file_error(b"Name\nG\x81nke\n", "x.csv").code == "undecodable"


def test_utf16_is_refused_with_a_hint():
    error = file_error("Name\tVerein\nTom\tEngland\n".encode("utf-16"), "x.txt")
    assert error.code == "undecodable"
    assert "UTF-8" in str(error)


def test_binary_blob_is_refused():
    blob = random.Random(4711).randbytes(4096)
    assert file_error(blob, "spieler.csv").code == "undecodable"
    assert file_error(blob, "spieler.xlsx").code == "corrupt_xlsx"


def test_binary_without_nul_bytes_is_refused():
    undecodable = {0, 0x81, 0x8D, 0x8F, 0x90, 0x9D}  # NUL and bytes undefined in cp1252
    blob = bytes(b for b in random.Random(1).randbytes(4096) if b not in undecodable)
    assert file_error(blob, "spieler.csv").code == "undecodable"


def test_xlsx_renamed_to_csv_is_refused():
    assert file_error(xlsx_bytes([["Name"], ["Tom"]]), "x.csv").code == "undecodable"


def test_no_name_column_lists_found_and_expected_headers():
    error = file_error("Hauke Petersen,Schwesing\nGönke Hansen,Schwesing\n".encode(), "x.csv")
    assert error.code == "no_name_column"
    assert "Hauke Petersen" in error.params["found"] and "Schwesing" in error.params["found"]
    assert "Name" in error.message and "First name" in error.message


@pytest.mark.parametrize(
    "header",
    [
        "Navn;Klub",
        "Fornavn;Efternavn;Klub",
        "Fornavn;Efternavn;By",
        "Namn;Klubb",
        "Förnamn;Efternamn;Klubb",
        "Namn;Ort",
        "Spelare;Förening",
        "Spiller;Forening",
        "First name;Last name;Town",
        "Vorname;Nachname;Verein",
        "NAVN:;KLUB*",
    ],
)
def test_headers_in_danish_swedish_english_and_german_import(header):
    parts = header.split(";")
    row = ["Jens", "Hansen", "Bjolderup"] if len(parts) == 3 else ["Jens Hansen", "Bjolderup"]
    parsed = parse_player_file(f"{header}\n{';'.join(row)}\n".encode(), "liste.csv")
    assert [(p.name, p.club) for p in parsed.players] == [("Jens Hansen", "Bjolderup")], header


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("da", ["»Navn«", "»Fornavn« og »Efternavn«", "»Klub«"]),
        ("sv", ["»Namn«", "»Förnamn« och »Efternamn«", "»Klubb«"]),
        ("de", ["„Name“", "„Vorname“ und „Nachname“", "„Verein“"]),
        ("en", ["“Name”", "“First name” and “Last name”", "“Club”"]),
    ],
)
def test_the_missing_name_column_is_explained_with_the_headings_of_the_ui_language(language, expected):
    from django.utils import translation

    from scoring.web.messages import translate

    error = file_error(b"X;Y\n1;2\n", "x.csv")
    with translation.override(language):
        text = translate(error)
    assert all(part in text for part in expected), text


def test_only_first_name_column_is_not_enough():
    assert file_error(b"Vorname;Verein\nTom;England\n", "x.csv").code == "no_name_column"


def test_too_large_in_bytes():
    data = b"Name\n" + b"x" * MAX_FILE_BYTES
    assert file_error(data, "x.csv").code == "too_large"


def test_too_many_rows():
    text = "Name\n" + "".join(f"Spieler {i}\n" for i in range(MAX_PLAYER_ROWS + 1))
    assert file_error(text.encode(), "x.csv").code == "too_large"
    text = "Name\n" + "".join(f"Spieler {i}\n" for i in range(MAX_PLAYER_ROWS))
    assert len(parse_player_file(text.encode(), "x.csv").players) == MAX_PLAYER_ROWS


@pytest.mark.parametrize(
    "data",
    [
        b"PK\x03\x04 not really a zip",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600,  # old .xls / password-protected
        b"hello",
    ],
)
def test_corrupt_xlsx(data):
    assert file_error(data, "x.xlsx").code == "corrupt_xlsx"


def test_zip_that_is_not_a_workbook_is_corrupt_xlsx():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "hi")
    assert file_error(buffer.getvalue(), "x.xlsx").code == "corrupt_xlsx"


def test_truncated_xlsx_is_corrupt():
    data = xlsx_bytes(roster_rows())
    assert file_error(data[: len(data) // 2], "x.xlsx").code == "corrupt_xlsx"


# ---------------------------------------------------------------------------------------------
# Helpers


def test_normalise_name():
    assert normalise_name("  Gönke \t\n Hansen\u00a0 ") == "Gönke Hansen"
    assert normalise_name(unicodedata.normalize("NFD", "Jürgen")) == "Jürgen"
    assert normalise_name("<i>O'Neill</i>") == "<i>O'Neill</i>"
    assert normalise_name("") == ""
    with pytest.raises(TypeError):
        normalise_name(None)  # type: ignore[arg-type]


def test_match_key():
    assert match_key(" Gönke  Hansen", "Schwesing") == "gönke hansen|schwesing"
    assert match_key("GÖNKE HANSEN", "schwesing") == match_key("Gönke Hansen", "Schwesing")
    assert match_key(unicodedata.normalize("NFD", "Gönke"), "") == match_key("Gönke", "")
    assert match_key("Tom", "") == "tom|"
    assert match_key("a|b", "c") != match_key("a", "b|c")


# ---------------------------------------------------------------------------------------------
# Robustness: whatever arrives, only PlayerFileError comes out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=2000), filename=st.sampled_from(["a.csv", "a.txt", "a.xlsx"]))
def test_arbitrary_bytes_raise_only_player_file_error(data, filename):
    try:
        parsed = parse_player_file(data, filename)
    except PlayerFileError as error:
        str(error)
    else:
        assert isinstance(parsed, ParsedFile)


@settings(max_examples=300, deadline=None)
@given(
    body=st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=300),
    header=st.sampled_from(["Name;Verein\n", "name,club\n", "Vorname\tNachname\n", ""]),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1252"]),
)
def test_arbitrary_text_raises_only_player_file_error(body, header, encoding):
    try:
        data = (header + body).encode(encoding)
    except UnicodeEncodeError:
        data = (header + body).encode("utf-8")
    try:
        parsed = parse_player_file(data, "a.csv")
    except PlayerFileError:
        return
    for player in parsed.players:
        assert player.name and len(player.name) <= 100 and len(player.club) <= 100
        assert normalise_name(player.name) == player.name
    lines = [p.line for p in parsed.problems]
    assert lines == sorted(lines)


def test_bidi_controls_are_refused_in_an_imported_list():
    from scoring.transfer.player_files import parse_player_file

    parsed = parse_player_file("Name;Verein\nGönke Hansen;Husum\nBoy\u202eJensen;Husum\n".encode(), "x.csv")
    assert [p.name for p in parsed.players] == ["Gönke Hansen"]
    assert [(p.line, p.code) for p in parsed.problems] == [(3, "bidi_control")]
    assert "U+202E" in str(parsed.problems[0])


def test_invisible_characters_are_refused_in_an_imported_list():
    from scoring.transfer.player_files import parse_player_file

    text = "Name;Verein\nGönke Hansen;Husum\nBoy\u200bJensen;Husum\nSönke Pe\u00adtersen;Husum\n"
    parsed = parse_player_file(text.encode(), "x.csv")
    assert [p.name for p in parsed.players] == ["Gönke Hansen"]
    assert [(p.line, p.code) for p in parsed.problems] == [(3, "invisible_character"), (4, "invisible_character")]
    assert "U+200B" in str(parsed.problems[0]) and "U+00AD" in str(parsed.problems[1])
