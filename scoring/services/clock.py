"""The round clock: its lengths and the organiser's buttons (start, pause, resume, extend,
restart, break, off), and settling it when its time is up (with the round's lock, when asked).

Each function is one transaction that locks the evening's row first (``select_for_update``), then
checks the login's permission and the clock's state, so two organisers pressing at once change
the clock once: the second finds the state changed and gets a message. The forms also send the
clock's version they showed (``seen``): a press on a clock someone else changed meanwhile is
refused (``clock_changed``) instead of, say, adding five minutes twice.

The pure rules are :mod:`scoring.domain.clock`; the state is stored on
:class:`scoring.models.Evening` (``clock_*``), which every screen's page already reads.

**The lock at zero does not need a browser.** Nothing runs in the background: the first request
that reads the clock after its end time (any seat page, tablet page or poll, a deal sent from a
tablet, the live overview, the clock's own poll) calls :func:`settle_round_clock` (through
:func:`settle_due_clock`, which first checks in memory, without a query, whether it is due).
That is the one write a GET may cause, on purpose: it is what the organiser's lock at zero would
have written, done by whichever request comes first. Settling is idempotent: it locks the
evening's row, looks again and does nothing when another request settled it first. So a deal
sent after the end time from a tablet that was offline is refused by the lock exactly as if the
organiser had locked the round at zero.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from scoring.domain import clock
from scoring.domain.clock import ClockError, ClockState
from scoring.domain.errors import gettext_noop
from scoring.hall.roles import RUN_PERM
from scoring.models import Evening, Round, Seating
from scoring.selectors.clock import round_done
from scoring.selectors.evenings import evening_over
from scoring.services.base import ServiceError, evening_changed
from scoring.services.evenings import set_round_locked

_FIELDS = ["clock_kind", "clock_status", "clock_session", "clock_round", "clock_ends_at", "clock_remaining"]


def _evening(evening_id: int, user, seen: int | None) -> Evening:
    """The evening's row, locked for the transaction; its clock settled; the login and the
    version the form showed checked."""
    if user is not None and not user.has_perm(RUN_PERM):
        raise ServiceError(
            gettext_noop("Only the Turnierleitung can set the round clock."),
            code="permission",
        )
    evening = Evening.objects.select_for_update().filter(pk=evening_id).first()
    if evening is None:
        raise ServiceError(gettext_noop("This evening does not exist (any more)."), code="no_evening")
    if seen is not None and seen != evening.clock_version:
        raise ServiceError(
            gettext_noop(
                "Someone changed the round clock a moment ago (another organiser?). Please look at it "
                "again and press once more if it is still needed."
            ),
            code="clock_changed",
        )
    _settle(evening, timezone.now())
    return evening


def _store(evening: Evening, state: ClockState, *, counted: bool = True) -> Evening:
    """Save the clock's state; ``counted``: a change of the organiser's (``clock_version`` + 1,
    which the forms' ``seen`` is checked against). Settling at zero is not counted: the screens
    show "Round over" at that time by themselves, and a press made meanwhile is not refused."""
    evening.clock_kind = state.kind
    evening.clock_status = state.status
    evening.clock_session = state.session
    evening.clock_round = state.round
    evening.clock_ends_at = state.ends_at
    evening.clock_remaining = state.remaining
    if counted:
        evening.clock_version += 1
    evening.save(update_fields=[*_FIELDS, "clock_version"])
    evening_changed(evening.pk)
    return evening


def _round(evening: Evening, session: int | None, number: int | None, pk: int | None = None) -> Round | None:
    rounds = Round.objects.select_related("session").filter(session__evening=evening)
    if pk is not None:
        return rounds.filter(pk=pk).first()
    if session is None or number is None:
        return None
    return rounds.filter(session__number=session, number=number).first()


def _check_playable(round_: Round | None) -> Round:
    """The round may get a running clock: it exists, is not locked, its session is not closed,
    and not every table has confirmed it."""
    if round_ is None:
        raise ServiceError(gettext_noop("This round is not part of this evening."), code="no_round")
    values = {"session": round_.session.number, "round": round_.number}
    if round_.session.closed:
        raise ServiceError(
            gettext_noop("Session %(session)s is closed, so no clock can run for its rounds."),
            code="session_closed",
            **values,
        )
    if round_.locked:
        raise ServiceError(
            gettext_noop(
                "Session %(session)s, round %(round)s is locked. Unlock it first (live overview), then start its clock."
            ),
            code="round_locked",
            **values,
        )
    if not Seating.objects.filter(round=round_, confirmed_at__isnull=True).exists():
        raise ServiceError(
            gettext_noop(
                "Session %(session)s, round %(round)s is finished: every table has confirmed it. Start the "
                "next round's clock instead."
            ),
            code="round_finished",
            **values,
        )
    return round_


def _check_clock_round(evening: Evening, state: ClockState) -> None:
    if state.kind == clock.ROUND:
        _check_playable(_round(evening, state.session, state.round))


def _run(action):
    """Turn a :class:`ClockError` of the domain into the service's error (same msgid)."""
    try:
        return action()
    except ClockError as error:
        raise ServiceError(error.message, code=error.code, **error.params) from error


@transaction.atomic
def set_clock_lengths(*, evening_id: int, round_minutes, break_minutes, locks_round: bool, user=None) -> Evening:
    """Set the evening's round length and break length (whole minutes, 1 to 180) and whether a
    round locks itself when its clock reaches zero. A clock that runs keeps its end time (the
    new length counts from the next start or restart).

    Raises ServiceError: not the Turnierleitung, a length that is not a whole number or outside
    1..180 minutes (``minutes_invalid``, ``minutes_range``)."""
    rounds = _run(lambda: clock.check_minutes(round_minutes, what=clock.ROUND))
    breaks = _run(lambda: clock.check_minutes(break_minutes, what=clock.BREAK))
    evening = _evening(evening_id, user, None)
    evening.round_minutes, evening.break_minutes, evening.clock_locks_round = rounds, breaks, bool(locks_round)
    evening.save(update_fields=["round_minutes", "break_minutes", "clock_locks_round"])
    evening_changed(evening.pk)
    return evening


@transaction.atomic
def start_round_clock(*, evening_id: int, round_id: int, user=None, seen: int | None = None) -> Evening:
    """Start the clock of a round with the evening's round length (``Evening.round_minutes``).

    Raises ServiceError: not the Turnierleitung, the clock changed meanwhile (``seen``), a round
    of another evening, locked, of a closed session or confirmed at every table, or this round's
    clock already running (``already_running``: a second organiser's press)."""
    evening = _evening(evening_id, user, seen)
    round_ = _check_playable(_round(evening, None, None, pk=round_id))
    now = timezone.now()
    state = _run(
        lambda: clock.start(
            evening.clock_state, now, evening.round_minutes, session=round_.session.number, round=round_.number
        )
    )
    return _store(evening, state)


@transaction.atomic
def start_break_clock(*, evening_id: int, user=None, seen: int | None = None) -> Evening:
    """Start the break between two rounds with the evening's break length.

    Raises ServiceError: not the Turnierleitung, the clock changed meanwhile, a break running,
    the evening over (``evening_over``: no clock after the last round)."""
    evening = _evening(evening_id, user, seen)
    if evening_over(evening):
        raise ServiceError(
            gettext_noop("The evening is over: every round is confirmed, so no clock runs any more."),
            code="evening_over",
        )
    state = _run(lambda: clock.start_break(evening.clock_state, timezone.now(), evening.break_minutes))
    return _store(evening, state)


@transaction.atomic
def pause_round_clock(*, evening_id: int, user=None, seen: int | None = None) -> Evening:
    """Pause the running clock; it keeps the seconds it had left.

    Raises ServiceError: not the Turnierleitung, changed meanwhile, not running, time up."""
    evening = _evening(evening_id, user, seen)
    return _store(evening, _run(lambda: clock.pause(evening.clock_state, timezone.now())))


@transaction.atomic
def resume_round_clock(*, evening_id: int, user=None, seen: int | None = None) -> Evening:
    """Run the paused clock on.

    Raises ServiceError: not the Turnierleitung, changed meanwhile, not paused, the round locked,
    closed or finished meanwhile."""
    evening = _evening(evening_id, user, seen)
    state = evening.clock_state
    if state.status == clock.PAUSED:
        _check_clock_round(evening, state)
    return _store(evening, _run(lambda: clock.resume(state, timezone.now())))


@transaction.atomic
def extend_round_clock(*, evening_id: int, minutes, user=None, seen: int | None = None) -> Evening:
    """Add 1 to 60 minutes to the clock (running, paused, or run out: then from now).

    Raises ServiceError: not the Turnierleitung, changed meanwhile, minutes outside 1..60, no
    clock, more than 180 minutes left, the round locked (e.g. at zero), closed or finished."""
    added = _run(lambda: clock.check_extension(minutes))
    evening = _evening(evening_id, user, seen)
    state = evening.clock_state
    if state.on:
        _check_clock_round(evening, state)
    return _store(evening, _run(lambda: clock.extend(state, timezone.now(), added)))


@transaction.atomic
def restart_round_clock(*, evening_id: int, user=None, seen: int | None = None) -> Evening:
    """The clock's round (or break) from the start again, with the evening's length.

    Raises ServiceError: not the Turnierleitung, changed meanwhile, no clock, the round locked,
    closed or finished."""
    evening = _evening(evening_id, user, seen)
    state = evening.clock_state
    if state.on:
        _check_clock_round(evening, state)
    minutes = evening.break_minutes if state.kind == clock.BREAK else evening.round_minutes
    return _store(evening, _run(lambda: clock.restart(state, timezone.now(), minutes)))


@transaction.atomic
def stop_round_clock(*, evening_id: int, user=None, seen: int | None = None) -> Evening:
    """Switch the clock off: the screens show none.

    Raises ServiceError: not the Turnierleitung, changed meanwhile, no clock on."""
    evening = _evening(evening_id, user, seen)
    if not evening.clock_state.on:
        raise ServiceError(gettext_noop("No clock is running. Please start it first."), code="clock_off")
    return _store(evening, ClockState())


def stop_outlived_clock(evening_id: int) -> bool:
    """Switch the evening's clock off when it has outlived what it timed
    (:func:`scoring.domain.clock.outlived`): a round's clock once every table has confirmed its
    round or its session is closed, any clock once the evening is over. Called inside the
    transaction of every write that can end a round, a session or the evening (a confirmation,
    a draw, closing a session), so no screen shows a clock counting on for a confirmed round.

    Locks the evening's row; 1 query while no clock is on, up to 4 otherwise. Returns True when
    it switched the clock off (``clock_version`` + 1: an organiser's form that still shows the
    clock is told it changed)."""
    evening = Evening.objects.select_for_update().filter(pk=evening_id).first()
    if evening is None or not evening.clock_state.on:
        return False
    state = evening.clock_state
    over = evening_over(evening)
    done = state.kind == clock.ROUND and round_done(evening, state.session, state.round)
    if not clock.outlived(state, round_done=done, evening_over=over):
        return False
    _store(evening, ClockState())
    return True


def settle_due_clock(evening: Evening) -> Evening:
    """The evening brought up to date before a page or poll reads its clock: when its time is up
    (checked in memory, no query) the clock is settled (:func:`settle_round_clock`, one write
    transaction, once per round) and the row read again; when nothing is due, the same object,
    no query. Called by the views on GET as well: every reader would otherwise show a clock at
    zero with its round still open."""
    if evening.clock_state.due(timezone.now()):
        settle_round_clock(evening_id=evening.pk)
        evening.refresh_from_db()
    return evening


def settle_round_clock(*, evening_id: int, now: datetime | None = None) -> bool:
    """Settle the clock whose time is up (running, end time reached): it becomes *ended*, and
    when ``Evening.clock_locks_round`` is set its round is locked as the organiser's lock does
    (:func:`scoring.services.evenings.set_round_locked`: no more deals from the tables).

    Idempotent and safe to call from every request at once: the evening's row is locked and the
    state looked at again; returns True only for the call that settled it. Callers check
    ``evening.clock_state.due(now)`` first (no query) and call this only then.
    """
    with transaction.atomic():
        evening = Evening.objects.select_for_update().filter(pk=evening_id).first()
        return evening is not None and _settle(evening, now or timezone.now())


def _settle(evening: Evening, now: datetime) -> bool:
    """Within a transaction holding the evening's row: settle its clock if due (see
    :func:`settle_round_clock`); True when it did."""
    state = evening.clock_state
    if not state.due(now):
        return False
    if state.kind == clock.ROUND and evening.clock_locks_round:
        round_ = _round(evening, state.session, state.round)
        if round_ is not None and not round_.locked:
            set_round_locked(round_id=round_.pk, locked=True, by_clock=True)
    _store(evening, clock.settled(state, now), counted=False)
    return True
