"""Which evenings the table codes typed at ``/tablet/`` belong to, and the table a code opens.

An evening is **being played** when

- it has tables (session 1 is drawn: tables are made by the first draw),
- it is not finished: a finished evening has all its ``sessions_count`` sessions drawn and every
  round of them confirmed or its session closed for the tables (nothing is left to do at a
  table), and
- it is current: its date is today or yesterday (an evening runs past midnight; local time,
  ``TIME_ZONE``), or one of its sessions was drawn within the last :data:`RECENT_DRAW` (an evening
  created with a wrong date still works on the night it is played), and
- it is not archived: an archived evening is put away, its table cards open nothing.

A table code opens only a table of an evening being played: old table cards open nothing, and the
chance of guessing a code grows with the number of these evenings, not with every evening ever
played (the help page's arithmetic uses :func:`evenings_being_played_count`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from scoring.models import Evening, Seating, Session, Table

#: A session drawn this recently makes its evening current, whatever the evening's date.
RECENT_DRAW = timedelta(hours=12)


def evenings_being_played(now: datetime | None = None) -> QuerySet[Evening]:
    """The evenings being played at ``now`` (default: now), as one query (see the module docstring)."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    sessions = Session.objects.filter(evening=OuterRef("pk"))
    open_rounds = Seating.objects.filter(
        round__session__evening=OuterRef("pk"), confirmed_at__isnull=True, round__session__closed=False
    )
    current = Q(date__gte=today - timedelta(days=1), date__lte=today) | Exists(
        sessions.filter(drawn_at__gte=now - RECENT_DRAW)
    )
    not_finished = ~Exists(sessions.filter(number__gte=OuterRef("sessions_count"))) | Exists(open_rounds)
    return Evening.objects.filter(
        Exists(Table.objects.filter(evening=OuterRef("pk"))), current, not_finished, archived_at__isnull=True
    )


def evenings_being_played_count() -> int:
    """How many evenings are being played now (1 query)."""
    return evenings_being_played().count()


def table_for_code(number: int, code: str) -> Table | None:
    """The table ``number`` whose code is ``code`` (as stored, :func:`scoring.hall.table_codes.normalise`)
    in an evening being played, with its evening; None when there is none (1 query). Two evenings
    being played whose table ``number`` has the same code: the later evening's."""
    return (
        Table.objects.select_related("evening")
        .filter(number=number, code=code, evening__in=evenings_being_played())
        .order_by("-evening__date", "-evening_id")
        .first()
    )
