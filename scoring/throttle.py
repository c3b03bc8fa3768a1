"""Attempt counters shared by every worker process: the guessing limits of table links and table
codes.

Counters live in the database (model :class:`~scoring.models.AttemptCounter`), not in a process's
memory, so the limit holds across all gunicorn workers and survives a restart. Every change is one
atomic ``UPDATE ... SET count = count + 1`` (or an insert), so concurrent wrong tries are all
counted.

A counter belongs to a *key* (a short string such as ``"link:192.168.1.23"`` or
``"table-code:7:12"``) and a fixed *window* in seconds that starts with its first failure; after
the window has passed the counter starts again from zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone


@dataclass(frozen=True)
class CounterState:
    """A counter as read: ``count`` failures since ``window_start`` (an aware datetime)."""

    key: str
    count: int
    window_start: datetime


def _expired_before(window: int) -> datetime:
    return timezone.now() - timedelta(seconds=window)


def failures(key: str, window: int) -> int:
    """Failures counted for ``key`` in its current window (0 when none or expired).

    ``window`` is in seconds.
    """
    from scoring.models import AttemptCounter

    row = AttemptCounter.objects.filter(key=key, window_start__gt=_expired_before(window)).first()
    return row.count if row else 0


def is_blocked(key: str, limit: int, window: int) -> bool:
    """True when ``key`` has ``limit`` or more failures in its current window of ``window`` s."""
    return failures(key, window) >= limit


def record_failure(key: str, window: int) -> int:
    """Count one failure for ``key`` and return the count in the current window (at least 1).

    Atomic across processes: an expired window is restarted, otherwise the count is raised with
    one ``UPDATE``; a missing row is inserted (a concurrent insert is retried as an update).
    """
    from scoring.models import AttemptCounter

    now = timezone.now()
    for _attempt in range(3):
        with transaction.atomic():
            restarted = AttemptCounter.objects.filter(key=key, window_start__lte=_expired_before(window)).update(
                count=1, window_start=now
            )
            if not restarted:
                updated = AttemptCounter.objects.filter(key=key).update(count=F("count") + 1)
                if not updated:
                    try:
                        with transaction.atomic():
                            AttemptCounter.objects.create(key=key, count=1, window_start=now)
                    except IntegrityError:
                        continue  # another process inserted it first: count again as an update
            return AttemptCounter.objects.get(key=key).count
    return AttemptCounter.objects.get(key=key).count  # pragma: no cover (three lost races)


def reset(key: str) -> None:
    """Forget every failure of ``key`` (after a success, or when the organiser unlocks)."""
    from scoring.models import AttemptCounter

    AttemptCounter.objects.filter(key=key).delete()


def blocked(prefix: str, limit: int, window: int) -> list[CounterState]:
    """Every counter whose key starts with ``prefix`` and that has reached ``limit`` in its
    current window (for the organiser's list of locked tables), oldest first."""
    from scoring.models import AttemptCounter

    rows = AttemptCounter.objects.filter(
        key__startswith=prefix, count__gte=limit, window_start__gt=_expired_before(window)
    ).order_by("window_start")
    return [CounterState(row.key, row.count, row.window_start) for row in rows]


def forgive(key: str) -> None:
    """Take back one counted attempt of ``key``: for limits that count every attempt before
    checking it (so that concurrent attempts cannot slip past the limit) and forgive the right
    ones (``scoring.views.tablets``)."""
    from scoring.models import AttemptCounter

    AttemptCounter.objects.filter(key=key, count__gt=0).update(count=F("count") - 1)
