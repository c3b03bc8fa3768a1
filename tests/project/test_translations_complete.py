"""Every translation complete: for every language of ``settings.LANGUAGES``
but English (the language of the msgids), ``locale/<language>/LC_MESSAGES/django.po`` exists
and has no untranslated message, no fuzzy one, no obsolete one and none defined twice (gettext's
``msgmerge``, run by ``make messages``, stops at a message defined twice; Babel merges them without
a word), and every translation keeps
the placeholders of its msgid exactly (``%(name)s``, ``%s``, ``{0}``, ``{name}``); plural forms too.

Read with Babel's catalog reader (the same reader that compiles the ``.mo`` files,
``bruus_tournament/translations.py``). No database.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings

LOCALE = Path(__file__).resolve().parents[2] / "locale"
#: The languages that need a translation: every one the site offers but the msgids' own.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
#: printf-style (``%(name)s``, ``%s``, ``%d``, ``%%``) and format-style (``{0}``, ``{name}``) placeholders.
PLACEHOLDER = re.compile(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[-#0 +]*\d*(?:\.\d+)?[sdifr%]|\{[\w.]*\}")


def placeholders(text: str) -> Counter:
    return Counter(PLACEHOLDER.findall(text))


def catalog(language: str, locale: Path = LOCALE):
    path = locale / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"{path} is missing: {language} is in settings.LANGUAGES"
    with path.open("rb") as source:
        return read_po(source, locale=language)


def problems(language: str, locale: Path = LOCALE) -> list[str]:
    """What is wrong with the language's catalog, one line per message."""
    found = []
    messages = catalog(language, locale)
    for message in messages:
        if not message.id:
            continue  # the header
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        if message.fuzzy:
            found.append(f"fuzzy: {msgid!r}")
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            found.append(f"untranslated: {msgid!r}")
            continue
        if not message.pluralizable:
            if placeholders(message.string) != placeholders(message.id):
                found.append(f"placeholders differ: {msgid!r} -> {message.string!r}")
            continue
        # Plural forms: the last (every other number) keeps the plural msgid's placeholders; the
        # others may leave one out, as gettext allows ("der beste Abend" for "the best %(n)s evening").
        plural = placeholders(message.id[-1])
        if placeholders(strings[-1]) != plural or any(placeholders(s) - plural for s in strings):
            found.append(f"placeholders differ: {message.id!r} -> {strings!r}")
    found += [f"obsolete: {key!r}" for key in messages.obsolete]
    found += [f"defined twice: {key!r}" for key in defined_twice(locale / language / "LC_MESSAGES" / "django.po")]
    return found


#: An entry's msgctxt (if any) and msgid, each one or more quoted lines (obsolete ``#~`` entries
#: do not start a line with ``msgid``; ``msgid_plural`` is not ``msgid`` and a space).
ENTRY = re.compile(r'^(?:msgctxt ((?:".*"\n)+))?msgid ((?:".*"\n)+)', re.MULTILINE)


def defined_twice(path: Path) -> list[tuple[str, str]]:
    """The (msgctxt, msgid) pairs the file defines more than once, read from its text (Babel's
    reader keeps only one of them)."""

    def joined(lines: str) -> str:
        return "".join(re.findall(r'^"(.*)"$', lines, re.MULTILINE))

    counts = Counter((joined(context), joined(msgid)) for context, msgid in ENTRY.findall(path.read_text("utf-8")))
    return sorted(key for key, count in counts.items() if count > 1 and key != ("", ""))


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(language):
    found = problems(language)
    assert not found, f"{language}: {len(found)} problems\n" + "\n".join(found[:50])


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_the_same_messages_as_german(language):
    """A message missing from a catalog shows in English: every catalog holds the German one's
    msgids (German is kept complete by ``make messages``)."""
    german = {message.id for message in catalog("de") if message.id}
    theirs = {message.id for message in catalog(language) if message.id}
    assert not german - theirs, f"{language} lacks {sorted(map(str, german - theirs))[:20]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_plural_forms_are_the_languages(language):
    """Danish, Swedish and German: one form for 1, another for every other number."""
    messages = catalog(language)
    assert (messages.num_plurals, messages.plural_expr) == (2, "(n != 1)")
    assert messages.locale.language == language


BROKEN = r"""msgid ""
msgstr ""
"Language: da\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "Deal %(n)s"
msgstr "Spil %(nummer)s"

msgid "Table"
msgstr ""

#, fuzzy
msgid "Round"
msgstr "Runde"

msgid "one deal"
msgid_plural "%(n)s deals"
msgstr[0] "et spil"
msgstr[1] "mange spil"

msgid "Fine %(n)s"
msgstr "Fint %(n)s"

msgid "Fine %(n)s"
msgstr "Fint %(n)s"

msgctxt "another meaning"
msgid "Fine %(n)s"
msgstr "Bøde %(n)s"

#~ msgid "Gone"
#~ msgstr "Væk"
"""


def test_the_check_finds_what_it_looks_for(tmp_path):
    assert placeholders("%(name)s hat %(count)d Spiele, {0} und 5 %%") == Counter(
        {"%(name)s": 1, "%(count)d": 1, "{0}": 1, "%%": 1}
    )
    folder = tmp_path / "da" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_text(BROKEN, encoding="utf-8")
    found = problems("da", tmp_path)
    assert [line.split(":")[0] for line in found] == [
        "placeholders differ",  # %(nummer)s for %(n)s
        "untranslated",  # Table
        "fuzzy",  # Round
        "placeholders differ",  # the plural form without %(n)s
        "obsolete",  # Gone
        "defined twice",  # Fine %(n)s (the one with a context is another message)
    ], found
