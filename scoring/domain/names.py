"""People's names: the one German alphabetical order, names told apart within an evening, the
stored form and match key that recognise one player across files and evenings, and the
characters a name must not contain (invisible ones, among them those that change the writing
direction).

Order (source: DIN 5007-1, "Ordnen von Schriftzeichenfolgen", variant 1, the order of German
dictionaries and most club lists): ä is sorted as a, ö as o, ü as u, ß as ss, capitals like small
letters; by surname, then first name, then club. A name is stored as one text ("Sönke
Petersen"): its surname is the last word, or the part before a comma ("Petersen, Sönke").
Particles stay with the first name, so "Jan de Vries" is found under V (as German and Dutch lists
do).

Why no collation library: ICU (PyICU) implements exactly this order as its German default, but
PyICU has no wheels on PyPI (a C++ build against the system's ICU headers on every organiser's
laptop, several minutes, impossible on Windows without a compiler); pyuca (the Unicode default
table, unmaintained since 2017) has no German tailoring. DIN 5007-1 is four rules, and Python's
own Unicode database (``unicodedata``, maintained with Python) supplies the decomposition of
accented letters. When this was written, the primary order of 30 German, Danish and North
Frisian names (Ärger, Groß, Søren, Ærø, Müller, Mueller, ...) was checked to be identical to ICU
72's German collator (PyICU 2.17) at primary strength.

Danish and Swedish lists (issue 29) keep their own alphabets, whose last letters come after
z: Danish ... x y z æ ø å, with ä sorted as æ, ö as ø, ü as y and a double "aa" as å (Aagaard under
Å, as in Danish telephone books); Swedish ... x y z å ä ö, with æ sorted as ä, ø as ö and ü as y.
Every other accent is ignored as in German. Source: the Danish and Swedish tailorings of the
Unicode Common Locale Data Repository (CLDR ``da`` and ``sv``, standard collation), which ICU
implements; a table of eleven letters does here what PyICU would need a C++ build for.
:func:`person_key` and :func:`initial` take the list's language (``"da"``, ``"sv"``; any other
is German order).

Everything here is pure Python: the same order on SQLite and PostgreSQL, because nothing is
sorted by the database.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Hashable, Iterable
from functools import lru_cache
from typing import TypeVar

from scoring.domain.errors import gettext_noop

K = TypeVar("K", bound=Hashable)  # a person's id

#: Letters that Unicode does not decompose into a base letter plus accent, folded as German
#: lists print them (Danish and Nordic names are common in North Frisia).
_EXTRA = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})


@lru_cache(maxsize=65536)  # pure; a tablet's page tells apart the names of a whole evening's field
def collation_key(text: str) -> str:
    """``text`` folded for DIN 5007-1 comparison: case ignored, accents removed (Ä as A, ö as o),
    ß as ss, runs of white space as one space. Equal keys mean "equal in a German list"."""
    folded = unicodedata.normalize("NFKD", " ".join(text.split()).casefold())
    return "".join(c for c in folded if not unicodedata.combining(c)).translate(_EXTRA)


def split_name(name: str) -> tuple[str, str]:
    """(surname, first names) of a stored name: "Sönke Petersen" -> ("Petersen", "Sönke"),
    "Petersen, Sönke" -> ("Petersen", "Sönke"); a single word is a surname."""
    if "," in name:
        surname, _, first = name.partition(",")
        return surname.strip(), first.strip()
    words = name.split()
    if len(words) < 2:
        return name.strip(), ""
    return words[-1], " ".join(words[:-1])


#: The languages with an alphabet of their own: letter -> its place after z ("{", "|", "}" sort
#: after "z" and before every letter of another script). CLDR's ``da`` and ``sv`` tailorings.
NORDIC_LETTERS: dict[str, dict[str, str]] = {
    "da": {"æ": "{", "ä": "{", "ø": "|", "ö": "|", "ő": "|", "å": "}", "ü": "y", "ű": "y"},
    "sv": {"å": "{", "ä": "|", "æ": "|", "ö": "}", "ø": "}", "ő": "}", "œ": "}", "ü": "y", "ű": "y"},
}
#: The letter a name is listed under, for the places after z (:func:`initial`).
NORDIC_INITIALS: dict[str, dict[str, str]] = {
    "da": {"{": "Æ", "|": "Ø", "}": "Å"},
    "sv": {"{": "Å", "|": "Ä", "}": "Ö"},
}


def order_language(language: str | None) -> str:
    """The alphabet a list in ``language`` is sorted by: ``"da"`` (also ``da-dk``), ``"sv"``, or
    ``"de"`` (DIN 5007-1) for German, English and every other language."""
    code = (language or "").lower().split("-")[0]
    return code if code in NORDIC_LETTERS else "de"


@lru_cache(maxsize=65536)
def sort_text(text: str, language: str | None = "de") -> str:
    """``text`` folded for comparison in a list of ``language`` (see the module's docstring): as
    :func:`collation_key` in German order; in Danish and Swedish order the letters of
    :data:`NORDIC_LETTERS` (and Danish "aa") take their places after z."""
    letters = NORDIC_LETTERS.get(order_language(language))
    if letters is None:
        return collation_key(text)
    folded = unicodedata.normalize("NFC", " ".join(text.split()).casefold())
    if letters is NORDIC_LETTERS["da"]:
        folded = folded.replace("aa", "å")
    return "".join(letters.get(c) or _folded_char(c) for c in folded)


@lru_cache(maxsize=65536)  # pure; lists of 1,000 players sort by it on every page and printout
def person_key(name: str, club: str = "", tie: Hashable = 0, language: str | None = "de") -> tuple:
    """The sort key of a person in every list, page, printout and export (by surname, then first
    name, then club), in the order of ``language``: DIN 5007-1 for German, English and others,
    Danish or Swedish order for ``"da"`` and ``"sv"`` (see the module's docstring).

    Names equal in the list's order (``Ärger``/``Arger``, ``Groß``/``Gross``) are then ordered by
    their exact text (the plain letter first), then by ``tie`` (e.g. the player's id), so the
    order never depends on the database.
    """
    surname, first = split_name(name)
    return (
        sort_text(surname, language),
        sort_text(first, language),
        sort_text(club, language),
        _accents_last(surname),
        _accents_last(first),
        _accents_last(club),
        tie,
    )


@lru_cache(maxsize=4096)
def _folded_char(c: str) -> str:
    """One character folded as :func:`collation_key` folds it (a space for white space)."""
    return collation_key(c) if c.strip() else " "


def _accents_last(text: str) -> tuple:
    """Secondary and tertiary order: a plain letter before an accented one or ß (letter by letter
    of the folded text), then small before capital letters."""
    marks = []
    for c in text:
        plain = _folded_char(c)
        marks += [plain != c.lower()] * len(plain)
    return (tuple(marks), text.swapcase())


def initial(name: str, language: str | None = "de") -> str:
    """The letter a name is listed under in a list of ``language``: its surname's first letter
    (German: Ä under A, Ø under O; Danish: Ø under Ø, Aagaard under Å; Swedish: Ä under Ä), "?"
    for none."""
    key = sort_text(split_name(name)[0], language)
    nordic = NORDIC_INITIALS.get(order_language(language), {})
    if key[:1] in nordic:
        return nordic[key[:1]]
    return key[:1].upper() if key[:1].isalpha() else "#" if key else "?"


def display_names(people: Iterable[tuple[K, str, str]]) -> dict[K, str]:
    """The name to show for each person of one evening: the name alone, or "Name (Club)" where
    two or more people of the evening have the same name (compared as in the list's order, so
    "Jens Carstensen" and "jens  carstensen" collide too).

    Args:
        people: (id, name, club) of everybody in the evening.

    Returns:
        id -> name as shown. People with the same name and club (or no club) keep the bare name
        (nothing tells them apart).
    """
    people = list({pid: (pid, name, club) for pid, name, club in people}.values())
    same_name = Counter(collation_key(name) for _, name, _ in people)
    return {
        pid: f"{name} ({club})" if same_name[collation_key(name)] > 1 and club.strip() else name
        for pid, name, club in people
    }


# --- one player across files and evenings -------------------------------------------------


def normalise_name(text: str) -> str:
    """Return ``text`` in the form names and clubs are stored in.

    Unicode NFC (so a decomposed "ö" equals the composed one), leading and trailing whitespace
    removed and every run of internal whitespace (spaces, tabs, line breaks, no-break spaces)
    replaced by one space. Nothing else is changed: case, punctuation, quotes and markup stay.

    Args:
        text: any string.

    Returns:
        The normalised string, possibly ``""``.

    Raises:
        TypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"normalise_name expects str, got {type(text).__name__}")
    return " ".join(unicodedata.normalize("NFC", text).split())


def match_key(name: str, club: str) -> str:
    """Return the key under which two (name, club) pairs count as the same player.

    Both parts are normalised (:func:`normalise_name`), casefolded (so "Gönke HANSEN" matches
    "gönke hansen"; "ß" matches "ss") and joined as ``"name|club"``; a ``"|"`` or ``"\\"`` inside
    a part is escaped with a backslash so that different pairs never share a key. Used for
    duplicates within a file and to recognise players already in the register.

    Args:
        name: player name, any form.
        club: club or village, ``""`` if none.

    Returns:
        The key string, e.g. ``match_key(" Gönke  Hansen", "Schwesing")`` is
        ``"gönke hansen|schwesing"``.

    Raises:
        TypeError: ``name`` or ``club`` is not a ``str``.
    """

    def part(text: str) -> str:
        folded = unicodedata.normalize("NFC", normalise_name(text).casefold())
        return folded.replace("\\", "\\\\").replace("|", "\\|")

    return f"{part(name)}|{part(club)}"


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


#: The refusal of any other invisible character (:func:`is_invisible`), with ``%(character)s``
#: its code point such as ``200B``.
INVISIBLE_CHARACTER_MESSAGE = gettext_noop(
    "The text contains an invisible character (U+%(character)s), such as a zero-width space or a "
    "soft hyphen; it can make a name look like another. Please retype it."
)


#: Characters outside categories Cf and Cc that show nothing either (Unicode's
#: Default_Ignorable_Code_Point list, DerivedCoreProperties.txt, less its Cf members, plus the
#: blank Braille pattern): the combining grapheme joiner, the Hangul fillers, the Khmer inherent
#: vowels, the Mongolian variation selectors and the variation selectors, as (first, last) code points.
BLANK_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)


def is_invisible(char: str) -> bool:
    """Whether ``char`` shows nothing and is not white space: a format character (Unicode
    category Cf: the soft hyphen U+00AD, zero-width space and joiners U+200B to U+200D, the
    direction marks and controls, the word joiner and invisible operators U+2060 to U+2064, the
    byte order mark U+FEFF, tag characters, ...), the line and paragraph separators U+2028 and
    U+2029 (Zl, Zp: a line break nobody typed, which breaks a line of a list or a script), a
    control character (Cc) other than white space, or one of :data:`BLANK_RANGES` (the Hangul
    filler U+3164, variation selectors, ...).
    With a zero-width space inside, "Hans Hansen" is another name that looks the same."""
    category = unicodedata.category(char)
    if category in ("Cf", "Zl", "Zp") or (category == "Cc" and not char.isspace()):
        return True
    point = ord(char)
    return any(first <= point <= last for first, last in BLANK_RANGES)


def find_invisible_character(text: str) -> str | None:
    """The first invisible character (:func:`is_invisible`) in ``text``, else None."""
    return next((char for char in text if is_invisible(char)), None)


def hidden_character(text: str) -> tuple[str, str, str] | None:
    """Why ``text`` cannot be a name, club or evening name: ``(message, code, code point)`` for
    the first character that changes the writing direction (:data:`BIDI_CONTROL_MESSAGE`,
    ``"bidi_control"``) or else for the first other invisible character
    (:data:`INVISIBLE_CHARACTER_MESSAGE`, ``"invisible_character"``); None for a visible text."""
    bidi = find_bidi_control(text)
    if bidi is not None:
        return BIDI_CONTROL_MESSAGE, "bidi_control", f"{ord(bidi):04X}"
    invisible = find_invisible_character(text)
    if invisible is not None:
        return INVISIBLE_CHARACTER_MESSAGE, "invisible_character", f"{ord(invisible):04X}"
    return None
