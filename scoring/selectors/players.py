"""The player register for pages, and the one German alphabetical order of names."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import get_language, gettext

from scoring.domain.names import collation_key, display_names, match_key, person_key
from scoring.domain.player_import import ParsedFile, ParsedPlayer
from scoring.models import Participant, Player

PARTNERSHIP_PLAYERS = (
    "team_a__player_1",
    "team_a__player_2",
    "team_a__player_3",
    "team_b__player_1",
    "team_b__player_2",
    "team_b__player_3",
)
"""The select_related paths of a seating's players (the third is empty in a team of two)."""


def search_players(query: str = "") -> list[Player]:
    """Players of the register whose name or club contains ``query`` (any case); all when empty;
    in German alphabetical order (:func:`by_name`)."""
    players = Player.objects.all()
    query = query.strip()
    if query:
        players = players.filter(Q(name__icontains=query) | Q(club__icontains=query))
    return by_name(players)


def by_name(players) -> list[Player]:
    """Players in the one German alphabetical order of every list, page and printout: DIN 5007-1,
    by surname, then first name, then club (:func:`scoring.domain.names.person_key`). Sorted in
    Python, so SQLite and PostgreSQL give the same order."""
    return sorted(players, key=lambda p: person_key(p.name, p.club, p.pk, get_language()))


def known_match_keys(players) -> set[str]:
    """Of the parsed players (objects with ``name`` and ``club``), the match keys already in the
    register: the import preview marks those rows as known (1 query)."""
    keys = [match_key(p.name, p.club) for p in players]
    return set(Player.objects.filter(match_key__in=keys).values_list("match_key", flat=True))


@dataclass(frozen=True)
class ImportPreview:
    """What the organiser sees before importing a player list: the notes on the file, the rows
    refused (line, translated message), every good row with whether the register knows it
    already, and how many are new."""

    notes: list[str]
    problems: list[tuple[int, str]]
    rows: list[tuple[ParsedPlayer, bool]]  # (row, already in the register)
    new_count: int


def import_preview(parsed: ParsedFile) -> ImportPreview:
    """The preview of a parsed player list (1 query: :func:`known_match_keys`), messages in the
    active language."""
    known = known_match_keys(parsed.players)
    rows = [(p, match_key(p.name, p.club) in known) for p in parsed.players]
    return ImportPreview(
        notes=[gettext(m) % p if p else gettext(m) for m, p in parsed.notes],
        problems=[
            (problem.line, gettext(problem.message) % problem.params if problem.params else gettext(problem.message))
            for problem in parsed.problems
        ],
        rows=rows,
        new_count=sum(1 for _, is_known in rows if not is_known),
    )


def evening_display_names(evening_id: int) -> dict[int, str]:
    """Player id -> the name shown for that player wherever a name appears alone in this evening:
    "Jens Carstensen (Schwesing)" when another player of the evening is also called Jens
    Carstensen, else the bare name (1 query; :func:`scoring.domain.names.display_names`)."""
    return display_names(
        Participant.objects.filter(evening_id=evening_id).values_list("player_id", "player__name", "player__club")
    )


def alphabetical(text: str) -> str:
    """``text`` folded for searching and comparing as in a German list (Ö with O, ß as ss)."""
    return collation_key(text)
