"""Likely duplicates of the register, without a database."""

from scoring.domain.duplicates import NO_CLUB, SPELLING, LikelyDuplicate, likely_duplicates


def test_same_name_one_without_club_keeps_the_one_with_club():
    found = likely_duplicates([(1, "Jens Carstensen", ""), (2, "Jens Carstensen", "Schwesing")])
    assert found == [LikelyDuplicate(keep=2, remove=1, reason=NO_CLUB)]


def test_names_that_normalise_equal():
    people = [
        (3, "Sönke Petersen", "Treia"),
        (7, "Petersen, Sönke", "Treia"),
        (9, "SOENKE PETERSEN", "Treia"),  # oe is not ö in DIN 5007-1: a different name
        (11, "Jürgen  Lützen", "Husum"),
        (12, "Jurgen Lutzen", "husum"),
    ]
    assert likely_duplicates(people) == [
        LikelyDuplicate(3, 7, SPELLING),
        LikelyDuplicate(11, 12, SPELLING),
    ]


def test_same_name_two_clubs_are_two_people():
    assert likely_duplicates([(1, "Ocke Brodersen", "Treia"), (2, "Ocke Brodersen", "Husum")]) == []


def test_three_entries_of_one_name():
    found = likely_duplicates([(1, "Anke Hansen", ""), (2, "Anke Hansen", "Treia"), (3, "Anke Hansen", "Husum")])
    assert found == [LikelyDuplicate(2, 1, NO_CLUB), LikelyDuplicate(3, 1, NO_CLUB)]
