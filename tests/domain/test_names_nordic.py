"""Danish and Swedish alphabetical order: their last letters after z, the German order
(DIN 5007-1) unchanged for German and every other language. Pure Python, no database."""

from __future__ import annotations

import pytest

from scoring.domain.names import initial, order_language, person_key, sort_text

ROSTER = [
    "Ib Ahl",
    "Anna Aagaard",
    "Karl Åberg",
    "Søren Ærø",
    "Bo Ärlig",
    "Eva Öberg",
    "Per Ørsted",
    "Ole Zink",
    "Ulla Yde",
    "Uwe Übel",
    "Jens Olsen",
]


def surnames(language: str) -> list[str]:
    return [name.split()[-1] for name in sorted(ROSTER, key=lambda n: person_key(n, language=language))]


def test_danish_order_ends_with_ae_oe_aa():
    """Æ Ø Å after Z; Ä as Æ, Ö as Ø, Ü as Y; a double "aa" as Å (Aagaard after Åberg)."""
    assert surnames("da") == [
        "Ahl",
        "Olsen",
        "Übel",
        "Yde",
        "Zink",
        "Ärlig",
        "Ærø",
        "Öberg",
        "Ørsted",
        "Åberg",
        "Aagaard",
    ]


def test_swedish_order_ends_with_aa_ae_oe():
    """Å Ä Ö after Z; Æ as Ä, Ø as Ö, Ü as Y; "aa" is two a's."""
    assert surnames("sv") == [
        "Aagaard",
        "Ahl",
        "Olsen",
        "Übel",
        "Yde",
        "Zink",
        "Åberg",
        "Ärlig",
        "Ærø",
        "Öberg",
        "Ørsted",
    ]


@pytest.mark.parametrize("language", ["de", "en", "fr", None, ""])
def test_german_order_stays_for_german_and_every_other_language(language):
    """DIN 5007-1: Ä as A, Ö and Ø as O, Ü as U."""
    assert surnames(language) == [
        "Aagaard",
        "Åberg",
        "Ærø",
        "Ahl",
        "Ärlig",
        "Öberg",
        "Olsen",
        "Ørsted",
        "Übel",
        "Yde",
        "Zink",
    ]
    assert person_key("Sönke Petersen", language=language) == person_key("Sönke Petersen")


def test_a_region_is_its_language():
    assert [order_language(code) for code in ("da-DK", "sv-FI", "DA", "de-AT", "nb")] == ["da", "sv", "da", "de", "de"]
    assert surnames("da-dk") == surnames("da")


def test_case_and_spaces_are_ignored_and_ties_fall_to_the_exact_text():
    assert sort_text("  ØRSTED ", "da") == sort_text("ørsted", "da")
    assert sort_text("Aagaard", "da") == sort_text("Ågaard", "da")
    # Equal in the list's order: still a fixed order (the plain text first, then the tie).
    assert person_key("Ole Aagaard", language="da") < person_key("Ole Ågaard", language="da")
    assert person_key("Ole Ågaard", language="da", tie=1) < person_key("Ole Ågaard", language="da", tie=2)


def test_first_name_then_club_decide_between_equal_surnames():
    danish = sorted(
        [("Åse Holm", "Varde"), ("Ane Holm", "Varde"), ("Åse Holm", "Lem"), ("Øjvind Holm", "Lem")],
        key=lambda p: person_key(*p, language="da"),
    )
    assert danish == [("Ane Holm", "Varde"), ("Øjvind Holm", "Lem"), ("Åse Holm", "Lem"), ("Åse Holm", "Varde")]


def test_the_letter_a_name_is_listed_under():
    names = ["Per Ørsted", "Anna Aagaard", "Bo Ärlig", "Eva Öberg", "Karl Åberg", "Ole Zink", "7"]
    assert [initial(name, "da") for name in names] == ["Ø", "Å", "Æ", "Ø", "Å", "Z", "#"]
    assert [initial(name, "sv") for name in names] == ["Ö", "A", "Ä", "Ö", "Å", "Z", "#"]
    assert [initial(name) for name in names] == ["O", "A", "A", "O", "A", "Z", "#"]
