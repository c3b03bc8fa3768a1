"""Likely duplicate entries of the player register: pairs that are probably the
same person, for the hint "same person?" that leads to the merge. Pure Python.

Two entries are flagged when their names are equal once normalised (DIN 5007-1 folding: case,
accents, ß and white space ignored; "Petersen, Sönke" read as "Sönke Petersen") and

- one has no club and the other has one (``NO_CLUB``: entered once at the door, once from a list), or
- both have the same club, or both none (``SPELLING``: the same name written differently, which the
  register's own key, exact up to case, keeps apart).

The same name with two different clubs is not flagged: two "Ocke Brodersen" of Treia and Husum are
two people (the lists tell them apart by club).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.domain.names import collation_key, split_name

NO_CLUB = "no_club"
SPELLING = "spelling"


@dataclass(frozen=True)
class LikelyDuplicate:
    """Two register entries that are probably one person. ``keep``: the one to keep in a merge
    (the one with a club, else the older entry, i.e. the smaller id); ``remove``: the other.
    ``reason``: :data:`NO_CLUB` or :data:`SPELLING`."""

    keep: int
    remove: int
    reason: str


def name_key(name: str) -> str:
    """The name folded for comparison: first names, then surname, DIN 5007-1 folded."""
    surname, first = split_name(name)
    return collation_key(f"{first} {surname}".strip())


def likely_duplicates(people: Iterable[tuple[int, str, str]]) -> list[LikelyDuplicate]:
    """The likely duplicates among ``people`` (``(id, name, club)``), each pair once, in the
    order of the first entry's id. A group of equal names gives every flagged pair within it."""
    groups: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    for pk, name, club in people:
        groups[name_key(name)].append((pk, name, club))
    found = []
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort()
        for index, (a_pk, _a_name, a_club) in enumerate(group):
            for b_pk, _b_name, b_club in group[index + 1 :]:
                a_key, b_key = collation_key(a_club), collation_key(b_club)
                if bool(a_key) != bool(b_key):
                    keep, remove = (a_pk, b_pk) if a_key else (b_pk, a_pk)
                    found.append(LikelyDuplicate(keep, remove, NO_CLUB))
                elif a_key == b_key:
                    found.append(LikelyDuplicate(a_pk, b_pk, SPELLING))
    return sorted(found, key=lambda d: (min(d.keep, d.remove), max(d.keep, d.remove)))
