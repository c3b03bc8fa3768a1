"""What the projector shows besides the ranking: the seating of the next round."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max

from scoring.models import Evening
from scoring.selectors.history import evening_history
from scoring.selectors.players import evening_display_names


@dataclass(frozen=True)
class SeatingTable:
    """One table of the round shown: its number and the two teams' names (two, or three each)."""

    number: int
    team_a: tuple[str, ...]
    team_b: tuple[str, ...]


@dataclass(frozen=True)
class ProjectorSeating:
    """The round the hall plays next: session and round numbers, its tables in table order and
    the names of everybody sitting it out (the sit-out partnership and the session's sit-out
    players). ``round`` is None when every round of the latest session is confirmed (the
    seating of the next session follows its draw)."""

    session: int
    round: int | None
    tables: tuple[SeatingTable, ...] = ()
    sitting_out: tuple[str, ...] = ()


def projector_seating(evening: Evening) -> ProjectorSeating | None:
    """The seating the projector shows (6 queries, whatever the number of players): the first
    round of the latest session drawn that is not confirmed at every table; during a round
    that is the round being played, once its last table confirms, the next one. None before
    the first draw. Names as everywhere in the evening (:func:`evening_display_names`)."""
    latest = evening.sessions.aggregate(number=Max("number"))["number"]
    if latest is None:
        return None
    history = evening_history(evening, sessions=(latest,))
    shown = next((r for r in history.rounds if not r.confirmed), None)
    if shown is None:
        return ProjectorSeating(session=latest, round=None)
    names = evening_display_names(evening.pk)
    tables = tuple(
        SeatingTable(t.table, tuple(names[p] for p in t.team_a), tuple(names[p] for p in t.team_b))
        for t in shown.tables
    )
    sitters = tuple(names[p] for group in shown.sitting_out for p in group if p not in shown.seated)
    return ProjectorSeating(session=latest, round=shown.number, tables=tables, sitting_out=sitters)
