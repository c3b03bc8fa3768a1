"""The one German alphabetical order (DIN 5007-1, by surname) and names told apart by club."""

from __future__ import annotations

from scoring.domain.names import collation_key, display_names, initial, person_key, split_name


def ordered(*names: str) -> list[str]:
    return sorted(names, key=person_key)


def test_umlauts_sort_as_their_base_letter():
    # "Sönke" is sorted as "Sonke": before "Swantje" (the check-in list had them the other way).
    assert ordered("Swantje", "Sönke") == ["Sönke", "Swantje"]
    assert ordered("Swantje Petersen", "Sönke Petersen") == ["Sönke Petersen", "Swantje Petersen"]
    assert ordered("Übel", "Ubben", "Uwe") == ["Ubben", "Übel", "Uwe"]
    assert ordered("Zander", "Öztürk", "Olsen") == ["Olsen", "Öztürk", "Zander"]


def test_equal_in_the_list_order_plain_letter_first():
    assert collation_key("Ärger") == collation_key("Arger")
    assert collation_key("Groß") == collation_key("Gross") == collation_key("GROSS")
    assert ordered("Ärger", "Arger") == ["Arger", "Ärger"]
    assert ordered("Groß", "Gross") == ["Gross", "Groß"]
    assert ordered("Grosz", "Groß", "Grose") == ["Grose", "Groß", "Grosz"]  # ß as ss, not as s or sz


def test_case_is_ignored():
    assert ordered("bruhn", "Brodersen", "BUSCH") == ["Brodersen", "bruhn", "BUSCH"]


def test_by_surname_then_first_name_then_club():
    names = ["Hauke Petersen", "Anke Thomsen", "Broder Hansen", "Anke Petersen", "Jan de Vries", "Hansen, Zoe"]
    assert ordered(*names) == [
        "Broder Hansen",
        "Hansen, Zoe",
        "Anke Petersen",
        "Hauke Petersen",
        "Anke Thomsen",
        "Jan de Vries",
    ]
    keys = sorted(
        [("Jens Carstensen", "Viöl"), ("Jens Carstensen", "Schwesing"), ("Ilse Carstensen", "Treia")],
        key=lambda p: person_key(*p),
    )
    assert keys == [("Ilse Carstensen", "Treia"), ("Jens Carstensen", "Schwesing"), ("Jens Carstensen", "Viöl")]


def test_split_name_and_initial():
    assert split_name("Sönke Petersen") == ("Petersen", "Sönke")
    assert split_name("Petersen, Sönke") == ("Petersen", "Sönke")
    assert split_name("Hans-Peter  Müller-Lüdenscheidt") == ("Müller-Lüdenscheidt", "Hans-Peter")
    assert split_name("Momme") == ("Momme", "")
    assert initial("Sönke Öztürk") == "O"
    assert initial("Jens Ärger") == "A"
    assert initial("") == "?"


def test_nordic_letters_without_decomposition():
    assert collation_key("Søren Ærø") == "soren aero"
    assert ordered("Sorensen", "Søren") == ["Søren", "Sorensen"]


def test_display_names_show_the_club_only_for_names_that_collide():
    names = display_names(
        [
            (1, "Jens Carstensen", "Schwesing"),
            (2, "Jens Carstensen", "Viöl"),
            (3, "Sönke Petersen", "Treia"),
            (4, "jens  carstensen", ""),
            (5, "Gönke Hansen", "Husum"),
        ]
    )
    assert names == {
        1: "Jens Carstensen (Schwesing)",
        2: "Jens Carstensen (Viöl)",
        3: "Sönke Petersen",
        4: "jens  carstensen",
        5: "Gönke Hansen",
    }
