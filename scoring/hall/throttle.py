"""Attempt counters shared by every worker process: the guessing limits of table links and table
codes, counted per device (``scoring.hall.client_address``).

Counters live in the database (model :class:`~scoring.models.AttemptCounter`), not in a process's
memory, so a limit holds across all gunicorn workers and survives a restart. A counter belongs to
a *key* (a short string such as ``"table-link:192.168.1.23"``) and is read with its ``limit`` and
``window`` (seconds).

**The count decays with time** (a leaky bucket): ``limit`` failures may come at once, then one
counted failure is forgotten every ``window / limit`` seconds. So

- in any ``t`` seconds a key gets at most ``limit + t * limit / window`` failures counted (at most
  ``limit`` per ``window`` in the long run; the help page's arithmetic);
- a key at its limit gets its next try ``window / limit`` seconds later, not only once a whole
  window is over;
- nothing but time, and :func:`reset` (the organiser's "Unlock"), lowers the count: a success
  never resets it. (A reset on success let a device that knows one right code, its own table's,
  guess on without end.)

Stored: ``count``, the failures still counted, and ``window_start``, the moment the decay clock
started: the next failure is forgotten at ``window_start + window / limit``.

Every change is one transaction that reads the row locked (``SELECT ... FOR UPDATE`` on
PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` takes the write lock), so tries sent at the same moment
from several workers are all counted and exactly ``limit`` of them pass (:func:`attempt`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone


@dataclass(frozen=True)
class CounterState:
    """A counter as read at one moment: ``count`` failures still counted; ``next_forgotten``, when
    the next of them is forgotten (None when ``count`` is 0)."""

    key: str
    count: int
    next_forgotten: datetime | None


def _step(limit: int, window: int) -> timedelta:
    return timedelta(seconds=window / max(limit, 1))


def _decayed(count: int, since: datetime, now: datetime, step: timedelta) -> tuple[int, datetime]:
    """``count`` and its clock ``since`` as they stand at ``now``: one failure forgotten per
    ``step`` since ``since``; the clock moves on by the steps taken (so partial progress is kept)."""
    if count <= 0:
        return 0, now
    steps = int((now - since) / step)
    if steps >= count:
        return 0, now
    return count - steps, since + steps * step


def state(key: str, limit: int, window: int) -> CounterState:
    """The counter of ``key`` now (1 query, no change)."""
    from scoring.models import AttemptCounter

    row = AttemptCounter.objects.filter(key=key).first()
    if row is None:
        return CounterState(key, 0, None)
    return _state(row.key, row.count, row.window_start, timezone.now(), _step(limit, window))


def _state(key: str, count: int, since: datetime, now: datetime, step: timedelta) -> CounterState:
    count, since = _decayed(count, since, now, step)
    return CounterState(key, count, since + step if count else None)


def failures(key: str, limit: int, window: int) -> int:
    """Failures of ``key`` still counted (1 query)."""
    return state(key, limit, window).count


def _change(key: str, limit: int, window: int, change: Callable[[int], int]) -> tuple[int, int]:
    """Set the decayed count of ``key`` to ``change(count)`` in one transaction; returns the count
    before and after. A row that reaches 0 is deleted, an unchanged one not written; a missing one
    is inserted (a concurrent insert is retried as an update)."""
    from scoring.models import AttemptCounter

    step = _step(limit, window)
    for _attempt in range(3):
        try:
            with transaction.atomic():
                now = timezone.now()
                row = AttemptCounter.objects.select_for_update().filter(key=key).first()
                before, since = _decayed(row.count, row.window_start, now, step) if row else (0, now)
                after = max(change(before), 0)
                if row is not None and after == 0:
                    row.delete()
                elif row is not None and after != before:
                    AttemptCounter.objects.filter(pk=row.pk).update(count=after, window_start=since)
                elif row is None and after:
                    AttemptCounter.objects.create(key=key, count=after, window_start=since)
                # Unchanged: the stored count decays to the same one, nothing to write.
                return before, after
        except IntegrityError:
            continue  # another process inserted the row first: count again, now as an update
    raise RuntimeError(f"the attempt counter {key!r} could not be written")  # pragma: no cover


def attempt(key: str, limit: int, window: int) -> int | None:
    """Count one try of ``key`` unless it has reached ``limit``: the tries counted now, this one
    included (1 to ``limit``), or None when refused (nothing counted: a refused try does not
    lengthen the wait). Atomic across processes: of tries sent at the same moment, exactly the
    free ones are counted."""
    before, after = _change(key, limit, window, lambda count: count + 1 if count < limit else count)
    return after if after > before else None


def forgive(key: str, limit: int, window: int) -> None:
    """Take back one counted try of ``key``: for a limit that counts every try before checking it
    (so that tries sent at the same moment cannot slip past it) and then finds it right
    (``scoring.views.tablets``). Earlier failures stay counted."""
    _change(key, limit, window, lambda count: count - 1)


def reset(key: str) -> None:
    """Forget every failure of ``key`` (the organiser's "Unlock")."""
    from scoring.models import AttemptCounter

    AttemptCounter.objects.filter(key=key).delete()


def blocked(prefix: str, limit: int, window: int) -> list[CounterState]:
    """Every counter whose key starts with ``prefix`` and that is at ``limit`` now (for the
    organiser's list of stopped devices), the one free soonest first (1 query)."""
    from scoring.models import AttemptCounter

    now, step = timezone.now(), _step(limit, window)
    rows = AttemptCounter.objects.filter(key__startswith=prefix, count__gte=limit)
    states = [_state(row.key, row.count, row.window_start, now, step) for row in rows]
    return sorted((s for s in states if s.count >= limit), key=lambda s: (s.next_forgotten, s.key))
